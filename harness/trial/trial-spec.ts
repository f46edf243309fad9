/** What one trial is: a task, an agent, a gate configuration, a user and an attempt, plus what the run shares. */
import type { GateConfig } from "../../gates/config.ts";
import type { AgentSpec } from "./agent/drivers/registry.ts";
import type { ApproverName } from "./approvers/registry.ts";
import type { LoadedTask } from "../model/task/load.ts";
import type { WorldStates } from "./states/world-states.ts";
import type { WorldTemplates } from "./states/world-templates.ts";
import type { Worlds } from "./states/worlds.ts";

export interface TrialSpec {
  runId: string;
  trialId: string;
  task: LoadedTask;
  agent: AgentSpec;
  gate: GateConfig;
  approver: ApproverName | "-";
  attempt: number;
  /** Keep the trial directory after the trial (debugging). */
  keepWorld?: boolean;
  /** Start from a copy of the task's post-setup world instead of running setup.sh again. */
  templates?: WorldTemplates;
  /** The run's shared world states (the prefix cache); absent: the trial keeps to its own world. */
  states?: WorldStates;
  /**
   * Where the trial's worlds are made (states/worlds.ts): the templates' or the shared states'
   * worlds when they are given, else bubblewrap's. The templates and states must use the same.
   */
  worlds?: Worlds;
}
