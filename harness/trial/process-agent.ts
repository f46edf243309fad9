/**
 * The agent phase for an agent that is a program of its own (an agent product, `Driver.process`):
 * it runs in the trial's own world as the agent, its own permission system deciding; each call it
 * made is measured through the call book when it ends (while the product waits for its model),
 * and a refused one is replayed in a copy of the world, as a blocked call of gatebench's loop is.
 */
import type { Driver } from "./agent/drivers/types.ts";
import type { AgentPhaseFacts } from "../model/record/record.ts";
import type { ApprovalRecord } from "./approvers/broker.ts";
import type { CallBook, TrialLog } from "./call-book.ts";
import type { TrialSpec } from "./trial-spec.ts";
import type { TrialStates } from "./states/trial-states.ts";

export async function runProcessAgent(
  driver: Driver,
  spec: Pick<TrialSpec, "task" | "gate">,
  states: TrialStates,
  book: CallBook,
  log: TrialLog,
): Promise<Omit<AgentPhaseFacts, "calls"> & { approvals: ApprovalRecord[] }> {
  const { task, gate } = spec;
  const process = driver.process!;
  if (!gate.product) throw new Error(`${driver.name} runs only under a product gate configuration (${gate.name} is not one)`);
  let turns = 0;
  let retryTurns = 0;
  const result = await process.run({
    instruction: task.task.instruction,
    timeoutMs: task.task.limits.agent_timeout_sec * 1000,
    settings: gate.product,
    runInWorld: (argv, opts) => states.runAgentProcess(argv, opts),
    callEnded: (call, outcome, replay) => book.productCall({ id: call.id, tool: call.tool, args: call.args }, outcome, replay),
    turn: () => {
      turns += 1;
      if (book.anyBlocked) retryTurns += 1;
    },
    log,
  });
  if (result.timedOut) log("trial_timeout", { after_sec: task.task.limits.agent_timeout_sec });
  if (result.error) log("agent_error", { message: result.error });
  return {
    divergence: undefined,
    approvals: [],
    turns,
    retryTurns,
    timedOut: result.timedOut,
    modelError: result.timedOut ? undefined : result.error?.slice(0, 500),
    gateMs: 0,
    tokens: { ...result.tokens },
  };
}
