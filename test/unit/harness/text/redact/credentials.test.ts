/**
 * Secrets credential commands take as operands or on standard input
 * (harness/text/redact/credentials.ts): examples of each class, text piped or given where no
 * secret is read left alone, and properties over generated commands: a secret in any of these
 * shapes is removed with every other word of the command kept; the same commands without a
 * secret come back unchanged.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { credentialArgvRanges, credentialRanges } from "../../../../../harness/text/redact/credentials.ts";
import { redactArgv, redactText } from "../../../../../harness/text/redact/redact.ts";

const secrets = (text: string) => credentialRanges(text).map((r) => text.slice(r.start, r.end));

describe("positional secrets of credential commands", () => {
  const cases: [string, string[]][] = [
    ["htpasswd -b /etc/nginx/.htpasswd admin Hunter2x", ["Hunter2x"]],
    ["htpasswd -bcB .htpasswd admin 'Hunter 2x'", ["Hunter 2x"]],
    ["htpasswd -C 12 -bB f admin Hunter2x", ["Hunter2x"]],
    ["htpasswd -nb admin Hunter2x", ["Hunter2x"]],
    ["docker run --rm httpd htpasswd -Bbn admin Hunter2x", ["Hunter2x"]],
    ["vault login Hunter2x", ["Hunter2x"]],
    ["vault login -no-print -address https://v:8200 Hunter2x", ["Hunter2x"]],
    ["vault login -method=token Hunter2x", ["Hunter2x"]],
    ["mysqladmin -u root -p password Hunter2x", ["Hunter2x"]],
    ["rabbitmqctl add_user app Hunter2x", ["Hunter2x"]],
    ["rabbitmqctl change_password app Hunter2x", ["Hunter2x"]],
    ["mc alias set local http://127.0.0.1:9000 minio Hunter2x", ["Hunter2x"]],
    ["openssl passwd -6 -salt abc Hunter2x", ["Hunter2x"]],
    ["mkpasswd -m sha-512 Hunter2x", ["Hunter2x"]],
    ["cf auth ops Hunter2x", ["Hunter2x"]],
    ["redis-cli config set requirepass Hunter2x", ["Hunter2x"]],
  ];
  for (const [text, expected] of cases) it(text, () => expect(secrets(text)).toEqual(expected));

  const untouched = [
    "htpasswd -c .htpasswd admin",
    "htpasswd -D .htpasswd admin",
    "htpasswd -v .htpasswd admin",
    "vault login -method=userpass username=admin",
    "vault login -method userpass username=admin",
    "vault login -",
    'vault login "$VAULT_TOKEN"',
    "vault read secret/app",
    "mysqladmin -u root status",
    "rabbitmqctl list_users",
    "mc alias list",
    "openssl passwd -stdin",
    "openssl passwd -in pw.txt",
    "mkpasswd -s",
    "cf push -p ./app",
    "redis-cli config get requirepass",
  ];
  for (const text of untouched) it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));

  it("finds the operand in an explanation's argv too", () => {
    expect(credentialArgvRanges(["htpasswd", "-b", "f", "admin", "Hunter2x"])).toEqual([[], [], [], [], [{ start: 0, end: 8 }]]);
    expect(redactArgv(["vault", "login", "Hunter2x"])).toEqual(["vault", "login", "[REDACTED]"]);
  });
});

describe("secrets written to a command that reads one on standard input", () => {
  const cases: [string, string[]][] = [
    ["echo Hunter2x | sudo -S apt-get install -y nginx", ["Hunter2x"]],
    ["echo 'Hunter 2x' | sudo -S -u www rm -rf /srv/old", ["Hunter 2x"]],
    ["echo -n Hunter2x | sudo -kS true", ["Hunter2x"]],
    ["echo Hunter2x | sudo --stdin ls", ["Hunter2x"]],
    ["echo Hunter2x | docker login --password-stdin -u ci ghcr.io", ["Hunter2x"]],
    ['printf "%s" Hunter2x | podman login --password-stdin quay.io', ["Hunter2x"]],
    ["printf 'Hunter2x\\n' | helm registry login --password-stdin r.io", ["Hunter2x\\n"]],
    ["echo Hunter2x | gh auth login --with-token", ["Hunter2x"]],
    ["echo Hunter2x | ./deploy --token-stdin", ["Hunter2x"]],
    ["echo -e 'Hunter2x\\nHunter2x' | passwd --stdin deploy", ["Hunter2x\\nHunter2x"]],
    ["echo deploy:Hunter2x | chpasswd", ["Hunter2x"]],
    ["echo 'deploy:Hunter2x' | sudo chpasswd", ["Hunter2x"]],
    ["echo Hunter2x | gpg --batch --passphrase-fd 0 -d notes.gpg", ["Hunter2x"]],
    ["echo Hunter2x | ansible-vault view --vault-password-file=/dev/stdin v.yml", ["Hunter2x"]],
    ["echo Hunter2x | openssl enc -d -in a.enc -passin stdin", ["Hunter2x"]],
    ["echo Hunter2x | htpasswd -i .htpasswd admin", ["Hunter2x"]],
    ["echo Hunter2x | vault login -", ["Hunter2x"]],
    ["echo Hunter2x | docker secret create db_pw -", ["Hunter2x"]],
    ["echo Hunter2x | smbpasswd -s -a deploy", ["Hunter2x"]],
    ["sudo -S rm -rf /opt/old <<< Hunter2x", ["Hunter2x"]],
    ["docker login --password-stdin -u ci r.io <<<'Hunter2x'", ["Hunter2x"]],
    ["bash -c 'echo Hunter2x | sudo -S ls'", ["Hunter2x"]],
    ["make build && echo Hunter2x | sudo -S make install", ["Hunter2x"]],
  ];
  for (const [text, expected] of cases) it(text, () => expect(secrets(text)).toEqual(expected));

  const untouched = [
    "echo hello | sort",
    "echo 'deb http://x stable main' | sudo tee /etc/apt/sources.list.d/x.list",
    "echo hello | docker login -u ci r.io",
    'echo "$REGISTRY_TOKEN" | docker login --password-stdin -u ci r.io',
    "printf '%s\\n' \"$PW\" | sudo -S ls",
    "cat token.txt | docker login --password-stdin",
    "sudo -S ls",
    "echo done; sudo -S ls",
    "echo done || sudo -S ls",
    "echo done & sudo -S ls",
    "echo hello | sudo -u www ls",
    "grep -c x <<< hello",
    "echo x | passwd deploy",
    "printf -v out x | sudo -S ls",
    "echo hello | gh auth status",
  ];
  for (const text of untouched) it(`leaves ${text}`, () => expect(secrets(text)).toEqual([]));
});

// ---- properties over generated commands

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const chars = (s: string) => s.split("");
/** A password or token as chosen or generated: an upper-case letter, letters, digits and symbols a shell word holds unquoted, a digit. */
const secret = fc
  .tuple(
    fc.constantFrom(...chars(UPPER)),
    fc.string({ unit: fc.constantFrom(...chars(`${UPPER}abcdefghijklmnopqrstuvwxyz${DIGITS}!%^_+@,`)), minLength: 5, maxLength: 20 }),
    fc.constantFrom(...chars(DIGITS)),
  )
  .map(([a, b, c]) => `${a}${b}${c}`);
