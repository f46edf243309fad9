/**
 * Opaque runners and infrastructure: package-manager scripts (analysed from package.json),
 * make, and tools whose effects live outside the file system (terraform, prisma, docker,
 * kubectl, database clients, downloads).
 */
import { posix } from "node:path";
import type { Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
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
  if (!runs.includes(sub) && !yarnStyle) {
    if (sub === "exec" || sub === "x" || sub === "dlx") ctx.unknown(`${ctx.name} ${sub} runs a package binary`);
    return;
  }
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

const docker: Rule = confirmAlways(
  (args) => {
    const w = args.map((a) => a.text);
    if (
      ["rm", "rmi", "kill"].includes(w[0] ?? "") ||
      w[1] === "prune" ||
      (["volume", "image", "container", "network", "system"].includes(w[0] ?? "") && ["rm", "prune"].includes(w[1] ?? ""))
    )
      return `docker ${w.slice(0, 2).join(" ")} deletes resources`;
    return null;
  },
  (args) => `docker:${args.map((a) => a.text).join(" ")}`,
);

const kubectl: Rule = confirmAlways(
  (args) => (args[0]?.text === "delete" ? "kubectl delete removes cluster resources" : null),
  (args) =>
    `kubernetes:${args
      .slice(1)
      .map((a) => a.text)
      .join(" ")}`,
);

const dbClient: Rule = async (args, ctx) => {
  const text = args.map((a) => a.text).join(" ");
  if (/\b(drop|truncate|delete\s+from)\b/i.test(text) || /\bflushall|flushdb\b/i.test(text))
    ctx.effect({ op: "delete", path: `database:${ctx.name}`, external: true, destructive: true, why: `${ctx.name} runs a destructive statement` });
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
  ["bun", npmLike],
  ["make", make],
  ["gmake", make],
  ["just", make],
  ["terraform", terraform],
  ["tofu", terraform],
  ["prisma", prisma],
  ["docker", docker],
  ["podman", docker],
  ["kubectl", kubectl],
  ["psql", dbClient],
  ["mysql", dbClient],
  ["sqlite3", dbClient],
  ["redis-cli", dbClient],
  [
    "dropdb",
    async (args, ctx) =>
      ctx.effect({ op: "delete", path: `database:${args.at(-1)?.text ?? "?"}`, external: true, destructive: true, why: "dropdb drops a database" }),
  ],
  ["curl", curlLike],
  ["wget", curlLike],
];
