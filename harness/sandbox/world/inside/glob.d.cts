// Types of glob.cjs's pure parts, for the host's code that matches globs as the helper does.
export function expandBraces(pattern: string): string[];
export function globRegex(glob: string, opts?: { globstar?: boolean }): RegExp;
