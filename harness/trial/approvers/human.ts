/** A person at the terminal: shows the question a UI would show (question.ts), reads y/N. */
import { createInterface } from "node:readline/promises";
import { buildUiQuestion, renderQuestion } from "./question.ts";
import { ApproverDisconnected, type Approver, defineApprover } from "./types.ts";

export function createHuman(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Approver {
  const interactive = (input as { isTTY?: boolean }).isTTY === true || input !== process.stdin;
  return {
    name: "human",
    hasUI: interactive,
    async answer(request, signal) {
      const rl = createInterface({ input, output, terminal: false });
      const closed = new Promise<never>((_, reject) => rl.once("close", () => reject(new ApproverDisconnected())));
      try {
        output.write(`\n[gatebench] confirmation ${request.confirmationId}\n${renderQuestion(buildUiQuestion(request))}`);
        const reply = await Promise.race([rl.question("Allow once? [y/N] ", { signal }), closed]);
        return /^y(es)?$/i.test(reply.trim()) ? "allow-once" : "deny";
      } finally {
        rl.close();
      }
    },
  };
}

export const humanUser = defineApprover({
  name: "human",
  role: "realistic",
  summary: "you: the same question in the terminal, answered y/N",
  person: true,
  create: () => createHuman(),
});
