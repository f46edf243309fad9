/**
 * Container engines (docker, podman, nerdctl, finch) and compose. What a container does inside
 * is not analysed; what it can reach on the host is:
 * - `run`/`create` with bind mounts (`-v HOST:DST[:ro]`, `--volume`, `--mount type=bind,src=`):
 *   the host path gets the effect the container may have, a recursive write of everything under
 *   it (a read when mounted read-only), so the path policy asks about HOME, the root or anything
 *   outside the workspace and denies credentials, as for any write there; named volumes are not
 *   host paths;
 * - `--privileged`, host namespaces (`--pid=host`), added capabilities and devices give the
 *   container the host: not understood;
 * - `cp` writes its host destination; `rm`, `rmi`, `kill`, `prune`, `volume rm`, `system prune`,
 *   `compose down -v` delete engine resources (external);
 * - `push`, `image push`, `compose push` and `build --push` publish an image (publishing.ts).
 */
import type { ModelTable } from "./models.ts";
import type { Arg } from "../expand.ts";
import { outputFile } from "./output-files.ts";
import { publishes } from "./publishing.ts";
import { lit, type Rule, type RuleContext, type RuleTable } from "./types.ts";

// biome-ignore format: a packed word list reads better than one word per line
const RUN_VALUES = new Set(["-v", "--volume", "--mount", "-e", "--env", "--env-file", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user", "--network", "--net", "--entrypoint", "-l", "--label", "--label-file", "--cpus", "-m", "--memory", "--restart", "--platform", "--pull", "-h", "--hostname", "--add-host", "--device", "--cap-add", "--cap-drop", "--security-opt", "--tmpfs", "--ulimit", "--log-driver", "--log-opt", "--ipc", "--pid", "--userns", "--gpus", "--shm-size", "--stop-signal", "--stop-timeout", "--health-cmd", "--health-interval", "--volumes-from", "--cidfile", "--dns", "--expose", "--link", "--runtime", "--group-add", "-a", "--attach", "--detach-keys", "--isolation", "--mac-address", "--ip", "--ip6", "--storage-opt", "--sysctl", "--cgroup-parent", "--cgroupns", "--uts", "--annotation", "--memory-swap", "--cpu-shares", "-c", "--cpuset-cpus", "--blkio-weight", "--oom-score-adj", "--init-path", "--network-alias", "--secret", "--arch", "--os"]);
const GLOBAL_VALUES = new Set([
  "-H",
  "--host",
  "--context",
  "-c",
  "--config",
  "-l",
  "--log-level",
  "--tlscacert",
  "--tlscert",
  "--tlskey",
  "--root",
  "--runroot",
  "--storage-driver",
  "--namespace",
  "-n",
  "--address",
]);

/** A `-v` source that is a host path (not a named volume). */
function hostSource(src: string): boolean {
  return src.startsWith("/") || src.startsWith("~") || src.startsWith(".") || src === "";
}

async function mount(ctx: RuleContext, source: Arg, readOnly: boolean, engine: string): Promise<void> {
  if (readOnly) await ctx.targets([source], "read", `${engine} mounts read-only`, { recursive: true });
  else await ctx.targets([source], "write", `${engine} mounts read-write (the container may change or delete anything under)`, { recursive: true });
}

/** `run`/`create`: mounts and host access; returns after the image (the command runs inside). */
async function runLike(args: Arg[], ctx: RuleContext, engine: string): Promise<void> {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.unknown && i > 0 && /^(-v|--volume|--mount)$/.test(args[i - 1]!.text)) continue;
    if (!t.startsWith("-") || a.unknown) break; // the image
    const eq = t.indexOf("=");
    const name = t.startsWith("--") && eq > 0 ? t.slice(0, eq) : /^-v./.test(t) ? "-v" : t;
    const attached = t.startsWith("--") && eq > 0 ? t.slice(eq + 1) : /^-v./.test(t) ? t.slice(2) : null;
    let value: Arg | null = null;
    if (RUN_VALUES.has(name)) {
      value = attached !== null ? { ...a, text: attached } : (args[i + 1] ?? null);
      if (attached === null) i++;
    }
    if (
      name === "--privileged" ||
      (name === "--pid" && value?.text === "host") ||
      (name === "--cap-add" && /SYS_ADMIN|ALL|SYS_PTRACE|DAC_READ_SEARCH/i.test(value?.text ?? "")) ||
      name === "--device"
    )
      ctx.unknown(`${engine} ${name}${value ? ` ${value.text}` : ""} gives the container access to the host`);
    if (!value) continue;
    if (name === "-v" || name === "--volume") {
      if (value.unknown) {
        ctx.unknown(`${engine} mounts a path computed at run time (${value.src})`);
        continue;
      }
      const [src = "", , opts = ""] = value.text.split(":");
      if (!hostSource(src) || !value.text.includes(":")) continue;
      await mount(ctx, { ...value, text: src }, /(^|,)(ro|readonly)(,|$)/.test(opts), engine);
    } else if (name === "--mount") {
      const fields = new Map(value.text.split(",").map((kv) => [kv.split("=")[0]!, kv.includes("=") ? kv.slice(kv.indexOf("=") + 1) : "true"] as const));
      const type = fields.get("type") ?? "volume";
      const src = fields.get("source") ?? fields.get("src");
      if (type !== "bind" || src === undefined) continue;
      const ro = fields.has("readonly") || fields.has("ro") ? !/^(false|0)$/.test(fields.get("readonly") ?? fields.get("ro") ?? "true") : false;
      await mount(ctx, lit(src), ro, engine);
    }
  }
}

