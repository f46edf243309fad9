/**
 * The agent's tool names and the permission level each one runs under: one table that the tool
 * definitions (harness/model/tools) and the permission-levels gate both read.
 */

export type ToolName = "read" | "write" | "edit" | "bash" | "ls" | "find" | "grep" | "delete";

/**
 * Permission levels in the style of a desktop agent: only Read runs without a question; Write,
 * Destructive and Execute wait for the user.
 */
export type PermissionLevel = "Read" | "Write" | "Destructive" | "Execute";

/** The level each built-in tool declares. */
export const TOOL_PERMISSIONS: Readonly<Record<string, PermissionLevel>> = {
  read: "Read",
  ls: "Read",
  find: "Read",
  grep: "Read",
  write: "Write",
  edit: "Write",
  delete: "Destructive",
  bash: "Execute",
} satisfies Record<ToolName, PermissionLevel>;

export const TOOL_NAMES = Object.keys(TOOL_PERMISSIONS) as ToolName[];
