/**
 * The local OpenAI Chat Completions server of the end-to-end tests: the one `npm run mock-model`
 * serves (harness/apps/mock-model/server.ts), re-exported for the tests.
 */
export * from "../../harness/apps/mock-model/server.ts";
