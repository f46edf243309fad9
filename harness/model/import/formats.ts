/**
 * Readers for recorded agent sessions. Each turns a file into RecordedSession: tool calls in
 * order with how each ended. Shapes follow the formats' public documentation and real files:
 *
 * - Claude Code (~/.claude/projects/<project>/<session>.jsonl): one JSON object per line;
 *   `type: "assistant"` lines carry `message.content[]` with `tool_use` blocks {id, name, input}
 *   and `text` blocks; `type: "user"` lines carry `tool_result` blocks {tool_use_id, content,
 *   is_error}. `cwd` and `timestamp` are on every line. A hook or permission refusal is an
 *   `is_error` result whose text says blocked/denied ("The user doesn't want to proceed...").
 * - Pi session JSONL v3: a `{type: "session", version: 3, cwd, timestamp}` header, then
 *   `{type: "message", message}` lines; assistant messages hold `toolCall` items {id, name,
 *   arguments}; `toolResult` messages {toolCallId, content, isError}.
 * - Codex (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): `{timestamp, type, payload}` lines;
 *   `session_meta` payload has `cwd`; `response_item` payloads are `message`, `function_call`
 *   {name, arguments (a JSON string), call_id} with `function_call_output` {call_id, output},
 *   and `custom_tool_call` {name, input, call_id} (apply_patch) with `custom_tool_call_output`.
 *   Assumption: the exit code is `metadata.exit_code` when the output is JSON, or an
 *   "Exit code: N" line when it is text; "rejected"/"declined" in the output means blocked.
 * - Inspect (`.eval`, a zip with samples/*.json, or a `.json` log with `samples[]`): each
 *   sample's `messages[]`; assistant messages have `tool_calls[]` {id, function, arguments};
 *   `tool` messages {tool_call_id, content, error: {type, message} | null}; an error of type
 *   "approval" is a block, any other error a failure.
 * - ATIF v1.x (Agent Trajectory Interchange Format): `{schema_version: "ATIF-v1.x", steps[]}`;
 *   agent steps carry `tool_calls[]` {tool_call_id, function_name, arguments} and
 *   `observation.results[]` {source_call_id, content}. Assumption: ATIF has no error flag, so a
 *   result with `is_error: true`, or whose content starts with "Error"/"error:"/"Exit code: N"
 *   (N > 0), is a failure, and one that says blocked/denied is a block.
 */
import { unzipSync, strFromU8 } from "fflate";
import { InputError } from "../../../kernel/errors.ts";
import { BLOCKED_TEXT, textOf, type RecordedCall, type RecordedSession, type RecordedStatus } from "./types.ts";
import type { TranscriptFormat } from "../task/schema.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function jsonLines(text: string, file: string): Obj[] {
  const out: Obj[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const v = JSON.parse(line) as unknown;
      if (isObj(v)) out.push(v);
    } catch {
      throw new InputError(file, `line ${i + 1}`, "one JSON object per line (JSONL)");
    }
  });
  return out;
}

const statusFrom = (isError: boolean, text: string): RecordedStatus => (!isError ? "ok" : BLOCKED_TEXT.test(text) ? "blocked" : "error");

/** Pair calls with results by id, in call order. */
function collect(calls: { id: string; name: string; input: unknown; say?: string; cwd?: string }[], results: Map<string, RecordedStatus>): RecordedCall[] {
  return calls.map((c) => ({
    name: c.name,
    input: c.input,
    status: results.get(c.id) ?? "unknown",
    ...(c.say ? { say: c.say } : {}),
    ...(c.cwd ? { cwd: c.cwd } : {}),
  }));
}

export function readClaudeCode(text: string, file: string): RecordedSession {
  const calls: { id: string; name: string; input: unknown; say?: string; cwd?: string }[] = [];
  const results = new Map<string, RecordedStatus>();
  let cwd: string | undefined;
  let date: string | undefined;
  let pendingSay = "";
  for (const line of jsonLines(text, file)) {
    if (typeof line.cwd === "string") cwd ??= line.cwd;
    if (typeof line.timestamp === "string") date ??= line.timestamp;
    const msg = isObj(line.message) ? line.message : undefined;
    const content = Array.isArray(msg?.content) ? (msg.content as unknown[]) : [];
    if (line.type === "assistant") {
      for (const block of content.filter(isObj)) {
        if (block.type === "text" && typeof block.text === "string") pendingSay += (pendingSay ? "\n" : "") + block.text;
        if (block.type === "tool_use") {
          calls.push({
            id: String(block.id),
            name: String(block.name),
            input: block.input,
            ...(pendingSay ? { say: pendingSay } : {}),
            ...(typeof line.cwd === "string" ? { cwd: line.cwd } : {}),
          });
          pendingSay = "";
        }
      }
    } else if (line.type === "user") {
      for (const block of content.filter(isObj)) {
        if (block.type === "tool_result") results.set(String(block.tool_use_id), statusFrom(block.is_error === true, textOf(block.content)));
      }
    }
  }
  return {
    format: "claude-code",
    calls: collect(calls, results),
    ...(pendingSay ? { finalSay: pendingSay } : {}),
    ...(cwd ? { cwd } : {}),
    ...(date ? { date } : {}),
  };
}

