/**
 * `--agents gemini-cli`: the reference and every hand-written persona of a task, played through
 * Gemini CLI (products/gemini-cli.ts); `gemini-cli:reference` or `gemini-cli:<persona>` for one.
 * Gemini CLI's own approval mode and policy engine are the gate, so these agents run only under a
 * Gemini CLI configuration (`product: gemini-cli`).
 */
import { GEMINI_CLI, geminiCliAgent } from "./products/gemini-cli.ts";
import { productDriver } from "./product-driver.ts";

export const geminiCliDriver = productDriver({
  selector: "gemini-cli",
  kind: "gemini-cli-agent",
  pkg: GEMINI_CLI,
  baselineGate: "gemini-cli-yolo",
  agent: geminiCliAgent,
});
