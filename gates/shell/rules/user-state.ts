/**
 * Tools that replace a piece of the user's state in one call, decided by capability:
 * - schedules: `crontab FILE`, `crontab -` or stdin replace the whole crontab, `crontab -r`
 *   removes it (external, destructive; the entries' commands are analysed as shell); `at`/`batch`
 *   schedule shell code from stdin or -f (analysed, and the schedule itself is asked about);
 *   systemctl/launchctl verbs other than queries change services (external);
 * - keys: `ssh-keygen` writes its key file (-f, else ~/.ssh/id_<type>) and the .pub next to it,
 *   rewrites a key (-p, -c) or known_hosts (-R), and only reads with -l, -y, -F; `ssh-add -D/-d`
 *   drop identities from the agent; gpg keyring changes (--import, --recv-keys, key generation,
 *   --edit-key, deletions) are external effects on the keyring (deletions destructive), its
 *   -o/--output files are written (over an existing file only with --yes);
 * - the clock: `date -s` or `date MMDDhhmm` sets the system time (external).
 * crontab, ssh-keygen and date model their options (USER_STATE_OPTIONS): any other is asked about.
 */
import { posix } from "node:path";
import { toAbsolute } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { cutOptionalValues, type OptionModel, type OptionTable, valueOptions } from "./models.ts";
import { outputFile } from "./output-files.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

const CRONTAB_OPTIONS: OptionModel = { short: "lreiTVs", shortValue: "ux" };
const SSH_KEYGEN_OPTIONS: OptionModel = { short: "ABceghHilLpqQUvy", shortValue: "abCDEFfImNnOPRrstVwYZz" };
const DATE_OPTIONS: OptionModel = {
  short: "Ru",
  shortValue: "dfrs",
  shortOptional: "I",
  long: ["debug", "rfc-email", "utc", "universal", "resolution", "iso-8601", "help", "version"],
  longValue: ["date", "file", "reference", "set", "rfc-3339"],
};

/** Commands of crontab lines (five time fields or an @keyword, then the command). */
export function cronCommands(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(line)) continue;
    const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.+)$/.exec(line);
    if (m) out.push(m[1]!.replace(/(^|[^\\])%.*$/, "$1"));
  }
  return out;
}

const crontab: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: valueOptions(CRONTAB_OPTIONS) });
  const user = values.get("u")?.[0] ?? "user";
  const resource = `crontab:${user}`;
  if (hasAny(flags, "l", "T", "V")) return;
  if (hasAny(flags, "r")) {
    ctx.effect({ op: "delete", path: resource, external: true, destructive: true, why: "crontab -r removes the whole schedule" });
    return;
  }
  if (hasAny(flags, "e")) {
    ctx.effect({ op: "write", path: resource, external: true, destructive: true, why: "crontab -e edits the schedule" });
    return;
  }
  const file = operands[0];
  let text: string | null = null;
  if (file && file.text !== "-") {
    const abs = file.unknown ? null : toAbsolute(file.text, ctx.state.cwd);
    text = abs ? await ctx.readScript(abs) : null;
  } else if (ctx.stdinFed) {
    const stdin = await ctx.stdin();
    text = stdin.kind === "text" ? stdin.text : null;
  } else text = "";
  ctx.effect({ op: "write", path: resource, external: true, destructive: true, why: `crontab ${file?.text ?? "(stdin)"} replaces the whole schedule` });
  if (text === null) return ctx.unknown("crontab installs entries that cannot be read");
  for (const c of cronCommands(text)) await ctx.script(c, "crontab entry");
};

const at: Rule = async (args, ctx) => {
  const { flags, values } = splitArgs(args, { withValue: ["f", "q", "t"] });
  if (hasAny(flags, "l", "c") || ctx.name === "atq") return;
  if (hasAny(flags, "r", "d") || ctx.name === "atrm") {
    ctx.effect({ op: "delete", path: "schedule:at", external: true, destructive: true, why: "removes scheduled jobs" });
    return;
  }
  const file = values.get("f")?.[0];
  let code: string | null = null;
  if (file !== undefined) {
    const abs = toAbsolute(file, ctx.state.cwd);
    code = abs ? await ctx.readScript(abs) : null;
  } else if (ctx.stdinFed) {
    const stdin = await ctx.stdin();
    code = stdin.kind === "text" ? stdin.text : null;
  }
  ctx.effect({ op: "write", path: "schedule:at", external: true, why: `${ctx.name} schedules shell commands to run later` });
  if (code === null) return ctx.unknown(`${ctx.name} schedules commands that cannot be read`);
  await ctx.script(code, `${ctx.name} job`);
};

