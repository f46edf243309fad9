/**
 * Opaque runners and infrastructure: package-manager scripts (analysed from package.json),
 * `npm exec`/`pnpm dlx`/`bun x` payloads, package caches, make, bun's own interpreter, and tools
 * whose effects live outside the file system (terraform, prisma, kubectl, downloads). Database
 * clients are in data-tools.ts, container engines in containers.ts.
 */
import type { ModelTable } from "./models.ts";
import { posix } from "node:path";
import type { Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { interpreterFor } from "./interpreters.ts";
import { NPM_PUBLISHING, publishes } from "./publishing.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

function confirmAlways(what: (args: Arg[]) => string | null, resource?: (args: Arg[]) => string): Rule {
  return async (args, ctx) => {
    const why = what(args);
    if (why === null) return;
    if (resource) ctx.effect({ op: "delete", path: resource(args), external: true, destructive: true, why });
    else ctx.unknown(why);
  };
}

const npmLike: Rule = async (args, ctx) => {
  const sub = args[0]?.text ?? "";
  const runs = ["run", "run-script", "test", "t", "start", "stop", "restart"];
  const yarnStyle = (ctx.name === "yarn" || ctx.name === "pnpm" || ctx.name === "bun") && sub !== "" && !PM_SUBCOMMANDS.has(sub);
  if (sub === "cache" || (sub === "store" && ctx.name === "pnpm")) {
    const action = args[1]?.text ?? "";
    if (["clean", "clear", "rm", "prune", "purge"].includes(action)) {
      const dir =
        ctx.name === "npm" ? ".npm/_cacache" : ctx.name === "yarn" ? ".cache/yarn" : ctx.name === "pnpm" ? ".local/share/pnpm/store" : ".bun/install/cache";
      await ctx.targets([lit(posix.join(ctx.state.home, dir))], "delete", `${ctx.name} ${sub} ${action} deletes the package cache`, {
        recursive: true,
        destructive: true,
        contents: true,
      });
    }
    return;
  }
  const publishing = NPM_PUBLISHING[sub];
  // `--dry-run` sends nothing; `dist-tag ls`, `owner ls`, `access list ...` only read.
  const query = ["ls", "list", "get"].includes(args[1]?.text ?? "") && sub !== "publish" && sub !== "unpublish" && sub !== "deprecate";
  if (publishing && !query && !args.some((a) => a.text === "--dry-run"))
    return publishes(ctx, `${ctx.name} ${sub}`, "npm", args.slice(1), publishing === "remove");
  if (publishing) return;
  // yarn 2+: `yarn npm publish`, `yarn npm tag add`.
  if (ctx.name === "yarn" && sub === "npm" && ["publish", "tag"].includes(args[1]?.text ?? ""))
    return publishes(ctx, `yarn npm ${args[1]!.text}`, "npm", args.slice(2));
  if (sub === "exec" || sub === "x" || sub === "dlx") {
    const { rest } = splitArgs(args.slice(1), { withValue: ["p", "package", "c", "call"], stopAtOperand: true });
    const payload = rest[0]?.text === "--" ? rest.slice(1) : rest;
    if (payload.length) await ctx.dispatch(payload, `${ctx.name} ${sub} runs`);
    return;
  }
  if (!runs.includes(sub) && !yarnStyle) return;
  const scriptName = sub === "run" || sub === "run-script" ? args[1]?.text : sub === "t" ? "test" : yarnStyle ? sub : sub;
  if (!scriptName) return;
  const cwd = ctx.state.cwd;
  const pkg = cwd ? await ctx.readScript(posix.join(cwd, "package.json")) : null;
  let body: string | undefined;
  try {
    const scripts = pkg ? (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts : undefined;
    const s = scripts?.[scriptName];
    if (typeof s === "string") body = s;
  } catch {
    /* unreadable package.json: unknown below */
  }
  if (body === undefined) return ctx.unknown(`${ctx.name} ${sub} ${scriptName}: script effects unknown`);
  await ctx.script(body, `${ctx.name} script "${scriptName}"`);
};
const PM_SUBCOMMANDS = new Set([
  "install",
  "i",
  "add",
  "remove",
  "ci",
  "build",
  "init",
  "list",
  "ls",
  "outdated",
  "upgrade",
  "up",
  "why",
  "info",
  "audit",
  "config",
  "cache",
  "pack",
  "publish",
  "link",
  "unlink",
  "version",
  "--version",
  "-v",
  "help",
]);

const make: Rule = async (args, ctx) => {
  if (args.some((a) => /^-[a-zA-Z]*[nq]/.test(a.text) || a.text === "--dry-run" || a.text === "--just-print" || a.text === "--question")) return;
  const targets = args.filter((a) => !a.text.startsWith("-") && !a.text.includes("="));
  ctx.unknown(`${ctx.name} ${targets.map((t) => t.text).join(" ") || "(default target)"}: recipe effects unknown`);
};

const terraform: Rule = confirmAlways(
  (args) => {
    const sub = args.find((a) => !a.text.startsWith("-"))?.text;
    if (sub === "destroy" || (sub === "apply" && args.some((a) => a.text === "-destroy"))) return "terraform destroys infrastructure";
    if (sub === "apply" && args.some((a) => a.text.startsWith("-auto-approve"))) return "terraform apply -auto-approve changes infrastructure without review";
    return null;
  },
  () => "infrastructure:terraform",
);

const prisma: Rule = confirmAlways(
  (args) => {
    const words = args.map((a) => a.text);
    if (words[0] === "migrate" && words[1] === "reset") return "prisma migrate reset drops the database";
    if (words[0] === "db" && words[1] === "push" && words.some((w) => w === "--force-reset" || w === "--accept-data-loss"))
      return "prisma db push resets the database";
    return null;
  },
  () => "database:prisma",
);

const KUBECTL_CHANGES = new Set([
  "delete",
  "apply",
  "create",
  "replace",
  "patch",
  "scale",
  "drain",
  "cordon",
  "uncordon",
  "taint",
  "label",
  "annotate",
  "edit",
  "set",
  "rollout",
  "autoscale",
  "expose",
  "run",
  "cp",
]);
const kubectl: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, {
    withValue: ["n", "namespace", "context", "cluster", "kubeconfig", "f", "filename", "l", "selector", "o", "output", "c", "container"],
  });
  const verb = operands[0]?.text ?? "";
  if (!KUBECTL_CHANGES.has(verb) || (verb === "rollout" && ["status", "history"].includes(operands[1]?.text ?? ""))) return;
  if (args.some((a) => a.text === "--dry-run" || a.text.startsWith("--dry-run="))) return;
  ctx.effect({
    op: verb === "delete" ? "delete" : "write",
    path: `kubernetes:${operands
      .slice(1)
      .map((a) => a.text)
      .join(" ")}`,
    external: true,
    destructive: verb === "delete" || verb === "drain" || verb === "replace",
    why: `kubectl ${verb} changes cluster resources`,
  });
};

