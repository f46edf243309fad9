import { describe, expect, it } from "vitest";
import { machineBusyMs } from "../../../../scripts/bench/subset.ts";

describe("machineBusyMs", () => {
  it("adds user, nice, system, irq, softirq and steal of /proc/stat's first line, in ms", () => {
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    const stat = "cpu  100 5 40 9000 300 2 3 50 0 0\ncpu0 50 2 20 4500 150 1 1 25 0 0\n";
    expect(machineBusyMs(() => stat)).toBe((100 + 5 + 40 + 2 + 3 + 50) * 10);
  });
  it("is null without a readable /proc/stat or with a line it does not know", () => {
    expect(
      machineBusyMs(() => {
        throw new Error("ENOENT");
      }),
    ).toBeNull();
    expect(machineBusyMs(() => "intr 1 2 3\n")).toBeNull();
    expect(machineBusyMs(() => "cpu 1 2 x 4 5 6 7 8\n")).toBeNull();
  });
  it("reads this machine's counter, which only grows", () => {
    const a = machineBusyMs();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += i;
    const b = machineBusyMs();
    expect(x).toBeGreaterThan(0);
    expect(a).not.toBeNull();
    expect(b!).toBeGreaterThanOrEqual(a!);
  });
});
