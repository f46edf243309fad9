/**
 * Checks of the cluster recipe (Dockerfile, .dockerignore, deploy/k8s/, the commands of docs/cluster.md),
 * each a function from the files' text to a list of problems, so a test can run it on the real
 * files (no problem) and on broken copies (the problem it guards against).
 *
 * - Manifests: the Kubernetes OpenAPI schemas as kubernetes-models ships them (compiled to ajv
 *   validators: types, enums, required fields), plus a strict-field check the schemas cannot make:
 *   they allow unknown fields, which `kubectl apply` (server-side strict field validation) refuses.
 *   The strict check type-checks each manifest as an object literal of kubernetes-models'
 *   TypeScript type for its kind, generated from the same OpenAPI document: an unknown field is an
 *   excess property there.
 * - Cross-checks no schema expresses: one claim for every volume, the shard arithmetic, one image
 *   everywhere, the guide's commands in an order that works.
 * - The Dockerfile: dockerfile-utils' validator (the Docker language server's: syntax, arguments,
 *   flags) with every check an error, plus the rules below. hadolint is not to be had here (it is
 *   neither a Debian bookworm package nor an npm package that ships it), so the rules that matter
 *   to this image are written out: a pinned base tag, apt without recommends and with its lists
 *   removed, `npm ci`, root on purpose and said so.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { ValidationSeverity, type ValidatorSettings, validate as validateDockerfile } from "dockerfile-utils";
import { Job } from "kubernetes-models/batch/v1/Job";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Pod } from "kubernetes-models/v1/Pod";
import picomatch from "picomatch";
import ts from "typescript";
import { parseAllDocuments } from "yaml";
import { parseShard } from "../../harness/apps/cli/shard.ts";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const K8S_DIR = path.join(ROOT, "deploy/k8s");

export type Doc = Record<string, any>;
export interface Manifest {
  file: string;
  doc: Doc;
}

/** What the schemas know: the model that validates a kind, and its TypeScript type for the strict check. */
const KINDS: Record<string, { model: new (d: any) => { validate(): void }; type: string; module: string }> = {
  "v1/Namespace": { model: Namespace, type: "INamespace", module: "kubernetes-models/v1/Namespace" },
  "v1/PersistentVolumeClaim": { model: PersistentVolumeClaim, type: "IPersistentVolumeClaim", module: "kubernetes-models/v1/PersistentVolumeClaim" },
  "v1/Pod": { model: Pod, type: "IPod", module: "kubernetes-models/v1/Pod" },
  "batch/v1/Job": { model: Job, type: "IJob", module: "kubernetes-models/batch/v1/Job" },
};

const kindOf = (d: Doc) => `${d?.apiVersion}/${d?.kind}`;

/** Every YAML document of every file in deploy/k8s (a file that does not parse is a problem of its own). */
export function readManifests(dir = K8S_DIR): Manifest[] {
  const out: Manifest[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()) {
    for (const d of parseAllDocuments(readFileSync(path.join(dir, f), "utf8"))) {
      if (d.errors.length > 0) throw new Error(`${f}: ${d.errors.map((e) => e.message).join("; ")}`);
      out.push({ file: f, doc: d.toJS() as Doc });
    }
  }
  return out;
}

/** The JSON-schema validation (kubernetes-models' compiled OpenAPI schemas): `<json pointer> <message>` per error. */
export function schemaErrors(doc: Doc): string[] {
  const k = KINDS[kindOf(doc)];
  if (!k) return [`no schema for ${kindOf(doc)}`];
  try {
    new k.model(doc).validate();
    return [];
  } catch (e) {
    const errors = (e as { errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] }).errors;
    if (!errors) throw e;
    return errors.map((x) => `${x.instancePath || "/"} ${x.message}${x.params?.missingProperty ? ` (${x.params.missingProperty})` : ""}`);
  }
}

