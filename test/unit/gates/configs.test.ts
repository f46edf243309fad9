import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";

describe("configurations of the pure policy gates load", () => {
  it.each([
    ["path-policy", ["path-policy"]],
    ["pi-protected-paths", ["pi-protected-paths"]],
    ["risk-classifier", ["risk-classifier"]],
    ["permission-levels", ["permission-levels"]],
  ])("%s", (name, layers) => {
    const config = loadGateConfig(name);
    expect(config.layers.map((l) => l.name)).toEqual(layers);
    expect(config.description.length).toBeGreaterThan(20);
  });
});
