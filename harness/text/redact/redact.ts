/**
 * The one redaction module. Rules:
 *
 *  - Redact at the output sinks only, never in memory. Records, event logs and results stay as
 *    they are while the run uses them (to resume, merge, summarise, look up a trial's log); the
 *    sinks write a redacted copy: harness/run/output/output.ts (results.jsonl, trials/<id>.jsonl,
 *    approvals.jsonl, summary.json, summary.md, report.html), the terminal
 *    (harness/text/redact/terminal.ts), the CI step summary and the CLIs' `--json` documents.
 *  - Never a key. The identifying fields of a record (run_id, trial_id, task, agent, gate,
 *    approver, category, attempt, and the ids, names and folders of `IDENTIFYING_FIELDS`) are
 *    written as they are: `rt-sk-learn-cache` is a task id, and a trial's log is found by it.
 *  - Recognise secrets by their real shapes, never by a short prefix, so that text without a
 *    secret is never changed (`find -print`, `git restore -p`, `reference_passes: …`, a temp
 *    folder's random name):
 *      - provider credentials by format, prefix, alphabet and length (OpenAI, Anthropic, Stripe,
 *        GitHub, Slack, GitLab, AWS key ids, Google, npm, HuggingFace, JWTs, PEM private keys…;
 *        harness/text/redact/shapes.ts);
 *      - by what names them (harness/text/redact/named.ts): `NAME=value` / `NAME: value` when the name
 *        says password, token, secret or a qualified key (API_KEY, aws_secret_access_key, not
 *        primary_key or max_tokens); Authorization headers; Bearer tokens and Basic credentials
 *        (base64 of user:password); the password of `scheme://user:password@host`;
 *      - by position on a command line (harness/text/redact/command-line.ts): the value of a flag named
 *        like a secret (`--password x`, `--api-key=x`), and short flags only for the programs known
 *        to take a password there (`mysql -pPW`, `sshpass -p PW`, `curl -u user:PW`,
 *        `docker login -p PW`, `redis-cli -a PW`, `az login -p PW`…), never `ssh -p 22`, `mkdir -p`, `grep -P`;
 *      - by what a credential command does with its operands and standard input
 *        (harness/text/redact/credentials.ts): a positional secret (`htpasswd -b FILE USER PW`,
 *        `vault login TOKEN`), and what `echo`/`printf` pipe or a here-string gives to a command
 *        that reads a secret there (`echo PW | sudo -S …`, `… | docker login --password-stdin`,
 *        `passwd --stdin`, `chpasswd`);
 *      - bare high-entropy tokens of 32 characters or more that read as random (with nothing else
 *        to know them by, about 1 in 450 random 32-character tokens and 1 in 6,000 40-character
 *        base64 ones are missed); hex digests (git SHAs, sha256), UUIDs, spelled digests (sha512-…,
 *        h1:…), SSH public keys, CamelCase names, paths and base64 of text (unless the text holds a
 *        secret) are not secrets.
 *    Variables and placeholders (`$TOKEN`, `<password>`, `%s`, `?`, a file such as key.pem) are
 *    references to a secret, not secrets, and stay.
 *  - Only the secret itself becomes `[REDACTED]`: names, users, hosts and quotes stay, so
 *    redacting is idempotent, and a JSON document is redacted value by value before it is
 *    serialised (`jsonText`), never as text after it, so it stays valid JSON for any input.
 */
import { argvRanges, commandLineRanges } from "./command-line.ts";
import { credentialArgvRanges, credentialRanges } from "./credentials.ts";
import { namedRanges } from "./named.ts";
import { entropyRanges, type Range, shapeRanges } from "./shapes.ts";

export { looksLikeSecretToken } from "./shapes.ts";

export const REDACTED = "[REDACTED]";

/** Every range of `text` that holds a secret (possibly overlapping). */
export function secretRanges(text: string): Range[] {
  // Base64 of text (`echo <base64> | base64 -d | bash`) is a secret when the text it encodes holds one.
  return [
    ...shapeRanges(text),
    ...namedRanges(text),
    ...commandLineRanges(text),
    ...credentialRanges(text),
    ...entropyRanges(text, (decoded) => secretRanges(decoded).length > 0),
  ];
}

