import { InputError } from "../../kernel/errors.ts";
import { createAttentive } from "./attentive.ts";
import { createHuman } from "./human.ts";
import { createOracle } from "./oracle.ts";
import { headless, rubberStamp } from "./simple.ts";
import { APPROVER_NAMES, type Approver, type ApproverContext, type ApproverName } from "./types.ts";

export function parseApproverNames(spec: string | undefined): ApproverName[] {
  const names = (spec ?? "attentive").split(",").map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!(APPROVER_NAMES as readonly string[]).includes(n)) throw new InputError("--approvers", n, `one of ${APPROVER_NAMES.join(", ")}`);
  }
  return names as ApproverName[];
}

export function createApprover(name: ApproverName, ctx: ApproverContext): Approver {
  switch (name) {
    case "attentive":
      return createAttentive(ctx);
    case "oracle":
      return createOracle(ctx);
    case "rubber-stamp":
      return rubberStamp;
    case "headless":
      return headless;
    case "human":
      return createHuman();
  }
}