/** The secret as a shell word: bare, single- or double-quoted. */
const quoted = fc.tuple(secret, fc.constantFrom("", "'", '"')).map(([s, q]) => ({ secret: s, word: `${q}${s}${q}` }));
const lower = fc.string({ unit: fc.constantFrom(...chars("abcdefghijklmnopqrstuvwxyz")), minLength: 3, maxLength: 9 });
const file = fc.constantFrom("/etc/nginx/.htpasswd", ".htpasswd", "secrets/app.htpasswd");
const host = fc.constantFrom("ghcr.io", "registry.example.com", "quay.io", "10.0.0.5");
const command = fc.constantFrom("apt-get install -y nginx", "rm -rf /var/cache/app", "systemctl restart app", "ls /root", "make install");
/** A wrapper the command may stand behind. */
const wrapper = fc.constantFrom("", "timeout 30 ", "env LANG=C ", "nice ");

/** Commands that read a secret on standard input, with the words that must stay. */
const reader: fc.Arbitrary<{ text: string; kept: readonly string[] }> = fc.oneof(
  fc
    .tuple(fc.constantFrom("-S", "-kS", "--stdin", "-S -u www", "-S -E"), command)
    .map(([f, c]) => ({ text: `sudo ${f} ${c}`, kept: ["sudo", ...c.split(" ")] })),
  fc
    .tuple(fc.constantFrom("docker", "podman", "nerdctl", "helm registry", "oras"), lower, host, wrapper)
    .map(([p, u, h, w]) => ({ text: `${w}${p} login --password-stdin -u ${u} ${h}`, kept: [u, h, "--password-stdin"] })),
  lower.map((u) => ({ text: `passwd --stdin ${u}`, kept: ["passwd", u] })),
  fc.constant({ text: "gh auth login --with-token", kept: ["gh", "auth"] }),
  fc
    .tuple(fc.constantFrom("--passphrase-fd 0", "--password-file=/dev/stdin", "--token-file -", "--secret-stdin", "--api-token-stdin"), lower)
    .map(([f, p]) => ({ text: `./${p} ${f} run`, kept: [`./${p}`, "run"] })),
  fc.constant({ text: "openssl enc -d -in a.enc -passin stdin", kept: ["openssl", "a.enc"] }),
  fc.tuple(file, lower).map(([f, u]) => ({ text: `htpasswd -i ${f} ${u}`, kept: [f, u] })),
  fc.constant({ text: "vault login -", kept: ["vault", "login"] }),
  lower.map((n) => ({ text: `docker secret create ${n} -`, kept: [n] })),
  lower.map((u) => ({ text: `smbpasswd -s -a ${u}`, kept: [u] })),
);