/** `text` with every range replaced by one REDACTED (overlapping and touching ranges merged). */
function replaceRanges(text: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]!.start;
    let end = sorted[i]!.end;
    for (i++; i < sorted.length && sorted[i]!.start <= end; i++) end = Math.max(end, sorted[i]!.end);
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/** The redaction itself, every time (what `redact` remembers). */
export function redactText(text: string): string {
  return replaceRanges(text, secretRanges(text));
}

/**
 * Texts already redacted, and what they became: a run writes the same summaries, outputs and
 * records for the many trials that share a path. Bounded by the characters held (then emptied).
 */
const redacted = new Map<string, string>();
const REMEMBER_MAX_TEXT = 16 * 1024;
const REMEMBER_MAX_CHARS = 4 * 1024 * 1024;
let rememberedChars = 0;

/** `text` with every secret replaced by REDACTED; text without a secret comes back unchanged. */
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

const ENTITY = /&(amp|lt|gt|quot|#39);/g;
const ENTITY_CHAR: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
const CHAR_ENTITY: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Markup whose text and attribute values are escaped with the five HTML entities (report.html:
 * `<`, `>`, `"` and `'` stand raw only as markup), redacted piece by piece: each text node,
 * attribute value and tag on its own, read as the text it escapes (`PGPASSWORD=&#39;pw&#39;` is
 * `PGPASSWORD='pw'`) and written back escaped. A secret in escaped text never holds a raw markup
 * character, so it lies within one piece; and the pieces of a large report repeat (a cell, a
 * command that many trials share), so most are remembered rather than scanned again.
 */
export function redactMarkup(markup: string): string {
  const pieces = markup.split(/([<>"'])/);
  let changed = false;
  for (let i = 0; i < pieces.length; i += 2) {
    const piece = pieces[i]!;
    const text = piece.includes("&") ? piece.replace(ENTITY, (_, name: string) => ENTITY_CHAR[name]!) : piece;
    const out = redact(text);
    if (out === text) continue;
    pieces[i] = out.replace(/[&<>"']/g, (c) => CHAR_ENTITY[c]!);
    changed = true;
  }
  return changed ? pieces.join("") : markup;
}

/** A command split into words (an explanation's argv), each word redacted knowing the others (`mysql`, then `-pPW`). */
export function redactArgv(argv: readonly string[]): string[] {
  const byWord = argvRanges(argv);
  const operands = credentialArgvRanges(argv);
  return argv.map((a, i) => replaceRanges(a, [...byWord[i]!, ...operands[i]!, ...secretRanges(a)]));
}

/**
 * Fields that identify or look something up and are never rewritten, at any depth: a record's
 * key (run_id, trial_id, task, agent, gate, approver, category, attempt), the ids of calls and
 * confirmations, persona and variant names, and the folders and files a document names.
 */
export const IDENTIFYING_FIELDS: ReadonlySet<string> = new Set([
  "run_id",
  "trial_id",
  "task",
  "agent",
  "gate",
  "approver",
  "category",
  "attempt",
  "id",
  "confirmation_id",
  "tool_call_id",
  "tool",
  "persona",
  "name",
  "source",
  "family",
  "gates",
  "approvers",
  "dir",
  "out",
  "corpus",
]);

/**
 * A copy of a JSON-like value with every string redacted, except the strings (or lists of
 * strings) of identifying fields; object keys are kept. The input is not changed.
 */
export function redactDeep<T>(value: T, keep: ReadonlySet<string> = IDENTIFYING_FIELDS): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, keep)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const identifying = keep.has(k) && (typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string")));
      out[k] = identifying ? v : redactDeep(v, keep);
    }
    return out as T;
  }
  return value;
}

/** A JSON document of `value`, redacted value by value before serialising: valid JSON whatever the strings hold. */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(redactDeep(value), null, indent);
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
  // Redacted before its lines are joined (each line is its own command) and before it is cut.
  const red = redact(text).replace(/\s+/g, " ").trim();
  return red.length > MAX_SUMMARY ? `${red.slice(0, MAX_SUMMARY)}…` : red;
}
