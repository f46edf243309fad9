/**
 * The one redaction module: every byte gatebench writes about a trial (command summaries, event
 * logs, hidden-test output, setup errors, approval records, summaries, the terminal line) goes
 * through `redact` (text) or `redactDeep` (records) first; harness/runner/output.ts applies it
 * to everything it writes. What a log may say about a tool call: never file bodies, never
 * secrets. Covered:
 *  - known token shapes: AKIA…, sk-…, sk_live_…/rk_test_…, ghp_…/gho_…, github_pat_…, xox[abpr]-…,
 *    glpat-…, AIza…, JWTs, Bearer/Basic credentials, PEM private key blocks;
 *  - credentials in URLs (postgres://u:p@h, also without a scheme: u:p@host);
 *  - command-line forms: -p<password>, -u user:pass / --user user:pass, --password x,
 *    --token=x (any flag naming a password, token, secret, key or credential);
 *  - KEY=value and KEY: value for secret-ish names, and `KEY value` when the name looks like a
 *    variable (upper case or snake_case: `aws configure set aws_secret_access_key X`);
 *  - bare high-entropy tokens (a 40-character AWS secret), but not hex digests: a git SHA or a
 *    sha256 in a path is not a secret.
 */
export const REDACTED = "[REDACTED]";

const SECRET_SHAPES: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{8,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{8,}/g,
  /\bxox[abpr]-[A-Za-z0-9-]{8,}/g,
  /\bglpat-[A-Za-z0-9_-]{8,}/g,
  /\b(AKIA|ASIA)[0-9A-Z]{12,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];
const SECRET_WORD = "(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH)";
const VALUE = `("[^"]*"|'[^']*'|[^\\s;&|<>]+)`;
const SECRET_ASSIGNMENT = new RegExp(`\\b([A-Za-z0-9_-]*${SECRET_WORD}[A-Za-z0-9_-]*)\\s*([=:])\\s*${VALUE}`, "gi");
/** `NAME value` where NAME looks like a variable: upper case (API_TOKEN) or snake_case (aws_secret_access_key). */
const UPPER_SECRET_NAME = `(?:[A-Z0-9]*_)*[A-Z0-9]*${SECRET_WORD}[A-Z0-9_]*`;
const SNAKE_SECRET_NAME = "[a-z0-9]+(?:_[a-z0-9]+)*_(?:key|token|secret|password|passwd|pass|credentials?)(?:_[a-z0-9]+)*";
const SECRET_NAME_VALUE = new RegExp(`(?<![$\\w-])(${UPPER_SECRET_NAME}|${SNAKE_SECRET_NAME})[ \\t]+(?![-=:\\[])${VALUE}`, "g");
/** --password x, --token=x, --api-key x, --client-secret x. */
const FLAG_WORD = "(?:password|passwd|token|secret|api-?key|private-key|access-key|credentials?)";
const SECRET_FLAG = new RegExp(`(^|\\s)(--?[A-Za-z0-9-]*${FLAG_WORD}[A-Za-z0-9-]*)(=|[ \\t]+)(?!-)("[^"]*"|'[^']*'|[^\\s;&|<>]+)`, "gi");
/** mysql -p<password>: glued to -p, four characters or more, or anything not a flag cluster. */
const GLUED_P = /(^|\s)-p(?=\S)(?![A-Za-z]{1,3}(\s|$))([^\s;&|<>]+)/g;
/** curl -u user:pass, --user user:pass. */
const USER_PASS_FLAG = /(^|\s)(-u|--user|--proxy-user)(=|[ \t]+)(?:"([^":]+):[^"]*"|'([^':]+):[^']*'|([^\s:"']+):[^\s"']+)/g;
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;
const BARE_CREDENTIALS = /(^|[\s'"=(])([A-Za-z0-9._%+-]+):([^\s@/:'"]+)@(?=[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*([:/\s'"]|$))/g;
const TOKEN_CANDIDATE = /[A-Za-z0-9+/=_-]{32,}/g;

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

function charClass(c: string): number {
  return /[A-Z]/.test(c) ? 0 : /[a-z]/.test(c) ? 1 : /[0-9]/.test(c) ? 2 : 3;
}

/** How often neighbouring characters change class (upper, lower, digit, symbol): ~0.64 for random base64, ~0.3 for words and paths. */
function classChanges(t: string): number {
  let changes = 0;
  for (let i = 1; i < t.length; i++) if (charClass(t[i]!) !== charClass(t[i - 1]!)) changes++;
  return changes / (t.length - 1);
}

/** A random-looking token: mixed case and digits, high entropy, not a hex digest, not a path or identifier. */
export function looksLikeSecretToken(t: string): boolean {
  if (/^[0-9a-fA-F-]+$/.test(t)) return false;
  if (!/[A-Z]/.test(t) || !/[a-z]/.test(t)) return false;
  // Letters only: a name (CamelCase changes case every few letters) unless it changes case like random text.
  if (!/[0-9+/]/.test(t)) return classChanges(t) >= 0.45 && entropy(t) >= 3.5;
  // A path: a lower-case word among segments that all read like names (src/Components/Button2/index).
  const segments = t.split("/");
  if (segments.length > 1 && segments.some((seg) => /^[a-z]{3,}$/.test(seg)) && segments.every((seg) => seg.length < 2 || classChanges(seg) < 0.35))
    return false;
  // A name made of words (x86_64-unknown-linux-gnu): two lower-case words or more between - and _ (not in base64).
  if (t.split(/[-_]/).filter((seg) => /^[a-z]{3,}$/.test(seg)).length >= 2) return false;
  // Random base64 changes class at ~0.64 of its characters (below 0.3: about 1 in 100,000 secrets).
  return classChanges(t) >= 0.3 && entropy(t) >= 3.5;
}

/**
 * Texts already redacted, and what they became: a run writes the same summaries, outputs and
 * records for the many trials that share a path. Bounded by the characters held (then emptied).
 */
const redacted = new Map<string, string>();
const REMEMBER_MAX_TEXT = 16 * 1024;
const REMEMBER_MAX_CHARS = 4 * 1024 * 1024;
let rememberedChars = 0;

export function redact(text: string): string {
  if (text.length > REMEMBER_MAX_TEXT) return redactText(text);
  const known = redacted.get(text);
  if (known !== undefined) return known;
  const out = redactText(text);
  if (rememberedChars + text.length + out.length > REMEMBER_MAX_CHARS) {
    redacted.clear();
    rememberedChars = 0;
  }
  redacted.set(text, out);
  rememberedChars += text.length + out.length;
  return out;
}

/** The redaction itself, every time (what `redact` remembers). */
export function redactText(text: string): string {
  let out = text;
  for (const shape of SECRET_SHAPES) out = out.replace(shape, REDACTED);
  out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  out = out.replace(BARE_CREDENTIALS, `$1$2:${REDACTED}@`);
  out = out.replace(USER_PASS_FLAG, (_m, pre: string, flag: string, sep: string, dq?: string, sq?: string, bare?: string) => {
    const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : "";
    return `${pre}${flag}${sep}${quote}${dq ?? sq ?? bare}:${REDACTED}${quote}`;
  });
  out = out.replace(SECRET_FLAG, (_m, pre: string, flag: string, sep: string) => `${pre}${flag}${sep}${REDACTED}`);
  out = out.replace(GLUED_P, (_m, pre: string) => `${pre}-p${REDACTED}`);
  out = out.replace(SECRET_ASSIGNMENT, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  // A path after the name (grep -rn API_KEY src/) is not its value.
  out = out.replace(SECRET_NAME_VALUE, (m, _name: string, value: string) =>
    value === REDACTED || /^(\.{0,2}\/|~\/)|\/$/.test(value) ? m : `${m.slice(0, m.length - value.length)}${REDACTED}`,
  );
  out = out.replace(TOKEN_CANDIDATE, (t) => (looksLikeSecretToken(t) ? REDACTED : t));
  return out;
}

/** A copy of a JSON-like value with every string redacted (object keys are kept). */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}

const MAX_SUMMARY = 240;

/** A one-line, redacted description of a call: the operation and its targets, no bodies. */
export function summarizeCall(tool: string, args: Readonly<Record<string, unknown>>): string {
  const s = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  let text: string;
  switch (tool) {
    case "bash":
      text = `bash: ${s("command") ?? ""}`;
      break;
    case "write":
      text = `write ${s("path")} (${Buffer.byteLength(s("content") ?? "")} bytes)`;
      break;
    case "edit":
      text = `edit ${s("path")} (${Array.isArray(args.edits) ? args.edits.length : 0} edits)`;
      break;
    case "delete":
      text = `delete ${s("path")}${args.recursive ? " (recursive)" : ""}`;
      break;
    default:
      text = `${tool} ${[s("path"), s("pattern")].filter(Boolean).join(" ")}`;
  }
  const red = redact(text.replace(/\s+/g, " ").trim());
  return red.length > MAX_SUMMARY ? `${red.slice(0, MAX_SUMMARY)}…` : red;
}
