/**
 * Named secrets in free text (harness/text/redact/named.ts): values of secret-named settings,
 * Authorization headers, Bearer / Basic credentials, passwords in URLs.
 */
import { describe, expect, it } from "vitest";
import { namedRanges } from "../../../../../harness/text/redact/named.ts";

const secrets = (text: string) => namedRanges(text).map((r) => text.slice(r.start, r.end));
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("NAME=value and NAME: value", () => {
  const cases: [string, string[]][] = [
    ["export OPENAI_API_KEY=abc123def456 && run", ["abc123def456"]],
    ["PASSWORD=hunter2 mysql", ["hunter2"]],
    ["export PGPASSWORD='my pass phrase' && psql", ["my pass phrase"]],
    ['DB_PASS="a b c" ./migrate', ["a b c"]],
    ["SLACK_WEBHOOK_SECRET: hush-hush-123", ["hush-hush-123"]],
    ["MY_CREDENTIALS=abc;echo ok", ["abc"]],
    ['{"user":"app","password":"Hunter2"}', ["Hunter2"]],
    ["'password' => 'Hunter2'", ["Hunter2"]],
    ['password := "Hunter2"', ["Hunter2"]],
    ["  password: Hunter2\n  user: app", ["Hunter2"]],
    ["- token: abc123", ["abc123"]],
    ["the new password: Tr0ub4dor9x", ["Tr0ub4dor9x"]],
    ["https://x/export?format=csv&access_token=abc123", ["abc123"]],
    ["curl -H 'X-Api-Key: abcdef123456' https://api.example.com", ["abcdef123456"]],
    ['echo "API_KEY=abc123" >> .env', ["abc123"]],
    ["UPDATE users SET password = 'Hunter2' WHERE id = 1", ["Hunter2"]],
    // after a string that spans lines, the count of quotes on the line no longer says which quote opens
    ['{"key":"-----BEGIN\nMIIE\n-----END KEY-----","region":"eu"} ; {"user":"app","password":"Gcnvyysn86!","host":"db"}', ["Gcnvyysn86!"]],
    ['{"note":"two\nlines","x":1} ;   password: "Jcetosepta65^"\n  user: app', ["Jcetosepta65^"]],
  ];
  for (const [text, expected] of cases) it(text, () => expect(secrets(text)).toEqual(expected));

  for (const text of [
    "reference_passes: the reference passes",
    'Tests pass: "2 passed, 0 failed"',
    "invalid token: expected a string",
    "password: must be at least 12 characters",
    "secret: required",
    "grep -q '^STRIPE_WEBHOOK_SECRET=' .env.example || echo missing",
    'grep "password=" app.log',
    "grep '^API_KEY=' .env 'and more'",
    'a "multi\nline" then grep "password=" app.log "x"',
    "API_KEY=$(cat /run/secrets/api_key)",
    ': "${DB_PASSWORD:?must be set}"',
    'password = os.environ["DB_PASSWORD"]',
    "const apiKey = process.env.API_KEY;",
    "python3 -c 'pw = getpass.getpass()' password=getpass()",
    "UPDATE users SET password = $1 WHERE id = $2",
    "token_type: bearer",
    "aws_access_key_id = AKIA",
  ])
    it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));
});

describe("Authorization headers, Bearer and Basic", () => {
  const cases: [string, string[]][] = [
    ['curl -H "Authorization: Bearer abcdefghijklmnop123" https://x', ["abcdefghijklmnop123"]],
    ["Authorization: token 0123456789abcdef0123456789abcdef01234567", ["0123456789abcdef0123456789abcdef01234567"]],
    ["Proxy-Authorization: Basic " + b64("user:password"), [b64("user:password")]],
    [`{"Authorization": "Bearer eyJhbGci.x9"}`, ["eyJhbGci.x9"]],
    ["Authorization: x9Y8w7V6u5", ["x9Y8w7V6u5"]],
    ["got Bearer abcdefghijklmnop123 from the login", ["abcdefghijklmnop123"]],
    [`basic creds: Basic ${b64("ci:Hunter2")}`, [b64("ci:Hunter2")]],
  ];
  for (const [text, expected] of cases) it(text, () => expect([...new Set(secrets(text))]).toEqual(expected));

  for (const text of [
    'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://x',
    "curl -H 'Authorization: Bearer ${API_TOKEN}' https://x",
    'curl -H "Authorization: token <your-token>" https://x',
    "missing Authorization: header in request",
    "expects a Bearer token in the Authorization header",
    "Bearer token required",
    "uses Basic authentication over TLS",
    `Basic ${b64("hello world, no colon here")}`,
    'WWW-Authenticate: Bearer realm="api", error="invalid_token"',
    'Authorization: Digest username="u", realm="r"',
  ])
    it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));
});

describe("passwords in URLs", () => {
  const cases: [string, string[]][] = [
    ["git clone https://alice:s3cr3tpw@git.example.com/r.git", ["s3cr3tpw"]],
    ["postgres://shop:p%40ss@db:5432/shop", ["p%40ss"]],
    ["REDIS_URL=redis://:Hunter2@cache:6379/0", ["Hunter2"]],
  ];
  for (const [text, expected] of cases) it(text, () => expect(secrets(text).filter((s) => s !== "")).toContain(expected[0]));

  for (const text of [
    "https://user@github.com/a.git",
    "git@github.com:a/b.git",
    "postgres://app@db/shop",
    "https://user:@example.com/",
    "mailto:ada@example.com",
    "nginx:1.25@sha256:0d17b565",
    "postgres://app:$DB_PASSWORD@db/shop",
  ])
    it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));
});
