/**
 * Secrets recognised by what names them in free text: `NAME=value` and `NAME: value` for a
 * name that says password, token, secret or a qualified key (env dumps, .env lines, YAML, JSON,
 * query strings, headers such as `X-Api-Key:`); `Authorization:` / `Proxy-Authorization:`
 * header values; `Bearer <token>` and `Basic <base64 of user:password>`; and the password of
 * `scheme://user:password@host`. Only the value is a secret: the name, the user and the host stay.
 */
import { placeholder, secretName } from "./command-line.ts";
import { matches, type Range } from "./shapes.ts";

/** A plain word (`expected`, `Required`): what follows `token:` in prose, never a generated credential. */
const PLAIN_WORD = /^[A-Za-z][a-z]*$/;

/** Whether the quote at `at` closes a string opened earlier on its line (`grep '^API_KEY=' f`). */
function closesQuote(text: string, at: number): boolean {
  const q = text[at]!;
  let open = false;
  for (let i = text.lastIndexOf("\n", at - 1) + 1; i < at; i++) {
    if (text[i] === "\\" && q === '"') i++;
    else if (text[i] === q) open = !open;
  }
  return open;
}

/**
 * The end of the value that starts at `at`: a quoted string (quotes left out) or a bare word.
 * A quote there may close a string opened earlier on the line (`grep '^API_KEY=' f`): then there
 * is no value, unless the name was itself quoted (`"password":"x"`, where the names' quotes
 * pair up) or a whole string follows, starting with no blank and closed on the line (the count of
 * quotes on a line misleads after a string that spans lines, such as a PEM block in a JSON value).
 * A quoted value never starts with a blank.
 */
