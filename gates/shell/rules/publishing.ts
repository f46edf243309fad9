/**
 * Publishing: a package, an image or a release sent to a registry is seen by others at once
 * and cannot be taken back (a registry keeps a published version's name for good; an
 * unpublish or yank breaks everyone who depends on it). Every publishing command is an
 * external, destructive effect on the registry, so the gate asks about it whatever the
 * project: `npm publish/unpublish/deprecate/dist-tag`, `pnpm publish`, `yarn publish`,
 * `yarn npm publish/tag`, `bun publish`, `cargo publish/yank/owner`, `twine upload/register`,
 * `gem push/yank/owner`, `docker push` (and the other engines', `image push`, `compose push`,
 * `buildx build --push`). This file holds the effect and the rules of the programs that only
 * publish or build (twine, gem); the others call `publishes` from their own rules.
 */
import type { Arg } from "../expand.ts";
import { splitArgs } from "../options.ts";
import type { ModelTable } from "./models.ts";
import type { Rule, RuleContext, RuleTable } from "./types.ts";

/** `what` (`npm publish`) sends to or removes from `registry` (`npm`): asked about, never silent. */
export function publishes(ctx: RuleContext, what: string, registry: string, operands: readonly Arg[] = [], removes = false): void {
  const names = operands
    .filter((o) => !o.text.startsWith("-"))
    .map((o) => o.src || o.text)
    .join(" ");
  ctx.effect({
    op: removes ? "delete" : "write",
    path: `registry:${registry}${names ? ` ${names}` : ""}`,
    external: true,
    destructive: true,
    why: `${what} ${removes ? "removes from" : "publishes to"} a registry (others see it at once; it cannot be undone)`,
  });
}

/** npm-like subcommands that publish (`npm publish`) or change what is published. */
export const NPM_PUBLISHING: Readonly<Record<string, "publish" | "remove">> = {
  publish: "publish",
  unpublish: "remove",
  deprecate: "publish",
  "dist-tag": "publish",
  owner: "publish",
  access: "publish",
};

const twine: Rule = async (args, ctx) => {
  const sub = args[0]?.text ?? "";
  if (sub === "upload" || sub === "register") {
    const { operands } = splitArgs(args.slice(1), {
      withValue: [
        "r",
        "repository",
        "repository-url",
        "u",
        "username",
        "p",
        "password",
        "c",
        "comment",
        "config-file",
        "i",
        "identity",
        "sign-with",
        "client-cert",
        "cert",
      ],
    });
    publishes(ctx, `twine ${sub}`, "pypi", operands);
  } else if (sub === "check")
    await ctx.targets(
      args.slice(1).filter((a) => !a.text.startsWith("-")),
      "read",
      "twine check reads",
    );
};

const gem: Rule = async (args, ctx) => {
  const sub = args[0]?.text ?? "";
  const rest = args.slice(1);
  if (sub === "push") publishes(ctx, "gem push", "rubygems", rest);
  else if (sub === "yank") publishes(ctx, "gem yank", "rubygems", rest, true);
  else if (sub === "owner") publishes(ctx, "gem owner", "rubygems", rest);
};

export const PUBLISHING_RULES: RuleTable = [
  ["twine", twine],
  ["gem", gem],
];

/**
 * What the publishing rules model: twine's subcommands; gem's publishing ones and its queries
 * and builds. Left out (asked about): gem's installs and removals (`install`, `uninstall`,
 * `update`, `cleanup`, `pristine`), its sources and signing (`sources`, `cert`, `signin`).
 */
export const PUBLISHING_MODELS: ModelTable = [
  ["twine", { subcommands: ["upload", "register", "check"] }],
  [
    "gem",
    {
      subcommands: [
        "push",
        "yank",
        "owner",
        "build",
        "list",
        "search",
        "info",
        "specification",
        "contents",
        "dependency",
        "environment",
        "which",
        "help",
        "fetch",
        "outdated",
        "query",
        "unpack",
      ],
      valueOptions: ["-C"],
    },
  ],
];
