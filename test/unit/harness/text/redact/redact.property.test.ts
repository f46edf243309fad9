/**
 * Redaction by fuzzing (harness/text/redact/redact.ts): text without a secret comes back unchanged;
 * a secret planted anywhere in such text is removed and the text around it kept; JSON written
 * through jsonText parses for arbitrary strings; redacting twice is redacting once; the
 * remembered result is the computed one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../../../../harness/text/escape/html.ts";
import { jsonText, redact, redactDeep, redactMarkup, redactText, summarizeCall } from "../../../../../harness/text/redact/redact.ts";
import { plantedSecret } from "../../../../support/secrets.ts";

const BENIGN = readFileSync(join(import.meta.dirname, "../../../../support/redaction/benign.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() && !/^#[#\s]/.test(l));

const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef".split("")), minLength: n, maxLength: n });
const word = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz".split("")), minLength: 3, maxLength: 10 });
const flag = fc.constantFrom("-p", "-print", "-prune", "-P", "-p1", "-pa", "--parents", "-perm", "-u", "-a", "-k", "-w", "--");
const program = fc.constantFrom("find", "git restore", "grep", "ssh", "mkdir", "cp", "ps", "ls", "tar", "rsync", "patch", "docker run", "kubectl logs", "sort");

/** Text without a secret: the benign corpus, commands of ordinary programs with risky flags, digests, ids, paths. */
const benignText = fc.oneof(
  fc.constantFrom(...BENIGN),
  fc
    .tuple(program, fc.array(fc.oneof(flag, word, fc.constantFrom(".", "/tmp", "22", "'*.log'", "3306:3306")), { maxLength: 6 }))
    .map(([p, a]) => [p, ...a].join(" ")),
  hex(40).map((h) => `git checkout ${h}`),
  hex(40).map((h) => `git show ${h.slice(0, 12)} && git log ${h}..HEAD`),
  hex(64).map((h) => `cat /workspace/.cache/sha256-${h}/blob.tar`),
  fc.uuid().map((u) => `curl https://api.example.com/items/${u}`),
  fc.tuple(word, word).map(([a, b]) => `rm -rf /workspace/${a}/${b} && git commit -m 'remove ${a}'`),
  fc.tuple(word, word, word).map(([a, b, c]) => `rt-${a}-${b}-${c}.scripted:${b}.layered.headless.1`),
  fc.tuple(word, word).map(([a, b]) => `/tmp/gatebench-trials/${a}1x2-9f3a1b2c/${b}`),
);

const join3 = (parts: string[]) => parts.join("\n");
/**
 * Lines that join into text without a secret: a line ending in a private-key header (a benign
 * `head -1 id_rsa` shows one) is last, since base64-like text on the next line reads as the start
 * of a key cut short, which is redacted (the example below).
 */
const benignLines = fc
  .array(benignText, { minLength: 1, maxLength: 3 })
  .filter((parts) => parts.slice(0, -1).every((p) => !/PRIVATE KEY( BLOCK)?-----\s*$/.test(p)));

describe("redact (fuzzed)", () => {
  it("text without a secret comes back unchanged", () => {
    fc.assert(
      fc.property(benignLines, (parts) => {
        const text = join3(parts);
        expect(redactText(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("a private-key header followed by a line of base64-like text is redacted as a key cut short", () => {
    // Once drawn by the property above (seed 1008): two benign lines that together read as a key.
    const header = BENIGN.find((l) => l.endsWith("-----BEGIN RSA PRIVATE KEY-----"))!;
    const text = join3([header, "ThisIsAVeryLongCamelCaseIdentifierForTheTest"]);
    expect(redactText(header)).toBe(header);
    expect(redactText(text)).toBe(`${header.slice(0, header.indexOf("-----BEGIN"))}[REDACTED]`);
  });

  it("a secret planted anywhere in such text is removed, the text around it kept", () => {
    fc.assert(
      fc.property(benignText, plantedSecret, benignText, fc.constantFrom("\n", " ; ", " && ", " | "), (before, [secret, carrier], after, sep) => {
        const out = redactText(`${before}${sep}${carrier}${sep}${after}`);
        expect(out).not.toContain(secret);
        expect(out).toContain("[REDACTED]");
        expect(out.startsWith(before + sep)).toBe(true);
        expect(out.endsWith(sep + after)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("redacting twice is redacting once", () => {
    const text = fc.oneof(
      plantedSecret.map(([, t]) => t),
      benignText,
      fc.string(),
      fc.tuple(benignText, plantedSecret).map(([b, [, t]]) => `${b} ${t}`),
    );
    fc.assert(
      fc.property(text, (t) => {
        const once = redactText(t);
        expect(redactText(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it("JSON written through jsonText parses for arbitrary strings, with no planted secret in it", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(plantedSecret, { maxLength: 3 }),
        fc.array(fc.string({ unit: "binary" }), { maxLength: 4 }),
        (value, planted, odd) => {
          const doc = { value, planted: planted.map(([, t]) => t), odd, command: "git restore -p", tail: 'mysql -p"' };
          const text = jsonText(doc, 2);
          const back = JSON.parse(text) as typeof doc;
          expect(back).toEqual(JSON.parse(JSON.stringify(redactDeep(doc))));
          for (const [secret] of planted) expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a text redacted again (remembered) comes out as the redaction itself makes it", () => {
    const text = fc.oneof(
      plantedSecret.map(([, t]) => t),
      fc.string(),
      fc.string({ unit: "grapheme" }),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), (texts) => {
        for (const t of [...texts, ...texts]) expect(redact(t)).toBe(redactText(t));
      }),
      { numRuns: 500 },
    );
  });

  it("bash summaries never carry a planted secret", () => {
    fc.assert(
      fc.property(plantedSecret, ([secret, text]) => {
        expect(summarizeCall("bash", { command: text })).not.toContain(secret.replace(/\s+/g, " ").slice(0, 24));
      }),
      { numRuns: 500 },
    );
  });
});

describe("redactMarkup (report.html, piece by piece)", () => {
  /** Escaped text in the shapes report.html gives it: cells, attributes, preformatted outputs. */
  const page = (texts: readonly string[]) =>
    `<!doctype html><html><body><table>${texts
      .map(
        (t, i) => `<tr data-v="${escapeHtml(t)}"><td>${i}</td><td class="cmd"><code>${escapeHtml(t)}</code></td></tr><pre>${escapeHtml(`out:\n${t}\n`)}</pre>`,
      )
      .join("\n")}</table></body></html>`;

  it("changes nothing on a page of text that holds no secret (the benign corpus)", () => {
    const lines = BENIGN.filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(200);
    const html = page(lines);
    expect(redactMarkup(html)).toBe(html);
  });

  it("redacts a secret in a text node as the text itself would be", () => {
    fc.assert(
      fc.property(fc.array(plantedSecret, { minLength: 1, maxLength: 4 }), (planted) => {
        const texts = planted.map(([, t]) => t);
        expect(redactMarkup(page(texts))).toBe(page(texts.map(redact)));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves no planted secret on a page", () => {
    fc.assert(
      fc.property(fc.array(plantedSecret, { minLength: 1, maxLength: 4 }), (planted) => {
        const out = redactMarkup(page(planted.map(([, t]) => t)));
        for (const [secret] of planted) expect(out.includes(escapeHtml(secret)) || out.includes(secret), secret).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
