// Worker thread of the extension process (main.mjs): TypeScript is loaded with jiti, the same
// transpiler Pi uses for extensions, so the serving code is the repository's own modules.
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url, { fsCache: false });
await jiti.import("./serve.ts");
