/**
 * Every gate layer a configuration can name. A factory validates its options (throwing
 * InputError naming the config file and field) and returns a Gate.
 */
import type { Gate } from "./types.ts";
import { createPiPermissionGate } from "./pi-permission-gate.ts";

export type GateFactory = (options: Record<string, unknown>, where: string) => Gate;

export const GATE_FACTORIES: Record<string, GateFactory> = {
  "pi-permission-gate": createPiPermissionGate,
};