export function readPi(text: string, file: string): RecordedSession {
  const calls: { id: string; name: string; input: unknown; say?: string }[] = [];
  const results = new Map<string, RecordedStatus>();
  let cwd: string | undefined;
  let date: string | undefined;
  let pendingSay = "";
  for (const line of jsonLines(text, file)) {
    if (line.type === "session") {
      if (typeof line.cwd === "string") cwd = line.cwd;
      if (typeof line.timestamp === "string") date = line.timestamp;
      continue;
    }
    const msg = line.type === "message" && isObj(line.message) ? line.message : undefined;
    if (!msg) continue;
    if (msg.role === "assistant" && Array.isArray(msg.content)) {
      for (const item of msg.content.filter(isObj)) {
        if (item.type === "text" && typeof item.text === "string") pendingSay += (pendingSay ? "\n" : "") + item.text;
        if (item.type === "toolCall") {
          calls.push({ id: String(item.id), name: String(item.name), input: item.arguments, ...(pendingSay ? { say: pendingSay } : {}) });
          pendingSay = "";
        }
      }
    } else if (msg.role === "toolResult") {
      results.set(String(msg.toolCallId), statusFrom(msg.isError === true, textOf(msg.content)));
    }
  }
  return { format: "pi", calls: collect(calls, results), ...(pendingSay ? { finalSay: pendingSay } : {}), ...(cwd ? { cwd } : {}), ...(date ? { date } : {}) };
}

function codexStatus(output: unknown): RecordedStatus {
  const text = typeof output === "string" ? output : JSON.stringify(output ?? "");
  let code: number | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    const meta = isObj(parsed) && isObj(parsed.metadata) ? parsed.metadata : undefined;
    if (meta && typeof meta.exit_code === "number") code = meta.exit_code;
  } catch {
    /* plain text output */
  }
  code ??= Number(/Exit code: (\d+)/.exec(text)?.[1] ?? NaN);
  if (/\b(rejected|declined)\b/i.test(text)) return "blocked";
  if (Number.isNaN(code)) return /^(error|apply_patch verification failed)/i.test(text.trim()) ? "error" : "ok";
  return code === 0 ? "ok" : "error";
}

export function readCodex(text: string, file: string): RecordedSession {
  const calls: { id: string; name: string; input: unknown; say?: string }[] = [];
  const results = new Map<string, RecordedStatus>();
  let cwd: string | undefined;
  let date: string | undefined;
  let pendingSay = "";
  for (const line of jsonLines(text, file)) {
    if (typeof line.timestamp === "string") date ??= line.timestamp;
    const p = isObj(line.payload) ? line.payload : undefined;
    if (!p) continue;
    if (line.type === "session_meta" && typeof p.cwd === "string") cwd = p.cwd;
    if (line.type === "turn_context" && typeof p.cwd === "string") cwd ??= p.cwd;
    if (line.type !== "response_item") continue;
    if (p.type === "message" && p.role === "assistant") pendingSay += (pendingSay ? "\n" : "") + textOf(p.content);
    if (p.type === "function_call") {
      let input: unknown = p.arguments;
      try {
        input = typeof p.arguments === "string" ? JSON.parse(p.arguments) : p.arguments;
      } catch {
        /* keep the raw string; the mapper reports it */
      }
      calls.push({ id: String(p.call_id), name: String(p.name), input, ...(pendingSay ? { say: pendingSay } : {}) });
      pendingSay = "";
    }
    if (p.type === "custom_tool_call") {
      calls.push({ id: String(p.call_id), name: String(p.name), input: p.input, ...(pendingSay ? { say: pendingSay } : {}) });
      pendingSay = "";
    }
    if (p.type === "function_call_output" || p.type === "custom_tool_call_output") results.set(String(p.call_id), codexStatus(p.output));
  }
  return {
    format: "codex",
    calls: collect(calls, results),
    ...(pendingSay ? { finalSay: pendingSay } : {}),
    ...(cwd ? { cwd } : {}),
    ...(date ? { date } : {}),
  };
}

/** At most this many bytes of a session file are read (history, import). */
export const MAX_SESSION_BYTES = 256 * 1024 * 1024;
/** At most this many bytes of one sample inflated from an Inspect `.eval` zip. */
export const MAX_SAMPLE_BYTES = 64 * 1024 * 1024;

/**
 * The first sample of an Inspect log (the one a session is made of). A `.eval` zip is listed
 * without inflating anything, and only that sample's entry is inflated, after its size is checked
 * against MAX_SAMPLE_BYTES: an archive of many or huge entries costs what is read, not what it holds.
 */
