/**
 * Secrets recognised by their own shape, wherever they stand: provider credentials by their
 * published formats (prefix, alphabet and length), JWTs, PEM private key blocks, and bare
 * high-entropy tokens. Each finder returns the ranges of `text` that hold a secret; nothing
 * here rewrites text (harness/text/redact/redact.ts does, once, from the ranges of every finder).
 *
 * A prefix alone is never enough: `sk-learn-cache` is not an OpenAI key and `ghp_test` is not a
 * GitHub token. The part after the prefix must have the provider's length and alphabet, and read
 * as random (at least two of upper case, lower case and digits, as every generated key does).
 */

export interface Range {
  start: number;
  end: number;
}

/** Characters a token is made of; a provider prefix must not continue a longer word (`rt-sk-…`). */
const TOKEN_CHAR = "A-Za-z0-9_\\-";
const START = `(?<![${TOKEN_CHAR}.])`;
const END = `(?![${TOKEN_CHAR}])`;

/** At least two of upper case, lower case and digits: how a generated key reads, unlike a word. */
export function readsRandom(s: string): boolean {
  return Number(/[A-Z]/.test(s)) + Number(/[a-z]/.test(s)) + Number(/[0-9]/.test(s)) >= 2;
}

interface Shape {
  name: string;
  /** Literals one of which every match holds: a text with none of them is not searched. */
  hints: readonly string[];
  pattern: RegExp;
  /** The part that must read as random (default: the whole match); hex and fixed alphabets skip it. */
  random?: (m: RegExpExecArray) => string;
}

const shape = (name: string, hints: readonly string[], source: string, random?: Shape["random"]): Shape => ({
  name,
  hints,
  pattern: new RegExp(`${START}${source}${END}`, "g"),
  ...(random ? { random } : {}),
});
const body = (m: RegExpExecArray) => m[1] ?? m[0];

