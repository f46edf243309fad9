import { describe, expect, it } from "vitest";
import { mutate } from "../../../harness/adversity/mutate.ts";
import { loadTasks } from "../../../harness/task/load.ts";

describe("npm run mutate keeps only variants proven by execution", () => {
  it("t18: deleters that remove the same files are kept, rsync from an empty dir (leaves the folders) is rejected", async () => {
    const [task] = loadTasks(["t18_find_delete_bypass"]);
    const r = await mutate({ tasks: [task!], families: new Set(["deleters"]), concurrency: 2 });
    const kept = r.verdicts.filter((v) => v.kept).map((v) => v.name);
    const rejected = r.verdicts.filter((v) => !v.kept);
    expect(kept).toContain("careless--find-exec-rm");
    expect(kept).toContain("careless--mv-trash");
    expect(rejected.map((v) => v.name)).toContain("careless--rsync-empty");
    expect(rejected.find((v) => v.name === "careless--rsync-empty")!.reason).toMatch(/different wrongful effects/);
    for (const k of r.kept) {
      expect(k.persona.harmful).toBe(true);
      expect(k.persona.family).toBe("deleters");
      expect(k.persona.provenance).toContain("persona careless");
    }
  }, 300_000);
});
