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
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^["'`(<[]+|["'`)>\],;:!?]+$/g, ""))
    // a sentence's full stop is not part of the path ("in ~/.cache/pip." names ~/.cache/pip)
    .map((w) => (/[^./]\.$/.test(w) ? w.slice(0, -1).replace(/["'`)>\],;:!?]+$/, "") : w))
    .filter((w) => w.length > 0);
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
