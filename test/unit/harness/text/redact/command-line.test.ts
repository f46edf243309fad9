/**
 * Command-line secrets (harness/text/redact/command-line.ts): a short flag is a password only for
 * the programs known to take one there; secret-named flags anywhere; shell words with quotes.
 */
import { describe, expect, it } from "vitest";
import { commandLineRanges, commands, nameWords, placeholder, secretName } from "../../../../../harness/text/redact/command-line.ts";

const secrets = (text: string) => commandLineRanges(text).map((r) => text.slice(r.start, r.end));

describe("shell words", () => {
  it("splits commands at operators and keeps quoted words whole", () => {
    const cs = commands(`a -p'x y' "b c"; d && e | f $(g h)`);
    expect(cs.map((ws) => ws.map((w) => w.value))).toContainEqual(["a", "-px y", "b c"]);
    expect(cs.map((ws) => ws.map((w) => w.value))).toContainEqual(["g", "h"]);
    expect(cs.map((ws) => ws.map((w) => w.value))).toContainEqual(["b", "c"]);
  });
});

describe("programs that take a password in a short flag", () => {
  const cases: [string, string[]][] = [
    ["mysql -u root -pS3cr3t shop", ["S3cr3t"]],
    ["mysqldump -uadmin -p'my pw' db", ["my pw"]],
    ['mariadb -p"Pw 9" -e x', ["Pw 9"]],
    ["/usr/bin/mysql -pS3cr3t", ["S3cr3t"]],
    ["sudo -u mysql mysql -pS3cr3t", ["S3cr3t"]],
    ["xargs -I{} mysql -pS3cr3t", ["S3cr3t"]],
    ["docker exec -it db mysql -uroot -pS3cr3t", ["S3cr3t"]],
    ["kubectl exec db-0 -- mysql -pS3cr3t", ["S3cr3t"]],
    ["setup.sh: line 3: mysql -pS3cr3t: command not found", ["S3cr3t:"]],
    ["bash -c 'mysql -pS3cr3t -e \"select 1\"'", ["S3cr3t"]],
    ["sshpass -p Hunter2 ssh host", ["Hunter2"]],
    ["docker login -u ci -p Hunter2 ghcr.io", ["Hunter2"]],
    ["podman login --username ci -pHunter2 quay.io", ["Hunter2"]],
    ["redis-cli -h cache -a Hunter2 ping", ["Hunter2"]],
    ["7z a -pHunter2 a.7z d", ["Hunter2"]],
    ["zip -r -P Hunter2 a.zip d", ["Hunter2"]],
    ["mongosh -u admin -p Hunter2", ["Hunter2"]],
    ["sqlcmd -S db -U sa -P Hunter2", ["Hunter2"]],
    ["ldapsearch -x -D cn=admin -w Hunter2", ["Hunter2"]],
    ["openssl enc -in a -pass pass:Hunter2", ["Hunter2"]],
    ["openssl enc -in a -k Hunter2", ["Hunter2"]],
    ["keytool -list -storepass Hunter2", ["Hunter2"]],
    ["ssh-keygen -p -f k -P old9 -N new9", ["old9", "new9"]],
    ["curl -u alice:Hunter2 https://x", ["Hunter2"]],
    ["curl --user=alice:Hunter2 https://x", ["Hunter2"]],
    ["curl -ualice:Hunter2 https://x", ["Hunter2"]],
    ['curl --user "alice:Hunter 2" https://x', ["Hunter 2"]],
    ["http -a alice:Hunter2 GET example.com", ["Hunter2"]],
    ["lftp -u alice,Hunter2 ftp.example.com", ["Hunter2"]],
    ["smbclient //f/s -U alice%Hunter2", ["Hunter2"]],
    ["sqlplus -s scott/Hunter2@orcl @x.sql", ["Hunter2"]],
    ["kubectl create secret generic db --from-literal=db=Hunter2", ["Hunter2"]],
    ["gh secret set NPM_TOKEN --body Hunter2", ["Hunter2"]],
    ["aws configure set aws_secret_access_key Hunter2", ["Hunter2"]],
  ];
  for (const [text, expected] of cases) it(text, () => expect(secrets(text)).toEqual(expected));

  const untouched = [
    "find . -name mysql -print",
    "sudo find / -name mysql -prune -o -print",
    "find . -prune",
    "git restore -p",
    "git add -p",
    "grep -P '\\d+' f",
    "ssh -p 22 host",
    "mkdir -p a/b",
    "cp -p a b",
    "ps -p 1",
    "ls -pa /etc/mysql",
    "docker run -p 3306:3306 --name mysql mysql:8",
    "docker compose -p staging up",
    "mysql -u root -p shop",
    'mysql -p"$MYSQL_PWD"',
    "mysql -p$PW",
    "7z x -p a.7z",
    "curl -u alice https://x",
    "curl -u $USER:$PASS https://x",
    "ssh-keygen -t ed25519 -N '' -f k",
    "docker run -u 1000:1000 node",
    "openssl enc -pass env:KEY -in a",
    "sqlplus / as sysdba",
    "aws configure set region eu-west-1",
    "kubectl logs mysql-0 -p",
  ];
  for (const text of untouched) it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));
});

