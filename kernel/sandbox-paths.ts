/**
 * Where things live inside a trial's sandbox. The world binds its directories at these paths;
 * gates reason about calls in the same terms (a call's paths are sandbox paths).
 */

/** The agent's working directory. */
export const WORKSPACE = "/workspace";
/** The agent's home directory. */
export const HOME = "/home/user";
export const SANDBOX_TMP = "/tmp";
/** Where the hidden test's directory is bound while it runs. */
export const TESTS_MOUNT = "/tests";
/** Where the in-sandbox helper script directory is bound (read-only). */
export const HELPER_MOUNT = "/opt/gatebench";
/** The repository's node_modules, bound read-only into gate sandboxes (hooks shipped as npm packages). */
export const GATE_NODE_MODULES_MOUNT = "/opt/gatebench/node_modules";
/** Host files a gate process asks for are bound read-only below this directory. */
export const GATE_HOOKS_MOUNT = "/opt/gatebench/hooks";
