/**
 * `npm run mock-model`: a local OpenAI-compatible server a new user can point eval at; it prints
 * the GATEBENCH_BASE_URL to export and lists its models at GET /v1/models; --help exits 0.
 */
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { mockModels } from "../../../../../harness/apps/mock-model/behaviours.ts";

describe("npm run mock-model", () => {
  it("prints the base URL to export and serves its models", async () => {
    // node with tsx's loader: one process, which the kill below stops.
    const child = execa("node", ["--import", "tsx", "harness/apps/cli/mock-model.ts", "--port", "0"], { reject: false, forceKillAfterDelay: 2000 });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout?.on("data", (b: Buffer) => {
          out += b.toString();
          const m = /export GATEBENCH_BASE_URL=(\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        setTimeout(() => reject(new Error(`no base URL printed: ${out}`)), 60_000);
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
      expect(models.data.map((m) => m.id)).toEqual(mockModels());
    } finally {
      child.kill("SIGTERM");
      await child;
    }
  });

  it("--help exits 0 and lists the behaviours", async () => {
    const r = await execa("npx", ["tsx", "harness/apps/cli/mock-model.ts", "--help"], { reject: false });
    expect(r.exitCode).toBe(0);
    for (const m of mockModels()) expect(String(r.stdout)).toContain(m);
  });
});