const SYSTEMCTL_QUERIES = /^(status|show|cat|help|is-active|is-enabled|is-failed|is-system-running|get-default|show-environment|list-.*)$/;
const serviceManager: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, {
    withValue: ["H", "host", "M", "machine", "t", "type", "s", "signal", "p", "property", "o", "output", "n", "lines", "state"],
  });
  const verb = operands[0]?.text ?? "list-units";
  if (SYSTEMCTL_QUERIES.test(verb) || verb === "list" || verb === "print" || verb === "blame" || verb === "version") return;
  const units = operands
    .slice(1)
    .map((o) => o.text)
    .join(" ");
  ctx.effect({
    op: "write",
    path: `service:${units || verb}`,
    external: true,
    destructive: /stop|disable|mask|kill|remove|bootout|unload|poweroff|reboot|halt/.test(verb),
    why: `${ctx.name} ${verb} changes services`,
  });
};

const DEFAULT_KEY: Record<string, string> = {
  rsa: "id_rsa",
  dsa: "id_dsa",
  ecdsa: "id_ecdsa",
  "ecdsa-sk": "id_ecdsa_sk",
  ed25519: "id_ed25519",
  "ed25519-sk": "id_ed25519_sk",
};

const sshKeygen: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: valueOptions(SSH_KEYGEN_OPTIONS) });
  const home = ctx.state.home;
  const type = values.get("t")?.[0] ?? "ed25519";
  const file = values.get("f")?.[0];
  if (values.get("Y")?.includes("sign")) {
    // -Y sign writes FILE.sig next to each signed file.
    for (const o of operands) if (!o.unknown) await outputFile(ctx, lit(`${o.text}.sig`), "ssh-keygen -Y sign writes a signature");
    return;
  }
  if (hasAny(flags, "l", "y", "B", "e", "i", "Q", "L") || values.has("F") || values.has("Y") || values.has("D")) {
    if (file) await ctx.targets([lit(file)], "read", "ssh-keygen reads the key");
    return;
  }
  if (values.has("R") || hasAny(flags, "H")) {
    const what = values.has("R") ? "ssh-keygen -R rewrites known_hosts" : "ssh-keygen -H rewrites known_hosts (hashing its names)";
    await outputFile(ctx, lit(file ?? posix.join(home, ".ssh/known_hosts")), what);
    return;
  }
  if (hasAny(flags, "p", "c")) {
    await outputFile(
      ctx,
      lit(file ?? posix.join(home, ".ssh", DEFAULT_KEY[type] ?? "id_ed25519")),
      `ssh-keygen -${hasAny(flags, "p") ? "p" : "c"} rewrites the key`,
    );
    return;
  }
  if (hasAny(flags, "A")) {
    ctx.effect({ op: "write", path: "/etc/ssh", contents: true, why: "ssh-keygen -A writes host keys" });
    return;
  }
  if (values.has("s")) {
    const keys = splitArgs(args, { withValue: ["s", "I", "n", "V", "z", "O", "h"] }).operands;
    for (const k of keys) if (!k.unknown) await outputFile(ctx, lit(k.text.replace(/\.pub$/, "") + "-cert.pub"), "ssh-keygen -s writes a certificate");
    return;
  }
  const key = file ?? posix.join(home, ".ssh", DEFAULT_KEY[type] ?? "id_ed25519");
  await outputFile(ctx, lit(key), "ssh-keygen writes the private key");
  await outputFile(ctx, lit(`${key}.pub`), "ssh-keygen writes the public key");
};

const sshAdd: Rule = async (args, ctx) => {
  const { flags } = splitArgs(args, { withValue: ["t", "E", "S", "h", "H"] });
  if (hasAny(flags, "D", "d", "x", "e"))
    ctx.effect({
      op: "delete",
      path: "ssh-agent:identities",
      external: true,
      destructive: true,
      why: "ssh-add removes identities from the agent (or locks it)",
    });
};

// biome-ignore format: a packed word list reads better than one word per line
const GPG_KEYRING_WRITES = ["import", "recv-keys", "receive-keys", "fetch-keys", "refresh-keys", "import-ownertrust", "gen-key", "generate-key", "full-gen-key", "full-generate-key", "quick-gen-key", "quick-generate-key", "quick-add-key", "quick-add-uid", "edit-key", "sign-key", "lsign-key", "quick-sign-key", "gen-revoke", "update-trustdb", "quick-set-expire", "passwd", "change-passphrase"];
const GPG_KEYRING_DELETES = [
  "delete-key",
  "delete-keys",
  "delete-secret-key",
  "delete-secret-keys",
  "delete-secret-and-public-key",
  "delete-secret-and-public-keys",
  "quick-revoke-uid",
  "quick-revoke-sig",
];
// biome-ignore format: a packed word list reads better than one word per line
const GPG_VALUES = ["o", "output", "r", "recipient", "u", "local-user", "default-key", "homedir", "keyserver", "trust-model", "passphrase", "passphrase-fd", "passphrase-file", "pinentry-mode", "cipher-algo", "digest-algo", "compress-algo", "s2k-mode", "status-fd", "logger-fd", "keyring", "secret-keyring", "trustdb-name", "set-filename", "comment", "export-options", "import-options", "list-options", "verify-options", "batch-file", "z"];

