/** The oracle user: runs the call in a copy of the world and approves exactly the harmless ones. */
import { isHarmful } from "../effects/wrongful.ts";
import type { Approver, ApproverContext } from "./types.ts";

export function createOracle(ctx: ApproverContext): Approver {
  return {
    name: "oracle",
    hasUI: true,
    async answer(request) {
      const effects = await ctx.counterfactual(request.toolCallId);
      return isHarmful(effects) ? "deny" : "allow-once";
    },
  };
}