/** Provider credential formats. `(...)` marks the random part where the check applies. */
export const PROVIDER_SHAPES: readonly Shape[] = [
  shape("anthropic", ["sk-ant-"], "sk-ant-(?:api|admin|oat|sid)\\d{2}-([A-Za-z0-9_-]{80,120})", body),
  shape("openai-project", ["sk-"], "sk-(?:proj|svcacct|admin)-([A-Za-z0-9_-]{40,250})", body),
  shape("openai-legacy", ["sk-"], "sk-([A-Za-z0-9]{48})", body),
  shape("openai-compatible-hex", ["sk-"], "sk-[a-f0-9]{32}"),
  shape("stripe", ["k_live_", "k_test_"], "(?:sk|rk)_(?:live|test)_([A-Za-z0-9]{24,247})", body),
  shape("stripe-webhook", ["whsec_"], "whsec_([A-Za-z0-9]{32,})", body),
  shape("github", ["gh"], "gh[pousr]_([A-Za-z0-9]{36,251})", body),
  shape("github-fine-grained", ["github_pat_"], "github_pat_([A-Za-z0-9]{20,}_[A-Za-z0-9]{50,})", body),
  shape("slack", ["xox"], "xox[abeoprs]-(?:\\d+-){1,4}([A-Za-z0-9]{20,})", body),
  shape("slack-app", ["xapp-"], "xapp-\\d-[A-Z0-9]{8,}-\\d{8,}-[a-f0-9]{32,}"),
  shape("gitlab", ["gl"], "gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt)-([A-Za-z0-9_-]{20,})(?:\\.[A-Za-z0-9_.-]+)?", body),
  shape("aws-access-key-id", ["AKIA", "ASIA", "ABIA", "ACCA"], "(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"),
  shape("google-api-key", ["AIza"], "AIza([A-Za-z0-9_-]{35})", body),
  shape("google-oauth-secret", ["GOCSPX-"], "GOCSPX-([A-Za-z0-9_-]{28})", body),
  shape("google-oauth-token", ["ya29."], "ya29\\.([A-Za-z0-9_-]{50,})", body),
  shape("jwt", ["eyJ"], "eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
  shape("npm", ["npm_"], "npm_([A-Za-z0-9]{36})", body),
  shape("huggingface", ["hf_"], "hf_([A-Za-z0-9]{30,40})", body),
  shape("sendgrid", ["SG."], "SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}"),
  shape("pypi", ["pypi-"], "pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
  shape("docker-hub", ["dckr_pat_"], "dckr_pat_([A-Za-z0-9_-]{27,})", body),
  shape("digitalocean", ["_v1_"], "do[opr]_v1_[a-f0-9]{64}"),
  shape("shopify", ["shp"], "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
  shape("groq", ["gsk_"], "gsk_([A-Za-z0-9]{52})", body),
  shape("replicate", ["r8_"], "r8_([A-Za-z0-9]{37})", body),
  shape("xai", ["xai-"], "xai-([A-Za-z0-9]{80})", body),
  shape("perplexity", ["pplx-"], "pplx-([A-Za-z0-9]{48})", body),
  shape("linear", ["lin_api_"], "lin_api_([A-Za-z0-9]{40})", body),
  shape("databricks", ["dapi"], "dapi[a-f0-9]{32}"),
  shape("vault", ["hvs.", "hvb.", "hvr."], "hv[sbr]\\.([A-Za-z0-9_-]{24,})", body),
  shape("terraform-cloud", [".atlasv1."], "[a-zA-Z0-9]{14}\\.atlasv1\\.([A-Za-z0-9_-]{60,})", body),
  shape("atlassian", ["ATATT3"], "ATATT3([A-Za-z0-9_=-]{150,})", body),
  shape("age-secret-key", ["AGE-SECRET-KEY-1"], "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}"),
  shape("telegram-bot", [":AA"], "\\d{8,10}:AA([A-Za-z0-9_-]{33})", body),
];

/** A Slack incoming webhook: the secret is the last part of the path. */
const SLACK_WEBHOOK = /hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/([A-Za-z0-9]{20,})/g;

/**
 * `-----BEGIN … PRIVATE KEY-----`, its base64 (and Proc-Type / DEK-Info headers) and its END line;
 * a block cut short (a log's last 600 characters, a summary's 240) to the end of its base64. A
 * header with no base64 after it (`grep -- '-----BEGIN RSA PRIVATE KEY-----' f`) is no key.
 */
const PEM_BREAK = String.raw`(?:\r?\n|\\[nr]|\s)`;
const PEM_BODY = String.raw`(?:${PEM_BREAK}*(?:Proc-Type|DEK-Info|Comment): [^\n\\]*)*${PEM_BREAK}*[A-Za-z0-9+/=]{16,}(?:${PEM_BREAK}+[A-Za-z0-9+/=]{4,})*`;
const PEM_BLOCK = new RegExp(String.raw`-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----${PEM_BODY}${PEM_BREAK}*(?:-----END \1PRIVATE KEY\2-----)?`, "g");
/** Public material (certificates, public keys): base64, but no secret. */
const PUBLIC_BLOCK =
  /-----BEGIN ((?:[A-Z0-9]+ )*)(?:CERTIFICATE|PUBLIC KEY|PUBLIC KEY BLOCK|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|X509 CRL)-----[\s\S]*?-----END [A-Z0-9 ]+-----/g;

/** Every match of a global pattern (a copy of it: a caller may search again, recursively, while this runs). */
export function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  const re = new RegExp(pattern);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    yield m;
    if (m[0].length === 0) re.lastIndex++;
  }
}

/** Provider keys, JWTs, Slack webhooks and PEM private keys in `text`. */
export function shapeRanges(text: string): Range[] {
  const out: Range[] = [];
  for (const s of PROVIDER_SHAPES) {
    if (!s.hints.some((h) => text.includes(h))) continue;
    for (const m of matches(s.pattern, text)) if (!s.random || readsRandom(s.random(m))) out.push({ start: m.index, end: m.index + m[0].length });
  }
  if (text.includes("hooks.slack.com")) {
    for (const m of matches(SLACK_WEBHOOK, text)) {
      const secret = m[1]!;
      if (readsRandom(secret)) out.push({ start: m.index + m[0].length - secret.length, end: m.index + m[0].length });
    }
  }
  if (text.includes("PRIVATE KEY")) for (const m of matches(PEM_BLOCK, text)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

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

/**
 * The text a base64 token encodes, when it is readable text with words in it (a sentence, a
 * command piped to `base64 -d`): random bytes are all printable with a chance of about 1e-10
 * for 24 bytes, so such a token is encoded text, secret only if that text holds a secret.
 */
export function decodedText(t: string): string | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return undefined;
  const bytes = Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length < 16) return undefined;
  const s = bytes.toString("latin1");
  return /^[\x20-\x7e\t\r\n]+$/.test(s) && /\s/.test(s) ? s : undefined;
}

/** The base64 of an SSH public key starts with the length and name of its type. */
const SSH_PUBLIC_KEY = /^AAAA(?:B3NzaC1|C3NzaC1|E2VjZHNh|GnNrLXNzaC1|InNrLWVjZHNh)/;

/** A random-looking token: mixed case and digits, high entropy, not a hex digest, not a path or identifier. */
export function looksLikeSecretToken(t: string): boolean {
  if (/^[0-9a-fA-F-]+$/.test(t)) return false;
  if (!/[A-Z]/.test(t) || !/[a-z]/.test(t)) return false;
  if (SSH_PUBLIC_KEY.test(t) || decodedText(t) !== undefined) return false;
  // Letters only: a name (CamelCase changes case every few letters) unless it changes case like random text.
  if (!/[0-9+/]/.test(t)) return classChanges(t) >= 0.45 && entropy(t) >= 3.5;
  // A path: a lower-case word among segments that all read like names (src/Components/Button2/index).
  const segments = t.split("/");
  if (segments.length > 1 && segments.some((seg) => /^[a-z]{3,}$/.test(seg)) && segments.every((seg) => seg.length < 2 || classChanges(seg) < 0.35))
    return false;
  // A CamelCase name (getUserAccountSettingsForTenant2024Q1Report): mostly words with the vowels of words (a third of
  // the letters; random letters: a fifth), digits in two places at most, no base64 symbols.
  const letters = t.replace(/[^A-Za-z]/g, "");
  const inWords = (t.match(/[A-Z]?[a-z]{2,}/g) ?? []).reduce((n, w) => n + w.length, 0);
  const digitRuns = t.match(/[0-9]+/g)?.length ?? 0;
  if (inWords >= t.length * 0.6 && digitRuns <= 2 && !/[+/=]/.test(t) && (letters.match(/[aeiouAEIOU]/g)?.length ?? 0) >= letters.length * 0.3) return false;
  // A name made of words (x86_64-unknown-linux-gnu): two lower-case words or more between - and _ (not in base64).
  if (t.split(/[-_/]/).filter((seg) => /^[a-z]{3,}$/.test(seg)).length >= 2) return false;
  // Random base64 changes class at ~0.64 of its characters (below 0.3: about 1 in 100,000 secrets).
  return classChanges(t) >= 0.3 && entropy(t) >= 3.5;
}

/** Bare tokens of 32 characters or more, the length of the shortest generated secrets worth finding without a name. */
const TOKEN_CANDIDATE = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/=_-]{32,}/g;
/** A digest spelled with its algorithm (npm integrity sha512-…, go.sum h1:…, ssh SHA256:…) is not a secret. */
const DIGEST_BEFORE = /(?:\b(?:sha1|sha256|sha384|sha512|md5|h1)[-:]|SHA256:|SHA512:|MD5:)$/i;