/** `build --push` or `--output type=registry` sends the image to its registry. */
const pushes = (args: readonly Arg[]) => args.some((a) => a.text === "--push" || /^(--output=|type=)?.*type=registry/.test(a.text));

function engineRule(engine: string): Rule {
  return async (args, ctx) => {
    let i = 0;
    for (; i < args.length; i++) {
      const t = args[i]!.text;
      if (!t.startsWith("-")) break;
      if (GLOBAL_VALUES.has(t)) i++;
    }
    let sub = args[i]?.text ?? "";
    let rest = args.slice(i + 1);
    if (sub === "container" || sub === "image" || sub === "volume" || sub === "network" || sub === "system" || sub === "builder" || sub === "buildx") {
      const group = sub;
      sub = rest[0]?.text ?? "";
      rest = rest.slice(1);
      if (["rm", "prune", "remove", "kill"].includes(sub)) {
        ctx.effect({
          op: "delete",
          path: `${engine}:${group} ${sub} ${rest.map((a) => a.text).join(" ")}`.trim(),
          external: true,
          destructive: true,
          why: `${engine} ${group} ${sub} deletes resources`,
        });
        return;
      }
      if (sub === "push" || ((sub === "build" || sub === "bake") && pushes(rest))) return publishes(ctx, `${engine} ${group} ${sub}`, "images", rest);
      if (group !== "container") return;
    }
    if (sub === "push" || (sub === "build" && pushes(rest))) return publishes(ctx, `${engine} ${sub}`, "images", rest);
    if (sub === "compose") return compose(rest, ctx, engine);
    if (sub === "run" || sub === "create") return runLike(rest, ctx, engine);
    if (["rm", "rmi", "kill"].includes(sub)) {
      ctx.effect({
        op: "delete",
        path: `${engine}:${sub} ${rest.map((a) => a.text).join(" ")}`.trim(),
        external: true,
        destructive: true,
        why: `${engine} ${sub} deletes resources`,
      });
      return;
    }
    if (sub === "cp") {
      const ops = rest.filter((a) => !a.text.startsWith("-"));
      const [src, dest] = ops;
      if (!src || !dest) return;
      if (!/^[\w.-]+:/.test(dest.text)) await outputFile(ctx, dest, `${engine} cp writes`, { recursive: true });
      else if (!/^[\w.-]+:/.test(src.text)) await ctx.targets([src], "read", `${engine} cp reads`, { recursive: true });
      return;
    }
    if (sub === "build" || sub === "buildx") {
      for (let j = 0; j < rest.length; j++) {
        const t = rest[j]!.text;
        const v = t === "-o" || t === "--output" ? rest[++j]?.text : t.startsWith("--output=") ? t.slice(9) : null;
        if (!v) continue;
        const dest = /(?:^|,)dest=([^,]+)/.exec(v)?.[1] ?? (v.includes("=") ? null : v);
        if (dest && dest !== "-") await ctx.targets([lit(dest)], "write", `${engine} build writes its output into`, { recursive: true, contents: true });
      }
    }
  };
}