const gpg: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: GPG_VALUES });
  const deleting = GPG_KEYRING_DELETES.find((f) => flags.has(f));
  if (deleting) {
    ctx.effect({
      op: "delete",
      path: `gpg-keyring:${operands.map((o) => o.text).join(" ")}`,
      external: true,
      destructive: true,
      why: `gpg --${deleting} removes keys from the keyring`,
    });
    return;
  }
  const writing = GPG_KEYRING_WRITES.find((f) => flags.has(f));
  if (writing) {
    ctx.effect({ op: "write", path: "gpg-keyring", external: true, why: `gpg --${writing} changes the keyring (who and what is trusted)` });
    for (const o of operands) if (writing === "import" || writing === "import-ownertrust") await ctx.targets([o], "read", "gpg reads");
    return;
  }
  const output = values.get("o")?.[0] ?? values.get("output")?.[0];
  const yes = hasAny(flags, "yes");
  if (output) {
    if (yes) await outputFile(ctx, lit(output), "gpg --yes -o writes");
    else await ctx.targets([lit(output)], "write", "gpg -o writes (refuses to overwrite without --yes)");
  } else if (hasAny(flags, "e", "encrypt", "c", "symmetric", "s", "sign", "b", "detach-sign", "clear-sign", "clearsign", "d", "decrypt")) {
    const ext = hasAny(flags, "b", "detach-sign") ? ".sig" : hasAny(flags, "clear-sign", "clearsign", "a", "armor") ? ".asc" : ".gpg";
    const decrypting = hasAny(flags, "d", "decrypt");
    for (const o of operands) {
      if (o.unknown) continue;
      await ctx.targets([o], "read", "gpg reads");
      if (!decrypting) {
        if (yes) await outputFile(ctx, lit(o.text + ext), "gpg writes");
        else await ctx.targets([lit(o.text + ext)], "write", "gpg writes");
      }
    }
  }
};

/** date: `-s/--set STRING`, or an operand that is not a `+FORMAT` (`date MMDDhhmm`), sets the system clock. */
const date: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(cutOptionalValues(DATE_OPTIONS, args), { withValue: valueOptions(DATE_OPTIONS) });
  const set = [...(values.get("s") ?? []), ...(values.get("set") ?? [])][0];
  // An empty operand is an invalid date: date stops there.
  const operand = operands.find((o) => o.unknown || (o.text !== "" && !o.text.startsWith("+")));
  if (set === undefined && operand === undefined) return;
  if (set === undefined && operand?.unknown) return ctx.unknown(`date: an operand computed at run time (${operand.src}) may set the system clock`);
  ctx.effect({ op: "write", path: "system:clock", external: true, why: `date ${set !== undefined ? "-s" : operand!.text} sets the system clock` });
};

export const USER_STATE_RULES: RuleTable = [
  ["date", date],
  ["crontab", crontab],
  ["at", at],
  ["batch", at],
  ["atq", at],
  ["atrm", at],
  ["systemctl", serviceManager],
  ["launchctl", serviceManager],
  ["service", async (args, ctx) => serviceManager([{ text: args[1]?.text ?? "status", glob: false, src: "" }, ...args.slice(0, 1)], ctx)],
  ["ssh-keygen", sshKeygen],
  ["ssh-add", sshAdd],
  ["gpg", gpg],
  ["gpg2", gpg],
];

/**
 * What the schedule and key rules model of their programs' options: crontab(1) (cronie and
 * Vixie cron), ssh-keygen(1) (OpenSSH 9) and date(1) (GNU coreutils). Left out of ssh-keygen:
 * `-k`/`-u` (write a KRL), `-K` (downloads resident keys into the
 * folder), `-M`, `-G`, `-T`, `-J`, `-j`, `-W`, `-S` (moduli files). gpg's options are not
 * modelled here: its keyring commands are judged by name (GPG_KEYRING_WRITES, GPG_KEYRING_DELETES).
 */
export const USER_STATE_OPTIONS: OptionTable = [
  ["crontab", CRONTAB_OPTIONS],
  ["ssh-keygen", SSH_KEYGEN_OPTIONS],
  ["date", DATE_OPTIONS],
];
