/** The redaction module lives in harness/redact/; kept here for existing imports. */
export { redact, redactDeep, summarizeCall } from "../redact/redact.ts";
