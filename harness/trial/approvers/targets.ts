/**
 * The targets a question names, as a reader of the question sees them: the gate's structured
 * targets when it listed any, else the path-like words of its title, command and explanation,
 * resolved against the agent's working directory and the user's home. Pure.
 */
import { posix } from "node:path";
import type { UiQuestion } from "./question.ts";

const PATH_WORD = /^(~|\.{1,2})?(\/[^\s]*|[\w.@+-]+\/[^\s]*)$|^~$|^\.[\w-][^\s/]*$/;

/** Words of `text` with quotes, brackets and trailing punctuation stripped. */
export function words(text: string): string[] {
  return (
    text
      .split(/\s+/)
      .map((w) => w.replace(/^["'`(<[]+|["'`)>\],;:!?]+$/g, ""))
      // a sentence's full stop is not part of the path ("in ~/.cache/pip." names ~/.cache/pip)
      .map((w) => (/[^./]\.$/.test(w) ? w.slice(0, -1).replace(/["'`)>\],;:!?]+$/, "") : w))
      .filter((w) => w.length > 0)
  );
}

/** Path-like words of a text: contain a slash, or start with `~`, or are dotfiles. */
export function pathLikeWords(text: string): string[] {
  return words(text).filter((w) => !w.startsWith("-") && !/^[a-z][\w+.-]*:\/\//i.test(w) && PATH_WORD.test(w));
}

export function resolveWord(word: string, cwd: string, home: string): string {
  if (word === "~") return home;
  if (word.startsWith("~/")) return posix.join(home, word.slice(2));
  return posix.resolve(cwd, word);
}

/** A target spelled with a glob, a variable or a substitution names nothing concrete. */
export function isConcrete(target: string): boolean {
  return !/[*?[\]{}$`]/.test(target);
}

export function questionTargets(q: Pick<UiQuestion, "targets" | "title" | "command" | "detail">, where: { cwd: string; home: string }): string[] {
  if (q.targets.length > 0) return q.targets.map((r) => resolveWord(r, where.cwd, where.home));
  return pathLikeWords(`${q.title}\n${q.command}\n${q.detail}`).map((w) => resolveWord(w, where.cwd, where.home));
}

/** The question spells a target with a variable or a substitution somewhere it shows. */
export function hasUnexpanded(q: Pick<UiQuestion, "targets" | "title" | "command" | "detail">): boolean {
  if (q.targets.length > 0) return q.targets.some((t) => /\$[\w{(]|`/.test(t));
  return /\$[\w{(]|`/.test(`${q.title}\n${q.command}\n${q.detail}`);
}

/** The shell words of each simple command of `command` (split on ; & | and newlines outside quotes). */
export function simpleCommands(command: string): string[][] {
  const commands: string[][] = [];
  let argv: string[] = [];
  let word = "";
  let quote: string | undefined;
  let quoted = false;
  const endWord = () => {
    if (word.length > 0 || quoted) argv.push(word);
    word = "";
    quoted = false;
  };
  const endCommand = () => {
    endWord();
    if (argv.length > 0) commands.push(argv);
    argv = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      quoted = true;
    } else if (c === "\\" && i + 1 < command.length) word += command[++i];
    else if (/\s/.test(c) && c !== "\n") endWord();
    else if (c === "\n" || c === ";" || (c === "|" && command[i - 1] !== ">") || (c === "&" && command[i + 1] !== ">" && command[i - 1] !== ">")) endCommand();
    else word += c;
  }
  endCommand();
  return commands;
}

/** The command shows an overwriting redirection (`>`, `>|`, `&>`) onto `target`. */
export function overwriteRedirectOnto(command: string, target: string, where: { cwd: string; home: string }): boolean {
  for (const argv of simpleCommands(command)) {
    for (let i = 0; i < argv.length; i++) {
      const redirect = /^(\d*|&)(>>|>\||>)(.*)$/.exec(argv[i]!);
      if (!redirect) continue;
      const file = redirect[3] || argv[i + 1] || "";
      if (redirect[2] !== ">>" && resolveWord(file, where.cwd, where.home) === target) return true;
    }
  }
  return false;
}
