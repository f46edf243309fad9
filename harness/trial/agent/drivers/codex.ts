/**
 * `--agents codex`: the reference and every hand-written persona of a task, played through Codex
 * (products/codex.ts); `codex:reference` or `codex:<persona>` for one. Codex's own sandbox and
 * approval policy are the gate, so these agents run only under a Codex configuration
 * (`product: codex`).
 */
import { CODEX, codexAgent } from "./products/codex.ts";
import { productDriver } from "./product-driver.ts";

export const codexDriver = productDriver({ selector: "codex", kind: "codex-agent", pkg: CODEX, baselineGate: "codex-full-auto", agent: codexAgent });
