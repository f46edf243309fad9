/**
 * Provider key shapes and the entropy rule (harness/text/redact/shapes.ts): a key is recognised by
 * its prefix, alphabet and length together, never by its prefix alone; bare random tokens are
 * found, digests, ids, public keys and CamelCase names are not.
 */
import { describe, expect, it } from "vitest";
import { entropyRanges, looksLikeSecretToken, readsRandom, shapeRanges } from "../../../../../harness/text/redact/shapes.ts";
import { ALNUM, PROVIDER_KEYS, rng, token } from "../../../../support/secrets.ts";

const found = (text: string) => shapeRanges(text).map((r) => text.slice(r.start, r.end));

describe("provider shapes", () => {
  for (const [name, make] of Object.entries(PROVIDER_KEYS)) {
    if (name === "aws-secret-access-key") continue;
    it(`finds a ${name} key, whole`, () => {
      const k = make(rng(42));
      expect(found(`x ${k} y`)).toContain(k);
    });
  }

  it("a prefix alone, or one followed by words, is no key", () => {
    for (const t of [
      "rt-sk-learn-cache",
      "sk-learn-cache",
      "sk-proj-learn-cache-and-build-everything-now-please-ok",
      "ghp_test",
      `ghp_${"a".repeat(36)}`,
      "xoxb-notes-for-the-team-meeting",
      "glpat-rotation-runbook-for-ops",
      "AKIA-docs",
      "AKIAshort",
      "sk_live_docs",
      "npm_install_the_dependencies_first_ok",
      "hf_hub_download",
      "eyJhbGciOi",
    ])
      expect(found(t), t).toEqual([]);
  });

  it("a key inside a longer word is not one (the prefix must start a token)", () => {
    const k = PROVIDER_KEYS["github-classic"]!(rng(3));
    expect(found(`abc${k}`)).toEqual([]);
    expect(found(`task-${k}`)).toEqual([]);
  });

  it("a key one character short of its length is not one", () => {
    const k = PROVIDER_KEYS["google-api-key"]!(rng(5));
    expect(found(k.slice(0, -1))).toEqual([]);
    expect(found(PROVIDER_KEYS["aws-access-key-id"]!(rng(5)).slice(0, -1))).toEqual([]);
  });

  it("a PEM header without a body (a grep pattern) is not a key", () => {
    expect(found("grep -l -- '-----BEGIN OPENSSH PRIVATE KEY-----' ~/.ssh/*")).toEqual([]);
  });

  it("readsRandom: two of upper, lower, digits", () => {
    expect(readsRandom("abcdef")).toBe(false);
    expect(readsRandom("ABCDEF")).toBe(false);
    expect(readsRandom("abc123")).toBe(true);
    expect(readsRandom("AbCdEf")).toBe(true);
  });
});

describe("high-entropy tokens", () => {
  it("misses fewer than 1 in 200 random 32-character tokens and 1 in 1,000 40-character base64 ones (seeded)", () => {
    const r = rng(11);
    const miss = (alphabet: string, length: number, n: number) => {
      let m = 0;
      for (let i = 0; i < n; i++) if (entropyRanges(token(r, alphabet, length)).length === 0) m++;
      return m / n;
    };
    expect(miss(ALNUM, 32, 20_000)).toBeLessThan(1 / 200);
    expect(miss(`${ALNUM}+/`, 40, 20_000)).toBeLessThan(1 / 1000);
  });

  it("finds the token and only the token after a name (NAME=token)", () => {
    const t = token(rng(1), `${ALNUM}+/`, 40);
    const text = `AWS_SECRET_ACCESS_KEY=${t}`;
    expect(entropyRanges(text).map((x) => text.slice(x.start, x.end))).toEqual([t]);
  });

  it("leaves digests, ids, public keys and names", () => {
    for (const t of [
      "9fceb02d0ae598e95dc970b74767f19372d61af8",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "f47ac10b-58cc-4372-a567-0e02b2c3d479",
      "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXGKDmgEKQn7Ncl8ZrtdwNrkBW9aw==",
      "h1:HtqpIVDClZ4nwg75+xpPYKT9S4EEOw5NwcVJY6nwBxA=",
      "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
      "getUserAccountSettingsForTenant2024Q1Report",
      "AbstractSingletonProxyFactoryBeanTest",
      "x86_64-unknown-linux-gnu-and-some-more-words",
      "/workspace/node_modules/@aws-sdk/credential-provider-node/dist-cjs/index",
      Buffer.from("rm -rf /tmp/cache-* && echo done cleaning up").toString("base64"),
    ])
      expect(entropyRanges(t), t).toEqual([]);
  });

  it("base64 of text is a secret only when the text holds one", () => {
    const inner = Buffer.from("export TOKEN=x && run the job now").toString("base64");
    expect(entropyRanges(inner, () => true)).toHaveLength(1);
    expect(entropyRanges(inner, () => false)).toEqual([]);
  });

  it("looksLikeSecretToken keeps letters-only names and takes random mixed case", () => {
    expect(looksLikeSecretToken("ThisIsAVeryLongCamelCaseIdentifierForTheTest")).toBe(false);
    expect(looksLikeSecretToken(token(rng(2), ALNUM, 40))).toBe(true);
  });
});
