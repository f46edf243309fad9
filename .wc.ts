import { measureWorldCosts } from "./scripts/bench/world-costs.ts";
const c = await measureWorldCosts(12);
console.log(JSON.stringify(c));
process.exit(0);