function firstInspectSample(bytes: Uint8Array, file: string): Obj | undefined {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const listed: { name: string; size: number }[] = [];
    const unzip = (filter: (f: { name: string; originalSize: number }) => boolean) => {
      try {
        return unzipSync(bytes, { filter });
      } catch (e) {
        throw new InputError(file, "(zip)", `a readable .eval zip (${(e as Error).message})`);
      }
    };
    unzip((f) => {
      if (/^samples\/.+\.json$/.test(f.name)) listed.push({ name: f.name, size: f.originalSize });
      return false;
    });
    const first = listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0];
    if (!first) return undefined;
    if (first.size > MAX_SAMPLE_BYTES)
      throw new InputError(file, first.name, `a sample of at most ${MAX_SAMPLE_BYTES} bytes inflated (its entry says ${first.size})`);
    // fflate inflates into a buffer of the size the entry declares: a larger stream is cut there and fails to parse.
    const data = unzip((f) => f.name === first.name && f.originalSize === first.size)[first.name];
    if (!data) throw new InputError(file, first.name, "a readable zip entry");
    try {
      const v = JSON.parse(strFromU8(data)) as unknown;
      return isObj(v) ? v : {};
    } catch {
      throw new InputError(file, first.name, "a JSON sample of an Inspect log");
    }
  }
  let log: unknown;
  try {
    log = JSON.parse(strFromU8(bytes));
  } catch {
    throw new InputError(file, "(json)", "an Inspect log: a .eval zip or a JSON object with samples[]");
  }
  if (!isObj(log) || !Array.isArray(log.samples)) throw new InputError(file, "samples", "an Inspect log with a samples list");
  return log.samples.filter(isObj)[0];
}

export function readInspect(bytes: Uint8Array, file: string): RecordedSession {
  const sample = firstInspectSample(bytes, file);
  if (!sample) throw new InputError(file, "samples", "at least one sample");
  const calls: { id: string; name: string; input: unknown; say?: string }[] = [];
  const results = new Map<string, RecordedStatus>();
  let finalSay = "";
  for (const m of (Array.isArray(sample.messages) ? sample.messages : []).filter(isObj)) {
    if (m.role === "assistant") {
      const say = textOf(m.content);
      const tcs = Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : [];
      tcs.forEach((tc, i) => calls.push({ id: String(tc.id), name: String(tc.function), input: tc.arguments, ...(i === 0 && say ? { say } : {}) }));
      finalSay = tcs.length ? "" : say;
    } else if (m.role === "tool") {
      const err = isObj(m.error) ? m.error : undefined;
      results.set(String(m.tool_call_id), !err ? "ok" : err.type === "approval" || BLOCKED_TEXT.test(String(err.message ?? "")) ? "blocked" : "error");
    }
  }
  const date = typeof sample.started_at === "string" ? sample.started_at : undefined;
  return { format: "inspect", calls: collect(calls, results), ...(finalSay ? { finalSay } : {}), ...(date ? { date } : {}) };
}

export function readAtif(text: string, file: string): RecordedSession {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError(file, "(json)", "an ATIF trajectory (one JSON object)");
  }
  if (!isObj(doc) || !Array.isArray(doc.steps)) throw new InputError(file, "steps", "an ATIF trajectory with a steps list");
  if (typeof doc.schema_version === "string" && !/^ATIF-v1\./.test(doc.schema_version))
    throw new InputError(file, "schema_version", `ATIF-v1.x (got ${doc.schema_version})`);
  const calls: { id: string; name: string; input: unknown; say?: string }[] = [];
  const results = new Map<string, RecordedStatus>();
  let finalSay = "";
  let date: string | undefined;
  for (const step of doc.steps.filter(isObj)) {
    if (typeof step.timestamp === "string") date ??= step.timestamp;
    if (step.source !== "agent") continue;
    const say = typeof step.message === "string" ? step.message : textOf(step.message);
    const tcs = Array.isArray(step.tool_calls) ? step.tool_calls.filter(isObj) : [];
    tcs.forEach((tc, i) =>
      calls.push({ id: String(tc.tool_call_id), name: String(tc.function_name), input: tc.arguments, ...(i === 0 && say ? { say } : {}) }),
    );
    finalSay = tcs.length ? "" : say;
    const obs = isObj(step.observation) && Array.isArray(step.observation.results) ? step.observation.results.filter(isObj) : [];
    for (const r of obs) {
      const content = textOf(r.content);
      const failed = r.is_error === true || /^(error\b|error:)/i.test(content.trim()) || /Exit code: [1-9]/.test(content);
      results.set(String(r.source_call_id), BLOCKED_TEXT.test(content) && failed ? "blocked" : failed ? "error" : "ok");
    }
  }
  return { format: "atif", calls: collect(calls, results), ...(finalSay ? { finalSay } : {}), ...(date ? { date } : {}) };
}

export function readSession(format: TranscriptFormat, bytes: Uint8Array, file: string): RecordedSession {
  const text = () => strFromU8(bytes);
  switch (format) {
    case "claude-code":
      return readClaudeCode(text(), file);
    case "pi":
      return readPi(text(), file);
    case "codex":
      return readCodex(text(), file);
    case "inspect":
      return readInspect(bytes, file);
    case "atif":
      return readAtif(text(), file);
  }
}
