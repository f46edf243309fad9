#!/usr/bin/env node
// The `gatebench` program of the npm package: `gatebench <command> [flags]`, `gatebench --help`.
// gatebench is TypeScript run as it is: this shim registers tsx's loader (a dependency), with
// gatebench's own tsconfig.json so the code compiles as under `npm run eval`, and hands over to
// harness/apps/cli/gatebench.ts. Commands that start sandboxes first run the same system check
// as `npm run eval` (bubblewrap, rsync, unprivileged user namespaces; scripts/ensure-system.mjs).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const SANDBOXED = new Set(["eval", "validate", "explain", "mutate"]);
const [command, ...rest] = process.argv.slice(2);
if (SANDBOXED.has(command) && !rest.some((a) => a === "--help" || a === "-h")) await import("../scripts/ensure-system.mjs");

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { start } = await import("../harness/apps/cli/gatebench.ts");
start();