/** What writes the secret into the reader: echo or printf through a pipe, or a here-string. */
const fed = fc
  .tuple(quoted, reader, fc.constantFrom("echo", "echo -n", "echo -e", "printf '%s\\n'", "printf", "here"))
  .map(([{ secret, word }, r, how]) => ({ secret, text: how === "here" ? `${r.text} <<< ${word}` : `${how} ${word} | ${r.text}`, kept: r.kept }));

/** `user:secret` lines for chpasswd: the user stays. */
const chpasswd = fc
  .tuple(lower, secret, fc.constantFrom("", "sudo "), fc.constantFrom("chpasswd", "chgpasswd"))
  .map(([u, s, w, p]) => ({ secret: s, text: `echo '${u}:${s}' | ${w}${p}`, kept: [`${u}:`, p] }));

/** Positional secrets of credential commands. */
const positional = fc.oneof(
  fc
    .tuple(quoted, file, lower, fc.constantFrom("-b", "-bc", "-bB", "-Bb", "-b -C 10"))
    .map(([{ secret, word }, f, u, flags]) => ({ secret, text: `htpasswd ${flags} ${f} ${u} ${word}`, kept: [f, u] })),
  fc.tuple(quoted, lower).map(([{ secret, word }, u]) => ({ secret, text: `htpasswd -nb ${u} ${word}`, kept: [u] })),
  fc
    .tuple(quoted, fc.constantFrom("", "-no-print ", "-address https://vault:8200 ", "-method=token "))
    .map(([{ secret, word }, f]) => ({ secret, text: `vault login ${f}${word}`, kept: ["vault", "login"] })),
  quoted.map(({ secret, word }) => ({ secret, text: `mysqladmin -u root password ${word}`, kept: ["root", "password"] })),
  fc
    .tuple(quoted, lower, fc.constantFrom("add_user", "change_password"))
    .map(([{ secret, word }, u, sub]) => ({ secret, text: `rabbitmqctl ${sub} ${u} ${word}`, kept: [sub, u] })),
  fc.tuple(quoted, lower).map(([{ secret, word }, a]) => ({ secret, text: `mc alias set ${a} http://127.0.0.1:9000 minio ${word}`, kept: [a, "minio"] })),
  quoted.map(({ secret, word }) => ({ secret, text: `openssl passwd -6 ${word}`, kept: ["passwd", "-6"] })),
);

