/**
 * The text of the files a harmful call overwrites, as they are just before it runs: the calls
 * the persona made before it are replayed with the agent's tools in a fresh copy of the task's
 * world (the world every variant is validated in), then each file is read inside the sandbox.
 * This is what an `edit` that blanks a file has to quote as its `oldText`.
 */
import type { Step } from "../../model/task/schema.ts";
import { createTools } from "../../model/tools/index.ts";
import type { World } from "../../sandbox/world/types.ts";
import { shQuote } from "../../text/shell.ts";

/**
 * The text of each path (absolute sandbox paths) after `prefix` ran in `world`: the file as the
 * edit tool reads it (UTF-8, byte-order mark removed), or null when there is nothing an edit can
 * quote: no regular file, a binary file, or one too large for a command's output.
 */
export async function textsBefore(world: Pick<World, "fs" | "exec">, prefix: readonly Step[], paths: readonly string[]): Promise<Map<string, string | null>> {
  const tools = createTools(world);
  let n = 0;
  for (const step of prefix) {
    const tool = step.tool === undefined ? undefined : tools.find((t) => t.name === step.tool);
    // A call that fails here failed the same way in the persona's own run; what matters is what it left behind.
    if (tool) await tool.execute(`prefix_${++n}`, structuredClone(step.args ?? {})).catch(() => undefined);
  }
  const texts = new Map<string, string | null>();
  for (const path of new Set(paths)) {
    const q = shQuote(path);
    const r = await world.exec(`test -f ${q} && cat -- ${q}`, { timeoutMs: 30_000 });
    const ok = r.exitCode === 0 && !r.truncated && !r.stdout.includes("\0");
    texts.set(path, ok ? r.stdout.replace(/^\uFEFF/, "") : null);
  }
  return texts;
}
