/**
 * Secrets that credential commands take where no flag names them:
 *
 *  - a positional operand of a command known to take one there: `htpasswd -b FILE USER PW`,
 *    `vault login TOKEN`, `mysqladmin password PW`, `rabbitmqctl add_user USER PW`,
 *    `mc alias set NAME URL KEY SECRET`, `openssl passwd PW`, `cf auth USER PW`…;
 *  - text a command reads as a secret on standard input, written into it by `echo` or `printf`
 *    through a pipe (`echo PW | sudo -S …`, `printf '%s\n' PW | docker login --password-stdin`,
 *    `echo user:PW | chpasswd`) or given as a here-string (`sudo -S … <<< PW`).
 *
 * A command reads a secret on standard input when sudo runs with `-S`/`--stdin`; when one of its
 * flags says so by name (`--password-stdin`, `--token-stdin`, any secret word before `-stdin`);
 * when a secret-named flag's value is standard input (`--passphrase-fd 0`,
 * `--password-file=/dev/stdin`, `-passin stdin`); or when the program is known to
 * (`passwd --stdin`, `chpasswd`, `htpasswd -i`, `gh auth login --with-token`, `vault login -`,
 * `docker secret create NAME -`…). Text piped into any other command (`echo x | sudo tee f`,
 * `echo x | sort`) is not a secret by where it goes. Variables and placeholders stay
 * (`echo "$PW" | sudo -S`), as everywhere in redaction.
 */
import { commandPosition, commands, pipedFrom, placeholder, secretName, valueRange, type Word } from "./command-line.ts";
import type { Range } from "./shapes.ts";

const base = (v: string) => v.slice(v.lastIndexOf("/") + 1);

/** The letters of a command's single-dash flag clusters (`-bc -n` gives `bcn`), up to `--`. */
function flagLetters(words: readonly Word[], from: number): string {
  let out = "";
  for (let i = from; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "--") break;
    if (/^-[A-Za-z]+$/.test(v)) out += v.slice(1);
  }
  return out;
}

/** Where `program` stands in a command: its command position, or after a word that is not a flag (`docker exec db htpasswd …`). */
function positionsOf(words: readonly Word[], known: (name: string) => boolean): { at: number; name: string }[] {
  const first = commandPosition(words);
  const out: { at: number; name: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const v = words[i]!.value;
    const slash = v.lastIndexOf("/");
    if (slash >= 0 && !/(?:^|\/)s?bin$/.test(v.slice(0, slash))) continue;
    const name = base(v);
    if (!Object.hasOwn(OPERANDS, name) && !Object.hasOwn(STDIN_PROGRAMS, name) && name !== "sudo") continue;
    if (!known(name)) continue;
    const prev = words[i - 1]?.value;
    if (i === first || prev === undefined || prev === "--" || !prev.startsWith("-")) out.push({ at: i, name });
  }
  return out;
}

/** The index just past a subcommand path (`auth login`) after `at`, or -1 when the command lacks it. */
function afterPath(words: readonly Word[], at: number, path: readonly string[] | undefined): number {
  let i = at + 1;
  for (const step of path ?? []) {
    while (i < words.length && words[i]!.value !== step) i++;
    if (i >= words.length) return -1;
    i++;
  }
  return i;
}

// ---- positional operands

interface OperandRule {
  /** The subcommand words that come first (`alias set`), in order. */
  path?: readonly string[];
  /** Which operand after the path is the secret, given the letters of the command's flag clusters (undefined: none). */
  index: number | ((letters: string) => number | undefined);
  /** Flags whose value is the next word (not an operand). */
  valued?: readonly string[];
  /** No operand is a secret when a flag matches (`vault login -method=userpass` takes `key=value` operands). */
  unless?: RegExp;
}

const VAULT_VALUED =
  "-method -path -field -format -address -namespace -ns -ca-cert -ca-path -client-cert -client-key -tls-server-name -wrap-ttl -mfa -header -agent-address -policy-override -log-level"
    .split(" ")
    .flatMap((f) => [f, `-${f}`]);

const OPERANDS: Readonly<Record<string, readonly OperandRule[]>> = {
  // htpasswd -b FILE USER PW, htpasswd -nb USER PW (without -b it asks for the password).
  htpasswd: [{ index: (l) => (l.includes("b") ? (l.includes("n") ? 1 : 2) : undefined), valued: ["-C", "-r"] }],
  // vault login TOKEN (with -method other than token, the operands are key=value pairs).
  vault: [{ path: ["login"], index: 0, valued: VAULT_VALUED, unless: /^--?method(?:=(?!token$)|$)/ }],
  mysqladmin: [{ path: ["password"], index: 0 }],
  "mariadb-admin": [{ path: ["password"], index: 0 }],
  rabbitmqctl: [
    { path: ["add_user"], index: 1 },
    { path: ["change_password"], index: 1 },
  ],
  mc: [
    { path: ["alias", "set"], index: 3 },
    { path: ["config", "host", "add"], index: 3 },
  ],
  openssl: [{ path: ["passwd"], index: 0, valued: ["-salt", "-in"], unless: /^-(?:stdin|in)$/ }],
  mkpasswd: [
    { index: 0, valued: ["-m", "-S", "-R", "-P", "--method", "--salt", "--rounds", "--password-fd"], unless: /^(?:-s|--stdin|-P|--password-fd)(?:=|$)/ },
  ],
  cf: [{ path: ["auth"], index: 1 }],
  "redis-cli": [
    { path: ["requirepass"], index: 0 },
    { path: ["masterauth"], index: 0 },
  ],
};

