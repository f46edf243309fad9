import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Two projects: `unit` (in-process, test/unit/, mirrors the source tree) and `e2e` (anything that
 * starts a sandbox, a CLI process or a browser, test/e2e/). `npm test` runs unit first.
 */
export default defineConfig({
  test: {
    pool: "forks",
    // One test file per core. vitest's default leaves a core free (one file at a time on 2 cores),
    // but the e2e tests mostly wait on sandboxes and processes: on 2 idle cores two at a time took
    // the unit tests from 131 s to 87 s and the e2e tests from 743 s to 515 s.
    maxWorkers: availableParallelism(),
    // No result store unless a test asks for one (--store DIR): tests that count what ran must see it run.
    env: { GATEBENCH_STORE: "off" },
    maxConcurrency: 4,
    // fast-check: FC_SEED / FC_PATH replay a property's failing run; a failure prints the command
    // (docs/testing.md).
    setupFiles: ["test/support/fast-check-setup.ts"],
    // GitHub's workflow parser imports its JSON schema without an import attribute, which Node's
    // own loader refuses: let vite load it (test/support/workflow.ts).
    server: { deps: { inline: ["@actions/workflow-parser"] } },
    // Timeouts catch hangs, never slowness: on 2 cores loaded by another eval, importing a large
    // module graph or starting a sandbox takes minutes. Tests name no shorter timeout of their own.
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts", "test/unit/.github/**/*.test.ts"], testTimeout: 300_000, hookTimeout: 300_000 },
      },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 900_000, hookTimeout: 900_000 } },
    ],
  },
});
