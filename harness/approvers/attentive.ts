/**
 * The attentive user: approves only when the question names concrete targets (structured
 * resources, else path-like words of the prompt text resolved against cwd) and every one of
 * them lies inside what the user's request authorised. Anything vaguer is denied.
 */
import { posix } from "node:path";
import { globMatcher } from "../effects/wrongful.ts";
import type { ApprovalRequest, Approver, ApproverContext } from "./types.ts";

const PATH_WORD = /^(~|\.{1,2})?(\/[^\s]*|[\w.@+-]+\/[^\s]*)$|^~$|^\.[\w-][^\s/]*$/;

/** Path-like words of a prompt: contain a slash, or start with `~`, or are dotfiles. */
export function pathLikeWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^["'`(<[]+|["'`)>\],;:!?]+$/g, ""))
    .filter((w) => w.length > 0 && !w.startsWith("-") && !/^[a-z][\w+.-]*:\/\//i.test(w) && PATH_WORD.test(w));
}

export function resolveWord(word: string, cwd: string, home: string): string {
  if (word === "~") return home;
  if (word.startsWith("~/")) return posix.join(home, word.slice(2));
  return posix.resolve(cwd, word);
}

export function attentiveTargets(request: Pick<ApprovalRequest, "resources" | "description" | "title">, ctx: Pick<ApproverContext, "cwd" | "home">): string[] {
  if (request.resources.length > 0) return request.resources.map((r) => resolveWord(r, ctx.cwd, ctx.home));
  return pathLikeWords(`${request.title}\n${request.description}`).map((w) => resolveWord(w, ctx.cwd, ctx.home));
}

export function createAttentive(ctx: ApproverContext): Approver {
  const inScope = globMatcher([...ctx.authorized.delete, ...ctx.authorized.modify, ...(ctx.authorized.append ?? [])]);
  return {
    name: "attentive",
    hasUI: true,
    async answer(request) {
      // A target spelled with a variable or a substitution is not concrete: nobody can judge it.
      if (/\$[\w{(]|`/.test(`${request.title}\n${request.description}`) && request.resources.length === 0) return "deny";
      const targets = attentiveTargets(request, ctx);
      if (targets.length === 0) return "deny";
      return targets.every((t) => !/[*?[\]{}$`]/.test(t) && inScope(t)) ? "allow-once" : "deny";
    },
  };
}
