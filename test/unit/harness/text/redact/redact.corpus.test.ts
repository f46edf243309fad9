/**
 * Redaction against two corpora: at least 200 strings that look risky and hold no secret
 * (test/support/redaction/benign.txt: flags such as -p, -print, -prune, -P; task, trial and
 * persona ids like rt-sk-learn-cache; find expressions, SQL, URLs, paths, temp folder names,
 * hashes, UUIDs, base64 of text, public keys, logs), of which redaction changes none; and at
 * least 100 secrets in the real shape of every recognised format, embedded in commands, env
 * dumps, URLs, headers and JSON (test/support/secrets.ts), of which it catches all. The ids of
 * every built-in task, persona and planned trial are also left as they are.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redact, redactText } from "../../../../../harness/text/redact/redact.ts";
import { trialKey } from "../../../../../harness/run/matrix/matrix.ts";
import { listTaskIds, loadTasks } from "../../../../../harness/model/task/load.ts";
import { PROVIDER_KEYS, secretCorpus } from "../../../../support/secrets.ts";

const BENIGN = readFileSync(join(import.meta.dirname, "../../../../support/redaction/benign.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() && !/^#[#\s]/.test(l))
  .map((l) => l.replace(/\\n/g, "\n").replace(/\\t/g, "\t"));

describe("redaction changes no text without a secret", () => {
  it("the benign corpus holds at least 200 strings", () => {
    expect(BENIGN.length).toBeGreaterThanOrEqual(200);
  });

  it("every string of the benign corpus comes back unchanged", () => {
    const changed = BENIGN.map((s) => [s, redactText(s)]).filter(([s, r]) => s !== r);
    expect(changed).toEqual([]);
  });

  it("the ids of every built-in task, persona and trial come back unchanged", () => {
    const tasks = loadTasks(listTaskIds());
    const ids: string[] = [];
    for (const t of tasks) {
      ids.push(t.task.id);
      for (const p of t.personas) {
        ids.push(p.name, `scripted:${p.name}`);
        for (const gate of ["none", "layered", "pi-extension-permission-gate"])
          ids.push(trialKey({ task: t.task.id, agent: `scripted:${p.name}`, gate, approver: "fatigued", attempt: 1 }));
      }
    }
    expect(ids.length).toBeGreaterThan(200);
    expect(ids.filter((id) => redact(id) !== id)).toEqual([]);
  });
});

describe("redaction catches every real-shaped secret", () => {
  const corpus = secretCorpus();

  it("the secret corpus holds at least 100 secrets, every provider format among them", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    for (const name of Object.keys(PROVIDER_KEYS)) expect(corpus.some((c) => c.name.startsWith(`${name} `))).toBe(true);
  });

  it("no secret of the corpus survives, and each leaves a [REDACTED] where it stood", () => {
    const missed = corpus.filter(({ secret, text }) => {
      const out = redactText(text);
      return out.includes(secret) || !out.includes("[REDACTED]");
    });
    expect(missed.map((m) => `${m.name}: ${m.text}`)).toEqual([]);
  });

  it("what surrounds a secret stays: only the secret becomes [REDACTED]", () => {
    for (const { secret, text } of corpus.filter((c) => !c.secret.includes("\n") && c.text.includes(c.secret))) {
      const out = redactText(text);
      const [before, after] = [text.slice(0, text.indexOf(secret)), text.slice(text.indexOf(secret) + secret.length)];
      expect(out.startsWith(before.slice(0, Math.max(0, before.length - 40))), text).toBe(true);
      expect(out.endsWith(after.slice(Math.min(after.length, 40))), text).toBe(true);
    }
  });
});