function valueAt(text: string, at: number, nameQuoted = false): Range | undefined {
  const q = text[at];
  if (q === '"' || q === "'") {
    let j = at + 1;
    while (j < text.length && text[j] !== q && text[j] !== "\n") j += text[j] === "\\" && q === '"' ? 2 : 1;
    const whole = j < text.length && text[j] === q && /^\S/.test(text[at + 1] ?? "") && !/\s/.test(text.slice(at + 1, j));
    if (!nameQuoted && !whole && closesQuote(text, at)) return undefined;
    // A generated or chosen secret does not start with a blank: a quote followed by one closes a string.
    if (/[ \t]/.test(text[at + 1] ?? "")) return undefined;
    return j > at + 1 ? { start: at + 1, end: Math.min(j, text.length) } : undefined;
  }
  const m = /^[^\s'"`;&|<>(){}[\],\\]+/.exec(text.slice(at, at + 4096));
  return m ? { start: at, end: at + m[0].length } : undefined;
}

/** Names that say secret even in a sentence (`your password: Tr0ub4dor`); `pass`, `token`, `secret` alone do not. */
const STRONG_WORDS = new Set(["password", "passwd", "passphrase", "apikey"]);

/** Whether `at` starts a field: a line, a list item, an object entry, a query parameter, a quoted string. */
function fieldStart(text: string, at: number): boolean {
  let i = at - 1;
  // A name that opens a quoted string starts it (`echo "token: …" > notes`, `{"token": …}`).
  if (text[i] === '"' || text[i] === "'") return true;
  const blanks = () => {
    while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  };
  blanks();
  // A YAML list item: `- password: x`.
  if (text[i] === "-") {
    i--;
    blanks();
  }
  return i < 0 || "\n\r{,;(&?[".includes(text[i]!);
}

const ASSIGNMENT = /(?<![\w.$-])(["']?)([A-Za-z_][\w.-]{0,80})(["']?)[ \t]*(:=|=>|=(?!=)|:(?![:/]))[ \t]*/g;

/** Values of secret-named variables, settings, fields and headers. */
function assignmentRanges(text: string): Range[] {
  const out: Range[] = [];
  if (!/[=:]/.test(text)) return out;
  for (const m of matches(ASSIGNMENT, text)) {
    const [whole, open, name, close, sep] = m as unknown as [string, string, string, string, string];
    if (close && close !== open) continue;
    if (!secretName(name)) continue;
    // ${API_KEY:-default} is a parameter expansion, not an assignment.
    if (text.slice(Math.max(0, m.index - 1), m.index) === "{" && text[m.index - 2] === "$") continue;
    const at = m.index + whole.length;
    // "password=" opened by a quote before the name and closed right after the separator: no value.
    const r = valueAt(text, at, open !== "" && open === close);
    if (!r) continue;
    const value = text.slice(r.start, r.end);
    const quoted = r.start > at;
    if (placeholder(value)) continue;
    if (!quoted) {
      // Code, not a value: os.environ["PW"], getpass(), settings.SECRET.
      if (/[([]/.test(text[r.end] ?? "") || /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(value)) continue;
      // `token: expected string` is prose; a credential after a prose word is never a plain word.
      if (sep === ":" && /^[a-z]+$/.test(name) && PLAIN_WORD.test(value)) continue;
    }
    // A plain word and a colon inside a sentence (`Tests pass: "2 passed"`) is prose, unless the word is password or passphrase.
    if (sep === ":" && /^[a-z]+$/.test(name) && !fieldStart(text, m.index) && (!STRONG_WORDS.has(name) || /\s/.test(value))) continue;
    out.push(r);
  }
  return out;
}

const AUTH_HEADER = /(?<![\w-])(?:Proxy-)?Authorization(["']?)[ \t]*[:=][ \t]*(["']?)/gi;

/** The credential of an Authorization header: after its scheme (Bearer, Basic, token…), or the whole value. */
function authorizationRanges(text: string): Range[] {
  const out: Range[] = [];
  if (!/authorization/i.test(text)) return out;
  for (const m of matches(AUTH_HEADER, text)) {
    const at = m.index + m[0].length;
    const first = /^[^\s'"\\,;]+/.exec(text.slice(at, at + 4096))?.[0];
    if (!first) continue;
    let start = at;
    let cred = first;
    const scheme = /^[A-Za-z][A-Za-z0-9-]*$/.test(first) ? /^[ \t]+([^\s'"\\,;]+)/.exec(text.slice(at + first.length, at + first.length + 4096)) : null;
    if (scheme) {
      if (/^digest$/i.test(first)) continue;
      start = at + first.length + scheme[0].length - scheme[1]!.length;
      cred = scheme[1]!;
    }
    if (placeholder(cred) || PLAIN_WORD.test(cred)) continue;
    out.push({ start, end: start + cred.length });
  }
  return out;
}

const BEARER = /(?<![\w-])Bearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)(?![\w.~+/=-])/g;
const BASIC = /(?<![\w-])Basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])/g;

/** `Bearer <token>` (a token, not a word) and `Basic <base64 of user:password>`, wherever they stand. */
function schemeRanges(text: string): Range[] {
  const out: Range[] = [];
  const group = (m: RegExpExecArray) => ({ start: m.index + m[0].length - m[1]!.length, end: m.index + m[0].length });
  if (text.includes("Bearer")) for (const m of matches(BEARER, text)) if (!PLAIN_WORD.test(m[1]!) && /[0-9A-Z._~+/-]/.test(m[1]!.slice(1))) out.push(group(m));
  if (text.includes("Basic"))
    for (const m of matches(BASIC, text)) {
      const decoded = Buffer.from(m[1]!, "base64").toString("latin1");
      if (/^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) && !decoded.startsWith(":")) out.push(group(m));
    }
  return out;
}

/** A password may hold ? and # unencoded (people write them so); the user, never. */
const URL_CREDENTIALS = /(?<![\w+.-])[a-z][a-z0-9+.-]{0,30}:\/\/([^\s/?#@:'"<>]{0,256}):([^\s/@'"<>]{1,256})@/gi;

/** The password of a URL's user information (the user and host stay). */
function urlRanges(text: string): Range[] {
  if (!text.includes("://")) return [];
  const out: Range[] = [];
  for (const m of matches(URL_CREDENTIALS, text)) {
    const pass = m[2]!;
    if (placeholder(pass)) continue;
    const end = m.index + m[0].length - 1;
    out.push({ start: end - pass.length, end });
  }
  return out;
}

/** Every named secret of `text`. */
export function namedRanges(text: string): Range[] {
  return [...assignmentRanges(text), ...authorizationRanges(text), ...schemeRanges(text), ...urlRanges(text)];
}