/** Password and token flags of credential programs. */
const flagged = fc.oneof(
  fc.tuple(quoted, lower).map(([{ secret, word }, u]) => ({ secret, text: `az login -u ${u}@example.com -p ${word}`, kept: [`${u}@example.com`] })),
  fc.tuple(quoted, lower).map(([{ secret, word }, u]) => ({ secret, text: `cf login -a https://api.cf -u ${u} -p ${word}`, kept: [u] })),
  quoted.map(({ secret, word }) => ({ secret, text: `doctl auth init -t ${word}`, kept: ["doctl", "init"] })),
  fc.tuple(quoted, lower).map(([{ secret, word }, u]) => ({ secret, text: `twine upload -u ${u} -p ${word} dist/*`, kept: [u, "dist/*"] })),
  fc.tuple(quoted, lower).map(([{ secret, word }, u]) => ({ secret, text: `ipmitool -H bmc -U ${u} -P ${word} power status`, kept: [u, "power"] })),
  fc.tuple(quoted, host).map(([{ secret, word }, h]) => ({ secret, text: `plink -ssh -pw ${word} ${h} uptime`, kept: [h, "uptime"] })),
  quoted.map(({ secret, word }) => ({ secret, text: `jarsigner -storepass ${word} app.jar release`, kept: ["app.jar", "release"] })),
);

describe("credentials (fuzzed)", () => {
  const planted = fc.oneof(fed, chpasswd, positional, flagged);
  it("a secret in any of these shapes is removed, every other word kept", () => {
    fc.assert(
      fc.property(planted, fc.constantFrom("", "cd /srv && ", "set -e; "), ({ secret, text, kept }, before) => {
        const out = redactText(`${before}${text}`);
        expect(out).not.toContain(secret);
        expect(out).toContain("[REDACTED]");
        expect(out.startsWith(before)).toBe(true);
        for (const k of kept) expect(out).toContain(k);
      }),
      { numRuns: 2000 },
    );
  });

  it("redacting twice is redacting once", () => {
    fc.assert(
      fc.property(planted, ({ text }) => {
        const once = redactText(text);
        expect(redactText(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  /** The same programs and pipes where no secret is given or read. */
  const benign = fc.oneof(
    fc
      .tuple(lower, fc.constantFrom("sort", "grep -c x", "sudo tee /etc/motd", "sudo -u www tee f", "docker login -u ci r.io", "passwd deploy"))
      .map(([w, r]) => `echo ${w} | ${r}`),
    fc.tuple(lower, reader).map(([w, r]) => `echo ${w}; ${r.text}`),
    fc.tuple(lower, reader).map(([w, r]) => `echo ${w} && ${r.text}`),
    fc.tuple(fc.constantFrom('"$PW"', "$TOKEN", "'<password>'", "${SECRET}"), reader).map(([v, r]) => `echo ${v} | ${r.text}`),
    fc.tuple(file, lower, fc.constantFrom("-c", "-D", "-v", "-cB")).map(([f, u, fl]) => `htpasswd ${fl} ${f} ${u}`),
    lower.map((u) => `vault login -method=userpass username=${u}`),
    lower.map((p) => `vault read secret/${p}`),
    fc.constantFrom(
      "mysqladmin -u root status",
      "rabbitmqctl list_users",
      "az login --use-device-code",
      "az group list -o table",
      "cf push -p ./app",
      "gh auth status",
      "sudo -S ls",
    ),
    lower.map((w) => `grep -c ${w} <<< ${w}`),
  );
  it("the same commands without a secret come back unchanged", () => {
    fc.assert(
      fc.property(benign, (text) => {
        expect(redactText(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
