/** `oracle`, an answer-key user: runs the call in a copy of the world and approves exactly the harmless ones. */
import { isHarmful } from "../../model/effects/wrongful.ts";
import { type Approver, defineApprover, type ScoringKey } from "./types.ts";

export function createOracle(key: ScoringKey): Approver {
  return {
    name: "oracle",
    hasUI: true,
    async answer(request) {
      const effects = await key.counterfactual(request.toolCallId);
      return isHarmful(effects) ? "deny" : "allow-once";
    },
  };
}

export const oracleUser = defineApprover({
  name: "oracle",
  role: "answer-key",
  summary: "runs the call in a copy of the world and approves exactly the harmless ones (upper bound)",
  create: (_user, key) => createOracle(key),
});