/** The JSON pointer of the literal at `pos` in a generated `const m: T = {...}` file. */
function pointerAt(sf: ts.SourceFile, pos: number): string {
  let node: ts.Node = sf;
  for (;;) {
    const child: ts.Node | undefined = node.forEachChild((c) => (c.getStart(sf) <= pos && pos < c.getEnd() ? c : undefined));
    if (!child) break;
    node = child;
  }
  const parts: string[] = [];
  for (let n: ts.Node | undefined = node; n && n !== sf; n = n.parent) {
    const p: ts.Node | undefined = n.parent;
    if (p && ts.isPropertyAssignment(p) && p.name === n) continue;
    if (ts.isPropertyAssignment(n)) parts.unshift(ts.isStringLiteral(n.name) ? n.name.text : n.name.getText(sf));
    else if (p && ts.isArrayLiteralExpression(p)) parts.unshift(String(p.elements.indexOf(n as ts.Expression)));
  }
  return `/${parts.join("/")}`;
}

/**
 * The strict-field check, one list per document, `<json pointer> <message>`: each document is
 * written as an object literal of its kind's kubernetes-models type, and every property of every
 * object literal in it must be one its type declares (or the type has an index signature, as
 * labels do). TypeScript's own diagnostics come too (a wrong type), less its excess-property
 * error, which it reports for the first unknown field only. One TypeScript program for all.
 */
