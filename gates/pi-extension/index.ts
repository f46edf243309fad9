/** Real Pi extensions as gatebench gates (see gate.ts). */
export { createExtensionsGate, createPiExtensionGate, resolveExtensionSpec, type IntegrityViolation, type PiExtensionGate } from "./gate.ts";
export { loadExtension, SHIPPED_EXAMPLES, type LoadResult } from "./load-extension.ts";
export { emitToolCall, type ToolCallEvent, type ToolCallEventResult } from "./emit-tool-call.ts";
export type { RegisteredExtension } from "./extension-api.ts";
export { createSandboxedExtensionsGate, type SandboxedExtensionsGate, type SandboxedFile } from "./sandboxed.ts";
