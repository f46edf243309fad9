/**
 * Fake secrets in the real shape of every format the redaction module recognises, for the
 * tests: provider keys with their published prefix, alphabet and length; passwords on command
 * lines, in URLs, headers, env dumps and JSON. Every value is generated (a seeded PRNG), so no
 * literal token stands in the repository for a secret scanner to flag.
 */
import fc from "fast-check";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
export const ALNUM = UPPER + LOWER + DIGITS;
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const HEX = "0123456789abcdef";

/** A seeded random source (mulberry32): the same seed gives the same values. */
export type Rand = () => number;
export function rng(seed: number): Rand {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` characters drawn uniformly from `alphabet`, as a key generator makes them. */
export function token(rand: Rand, alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

/** A password as people choose them: letters and digits with a symbol or two. */
export function password(rand: Rand): string {
  return `${token(rand, UPPER, 1)}${token(rand, LOWER, 5 + Math.floor(rand() * 6))}${token(rand, DIGITS, 2)}${token(rand, "!%^*#", 1)}`;
}

const base64 = (s: string) => Buffer.from(s).toString("base64");
const base64url = (s: string) => Buffer.from(s).toString("base64url");
const p = (...parts: string[]) => parts.join("");

/** Every provider format, as a generator of one value. */
export const PROVIDER_KEYS: Readonly<Record<string, (r: Rand) => string>> = {
  "openai-project": (r) => p("sk-", "proj-", token(r, B64URL, 156)),
  "openai-service-account": (r) => p("sk-", "svcacct-", token(r, B64URL, 120)),
  "openai-legacy": (r) => p("sk-", token(r, ALNUM, 20), "T3BlbkFJ", token(r, ALNUM, 20)),
  anthropic: (r) => p("sk-", "ant-", "api03-", token(r, B64URL, 93), "AA"),
  "stripe-live-secret": (r) => p("sk", "_live_", token(r, ALNUM, 99)),
  "stripe-test-secret": (r) => p("sk", "_test_", token(r, ALNUM, 24)),
  "stripe-restricted": (r) => p("rk", "_live_", token(r, ALNUM, 99)),
  "stripe-webhook": (r) => p("whsec", "_", token(r, ALNUM, 32)),
  "github-classic": (r) => p("gh", "p_", token(r, ALNUM, 36)),
  "github-oauth": (r) => p("gh", "o_", token(r, ALNUM, 36)),
  "github-user-to-server": (r) => p("gh", "u_", token(r, ALNUM, 36)),
  "github-server-to-server": (r) => p("gh", "s_", token(r, ALNUM, 36)),
  "github-refresh": (r) => p("gh", "r_", token(r, ALNUM, 36)),
  "github-fine-grained": (r) => p("github", "_pat_", "11", token(r, ALNUM, 20), "_", token(r, ALNUM, 59)),
  "slack-bot": (r) => p("xox", "b-", token(r, DIGITS, 12), "-", token(r, DIGITS, 13), "-", token(r, ALNUM, 24)),
  "slack-user": (r) => p("xox", "p-", token(r, DIGITS, 12), "-", token(r, DIGITS, 12), "-", token(r, DIGITS, 13), "-", token(r, HEX, 32)),
  "slack-app": (r) => p("xox", "a-2-", token(r, DIGITS, 12), "-", token(r, ALNUM, 30)),
  "slack-session": (r) => p("xox", "s-", token(r, DIGITS, 11), "-", token(r, DIGITS, 12), "-", token(r, ALNUM, 40)),
  "slack-refresh": (r) => p("xox", "r-", token(r, DIGITS, 11), "-", token(r, ALNUM, 40)),
  gitlab: (r) => p("gl", "pat-", token(r, B64URL.replace(/[-_]/g, ""), 20)),
  "gitlab-deploy": (r) => p("gl", "dt-", token(r, ALNUM, 20)),
  "aws-access-key-id": (r) => p("AK", "IA", token(r, UPPER + "234567", 16)),
  "aws-session-key-id": (r) => p("AS", "IA", token(r, UPPER + "234567", 16)),
  "aws-secret-access-key": (r) => token(r, B64, 40),
  "google-api-key": (r) => p("AI", "za", token(r, B64URL, 35)),
  "google-oauth-client-secret": (r) => p("GOC", "SPX-", token(r, B64URL, 28)),
  jwt: (r) =>
    [
      base64url(JSON.stringify({ alg: "HS256", typ: "JWT" })),
      base64url(JSON.stringify({ sub: token(r, DIGITS, 8), name: "Ada", iat: 1700000000 + Math.floor(r() * 1e6) })),
      token(r, B64URL, 43),
    ].join("."),
  npm: (r) => p("np", "m_", token(r, ALNUM, 36)),
  huggingface: (r) => p("h", "f_", token(r, UPPER + LOWER, 34)),
  sendgrid: (r) => p("S", "G.", token(r, B64URL, 22), ".", token(r, B64URL, 43)),
  "docker-hub": (r) => p("dckr", "_pat_", token(r, B64URL, 27)),
  digitalocean: (r) => p("do", "p_v1_", token(r, HEX, 64)),
  groq: (r) => p("gs", "k_", token(r, ALNUM, 52)),
  "vault-service": (r) => p("hv", "s.", token(r, ALNUM, 24)),
  "pem-rsa": (r) =>
    p("-----BEGIN RSA ", "PRIVATE KEY-----\n", "MIIEpAIBAAKCAQEA", token(r, B64, 48), "\n", token(r, B64, 64), "\n", "-----END RSA ", "PRIVATE KEY-----"),
  "pem-openssh": (r) =>
    p("-----BEGIN OPENSSH ", "PRIVATE KEY-----\n", "b3BlbnNzaC1rZXktdjEAAAAA", token(r, B64, 52), "\n", "-----END OPENSSH ", "PRIVATE KEY-----"),
  "pem-pkcs8": (r) => p("-----BEGIN ", "PRIVATE KEY-----\n", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", token(r, B64, 64), "\n", "-----END ", "PRIVATE KEY-----"),
};

/** How a secret is carried: [the secret that must disappear, the text that holds it]. */
export type Planted = [secret: string, text: string];

/** Each provider key in each kind of text: a command, an env dump, a URL, a header, a JSON body. */
export const KEY_CONTEXTS: readonly ((key: string) => string)[] = [
  (k) => `curl -s https://api.example.com/v1/models --data '{"model":"m"}' -H "X-Trace: 1" # ${k}`,
  (k) => `HOME=/home/user\nPATH=/usr/bin:/bin\nSERVICE_CREDENTIAL=${k}\nLANG=C.UTF-8`,
  (k) => `git push https://${k}@github.com/acme/app.git main`,
  (k) => `curl -H "Authorization: Bearer ${k}" https://api.example.com/v1/me`,
  (k) => `{"provider":"acme","config":{"value":"${k}","region":"eu-west-1"}}`,
  (k) => `FAIL test/config.test.ts: expected key ${k} to be rotated`,
];