export function strictFieldErrors(docs: readonly Doc[]): string[][] {
  const files = new Map<string, string>();
  const names = docs.map((d, i) => {
    const name = path.join(ROOT, `.k8s-strict-${i}.ts`);
    const k = KINDS[kindOf(d)];
    if (k) files.set(name, `import type { ${k.type} } from "${k.module}";\nexport const m: ${k.type} = ${JSON.stringify(d, null, 1)};\n`);
    return name;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (f, lang, ...rest) => {
    const text = files.get(path.resolve(f));
    return text !== undefined ? ts.createSourceFile(f, text, lang, true) : getSourceFile.call(host, f, lang, ...rest);
  };
  host.fileExists = (f) => files.has(path.resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => files.get(path.resolve(f)) ?? readFile.call(host, f);
  const program = ts.createProgram([...files.keys()], options, host);
  const checker = program.getTypeChecker();
  return names.map((name, i) => {
    const sf = program.getSourceFile(name);
    if (!sf) return [`no schema for ${kindOf(docs[i]!)}`];
    const errors = ts
      .getPreEmitDiagnostics(program, sf)
      .filter((d) => d.code !== EXCESS_PROPERTY)
      .map((d) => `${d.start !== undefined ? pointerAt(sf, d.start) : "/"} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const contextual = checker.getContextualType(node);
        const type = contextual && checker.getNonNullableType(contextual);
        if (!type) errors.push(`${pointerAt(sf, node.getStart(sf))} has no Kubernetes type to check its fields against`);
        else if (!type.getStringIndexType())
          for (const p of node.properties) {
            const key = p.name && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) ? p.name.text : undefined;
            if (key !== undefined && !checker.getPropertyOfType(type, key))
              errors.push(`${pointerAt(sf, p.getStart(sf))} unknown field "${key}" (not in ${checker.typeToString(type)})`);
          }
      }
      node.forEachChild(visit);
    };
    visit(sf);
    return errors;
  });
}

/** TypeScript's "Object literal may only specify known properties". */
const EXCESS_PROPERTY = 2353;

// ---------------------------------------------------------------------------------------------
// Cross-checks of the manifests, the cluster guide and the Dockerfile

/** Every container of a Job, a Pod or a Pod template. */
function podSpec(d: Doc): Doc | undefined {
  return d.kind === "Pod" ? d.spec : d.spec?.template?.spec;
}
function containers(d: Doc): Doc[] {
  return (podSpec(d)?.containers ?? []) as Doc[];
}

/**
 * What a container's `/bin/sh -c SCRIPT` runs as npm, with `env`: one argument list per npm call
 * (npm is a stub that exits `npmExit`). The shell runs with pathname expansion off (-f): a glob
 * such as /results/shard-* is the pod's to expand, not this machine's.
 */
export function npmCalls(args: readonly string[], env: Record<string, string>, npmExit = 0): { calls: string[][]; exit: number | null } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gatebench-npm-stub-"));
  try {
    const log = path.join(dir, "calls");
    writeFileSync(log, "");
    // one line per call: the arguments, separated by tabs
    writeFileSync(path.join(dir, "npm"), `#!/bin/sh\n(IFS="$(printf '\\t')"; printf '%s\\n' "$*") >> "${log}"\nexit ${npmExit}\n`);
    chmodSync(path.join(dir, "npm"), 0o755);
    const [shell, ...rest] = args;
    if (!shell || !/(^|\/)(ba|da)?sh$/.test(shell)) throw new Error(`not a shell command: ${args.join(" ")}`);
    const r = spawnSync(shell, ["-f", ...rest], { env: { PATH: `${dir}:/usr/bin:/bin`, ...env }, encoding: "utf8", timeout: 10_000 });
    const calls = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t"));
    return { calls, exit: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The value of `--flag VALUE` in an argument list. */
function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The cluster guide's shell block that runs the recipe (the one with `docker build`), one command a line. */
export function recipeCommands(guide: string): string[] {
  const block = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => /^docker build /m.test(b));
  if (!block) return [];
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

/**
 * What is wrong with the recipe as a whole: the manifests (schema-valid or not) against each
 * other, the cluster guide's commands (docs/cluster.md) and the Dockerfile's WORKDIR. Empty when it holds together.
 */
export function recipeProblems(ms: readonly Manifest[], guide: string, dockerfile: string, ensureSystem: string): string[] {
  const problems: string[] = [];
  const of = (kind: string) => ms.filter((m) => m.doc.kind === kind);
  const namespaces = of("Namespace");
  const claims = of("PersistentVolumeClaim");
  const jobs = of("Job");
  const indexed = jobs.filter((m) => m.doc.spec?.completionMode === "Indexed");
  const merges = jobs.filter((m) => containers(m.doc).some((c) => (c.args ?? []).join(" ").includes(" merge ")));
  const pods = of("Pod");
  if (namespaces.length !== 1) problems.push(`one Namespace, not ${namespaces.length}`);
  if (claims.length !== 1) problems.push(`one PersistentVolumeClaim, not ${claims.length}`);
  if (indexed.length !== 1) problems.push(`one Indexed Job, not ${indexed.length}`);
  if (merges.length !== 1) problems.push(`one merge Job, not ${merges.length}`);
  if (pods.length !== 1) problems.push(`one results Pod, not ${pods.length}`);
  if (problems.length > 0) return problems;
  const ns = namespaces[0]!.doc;
  const claim = claims[0]!.doc;
  const shardJob = indexed[0]!.doc;
  const mergeJob = merges[0]!.doc;
  const resultsPod = pods[0]!.doc;
  const workloads = [shardJob, mergeJob, resultsPod];

  // one namespace for everything, and it admits the privileged pods
  for (const m of ms)
    if (m.doc.kind !== "Namespace" && m.doc.metadata?.namespace !== ns.metadata?.name)
      problems.push(`${m.file}: namespace ${m.doc.metadata?.namespace} is not ${ns.metadata?.name}`);
  const privileged = workloads.some((w) => containers(w).some((c) => c.securityContext?.privileged === true));
  if (privileged && ns.metadata?.labels?.["pod-security.kubernetes.io/enforce"] !== "privileged")
    problems.push("the namespace does not allow privileged pods (pod-security.kubernetes.io/enforce: privileged)");

  // the claim: shared by every workload, writable from many nodes at once
  if (!(claim.spec?.accessModes ?? []).includes("ReadWriteMany")) problems.push("the claim is not ReadWriteMany");
  for (const w of workloads) {
    const vols = (podSpec(w)?.volumes ?? []) as Doc[];
    const claimed = vols.filter((v) => v.persistentVolumeClaim);
    if (claimed.length === 0) problems.push(`${w.metadata?.name}: mounts no claim`);
    for (const v of claimed)
      if (v.persistentVolumeClaim.claimName !== claim.metadata?.name)
        problems.push(`${w.metadata?.name}: claim ${v.persistentVolumeClaim.claimName} is no PersistentVolumeClaim here (${claim.metadata?.name})`);
    for (const c of containers(w))
      for (const vm of (c.volumeMounts ?? []) as Doc[])
        if (!vols.some((v) => v.name === vm.name)) problems.push(`${w.metadata?.name}: mount ${vm.name} names no volume`);
  }
  const mountOf = (w: Doc) => containers(w)[0]?.volumeMounts?.find((vm: Doc) => claimedNames(w).includes(vm.name))?.mountPath as string | undefined;
  const mount = mountOf(shardJob);
  for (const w of [mergeJob, resultsPod]) if (mountOf(w) !== mount) problems.push(`${w.metadata?.name}: mounts the claim at ${mountOf(w)}, not ${mount}`);

  // one image everywhere, a placeholder, the one the guide builds and pushes
  const images = new Set(workloads.flatMap((w) => containers(w).map((c) => c.image as string)));
  if (images.size !== 1) problems.push(`one image for every container, not ${[...images].join(", ")}`);
  const image = [...images][0]!;
  if (!/^REGISTRY\/gatebench:TAG$/.test(image)) problems.push(`the image is the placeholder REGISTRY/gatebench:TAG, not ${image}`);
  const cmds = recipeCommands(guide);
  if (!cmds.includes(`docker build -t ${image} .`)) problems.push(`the guide does not build ${image}`);
  if (!cmds.includes(`docker push ${image}`)) problems.push(`the guide does not push ${image}`);
  const workdir = DockerfileParser.parse(dockerfile)
    .getInstructions()
    .filter((i) => i.getKeyword() === "WORKDIR")
    .at(-1)
    ?.getArgumentsContent();
  for (const w of [shardJob, mergeJob])
    for (const c of containers(w)) if (c.workingDir !== workdir) problems.push(`${w.metadata?.name}: workingDir ${c.workingDir} is not the image's ${workdir}`);

  // the shards: completions = parallelism = SHARD_TOTAL, each index a distinct shard I/N
  const eval_ = containers(shardJob)[0]!;
  const total = Number((eval_.env ?? []).find((e: Doc) => e.name === "SHARD_TOTAL")?.value);
  if (!(total > 0)) problems.push("SHARD_TOTAL is not set to a positive number");
  if (shardJob.spec.completions !== total) problems.push(`completions ${shardJob.spec.completions} is not SHARD_TOTAL ${total}`);
  if (shardJob.spec.parallelism !== total) problems.push(`parallelism ${shardJob.spec.parallelism} is not SHARD_TOTAL ${total}`);
  for (const r of shardJob.spec.podFailurePolicy?.rules ?? [])
    if (r.onExitCodes?.containerName && r.onExitCodes.containerName !== eval_.name)
      problems.push(`podFailurePolicy names container ${r.onExitCodes.containerName}, not ${eval_.name}`);
  const mergeArgs = containers(mergeJob)[0]!.args as string[];
  const mergeCall = npmCalls(mergeArgs, {}).calls[0] ?? [];
  const mergeGlob = mergeCall.slice(mergeCall.indexOf("merge") + 1).find((a) => a.includes("*"));
  const mergeOut = flag(mergeCall, "--out");
  if (mergeCall.slice(0, 4).join(" ") !== "run eval -- merge" || !mergeGlob || !mergeOut)
    problems.push(`the merge Job runs \`npm ${mergeCall.join(" ")}\`, not \`npm run eval -- merge <shard glob> --out DIR\``);
  const inMerge = mergeGlob ? picomatch(mergeGlob, { dot: true }) : () => false;
  if (mergeOut && inMerge(mergeOut)) problems.push(`the merge's --out ${mergeOut} is among its shards (${mergeGlob})`);
  const seen = new Map<number, string>();
  const stores = new Set<string>();
  for (let i = 0; i < (total > 0 && total < 100 ? total : 0); i++) {
    const { calls, exit } = npmCalls(eval_.args, { JOB_COMPLETION_INDEX: String(i), SHARD_TOTAL: String(total) });
    const run = calls.find((c) => c.includes("--shard"));
    if (run?.slice(0, 3).join(" ") !== "run eval --") {
      problems.push(`index ${i}: runs no \`npm run eval -- --shard I/N\` (${calls.map((c) => c.join(" ")).join("; ")})`);
      continue;
    }
    if (exit !== 0) problems.push(`index ${i}: exits ${exit} when every npm call succeeds`);
    let shard: { index: number; count: number } | undefined;
    try {
      shard = parseShard(flag(run, "--shard") ?? "");
    } catch {
      shard = undefined; // not I/N with 1 <= I <= N
    }
    if (!shard || shard.count !== total) problems.push(`index ${i}: --shard ${flag(run, "--shard")} is not I/${total}`);
    else if (seen.has(shard.index)) problems.push(`index ${i}: shard ${shard.index} again (index ${seen.get(shard.index)})`);
    else seen.set(shard.index, String(i));
    const out = flag(run, "--out") ?? "";
    if (!out.startsWith(`${mount}/`)) problems.push(`index ${i}: --out ${out} is not on the claim (${mount})`);
    if (!inMerge(out)) problems.push(`index ${i}: --out ${out} is not among the merge's shards (${mergeGlob})`);
    if (!run.includes("--resume")) problems.push(`index ${i}: no --resume, so a retried pod starts its shard again`);
    const store = flag(run, "--store");
    if (store) {
      if (!store.startsWith(`${mount}/`)) problems.push(`index ${i}: --store ${store} is not on the claim`);
      if (inMerge(store)) problems.push(`index ${i}: --store ${store} is among the merge's shards (${mergeGlob})`);
      if (stores.has(store)) problems.push(`index ${i}: --store ${store} shared with another shard`);
      stores.add(store);
      const gc = calls.find((c) => c.includes("gc"));
      if (gc && flag(gc, "--store") !== store) problems.push(`index ${i}: store gc trims ${flag(gc, "--store")}, not ${store}`);
    }
    // the pod's exit code is the eval's, whatever the calls after it do
    const failed = npmCalls(eval_.args, { JOB_COMPLETION_INDEX: String(i), SHARD_TOTAL: String(total) }, 2);
    if (failed.exit !== 2) problems.push(`index ${i}: exits ${failed.exit} when the eval exits 2`);
  }
  if (total > 0 && seen.size === total && [...seen.keys()].sort((a, b) => a - b).join() !== Array.from({ length: total }, (_, i) => i + 1).join())
    problems.push(`shards ${[...seen.keys()].join(",")} are not 1..${total}`);

  // bubblewrap's needs in the shard pods; no privilege where no sandbox runs
  const sc = eval_.securityContext ?? {};
  if (sc.privileged !== true) problems.push("the shard pods are not privileged (bubblewrap needs an unmasked /proc and CAP_SYS_ADMIN)");
  if (sc.seccompProfile?.type !== "Unconfined") problems.push("the shard pods' seccomp profile is not Unconfined");
  if (sc.appArmorProfile?.type !== "Unconfined") problems.push("the shard pods' AppArmor profile is not Unconfined");
  for (const w of [mergeJob, resultsPod]) if (containers(w).some((c) => c.securityContext?.privileged)) problems.push(`${w.metadata?.name} is privileged`);

  // the guide: every manifest applied, in an order that works, the wait before the merge, the copy from the merge's folder
  const nsName = ns.metadata?.name;
  const at = (re: RegExp) => cmds.findIndex((c) => re.test(c));
  const applyAt = (m: Doc) => at(new RegExp(`^kubectl apply -f deploy/k8s/${reEscape(ms.find((x) => x.doc === m)!.file)}$`));
  const order: [string, number][] = [
    ["docker build", at(/^docker build /)],
    ["docker push", at(/^docker push /)],
    ["apply the namespace", applyAt(ns)],
    ["apply the claim", applyAt(claim)],
    ["apply the Indexed Job", applyAt(shardJob)],
    [`wait for job/${shardJob.metadata?.name}`, at(new RegExp(`^kubectl -n ${nsName} wait --for=condition=complete job/${shardJob.metadata?.name}( |$)`))],
    ["apply the merge Job", applyAt(mergeJob)],
    ["apply the results pod", applyAt(resultsPod)],
    [
      `copy ${mergeOut} out of pod ${resultsPod.metadata?.name}`,
      at(new RegExp(`^kubectl -n ${nsName} cp ${resultsPod.metadata?.name}:${reEscape(mergeOut ?? "")} \\S+$`)),
    ],
  ];
  for (const [what, i] of order) if (i < 0) problems.push(`the guide does not ${what}`);
  for (let k = 1; k < order.length; k++) {
    const [what, i] = order[k]!;
    const [before, j] = order[k - 1]!;
    if (i >= 0 && j >= 0 && i < j) problems.push(`the guide does ${what} before it does ${before}`);
  }
  const files = new Set(ms.map((m) => m.file));
  for (const f of files) if (!cmds.includes(`kubectl apply -f deploy/k8s/${f}`)) problems.push(`the guide never applies ${f}`);

  // the node settings the cluster section names are the ones scripts/ensure-system.mjs checks
  const section = /^# Running on a cluster/m.test(guide) ? guide : "";
  if (!section) problems.push('the guide is not "Running on a cluster"');
  for (const [, key] of ensureSystem.matchAll(/key: "([\w.]+)"/g))
    if (!new RegExp(`^sysctl -w ${reEscape(key!)}=`, "m").test(section)) problems.push(`the cluster guide does not set ${key}`);
  return problems;

  function claimedNames(w: Doc): string[] {
    return ((podSpec(w)?.volumes ?? []) as Doc[]).filter((v) => v.persistentVolumeClaim).map((v) => v.name as string);
  }
}

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---------------------------------------------------------------------------------------------
// The Dockerfile

/** dockerfile-utils' validator, every check at error severity. */
const STRICT: ValidatorSettings = {
  deprecatedMaintainer: ValidationSeverity.ERROR,
  directiveCasing: ValidationSeverity.ERROR,
  emptyContinuationLine: ValidationSeverity.ERROR,
  instructionCasing: ValidationSeverity.ERROR,
  instructionCmdMultiple: ValidationSeverity.ERROR,
  instructionEntrypointMultiple: ValidationSeverity.ERROR,
  instructionHealthcheckMultiple: ValidationSeverity.ERROR,
  instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
  instructionWorkdirRelative: ValidationSeverity.ERROR,
};

/**
 * What is wrong with the Dockerfile: the validator's diagnostics (`line N: message`) and the
 * rules for this image. `needs` are the system packages the image must install; `nodeMajor` the
 * Node major version it must run; `sandboxNode` the path the sandboxes start Node as.
 */
export function dockerfileProblems(text: string, needs: readonly string[], nodeMajor: number, sandboxNode: string): string[] {
  const problems = validateDockerfile(text, STRICT).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
  const df = DockerfileParser.parse(text);
  const ins = df.getInstructions();
  const kw = (k: string) => ins.filter((i) => i.getKeyword() === k);

  // a base pinned by its full version tag: node:<major>.<minor>.<patch>-bookworm-slim
  const froms = df.getFROMs();
  if (froms.length !== 1) problems.push(`one FROM (one stage), not ${froms.length}`);
  for (const f of froms) {
    const tag = f.getImageTag() ?? "";
    const m = /^(\d+)\.\d+\.\d+-bookworm-slim$/.exec(tag);
    if (f.getImageName() !== "node" || !m) problems.push(`FROM ${f.getArgumentsContent()}: not node:<x.y.z>-bookworm-slim`);
    else if (Number(m[1]) !== nodeMajor) problems.push(`FROM ${f.getArgumentsContent()}: Node ${m[1]}, not ${nodeMajor}`);
  }

  // apt: update, install -y --no-install-recommends and remove the lists, in one RUN
  const runs = kw("RUN").map((r) => r.getArgumentsContent() ?? "");
  const installed = new Set<string>();
  for (const raw of runs) {
    const run = raw.replace(/\s+/g, " ");
    for (const step of run.split(/&&|;/).map((s) => s.trim())) {
      if (/\bapt(-get)? (-\S+ )*install\b/.test(step)) {
        if (!/\s-y\b|--yes\b/.test(step)) problems.push(`\`${step.slice(0, 40)}…\` without -y`);
        if (!step.includes("--no-install-recommends")) problems.push(`\`${step.slice(0, 40)}…\` without --no-install-recommends`);
        for (const w of step.split(" ").slice(step.split(" ").indexOf("install") + 1)) if (!w.startsWith("-")) installed.add(w);
        if (!/\bapt-get update\b/.test(run) || run.indexOf("apt-get update") > run.indexOf(step))
          problems.push("apt-get install without apt-get update before it in the same RUN");
        if (!/rm -rf \/var\/lib\/apt\/lists\/\*\s*$/.test(run)) problems.push("a RUN that installs with apt does not end by removing /var/lib/apt/lists/*");
      }
      if (/\bapt-get update\b/.test(step) && !/\bapt(-get)? (-\S+ )*install\b/.test(run)) problems.push("apt-get update in a RUN that installs nothing");
    }
  }
  for (const n of needs) if (!installed.has(n)) problems.push(`the image does not install ${n}`);

  // the sandboxes bind /usr and run `sandboxNode`; the node image has Node in /usr/local/bin
  if (!runs.some((r) => new RegExp(`\\bln -s\\S* /usr/local/bin/node ${reEscape(sandboxNode)}(\\s|$)`).test(r)))
    problems.push(`no ${sandboxNode}: the sandboxes start the helper, the measurer and gate processes as ${sandboxNode}`);

  // npm: `npm ci` from the committed lockfile, copied before the sources
  const npm = runs.filter((r) => /\bnpm\b/.test(r));
  if (!npm.some((r) => /\bnpm ci\b/.test(r))) problems.push("no `npm ci`");
  for (const r of npm) if (/\bnpm (install|i|add)\b/.test(r)) problems.push(`\`npm install\` where \`npm ci\` installs the lockfile: ${r.slice(0, 60)}`);
  const order = ins.map((i) => `${i.getKeyword()} ${i.getArgumentsContent() ?? ""}`);
  const lockCopy = order.findIndex((o) => o.startsWith("COPY ") && o.includes("package-lock.json"));
  const ci = order.findIndex((o) => /^RUN .*\bnpm ci\b/.test(o));
  const all = order.findIndex((o) => /^COPY \. /.test(o));
  if (lockCopy < 0 || ci < lockCopy) problems.push("package-lock.json is not copied before `npm ci`");
  if (all >= 0 && all < ci) problems.push("the sources are copied before `npm ci` (every source change reinstalls the packages)");

  // root, on purpose, and said so
  for (const u of kw("USER"))
    if (!/^(root|0)(:|$)/.test(u.getArgumentsContent() ?? "")) problems.push(`USER ${u.getArgumentsContent()}: the harness must run as root`);
  const comments = df
    .getComments()
    .map((c) => c.getContent())
    .join(" ");
  if (!/\broot\b/.test(comments) || !/2,000,000,000/.test(comments))
    problems.push("no comment says why the image runs as root (it starts the sandboxes as unprivileged uids from 2,000,000,000)");

  // the default command: npm run eval, exec form, under an init that reaps
  const cmd = kw("CMD").at(-1)?.getArgumentsContent() ?? undefined;
  const execForm = (s: string | undefined) => {
    try {
      return JSON.stringify(JSON.parse(s ?? ""));
    } catch {
      return undefined;
    }
  };
  if (execForm(cmd) !== JSON.stringify(["npm", "run", "eval"])) problems.push(`CMD ${cmd}: not ["npm", "run", "eval"]`);
  const entry = kw("ENTRYPOINT").at(-1)?.getArgumentsContent() ?? undefined;
  if (!entry || !/^\["\/usr\/bin\/tini"/.test(entry) || !installed.has("tini")) problems.push(`ENTRYPOINT ${entry}: not tini, installed`);
  return problems;
}

/** What is wrong with .dockerignore: what it must leave out, and what the eval needs that it must keep. */
export function dockerignoreProblems(text: string): string[] {
  const patterns = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const ignored = (p: string) =>
    patterns.some((pat) => !pat.startsWith("!") && (picomatch(pat.replace(/\/$/, ""), { dot: true })(p) || p.startsWith(`${pat.replace(/\/$/, "")}/`)));
  const problems: string[] = [];
  for (const p of ["node_modules", "reports/runs", "reports/store", ".git"]) if (!ignored(p)) problems.push(`${p} is not left out`);
  for (const p of [
    "package.json",
    "package-lock.json",
    "harness/apps/cli/eval.ts",
    "kernel",
    "gates/pi-extension",
    "tasks/README.md",
    "scripts/ensure-system.mjs",
    "reports/baseline/summary.json",
  ])
    if (ignored(p)) problems.push(`${p} is left out, and the eval needs it`);
  return problems;
}