describe("secret-named flags", () => {
  const cases: [string, string[]][] = [
    ["tool --password Hunter2 --verbose", ["Hunter2"]],
    ["tool --password=Hunter2", ["Hunter2"]],
    ["tool --api-key 'a b'", ["a b"]],
    ['tool --client-secret="x9"', ["x9"]],
    ["wget --http-password=Hunter2 url", ["Hunter2"]],
    ["java -Djavax.net.ssl.keyStorePassword=Hunter2 -jar a.jar", ["Hunter2"]],
    ["vault -token s9xY", ["s9xY"]],
  ];
  for (const [text, expected] of cases) it(text, () => expect(secrets(text)).toEqual(expected));

  for (const text of [
    "docker login --password-stdin ghcr.io",
    "gh auth login --with-token < t",
    "aws secretsmanager get-secret-value --secret-id prod/db",
    "tool --password-file /run/secrets/pw",
    "tool --token $TOKEN",
    "tool --token=$(cat t)",
    "tool --token -v",
    "ansible --private-key ~/.ssh/key",
    "tool --private-key deploy.pem",
    "docker build --secret id=npmrc,src=.npmrc .",
    "tool --max-tokens 100",
    "tool --token-limit 100",
    "tool --no-password",
  ])
    it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));
});

describe("secret names", () => {
  it("splits names into words", () => {
    expect(nameWords("X-Api-Key")).toEqual(["x", "api", "key"]);
    expect(nameWords("keyStorePassword")).toEqual(["key", "store", "password"]);
    expect(nameWords("spring.datasource.password")).toEqual(["spring", "datasource", "password"]);
  });

  it("says which names hold a secret", () => {
    for (const n of [
      "PASSWORD",
      "PGPASSWORD",
      "DB_PASS",
      "MYSQL_PWD",
      "api_key",
      "apiKey",
      "AccountKey",
      "SECRET_KEY_BASE",
      "DOCKER_AUTH_CONFIG",
      "_authToken",
      "csrftoken",
      "client_secret",
      "aws_secret_access_key",
      "X-Api-Key",
    ])
      expect(secretName(n), n).toBe(true);
    for (const n of [
      "reference_passes",
      "primary_key",
      "cache_key",
      "KEY",
      "PWD",
      "max_tokens",
      "tokens_in",
      "token_type",
      "aws_access_key_id",
      "password_min_length",
      "api_key_file",
      "secret_name",
      "bypass",
      "keyboard",
      "monkey",
    ])
      expect(secretName(n), n).toBe(false);
  });

  it("placeholders and references are not secrets", () => {
    for (const v of [
      "$PW",
      "${PW}",
      "$(cat f)",
      "<password>",
      "%s",
      "?",
      ":password",
      "***",
      "xxxx",
      "[REDACTED]",
      "{{ pw }}",
      "whsec_...",
      "~/.ssh/key",
      "./pw.txt",
      "key.pem",
      "none",
      "true",
      "",
    ])
      expect(placeholder(v), v).toBe(true);
    for (const v of ["Hunter2", "s3cr3t-prod-pass", "abc123"]) expect(placeholder(v), v).toBe(false);
  });
});