function operandRanges(words: readonly Word[]): Range[] {
  const out: Range[] = [];
  for (const { at, name } of positionsOf(words, (n) => Object.hasOwn(OPERANDS, n))) {
    for (const rule of OPERANDS[name]!) {
      const from = afterPath(words, at, rule.path);
      if (from < 0) continue;
      const rest = words.slice(at + 1);
      if (rule.unless && rest.some((w) => rule.unless!.test(w.value))) continue;
      const index = typeof rule.index === "number" ? rule.index : rule.index(flagLetters(words, at + 1));
      if (index === undefined) continue;
      let n = 0;
      let flagsDone = false;
      for (let i = from; i < words.length; i++) {
        const v = words[i]!.value;
        if (!flagsDone && v === "--") {
          flagsDone = true;
          continue;
        }
        if (!flagsDone && v.startsWith("-") && v !== "-") {
          if (rule.valued?.includes(v)) i++;
          continue;
        }
        if (n++ !== index) continue;
        // A key=value operand (vault login -method=… username=x) is read by its name elsewhere; `-` is standard input.
        if (v === "-" || (name === "vault" && v.includes("=")) || placeholder(v)) break;
        const r = valueRange(words[i]!);
        if (r) out.push(r);
        break;
      }
    }
  }
  return out;
}

// ---- secrets read on standard input

interface StdinRule {
  path?: readonly string[];
  /** Any of these flags makes the command read the secret on standard input. */
  flags?: readonly string[];
  /** Any of these letters in a flag cluster does. */
  letters?: string;
  /** An operand `-` after the path does (`vault login -`, `docker secret create NAME -`). */
  dashOperand?: true;
  /** The command always does (`chpasswd`). */
  always?: true;
  /** Each line is `user:secret`: only what follows the first colon is the secret. */
  userColon?: true;
}

const SECRET_CREATE: readonly StdinRule[] = [{ path: ["secret", "create"], dashOperand: true }];

const STDIN_PROGRAMS: Readonly<Record<string, readonly StdinRule[]>> = {
  passwd: [{ flags: ["--stdin"] }],
  chpasswd: [{ always: true, userColon: true }],
  chgpasswd: [{ always: true, userColon: true }],
  mkpasswd: [{ flags: ["-s", "--stdin"] }],
  htpasswd: [{ letters: "i" }],
  smbpasswd: [{ flags: ["-s"] }],
  gh: [{ path: ["auth", "login"], flags: ["--with-token"] }],
  vault: [{ path: ["login"], dashOperand: true }],
  docker: SECRET_CREATE,
  podman: SECRET_CREATE,
  openssl: [{ path: ["passwd"], flags: ["-stdin"] }],
};

/** What names standard input as a flag's value. */
const STDIN_VALUES = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "stdin", "fd:0"]);

/** A flag that says by its name that the secret comes on standard input (`--password-stdin`, `--token-stdin`). */
function stdinSecretFlag(v: string): boolean {
  const m = /^--?([A-Za-z][\w.-]*?)[-_]stdin(?:=|$)/.exec(v);
  return m !== null && secretName(m[1]!);
}

/** A secret-named flag whose value is standard input (`--passphrase-fd 0`, `--password-file=/dev/stdin`, `-passin stdin`). */
function secretFromStdin(words: readonly Word[], i: number): boolean {
  const m = /^--?([A-Za-z][\w.-]*)(=(.*))?$/.exec(words[i]!.value);
  if (!m) return false;
  const name = m[1]!;
  const value = m[2] !== undefined ? m[3]! : words[i + 1]?.value;
  if (value === undefined) return false;
  const fd = /[-_]fd$/.test(name);
  const stripped = name.replace(/[-_](?:file|fd|from)$/, "");
  const secret = /^pass(?:in|out)?$/.test(name) || secretName(stripped);
  return secret && (STDIN_VALUES.has(value) || (fd && value === "0"));
}

