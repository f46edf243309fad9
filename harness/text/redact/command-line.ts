/**
 * Secrets a command line carries by position: the value of a flag whose name says it is a
 * password, token, secret or key (`--password x`, `--api-key=x`, `-storepass x`), and the
 * password flags of the programs known to take one there (`mysql -pPW`, `sshpass -p PW`,
 * `curl -u user:PW`, `docker login -p PW`, `redis-cli -a PW`, `sqlplus user/PW@db`…).
 *
 * A short flag is a password only for its program: `-p` is a port for ssh, `--parents` for
 * mkdir, a patch for git restore, `-print`/`-prune` for find, a pid for ps. The text is split
 * into shell words (quotes, escapes, `;`, `&&`, `|`, `$(`…), each command's program found (its
 * first word after assignments and wrappers such as sudo, env, xargs, timeout; or a known
 * program's name standing after a non-flag word, as in `docker exec db mysql -pPW` or a log line
 * `setup.sh: line 3: mysql -pPW`), and only that program's flags are read.
 */
import type { Range } from "./shapes.ts";

/** One shell word: where it stands in the text, and its text with quotes removed. */
export interface Word {
  start: number;
  end: number;
  raw: string;
  value: string;
  /** The word stands after `<<<`: the command reads it on standard input. */
  hereString?: true;
}

/** For a command of `commands`, the command whose output it reads through a pipe (`a | b`: b's is a). */
const PIPED_FROM = new WeakMap<readonly Word[], readonly Word[]>();

/** The command piped into `words` (`echo x | sudo -S y`: `echo x` for `sudo -S y`), when `commands` split it. */
export function pipedFrom(words: readonly Word[]): readonly Word[] | undefined {
  return PIPED_FROM.get(words);
}

