/** Generators of secrets in every form the redaction module covers, for fuzzing tests. */
import fc from "fast-check";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const from = (alphabet: string, min: number, max = min) => fc.string({ unit: fc.constantFrom(...alphabet.split("")), minLength: min, maxLength: max });
/** A random token as a key generator makes it (uniform over the alphabet), drawn from a seed so shrinking keeps it random. */
const randomToken = (alphabet: string, length: number) =>
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
    let x = seed;
    let out = "";
    for (let i = 0; i < length; i++) {
      x = (Math.imul(x ^ (x >>> 15), 2246822507) + 0x9e3779b9) | 0;
      x ^= x >>> 13;
      out += alphabet[Math.abs(x) % alphabet.length];
    }
    return out;
  });
export const word = from("abcdefghijklmnopqrstuvwxyz", 3, 10);
/** A password: letters, digits and some symbols, at least 6 long, with a digit so it is not a word. */
const password = fc.tuple(from(`${ALNUM}!%^*`, 5, 16), fc.integer({ min: 0, max: 9 })).map(([p, d]) => `${p}${d}`);

/** [secret that must disappear, text that carries it]. */
export const plantedSecret: fc.Arbitrary<[string, string]> = fc.oneof(
  randomToken(B64, 40).map((s): [string, string] => [s, s]),
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
  fc.tuple(fc.constantFrom("--password", "--token", "--api-key", "--client-secret"), fc.constantFrom(" ", "="), password).map(([f, sep, p]): [string, string] => [p, `tool ${f}${sep}${p} --verbose`]),
  fc.tuple(fc.constantFrom("PASSWORD", "API_TOKEN", "DB_PASS", "STRIPE_SECRET", "OPENAI_API_KEY", "aws_secret_access_key"), fc.constantFrom("=", ": ", " "), password).map(([k, sep, p]): [string, string] => [p, `${k}${sep}${p}`]),
  password.map((p): [string, string] => [p, `aws configure set aws_secret_access_key ${p}`]),
);