/** sudo's flags (those before the command it runs) include -S / --stdin: it reads the password on standard input. */
function sudoReadsStdin(words: readonly Word[], at: number): boolean {
  const takesValue = "ugpCDhrtUTRg";
  for (let i = at + 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "--stdin") return true;
    if (v === "--" || !v.startsWith("-")) return false;
    if (/^--/.test(v)) {
      if (/^--(?:user|group|prompt|close-from|chdir|host|role|type|other-user|command-timeout|chroot)$/.test(v)) i++;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === "S") return true;
      if (takesValue.includes(c)) {
        if (k === v.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

/** Whether the command reads a secret on standard input; with `userColon` when only the part after `user:` is one. */
function readsSecret(words: readonly Word[]): { userColon: boolean } | undefined {
  for (let i = 0; i < words.length; i++) {
    if (stdinSecretFlag(words[i]!.value) || secretFromStdin(words, i)) return { userColon: false };
  }
  for (const { at, name } of positionsOf(words, () => true)) {
    if (name === "sudo") {
      if (sudoReadsStdin(words, at)) return { userColon: false };
      continue;
    }
    for (const rule of STDIN_PROGRAMS[name] ?? []) {
      const from = afterPath(words, at, rule.path);
      if (from < 0) continue;
      const rest = words.slice(from);
      const reads =
        rule.always === true ||
        (rule.flags?.some((f) => rest.some((w) => w.value === f || w.value.startsWith(`${f}=`))) ?? false) ||
        (rule.letters !== undefined && [...flagLetters(words, at + 1)].some((c) => rule.letters!.includes(c))) ||
        (rule.dashOperand === true && rest.some((w) => w.value === "-"));
      if (reads) return { userColon: rule.userColon === true };
    }
  }
  return undefined;
}

/** The part of a written word that is the secret: all of it, or what follows `user:`. */
function writtenRange(w: Word, userColon: boolean): Range | undefined {
  if (placeholder(w.value)) return undefined;
  const r = valueRange(w);
  if (!r || !userColon) return r;
  const colon = w.raw.indexOf(":");
  if (colon < 0) return r;
  const secret = w.value.slice(w.value.indexOf(":") + 1);
  if (placeholder(secret)) return undefined;
  return colon + 1 < r.end - w.start ? { start: w.start + colon + 1, end: r.end } : undefined;
}

/** What `echo` or `printf` writes: its operands (printf's format only when it has none). */
function writtenWords(words: readonly Word[]): Word[] {
  const first = commandPosition(words);
  // Its command position, or after a word that is not a flag (a log line's `bash: echo …`).
  let at = first;
  while (
    at < words.length &&
    !(at === first ? /^(?:echo|printf)$/.test(base(words[at]!.value)) : /^(?:echo|printf)$/.test(words[at]!.value) && !words[at - 1]!.value.startsWith("-"))
  )
    at++;
  const program = words[at] ? base(words[at]!.value) : "";
  let i = at + 1;
  if (program === "echo") {
    while (i < words.length && /^-[neE]+$/.test(words[i]!.value)) i++;
    return words.slice(i).filter((w) => !w.hereString);
  }
  if (program === "printf") {
    if (words[i]?.value === "--") i++;
    if (words[i]?.value === "-v") return []; // written into a variable, not the pipe
    const format = words[i];
    const operands = words.slice(i + 1).filter((w) => !w.hereString);
    if (operands.length > 0) return operands;
    return format && format.value.replace(/\\[nrt]/g, "").length > 0 ? [format] : [];
  }
  return [];
}

function stdinRanges(words: readonly Word[]): Range[] {
  const reads = readsSecret(words);
  if (!reads) return [];
  const out: Range[] = [];
  for (const w of words) {
    if (!w.hereString) continue;
    const r = writtenRange(w, reads.userColon);
    if (r) out.push(r);
  }
  const writer = pipedFrom(words);
  for (const w of writer ? writtenWords(writer) : []) {
    const r = writtenRange(w, reads.userColon);
    if (r) out.push(r);
  }
  return out;
}

/** Anything in `text` that could hold such a secret: the cheap test before splitting into words. */
const MAY_HOLD = new RegExp(
  `<<<|stdin|[-_](?:fd|file|from)\\b|/dev/fd/0|--with-token|(?:^|[\\s/"'])(?:${[...new Set(["sudo", ...Object.keys(OPERANDS), ...Object.keys(STDIN_PROGRAMS)])].join("|")})(?:\\s|$)`,
);

/** The operand and standard-input secrets of the commands of `text`. */
export function credentialRanges(text: string): Range[] {
  if (!MAY_HOLD.test(text)) return [];
  return commands(text).flatMap((words) => [...operandRanges(words), ...stdinRanges(words)]);
}

/** The operand secrets of a command already split into words (an explanation's argv), by word. */
export function credentialArgvRanges(argv: readonly string[]): Range[][] {
  let at = 0;
  const words: Word[] = argv.map((a) => {
    const w = { start: at, end: at + a.length, raw: a, value: a };
    at += a.length + 1;
    return w;
  });
  const ranges = operandRanges(words);
  return words.map((w) => ranges.filter((r) => r.start >= w.start && r.end <= w.end).map((r) => ({ start: r.start - w.start, end: r.end - w.start })));
}
