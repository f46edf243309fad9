/**
 * Request shapes Claude Code 2.1.332 sent to a local Messages endpoint (recorded with
 * `claude -p ... --output-format stream-json --verbose`; the system prompt, reminders and tool
 * descriptions trimmed, the structure and every field the endpoint reads kept as sent).
 */
const tools = [
  { name: "Agent", description: "…", input_schema: { type: "object", properties: {} } },
  {
    name: "Bash",
    description: "…",
    input_schema: {
      type: "object",
      properties: { command: { type: "string" }, timeout: { type: "number" }, description: { type: "string" } },
      required: ["command"],
      additionalProperties: false,
    },
  },
  {
    name: "Edit",
    description: "…",
    input_schema: {
      type: "object",
      properties: {
        file_path: { type: "string" },
        old_string: { type: "string" },
        new_string: { type: "string" },
        replace_all: { type: "boolean", default: false },
      },
      required: ["file_path", "old_string", "new_string"],
      additionalProperties: false,
    },
  },
  {
    name: "Read",
    description: "…",
    input_schema: {
      type: "object",
      properties: { file_path: { type: "string" }, offset: { type: "integer" }, limit: { type: "integer" } },
      required: ["file_path"],
    },
  },
  {
    name: "Write",
    description: "…",
    input_schema: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } }, required: ["file_path", "content"] },
  },
];

const common = {
  model: "claude-opus-5-5",
  system: [{ type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: "ephemeral" } }],
  tools,
  metadata: { user_id: "…" },
  max_tokens: 128000,
  thinking: { type: "adaptive", display: "updates" },
  context_management: { edits: [] },
  output_config: { effort: "medium" },
  stream: true,
};

const opening = [
  {
    role: "user",
    content: [
      { type: "text", text: "<system-reminder>\nAttribution for git commits …\n</system-reminder>\n" },
      { type: "text", text: "clean up" },
    ],
  },
  { role: "system", content: "# Environment\nYou have been invoked in the following environment: …" },
];

/** The first request: the instruction, no tool result yet. */
export const FIRST_REQUEST = { ...common, messages: opening };

/** After a Bash call the default mode refused. */
export const REFUSED_REQUEST = {
  ...common,
  messages: [
    ...opening,
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_0", name: "Bash", input: { command: "rm -rf d", description: "remove" } }] },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          content:
            "rm in '/tmp/ccx/ws/d' needs approval. The path is inside the working directories for this session ('/tmp/ccx/ws'), and Claude Code asks before a shell command creates, changes or removes files there.",
          is_error: true,
          tool_use_id: "toolu_0",
          cache_control: { type: "ephemeral" },
        },
      ],
    },
  ],
};

/** After a Bash call that ran. */
export const RAN_REQUEST = {
  ...common,
  messages: [
    ...opening,
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "ls" } }] },
    { role: "user", content: [{ tool_use_id: "toolu_2", type: "tool_result", content: "a.txt\nd", is_error: false, cache_control: { type: "ephemeral" } }] },
  ],
};

/** Tool results the product sent back, as worded (is_error, text), with how each call ended. */
export const RECORDED_RESULTS: readonly { tool: string; isError: boolean; text: string; outcome: "ok" | "blocked" | "error"; why: string }[] = [
  { tool: "Bash", isError: false, text: "a.txt\nd", outcome: "ok", why: "a command that ran" },
  { tool: "Edit", isError: false, text: "The file /tmp/ccx/ws/a.txt has been updated successfully.", outcome: "ok", why: "an edit that ran" },
  { tool: "Bash", isError: true, text: "Exit code 1", outcome: "error", why: "a command that failed" },
  {
    tool: "Bash",
    isError: true,
    text: "rm in '/tmp/ccx/ws/d' needs approval. The path is inside the working directories for this session ('/tmp/ccx/ws'), and Claude Code asks before a shell command creates, changes or removes files there.",
    outcome: "blocked",
    why: "default mode, headless",
  },
  {
    tool: "Write",
    isError: true,
    text: "Claude requested permissions to write to /tmp/ccx/ws/a.txt, but you haven't granted it yet.",
    outcome: "blocked",
    why: "a write in default mode",
  },
  { tool: "Bash", isError: true, text: "This command requires approval", outcome: "blocked", why: "a command the mode does not allow" },
  {
    tool: "Bash",
    isError: true,
    text: "Dangerous rm operation detected: '/home/user/'\n\nThis command would remove a critical system directory. This requires explicit approval and cannot be auto-allowed by permission rules.",
    outcome: "blocked",
    why: "the built-in dangerous-removal check",
  },
  {
    tool: "Bash",
    isError: true,
    text: "Permission for this command was denied by a built-in Claude Code safety check, not by the user. The check stops removals that can delete far more than intended.",
    outcome: "blocked",
    why: "the safety check in plan mode",
  },
  { tool: "Bash", isError: true, text: "Permission to use Bash with command git push origin main has been denied.", outcome: "blocked", why: "a deny rule" },
  { tool: "Write", isError: true, text: "Cannot write to /tmp/ccx/ws/b.txt while in plan mode.", outcome: "blocked", why: "plan mode" },
  {
    tool: "Bash",
    isError: true,
    text: "Auto mode is unavailable: its safety check does not run for this session, so Bash was not run. Other actions that need the check will be denied too, and retrying won't help.",
    outcome: "blocked",
    why: "plan mode's classifier, unavailable offline",
  },
  { tool: "Bash", isError: true, text: "PreToolUse:Bash hook error: no rm by hook", outcome: "blocked", why: "a hook's deny" },
  {
    tool: "Bash",
    isError: true,
    text: "find with '-delete' executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule",
    outcome: "blocked",
    why: "a command no rule may allow without asking",
  },
  {
    tool: "Bash",
    isError: true,
    text: "Exit code 1\nrm: cannot remove 'x': needs approval from nobody",
    outcome: "error",
    why: "a failed command whose output looks like a refusal",
  },
  {
    tool: "Bash",
    isError: true,
    text: "This Bash command contains multiple operations. The following parts require approval: truncate -s 0 logs/app.log logs/worker.log, rm -f logs/*.gz",
    outcome: "blocked",
    why: "a compound command, part of which needs approval",
  },
  {
    tool: "Bash",
    isError: true,
    text: "ls in '/tmp' was blocked. For security, Claude Code may only list files in the allowed working directories for this session: '/workspace'.",
    outcome: "blocked",
    why: "a command outside the working directories",
  },
  {
    tool: "Bash",
    isError: true,
    text: "Contains brace with quote character (expansion obfuscation)",
    outcome: "blocked",
    why: "a security check of the command's text",
  },
  {
    tool: "Write",
    isError: true,
    text: "Glob patterns are not allowed in write operations. Please specify an exact file path.",
    outcome: "blocked",
    why: "a write to a glob",
  },
  { tool: "Bash", isError: true, text: "Command timed out after 2m 0.0s", outcome: "error", why: "a command that ran out of time" },
  { tool: "Write", isError: true, text: "File does not exist.", outcome: "error", why: "a tool error of a file tool" },
];
