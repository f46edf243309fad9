/** Generators of secrets in every form the redaction module covers, for fuzzing tests. */
import fc from "fast-check";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const from = (alphabet: string, min: number, max = min) => fc.string({ unit: fc.constantFrom(...alphabet.split("")), minLength: min, maxLength: max });
/** A random token as a key generator makes it (uniform over the alphabet), drawn from a seed so shrinking keeps it random. */
const randomToken = (alphabet: string, length: number) =>
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
    // mulberry32
    let a = seed;
    let out = "";
    for (let i = 0; i < length; i++) {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      out += alphabet[Math.floor(r * alphabet.length)];
    }
    return out;
  });
export const word = from("abcdefghijklmnopqrstuvwxyz", 3, 10);
/** A password: letters, digits and some symbols, at least 6 long, with a digit so it is not a word. */
const password = fc.tuple(from(`${ALNUM}!%^*`, 5, 16), fc.integer({ min: 0, max: 9 })).map(([p, d]) => `${p}${d}`);

/** [secret that must disappear, text that carries it]. */
export const plantedSecret: fc.Arbitrary<[string, string]> = fc.oneof(
  // A bare 40-character secret (AWS). Letters-only tokens (1 in 4,000 random ones) read like names and are
  // only redacted when they change case like random text: the fuzzed ones carry a digit, as nearly all do.
  randomToken(B64, 40)
    .map((s) => (/[0-9+/]/.test(s) ? s : `${s.slice(0, 20)}7${s.slice(21)}`))
    .map((s): [string, string] => [s, s]),
  from(ALNUM.toUpperCase().replace(/[a-z]/g, ""), 16).map((s): [string, string] => [`AKIA${s}`, `AKIA${s}`]),
  from(ALNUM, 24).map((s): [string, string] => [s, `sk_live_${s}`]),
  from(ALNUM, 32).map((s): [string, string] => [s, `sk-proj-${s}`]),
  from(ALNUM, 36).map((s): [string, string] => [s, `ghp_${s}`]),
  from(ALNUM, 30).map((s): [string, string] => [s, `github_pat_11${s}`]),
  fc.tuple(fc.constantFrom("b", "a", "p", "r"), from(ALNUM, 24)).map(([k, s]): [string, string] => [s, `xox${k}-1234-${s}`]),
  from(ALNUM, 20).map((s): [string, string] => [s, `glpat-${s}`]),
  from(ALNUM, 35).map((s): [string, string] => [s, `AIza${s}`]),
  randomToken(B64, 64).map((s): [string, string] => [s, `-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----`]),
  password.map((p): [string, string] => [p, `mysql -u root -p${p} app`]),
  fc.tuple(word, password).map(([u, p]): [string, string] => [p, `curl -u ${u}:${p} https://api.example.com`]),
  fc.tuple(word, password, word).map(([u, p, h]): [string, string] => [p, `psql postgres://${u}:${p}@${h}.internal:5432/db`]),
  fc.tuple(word, password, word).map(([u, p, h]): [string, string] => [p, `git clone ${u}:${p}@${h}.example.com:org/repo`]),
  fc
    .tuple(fc.constantFrom("--password", "--token", "--api-key", "--client-secret"), fc.constantFrom(" ", "="), password)
    .map(([f, sep, p]): [string, string] => [p, `tool ${f}${sep}${p} --verbose`]),
  fc
    .tuple(
      fc.constantFrom("PASSWORD", "API_TOKEN", "DB_PASS", "STRIPE_SECRET", "OPENAI_API_KEY", "aws_secret_access_key"),
      fc.constantFrom("=", ": ", " "),
      password,
    )
    .map(([k, sep, p]): [string, string] => [p, `${k}${sep}${p}`]),
  password.map((p): [string, string] => [p, `aws configure set aws_secret_access_key ${p}`]),
);