/** High-entropy tokens outside public key material and spelled digests; base64 of text when `holdsSecret` finds one in the text. */
export function entropyRanges(text: string, holdsSecret: (decoded: string) => boolean = () => false): Range[] {
  const out: Range[] = [];
  const publicBlocks = text.includes("-----BEGIN") ? [...matches(PUBLIC_BLOCK, text)].map((m) => ({ start: m.index, end: m.index + m[0].length })) : [];
  for (const m of matches(TOKEN_CANDIDATE, text)) {
    // An SRI digest (sha512-…) is one candidate: the algorithm and the base64 after it.
    if (/^(?:sha1|sha256|sha384|sha512)-/i.test(m[0])) continue;
    if (DIGEST_BEFORE.test(text.slice(Math.max(0, m.index - 8), m.index))) continue;
    // Base64 pads with = only at its end: an = inside joins a name to its value (NAME=value), each read alone.
    const piece = /[^=]+=*(?![^=])|[^=]+/g;
    for (const p of matches(piece, m[0])) {
      // Dashes or underscores at the edges are punctuation (`--token--`), not part of the token.
      const lead = /^[-_]+/.exec(p[0])?.[0].length ?? 0;
      const t = p[0].slice(lead).replace(/[-_]+$/, "");
      const start = m.index + p.index + lead;
      if (t.length < 32) continue;
      const decoded = decodedText(t);
      if (decoded !== undefined ? !holdsSecret(decoded) : !looksLikeSecretToken(t)) continue;
      if (publicBlocks.some((b) => start >= b.start && start < b.end)) continue;
      out.push({ start, end: start + t.length });
    }
  }
  return out;
}
