// Types of glob-pattern.cjs, for the host code that matches globs as the helper does.
export function expandBraces(pattern: string): string[];
export function globRegex(glob: string, opts?: { globstar?: boolean }): RegExp;