/** bun: -e/--eval/-p code and `bun [run] FILE` are node code; `bun x` runs a package; the rest is npm-like. */
const bun: Rule = async (args, ctx) => {
  const node = interpreterFor("node")!;
  const first = args[0]?.text ?? "";
  if (["-e", "--eval", "-p", "--print"].includes(first) || first.startsWith("--eval=")) return node(args, ctx);
  if (first === "x") return ctx.dispatch(args.slice(1), "bun x runs");
  const file = first === "run" ? args[1] : args[0];
  if (file && !file.unknown && /\.[cm]?[jt]sx?$|\//.test(file.text)) return node(first === "run" ? args.slice(1) : args, ctx);
  return npmLike(args, ctx);
};

const curlLike: Rule = async (args, ctx) => {
  const isWget = ctx.name === "wget";
  const { flags, values, operands } = splitArgs(args, {
    withValue: isWget
      ? ["O", "output-document", "P", "directory-prefix", "o", "a", "U", "user-agent", "header", "e"]
      : [
          "o",
          "output",
          "H",
          "header",
          "d",
          "data",
          "X",
          "request",
          "u",
          "user",
          "A",
          "user-agent",
          "e",
          "referer",
          "F",
          "form",
          "T",
          "upload-file",
          "w",
          "write-out",
          "m",
          "max-time",
          "b",
          "cookie",
          "c",
          "cookie-jar",
          "x",
          "proxy",
          "K",
          "config",
          "data-raw",
          "data-binary",
        ],
  });
  const out = isWget ? (values.get("O") ?? values.get("output-document")) : (values.get("o") ?? values.get("output"));
  for (const o of out ?? []) if (o !== "-") await ctx.targets([lit(o)], "write", `${ctx.name} downloads into`);
  if (!isWget && hasAny(flags, "O", "remote-name")) await ctx.targets([lit(".")], "write", "curl -O writes into", { contents: true });
  if (isWget && !out) await ctx.targets([lit(".")], "write", "wget downloads into", { contents: true });
  for (const u of values.get("T") ?? values.get("upload-file") ?? []) await ctx.targets([lit(u)], "read", "curl uploads");
  for (const d of [...(values.get("d") ?? []), ...(values.get("data-binary") ?? []), ...(values.get("F") ?? [])]) {
    const m = /@([^;]+)/.exec(d);
    if (m?.[1]) await ctx.targets([lit(m[1])], "read", `${ctx.name} uploads a file`);
  }
  void operands;
  ctx.setOutput({ kind: "unknown", why: `data downloaded by ${ctx.name}` });
};

export const RUNNER_RULES: RuleTable = [
  ["npm", npmLike],
  ["yarn", npmLike],
  ["pnpm", npmLike],
  ["bun", bun],
  ["bunx", async (args, ctx) => ctx.dispatch(args, "bunx runs")],
  ["make", make],
  ["gmake", make],
  ["just", make],
  ["terraform", terraform],
  ["tofu", terraform],
  ["prisma", prisma],
  ["kubectl", kubectl],
  [
    "dropdb",
    async (args, ctx) =>
      ctx.effect({ op: "delete", path: `database:${args.at(-1)?.text ?? "?"}`, external: true, destructive: true, why: "dropdb drops a database" }),
  ],
  ["curl", curlLike],
  ["wget", curlLike],
];

// biome-ignore format: packed word lists
const NPM_SUBCOMMANDS = [...PM_SUBCOMMANDS, "run", "run-script", "test", "t", "start", "stop", "restart", "exec", "x", "uninstall", "un", "rm", "update", "view", "v", "show", "explain", "fund", "doctor", "prune", "dedupe", "root", "bin", "prefix", "query", "whoami", "search", "ping", "pkg", "repo", "docs", "bugs", "help-search", "install-test", "it", "ci", ...Object.keys(NPM_PUBLISHING)];
// biome-ignore format: packed word lists
const KUBECTL_SUBCOMMANDS = ["get", "describe", "logs", "explain", "api-resources", "api-versions", "version", "cluster-info", "config", "top", "events", "auth", "diff", "apply", "create", "delete", "edit", "patch", "replace", "scale", "rollout", "label", "annotate", "expose", "run", "set", "drain", "cordon", "uncordon", "taint", "exec", "port-forward", "proxy", "cp", "wait", "kustomize"];
// biome-ignore format: packed word lists
const TERRAFORM_SUBCOMMANDS = ["init", "validate", "plan", "apply", "destroy", "fmt", "show", "output", "providers", "version", "graph", "console", "workspace", "state", "get", "login", "logout", "test", "refresh", "import"];
/**
 * What the runner rules model: npm's subcommands (yarn, pnpm and bun run any other word as a
 * script, read from package.json, and ask when there is none), kubectl's, terraform's, and
 * prisma's (its database actions other than `migrate reset`, `migrate dev` and `db push`, which
 * the rule judges, are left out: `migrate deploy`, `db execute`, `db seed`, `db pull`).
 */
export const RUNNER_MODELS: ModelTable = [
  [
    "prisma",
    {
      subcommands: ["generate", "validate", "format", "version", "init", "migrate", "db", "studio", "debug", "help"],
      actions: { migrate: ["dev", "status", "diff", "reset"], db: ["push"] },
    },
  ],
  ["npm", { subcommands: NPM_SUBCOMMANDS, valueOptions: ["--prefix", "-C", "--workspace", "-w"] }],
  ["kubectl", { subcommands: KUBECTL_SUBCOMMANDS, valueOptions: ["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"] }],
  ["terraform", { subcommands: TERRAFORM_SUBCOMMANDS, actions: { state: ["list", "show", "pull"], workspace: ["list", "show", "select", "new"] } }],
  ["tofu", { subcommands: TERRAFORM_SUBCOMMANDS, actions: { state: ["list", "show", "pull"], workspace: ["list", "show", "select", "new"] } }],
];