/** Splits `text` into commands of words; a quoted word holding spaces is also read as a command of its own (`bash -c '…'`, `ssh host "…"`). */
export function commands(text: string, offset = 0, depth = 0): Word[][] {
  const out: Word[][] = [];
  let words: Word[] = [];
  let start = -1;
  let value = "";
  let hereString = false;
  /** The command just ended by a pipe, waiting for the command it feeds. */
  let feeding: Word[] | undefined;
  const endWord = (i: number) => {
    if (start >= 0) {
      const raw = text.slice(start, i);
      words.push({ start: offset + start, end: offset + i, raw, value, ...(hereString ? { hereString: true as const } : {}) });
      if (depth < 3 && /^(["']).*\s.*\1$/s.test(raw)) out.push(...commands(raw.slice(1, -1), offset + start + 1, depth + 1));
    }
    start = -1;
    value = "";
    hereString = false;
  };
  const endCommand = (i: number, pipe = false) => {
    endWord(i);
    if (words.length) {
      out.push(words);
      if (feeding) PIPED_FROM.set(words, feeding);
      feeding = pipe ? words : undefined;
    }
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === " " || c === "\t") endWord(i);
    else if (c === "|" && text[i + 1] === "|") {
      endCommand(i);
      i++;
    } else if (c === "|") endCommand(i, true);
    else if (c === "\n" || c === "\r" || c === ";" || c === "&" || c === "|" || c === "(" || c === ")" || c === "`" || c === "{" || c === "}") endCommand(i);
    else if (c === "<" || c === ">") endWord(i);
    else if (c === "$" && text[i + 1] === "(") {
      endCommand(i);
      i++;
    } else {
      if (start < 0) {
        start = i;
        hereString = /<<<[ \t]*$/.test(text.slice(Math.max(0, i - 16), i));
      }
      if (c === "'") {
        const close = text.indexOf("'", i + 1);
        const stop = close < 0 ? text.length : close;
        value += text.slice(i + 1, stop);
        i = stop;
      } else if (c === '"') {
        let j = i + 1;
        while (j < text.length && text[j] !== '"') {
          if (text[j] === "\\" && j + 1 < text.length) j++;
          value += text[j];
          j++;
        }
        i = j;
      } else if (c === "\\" && i + 1 < text.length) {
        value += text[i + 1];
        i++;
      } else value += c;
    }
  }
  endCommand(text.length);
  return out;
}

/** A value that names or stands for a secret rather than being one: a variable, a placeholder, a file. */
export function placeholder(v: string): boolean {
  return (
    v === "" ||
    /\$[{(A-Za-z_]|\$$|(?:\.{3}|…)$/.test(v) ||
    /^(?:\$|%[sd]|\?|:[A-Za-z_]|<[^>]*>$|\{\{|\[REDACTED\]|REDACTED$|\*{3,}|x{3,}$|\.{3}|-$)/i.test(v) ||
    /^(?:\.{0,2}\/|~\/|file:|env:|fd:|stdin$)/.test(v) ||
    // A file holding the secret (key.pem, token.txt), or a build secret's spec (docker build --secret id=x,src=f).
    /^[\w.-]+\.(?:pem|key|crt|cer|der|p12|pfx|jks|keystore|asc|gpg|json|txt|env|ya?ml|ini|conf|cfg|toml)$/i.test(v) ||
    /^(?:id|src|source|env|type|target|dst|required)=/.test(v) ||
    /^(?:true|false|yes|no|null|none|nil|undefined|required|optional|unset|empty|hidden|masked|prompt)$/i.test(v)
  );
}

/** Where in `w` the value starting at `from` (an index into the raw word) lies, quotes left out. */
export function valueRange(w: Word, from = 0): Range | undefined {
  const rest = w.raw.slice(from);
  if (rest.length === 0) return undefined;
  const q = rest[0];
  if ((q === "'" || q === '"') && rest.length >= 2 && rest.endsWith(q)) return rest.length > 2 ? { start: w.start + from + 1, end: w.end - 1 } : undefined;
  // The closing quote of a quote opened before the value (`--from-literal='db=PW'`) stays.
  const last = rest[rest.length - 1]!;
  const opened = (last === "'" || last === '"') && (w.raw.slice(0, from).split(last).length - 1) % 2 === 1;
  const end = opened ? w.end - 1 : w.end;
  return end > w.start + from ? { start: w.start + from, end } : undefined;
}

/** The unquoted value of `w` from raw index `from` (for a flag glued to its value, `-p'x y'`). */
export function valueFrom(w: Word, from: number): string {
  return (
    commands(w.raw.slice(from))[0]
      ?.map((x) => x.value)
      .join(" ") ?? ""
  );
}

// ---- secret-named flags and variables

const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "secret", "token", "apikey", "credential", "credentials", "pass"]);
/** Words that make `key` a secret key (api_key, SECRET_KEY, AccountKey), unlike primary_key or cache_key. */
const KEY_QUALIFIERS = new Set(
  "api access secret private auth client encryption encrypt signing sign master account app application service license licence webhook consumer session hmac jwt shared storage subscription deploy admin write ingest".split(
    " ",
  ),
);
/** Words that may follow the secret word in a name whose value is still the secret (SECRET_KEY_BASE, DOCKER_AUTH_CONFIG). */
const SECRET_TAILS = new Set("value string data b64 base64 raw json plain text bytes base config".split(" "));
/** Long secret words also count at the end of a joined word (PGPASSWORD, csrftoken, clientsecret). */
const SUFFIX_WORDS = ["password", "passwd", "passphrase", "secret", "token", "apikey", "secretkey", "accesskey", "privatekey"];

/** The words of a name: split at _ - . and lower-to-upper case changes (apiKey, X-Api-Key, spring.datasource.password). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[-_.]+/)
    .filter(Boolean);
}

function isSecretWord(words: readonly string[], i: number): boolean {
  const w = words[i]!;
  if (SECRET_WORDS.has(w)) return true;
  if (w === "key") return i > 0 && KEY_QUALIFIERS.has(words[i - 1]!);
  if (w === "pwd") return i > 0;
  if (w === "auth") return true;
  return SUFFIX_WORDS.some((s) => w.length > s.length && w.endsWith(s));
}

/**
 * A name whose value is a secret: it holds a secret word (password, token, secret, a qualified
 * key, …) and nothing after it but words such as _VALUE or _BASE. `reference_passes`,
 * `primary_key`, `max_tokens`, `token_type`, `aws_access_key_id` and `PWD` are not.
 */
export function secretName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0 || words.length > 8) return false;
  for (let i = words.length - 1; i >= 0; i--) {
    if (isSecretWord(words, i)) return true;
    if (!SECRET_TAILS.has(words[i]!)) return false;
  }
  return false;
}

/** A flag named like a secret but taking none, or a file or name rather than the secret. */
const NOT_A_SECRET_FLAG = /^(?:no|ask|show|prompt|use|with|require|skip|generate|print|list|reveal|rotate|expire|check|verify)-/;

/** `--password x`, `--api-key=x`, `-token x`, `-storepass x`: the values of secret-named flags. */
function secretFlagRanges(words: readonly Word[]): Range[] {
  const out: Range[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const m = /^(--?)([A-Za-z][A-Za-z0-9_.-]*)(=|$)/.exec(w.value);
    // A single dash takes long names only (-storepass, -Dpassword=…): -pass, -auth and the like are left to their programs.
    if (!m || (m[1] === "-" && m[2]!.length < 5)) continue;
    const name = m[2]!;
    if (NOT_A_SECRET_FLAG.test(name.toLowerCase()) || !secretName(name)) continue;
    if (m[3] === "=") {
      const eq = w.raw.indexOf("=");
      const v = valueFrom(w, eq + 1);
      const r = valueRange(w, eq + 1);
      if (r && !placeholder(v)) out.push(r);
    } else {
      const next = words[i + 1];
      if (!next || next.value.startsWith("-") || placeholder(next.value)) continue;
      const r = valueRange(next);
      if (r) out.push(r);
    }
  }
  return out;
}

// ---- programs that take a password in a short flag or a positional

interface ProgramRule {
  /** Flags whose value is glued to them (`mysql -pPW`); `-p` alone prompts. */
  glued?: readonly string[];
  /** Flags whose value is the next word (`sshpass -p PW`). */
  separate?: readonly string[];
  /** Flags whose value is `user<sep>password` (`curl -u user:PW`, `smbclient -U user%PW`). */
  userPass?: { flags: readonly string[]; sep: string };
  /** Flags whose value starts with `pass:` (`openssl -passin pass:PW`). */
  passPrefixed?: readonly string[];
  /** Flags whose value is `name=secret` (`kubectl create secret generic x --from-literal=db=PW`). */
  keyValue?: readonly string[];
  /** The first positional is `user/password[@db]` (`sqlplus scott/PW@orcl`). */
  slashUserPass?: boolean;
  /** The rule holds only after this subcommand (`docker login -p PW`; `docker run -p 80:80` is a port). */
  subcommand?: string;
}

const MYSQL: ProgramRule = { glued: ["-p"] };
const ARCHIVE: ProgramRule = { glued: ["-p"] };
const REGISTRY_LOGIN: ProgramRule = { subcommand: "login", glued: ["-p"], separate: ["-p"] };
const MONGO: ProgramRule = { separate: ["-p"] };
const SQLSERVER: ProgramRule = { separate: ["-P"] };
const LDAP: ProgramRule = { separate: ["-w"] };
const ORACLE: ProgramRule = { slashUserPass: true };
const SMB: ProgramRule = { userPass: { flags: ["-U", "--user"], sep: "%" } };

const PROGRAMS: Readonly<Record<string, ProgramRule>> = {
  ...Object.fromEntries(
    ["mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump", "mysqlbinlog", "mysqlslap", "mysqlsh"].map((p) => [p, MYSQL]),
  ),
  ...Object.fromEntries(
    ["mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import", "mariadb-show", "mariadb-check", "mariadb-binlog"].map((p) => [p, MYSQL]),
  ),
  ...Object.fromEntries(["7z", "7za", "7zr", "rar", "unrar"].map((p) => [p, ARCHIVE])),
  ...Object.fromEntries(["docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras"].map((p) => [p, REGISTRY_LOGIN])),
  ...Object.fromEntries(["mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop"].map((p) => [p, MONGO])),
  ...Object.fromEntries(["sqlcmd", "bcp", "osql"].map((p) => [p, SQLSERVER])),
  ...Object.fromEntries(["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldapcompare", "ldapmodrdn", "ldapexop"].map((p) => [p, LDAP])),
  ...Object.fromEntries(["sqlplus", "sqlldr", "expdp", "impdp"].map((p) => [p, ORACLE])),
  ...Object.fromEntries(["smbclient", "rpcclient", "smbcacls", "smbget"].map((p) => [p, SMB])),
  sshpass: { glued: ["-p"], separate: ["-p"] },
  "redis-cli": { separate: ["-a"] },
  zip: { separate: ["-P"] },
  unzip: { separate: ["-P"] },
  mosquitto_pub: { separate: ["-P"] },
  mosquitto_sub: { separate: ["-P"] },
  openssl: { separate: ["-k"], passPrefixed: ["-pass", "-passin", "-passout"] },
  keytool: { separate: ["-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass"] },
  "ssh-keygen": { separate: ["-N", "-P"] },
  curl: { userPass: { flags: ["-u", "--user", "-U", "--proxy-user"], sep: ":" } },
  http: { userPass: { flags: ["-a", "--auth"], sep: ":" } },
  https: { userPass: { flags: ["-a", "--auth"], sep: ":" } },
  lftp: { userPass: { flags: ["-u"], sep: "," } },
  kubectl: { subcommand: "secret", keyValue: ["--from-literal"] },
  oc: { subcommand: "secret", keyValue: ["--from-literal"] },
  gh: { subcommand: "secret", separate: ["-b", "--body"] },
  // Cloud and deployment logins: `-p`/`-t` is the password or token only after their login subcommand.
  az: { subcommand: "login", separate: ["-p"] },
  cf: { subcommand: "login", separate: ["-p"] },
  doctl: { subcommand: "init", separate: ["-t"] },
  twine: { separate: ["-p"] },
  ipmitool: { separate: ["-P"] },
  rdesktop: { separate: ["-p"] },
  xfreerdp: { glued: ["/p:"] },
  ...Object.fromEntries(["plink", "pscp", "psftp"].map((p) => [p, { separate: ["-pw"] }])),
  jarsigner: { separate: ["-storepass", "-keypass"] },
  ldappasswd: { separate: ["-w", "-a", "-s"] },
};

/** Programs that run the command after them (their own flags skipped). */
const WRAPPERS = new Set(
  "sudo doas env nice ionice nohup time exec command builtin stdbuf chrt taskset timeout xargs watch unbuffer setsid flock runuser".split(" "),
);

/** Terminal escape sequences and control characters a word may carry before a program's name (a coloured log line). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is stripped
const LEADING_CONTROLS = /^(?:\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[\u0000-\u001f\u007f-\u009f])+/;

function programName(raw: string): string | undefined {
  const word = raw.replace(LEADING_CONTROLS, "");
  const slash = word.lastIndexOf("/");
  // A path names a program only in a bin folder (/usr/bin/mysql); /etc/mysql is a folder.
  if (slash >= 0 && !/(?:^|\/)s?bin$/.test(word.slice(0, slash))) return undefined;
  const name = word.slice(slash + 1);
  return Object.hasOwn(PROGRAMS, name) ? name : undefined;
}

/** The index of the command's program: after assignments, prompt marks and wrappers with their flags. */
export function commandPosition(words: readonly Word[]): number {
  let i = 0;
  while (i < words.length) {
    const v = words[i]!.value;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(v) || v === "$" || v === "#" || v === "+" || v === "++" || v === "!") i++;
    else if (WRAPPERS.has(v.slice(v.lastIndexOf("/") + 1))) {
      i++;
      while (i < words.length && (words[i]!.value.startsWith("-") || /^\d+[smhd]?$/.test(words[i]!.value))) i++;
    } else return i;
  }
  return i;
}

/** Where each known program stands in a command: its command position, or after a word that is not a flag (`docker exec db mysql`, `find -name mysql` is not one). */
function programsIn(words: readonly Word[]): { at: number; rule: ProgramRule }[] {
  const first = commandPosition(words);
  const out: { at: number; rule: ProgramRule }[] = [];
  for (let i = 0; i < words.length; i++) {
    const name = programName(words[i]!.value);
    if (!name) continue;
    const prev = words[i - 1]?.value;
    if (i === first || prev === undefined || prev === "--" || !prev.startsWith("-")) out.push({ at: i, rule: PROGRAMS[name]! });
  }
  return out;
}

function programRanges(words: readonly Word[]): Range[] {
  const out: Range[] = [];
  for (const { at, rule } of programsIn(words)) {
    let sub = rule.subcommand === undefined;
    let positional = 0;
    for (let i = at + 1; i < words.length; i++) {
      const w = words[i]!;
      const v = w.value;
      if (!sub) {
        if (v === rule.subcommand) sub = true;
        continue;
      }
      const next = words[i + 1];
      if (rule.separate?.includes(v) && next && !next.value.startsWith("-") && !placeholder(next.value)) {
        const r = valueRange(next);
        if (r) out.push(r);
        i++;
        continue;
      }
      const glued = rule.glued?.find((f) => v.startsWith(f) && v.length > f.length && w.raw.startsWith(f));
      if (glued && !placeholder(valueFrom(w, glued.length))) {
        const r = valueRange(w, glued.length);
        if (r) out.push(r);
        continue;
      }
      if (rule.userPass) {
        const { flags, sep } = rule.userPass;
        const eqFlag = flags.find((f) => f.startsWith("--") && v.startsWith(`${f}=`));
        const gluedFlag = flags.find((f) => !f.startsWith("--") && v.startsWith(f) && v.length > f.length);
        const [target, from] = flags.includes(v) && next ? [next, 0] : eqFlag ? [w, eqFlag.length + 1] : gluedFlag ? [w, gluedFlag.length] : [undefined, 0];
        if (target) {
          const r = userPassRange(target, from, sep);
          if (r) out.push(r);
          if (target === next) i++;
          continue;
        }
      }
      if (rule.passPrefixed?.includes(v) && next?.value.startsWith("pass:")) {
        const at = next.raw.indexOf("pass:") + 5;
        const r = valueRange(next, at);
        if (r && !placeholder(next.value.slice(5))) out.push(r);
        i++;
        continue;
      }
      const kv = rule.keyValue?.find((f) => v.startsWith(`${f}=`));
      if (kv) {
        const eq = w.raw.indexOf("=", w.raw.indexOf("=") + 1);
        if (eq > 0) {
          const r = valueRange(w, eq + 1);
          if (r && !placeholder(v.slice(v.indexOf("=", kv.length + 1) + 1))) out.push(r);
        }
        continue;
      }
      if (rule.slashUserPass && !v.startsWith("-") && positional++ === 0) {
        const m = /^([^/@\s]+)\/([^@\s]+)/.exec(v);
        if (m && !placeholder(m[2]!) && w.raw === v) out.push({ start: w.start + m[1]!.length + 1, end: w.start + m[0].length });
      }
    }
  }
  return out;
}

/** The password of a `user<sep>password` value (the user name is kept). */
function userPassRange(w: Word, from: number, sep: string): Range | undefined {
  const value = valueFrom(w, from);
  const cut = value.indexOf(sep);
  if (cut <= 0 || placeholder(value.slice(cut + 1))) return undefined;
  const rawCut = w.raw.indexOf(sep, from);
  if (rawCut < 0) return undefined;
  const closing = /["']$/.test(w.raw) && /["']/.test(w.raw.slice(from, rawCut)) ? 1 : 0;
  const end = w.end - closing;
  return end > w.start + rawCut + 1 ? { start: w.start + rawCut + 1, end } : undefined;
}

/** `aws configure set aws_secret_access_key VALUE`: a secret-named setting's value. */
function awsConfigureRanges(words: readonly Word[]): Range[] {
  const out: Range[] = [];
  for (let i = 0; i + 4 < words.length; i++) {
    if (words[i]?.value !== "aws" || words[i + 1]?.value !== "configure" || words[i + 2]?.value !== "set") continue;
    const name = words[i + 3];
    const value = words[i + 4];
    if (name && value && secretName(name.value.replace(/^.*\./, "")) && !placeholder(value.value)) {
      const r = valueRange(value);
      if (r) out.push(r);
    }
  }
  return out;
}

/** Anything in `text` that could be a command-line secret; the cheap test before splitting into words. */
const MAY_HOLD = new RegExp(`\\s-|(?:^|[\\s/"'])(?:${Object.keys(PROGRAMS).join("|")}|aws)\\s`, "i");

/** The command-line secrets of `text`. */
export function commandLineRanges(text: string): Range[] {
  if (!MAY_HOLD.test(text)) return [];
  const all = commands(text).flatMap((words) => [...secretFlagRanges(words), ...programRanges(words), ...awsConfigureRanges(words)]);
  // A program named twice (`sudo -u mysql mysql -pPW`) finds its password twice.
  return all.filter((r, i) => all.findIndex((o) => o.start === r.start && o.end === r.end) === i);
}

/** The same for a command already split into words (an explanation's argv). */
export function argvRanges(argv: readonly string[]): Range[][] {
  let at = 0;
  const words: Word[] = argv.map((a) => {
    const w = { start: at, end: at + a.length, raw: a, value: a };
    at += a.length + 1;
    return w;
  });
  const ranges = [...secretFlagRanges(words), ...programRanges(words), ...awsConfigureRanges(words)];
  return words.map((w) => ranges.filter((r) => r.start >= w.start && r.end <= w.end).map((r) => ({ start: r.start - w.start, end: r.end - w.start })));
}