/** Passwords and tokens recognised by where they stand (a flag, a URL, a header, a name). */
export const CONTEXT_SECRETS: readonly ((r: Rand) => Planted)[] = [
  (r) => ((pw) => [pw, `mysql -h db.internal -u root -p${pw} shop -e 'select 1'`])(password(r)),
  (r) => ((pw) => [pw, `mysqldump -uadmin -p'${pw}' --single-transaction shop > dump.sql`])(password(r)),
  (r) => ((pw) => [pw, `mariadb -u app -p"${pw}" -e 'show databases'`])(password(r)),
  (r) => ((pw) => [pw, `docker exec -it db mysql -uroot -p${pw} -e 'select 1'`])(password(r)),
  (r) => ((pw) => [pw, `sshpass -p '${pw}' ssh deploy@10.0.0.5 uptime`])(password(r)),
  (r) => ((pw) => [pw, `docker login -u ci -p ${pw} registry.example.com`])(password(r)),
  (r) => ((pw) => [pw, `redis-cli -h cache.internal -a ${pw} ping`])(password(r)),
  (r) => ((pw) => [pw, `7z a -p${pw} -mhe=on backup.7z data/`])(password(r)),
  (r) => ((pw) => [pw, `zip -r -P ${pw} secrets.zip notes/`])(password(r)),
  (r) => ((pw) => [pw, `mongosh "mongodb://db.internal/admin" -u admin -p ${pw}`])(password(r)),
  (r) => ((pw) => [pw, `sqlcmd -S db.internal -U sa -P ${pw} -Q "SELECT 1"`])(password(r)),
  (r) => ((pw) => [pw, `ldapsearch -x -D cn=admin,dc=example,dc=org -w ${pw} -b dc=example,dc=org`])(password(r)),
  (r) => ((pw) => [pw, `openssl enc -aes-256-cbc -pbkdf2 -in notes.txt -out notes.enc -pass pass:${pw}`])(password(r)),
  (r) => ((pw) => [pw, `keytool -list -keystore app.jks -storepass ${pw}`])(password(r)),
  (r) => ((pw) => [pw, `sqlplus scott/${pw}@orcl @report.sql`])(password(r)),
  (r) => ((pw) => [pw, `smbclient //files/share -U alice%${pw} -c ls`])(password(r)),
  (r) => ((pw) => [pw, `curl -u alice:${pw} https://api.example.com/v1/items`])(password(r)),
  (r) => ((pw) => [pw, `curl --user "deploy:${pw}" -X POST https://ci.example.com/job`])(password(r)),
  (r) => ((pw) => [pw, `wget --http-user=bob --http-password=${pw} https://files.example.com/a.tgz`])(password(r)),
  (r) => ((pw) => [pw, `psql --dbname=shop --password ${pw}`])(password(r)),
  (r) => ((pw) => [pw, `./deploy --api-key=${pw} --region eu-west-1`])(password(r)),
  (r) => ((pw) => [pw, `terraform apply -var client-secret=x --client-secret "${pw}"`])(password(r)),
  (r) => ((pw) => [pw, `java -Djavax.net.ssl.keyStorePassword=${pw} -jar app.jar`])(password(r)),
  (r) => ((pw) => [pw, `kubectl create secret generic db --from-literal=password=${pw}`])(password(r)),
  (r) => ((pw) => [pw, `aws configure set aws_secret_access_key ${pw}`])(password(r)),
  (r) => ((pw) => [pw, `psql postgres://shop:${pw}@db.internal:5432/shop -c 'select 1'`])(password(r)),
  (r) => ((pw) => [pw, `git clone https://alice:${pw}@git.example.com/team/repo.git`])(password(r)),
  (r) => ((pw) => [pw, `REDIS_URL=redis://:${pw}@cache.internal:6379/0`])(password(r)),
  (r) => ((b) => [b, `curl -H 'Authorization: Basic ${b}' https://x.example.com`])(base64(`alice:${password(r)}`)),
  (r) => ((b) => [b, `wget --header="Authorization: Basic ${b}" https://x.example.com/f`])(base64(`ci-bot:${password(r)}`)),
  (r) => ((t) => [t, `curl -H "Authorization: token ${t}" https://api.example.com`])(token(r, ALNUM, 40)),
  (r) => ((t) => [t, `Proxy-Authorization: Bearer ${t}`])(token(r, B64URL, 48)),
  (r) => ((t) => [t, `curl -H 'X-Api-Key: ${t}' https://api.example.com/v2`])(token(r, HEX, 32)),
  (r) => ((pw) => [pw, `export PGPASSWORD='${pw}' && psql -h db -U app`])(password(r)),
  (r) => ((pw) => [pw, `DB_PASSWORD=${pw} docker compose up -d`])(password(r)),
  (r) => ((pw) => [pw, `echo "MYSQL_ROOT_PASSWORD=${pw}" >> .env`])(password(r)),
  (r) => ((pw) => [pw, `spring.datasource.password=${pw}`])(password(r)),
  (r) => ((pw) => [pw, `  password: "${pw}"\n  user: app`])(password(r)),
  (r) => ((pw) => [pw, `{"user":"app","password":"${pw}","host":"db"}`])(password(r)),
  (r) => ((t) => [t, `https://api.example.com/v1/export?format=csv&access_token=${t}`])(token(r, ALNUM, 32)),
  (r) => ((t) => [t, `SECRET_KEY_BASE=${t}`])(token(r, HEX, 128)),
  (r) => ((t) => [t, `//registry.npmjs.org/:_authToken=${t}`])(token(r, ALNUM, 36)),
  (r) => ((pw) => [pw, `the new password: ${pw}`])(password(r)),
  (r) => ((pw) => [pw, `echo '${pw}' | sudo -S systemctl restart nginx`])(password(r)),
  (r) => ((pw) => [pw, `echo "${pw}" | docker login --password-stdin -u ci registry.example.com`])(password(r)),
  (r) => ((pw) => [pw, `az login -u ops@example.com -p '${pw}'`])(password(r)),
  (r) => ((pw) => [pw, `htpasswd -b /etc/nginx/.htpasswd admin '${pw}'`])(password(r)),
  (r) => ((t) => [t, `vault login ${t}`])(token(r, ALNUM, 24)),
  (r) => ((pw) => [pw, `sudo -S apt-get install -y nginx <<< '${pw}'`])(password(r)),
];

