/** A person at the terminal: shows tool, operation and normalised targets, reads y/N. */
import { createInterface } from "node:readline/promises";
import { ApproverDisconnected, type Approver } from "./types.ts";

export function createHuman(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Approver {
  const interactive = (input as { isTTY?: boolean }).isTTY === true || input !== process.stdin;
  return {
    name: "human",
    hasUI: interactive,
    async answer(request, signal) {
      const rl = createInterface({ input, output, terminal: false });
      const closed = new Promise<never>((_, reject) => rl.once("close", () => reject(new ApproverDisconnected())));
      try {
        output.write(
          `\n[gatebench] confirmation ${request.confirmationId}\n  tool: ${request.tool}\n  ${request.title} (risk: ${request.risk})\n` +
            `  ${request.description.split("\n").join("\n  ")}\n` +
            (request.resources.length ? `  targets:\n${request.resources.map((r) => `    - ${r}`).join("\n")}\n` : "  targets: (none named)\n"),
        );
        const reply = await Promise.race([rl.question("Allow once? [y/N] ", { signal }), closed]);
        return /^y(es)?$/i.test(reply.trim()) ? "allow-once" : "deny";
      } finally {
        rl.close();
      }
    },
  };
}
