/** Hand-made confirmation requests for approver tests. */
import type { ApprovalRequest } from "../../harness/trial/approvers/types.ts";

let seq = 0;
export function request(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  seq++;
  return {
    runId: "r",
    trialId: "t",
    confirmationId: `c${seq}`,
    toolCallId: `call_${seq}`,
    tool: "bash",
    args: {},
    title: "Allow a shell command that deletes files?",
    description: "",
    resources: [],
    risk: "high",
    ...over,
  };
}

export const bash = (command: string, resources: string[] = [], over: Partial<ApprovalRequest> = {}): ApprovalRequest =>
  request({ tool: "bash", args: { command }, resources, ...over });

export const signal = new AbortController().signal;