/** One random draw of a planted secret, for properties. */
export const plantedSecret: fc.Arbitrary<Planted> = fc.tuple(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(), fc.nat()).map(([seed, i, j]): Planted => {
  const r = rng(seed);
  const kinds = Object.values(PROVIDER_KEYS);
  if (i % 3 === 0) return CONTEXT_SECRETS[j % CONTEXT_SECRETS.length]!(r);
  const name = Object.keys(PROVIDER_KEYS)[j % kinds.length]!;
  const key = kinds[j % kinds.length]!(r);
  // A bare 40-character secret has no prefix to know it by: it is found by its name, or by its entropy
  // (which misses about 1 in 6,000 random ones; test/unit/harness/text/redact/shapes.test.ts measures it).
  if (name === "aws-secret-access-key") return [key, `[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = ${key}`];
  return [key, KEY_CONTEXTS[i % KEY_CONTEXTS.length]!(key)];
});

/** The fixed corpus: every provider format in two contexts and every context secret twice (seeded). */
export function secretCorpus(): { name: string; secret: string; text: string }[] {
  const out: { name: string; secret: string; text: string }[] = [];
  let seed = 1;
  for (const [name, make] of Object.entries(PROVIDER_KEYS)) {
    for (let c = 0; c < 2; c++) {
      const key = make(rng(seed++));
      const context = KEY_CONTEXTS[(seed + c) % KEY_CONTEXTS.length]!;
      out.push({ name: `${name} #${c + 1}`, secret: key, text: context(key) });
    }
    const key = make(rng(seed++));
    out.push({ name: `${name} alone`, secret: key, text: key });
  }
  CONTEXT_SECRETS.forEach((make, i) => {
    for (let c = 0; c < 2; c++) {
      const [secret, text] = make(rng(seed++));
      out.push({ name: `context ${i + 1} #${c + 1}: ${text.split(/\s/)[0]}`, secret, text });
    }
  });
  return out;
}