async function compose(args: Arg[], ctx: RuleContext, engine: string): Promise<void> {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (!t.startsWith("-")) break;
    if (["-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--progress"].includes(t)) i++;
  }
  const sub = args[i]?.text ?? "";
  const rest = args.slice(i + 1);
  if (sub === "push") return publishes(ctx, `${engine} compose push`, "images", rest);
  if ((sub === "down" && rest.some((a) => a.text === "-v" || a.text === "--volumes")) || sub === "rm") {
    ctx.effect({
      op: "delete",
      path: `${engine}:compose ${sub} ${rest.map((a) => a.text).join(" ")}`.trim(),
      external: true,
      destructive: true,
      why: `${engine} compose ${sub} deletes containers or volumes`,
    });
    return;
  }
  if (sub === "run" || sub === "create") await runLike(rest, ctx, `${engine} compose`);
}

export const CONTAINER_RULES: RuleTable = [
  ["docker", engineRule("docker")],
  ["podman", engineRule("podman")],
  ["nerdctl", engineRule("nerdctl")],
  ["finch", engineRule("finch")],
  ["docker-compose", async (args, ctx) => compose(args, ctx, "docker-compose")],
  ["podman-compose", async (args, ctx) => compose(args, ctx, "podman-compose")],
];

// biome-ignore format: packed word lists
const ENGINE_SUBCOMMANDS = ["attach", "build", "buildx", "builder", "commit", "compose", "container", "cp", "create", "diff", "events", "history", "image", "images", "info", "inspect", "kill", "login", "logout", "logs", "network", "pause", "port", "ps", "pull", "push", "restart", "rm", "rmi", "run", "search", "start", "stats", "stop", "system", "tag", "top", "unpause", "version", "volume", "wait"];
const COMPOSE_SUBCOMMANDS = [
  "build",
  "config",
  "create",
  "down",
  "events",
  "images",
  "kill",
  "logs",
  "ls",
  "pause",
  "port",
  "ps",
  "pull",
  "push",
  "restart",
  "rm",
  "run",
  "start",
  "stop",
  "top",
  "unpause",
  "up",
  "version",
  "wait",
];
const engineModel = {
  subcommands: ENGINE_SUBCOMMANDS,
  actions: {
    container: [
      "ls",
      "list",
      "ps",
      "inspect",
      "logs",
      "rm",
      "remove",
      "prune",
      "kill",
      "run",
      "create",
      "cp",
      "start",
      "stop",
      "restart",
      "top",
      "stats",
      "port",
      "diff",
      "wait",
      "pause",
      "unpause",
      "attach",
    ],
    image: ["ls", "list", "inspect", "history", "pull", "push", "tag", "build", "rm", "remove", "prune"],
    volume: ["ls", "list", "inspect", "create", "rm", "remove", "prune"],
    network: ["ls", "list", "inspect", "create", "rm", "remove", "prune", "connect", "disconnect"],
    system: ["df", "info", "events", "prune"],
    builder: ["ls", "inspect", "du", "prune", "build"],
    buildx: ["build", "ls", "inspect", "version", "du", "prune", "rm", "use", "create", "bake"],
    compose: COMPOSE_SUBCOMMANDS,
  },
  valueOptions: [...GLOBAL_VALUES],
};
/** What the container rules model: engine subcommands (and management groups' actions), compose subcommands. */
export const CONTAINER_MODELS: ModelTable = [
  ["docker", engineModel],
  ["podman", engineModel],
  ["nerdctl", engineModel],
  ["finch", engineModel],
  [
    "docker-compose",
    { subcommands: COMPOSE_SUBCOMMANDS, valueOptions: ["-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory"] },
  ],
  [
    "podman-compose",
    { subcommands: COMPOSE_SUBCOMMANDS, valueOptions: ["-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory"] },
  ],
];
