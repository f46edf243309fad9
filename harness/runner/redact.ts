/**
 * What a log may say about a tool call: never file bodies, never secrets. Commands are kept
 * as a redacted summary, so no record or log leaks a secret: known token shapes and `NAME=value` assignments of
 * secret-looking names are replaced.
 */
const SECRET_SHAPES: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{8,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{8,}/g,
  /\bxox[abpr]-[A-Za-z0-9-]{8,}/g,
  /\bAKIA[0-9A-Z]{12,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];
const SECRET_ASSIGNMENT = /\b([A-Za-z0-9_-]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH)[A-Za-z0-9_-]*)\s*([=:])\s*("[^"]*"|'[^']*'|[^\s;&|]+)/gi;
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;

export function redact(text: string): string {
  let out = text;
  for (const shape of SECRET_SHAPES) out = out.replace(shape, "[REDACTED]");
  out = out.replace(URL_CREDENTIALS, "$1[REDACTED]@");
  return out.replace(SECRET_ASSIGNMENT, (_m, name: string, sep: string) => `${name}${sep}[REDACTED]`);
}

const MAX_SUMMARY = 240;

/** A one-line, redacted description of a call: the operation and its targets, no bodies. */
export function summarizeCall(tool: string, args: Readonly<Record<string, unknown>>): string {
  const s = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  let text: string;
  switch (tool) {
    case "bash":
      text = `bash: ${s("command") ?? ""}`;
      break;
    case "write":
      text = `write ${s("path")} (${Buffer.byteLength(s("content") ?? "")} bytes)`;
      break;
    case "edit":
      text = `edit ${s("path")} (${Array.isArray(args.edits) ? args.edits.length : 0} edits)`;
      break;
    case "delete":
      text = `delete ${s("path")}${args.recursive ? " (recursive)" : ""}`;
      break;
    default:
      text = `${tool} ${[s("path"), s("pattern")].filter(Boolean).join(" ")}`;
  }
  const red = redact(text.replace(/\s+/g, " ").trim());
  return red.length > MAX_SUMMARY ? `${red.slice(0, MAX_SUMMARY)}…` : red;
}
