/**
 * `--agents claude-code`: the reference and every hand-written persona of a task, played through
 * Claude Code (products/claude-code.ts); `claude-code:reference` or `claude-code:<persona>` for
 * one. The product's own permission system is the gate, so these agents run only under a Claude
 * Code gate configuration (`product: claude-code`).
 */
import { CLAUDE_CODE, claudeCodeAgent } from "./products/claude-code.ts";
import { productDriver } from "./product-driver.ts";

export const claudeCodeDriver = productDriver({
  selector: "claude-code",
  kind: "claude-code-agent",
  pkg: CLAUDE_CODE,
  baselineGate: "claude-code-bypass",
  agent: claudeCodeAgent,
});
