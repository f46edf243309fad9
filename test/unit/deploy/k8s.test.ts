/**
 * The cluster recipe: the Dockerfile and .dockerignore, the manifests in deploy/k8s/ (against the
 * Kubernetes schemas, and against each other) and the commands of docs/cluster.md that use them. Every check
 * also runs on broken copies, which it must reject; test/support/deploy-checks.ts says what each
 * check covers and with what.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type Doc,
  dockerfileProblems,
  dockerignoreProblems,
  type Manifest,
  npmCalls,
  ROOT,
  readManifests,
  recipeCommands,
  recipeProblems,
  schemaErrors,
  strictFieldErrors,
} from "../../support/deploy-checks.ts";

const read = (p: string) => readFileSync(`${ROOT}${p}`, "utf8");
const manifests = readManifests();
const guide = read("docs/cluster.md");
const dockerfile = read("Dockerfile");
const ensureSystem = read("scripts/ensure-system.mjs");
const pkg = JSON.parse(read("package.json")) as { engines: { node: string }; devDependencies: Record<string, string> };

/** The system packages the image must install: .ci/run's (less the report test's browser), ensure-system's, and the image's own. */
const NEEDS = [
  ...new Set([
    ...[...read(".ci/run").matchAll(/need\+=\(([\w.-]+)\)/g)].map((m) => m[1]!).filter((p) => p !== "chromium"),
    ...[...ensureSystem.matchAll(/pkg: "([\w.-]+)"/g)].map((m) => m[1]!),
    "ca-certificates",
    "sqlite3",
    "tini",
  ]),
];
const NODE_MAJOR = Number(/(\d+)/.exec(pkg.engines.node)![1]);
/** The Node the sandboxes start (they bind /usr read-only). */
const SANDBOX_NODE = /"(\/usr\/[\w/]*node)"/.exec(read("harness/sandbox/world/world.ts"))![1]!;

/** The document `Kind/name`. */
const doc = (id: string, ms: readonly Manifest[] = manifests): Doc => {
  const m = ms.find((x) => `${x.doc.kind}/${x.doc.metadata?.name}` === id);
  expect(m, id).toBeDefined();
  return m!.doc;
};
/** A copy of the manifests with the document `Kind/name` changed by `edit`. */
const edited = (id: string, edit: (d: Doc) => void): Manifest[] => {
  const ms = structuredClone(manifests);
  edit(doc(id, ms));
  return ms;
};
const problems = (ms: readonly Manifest[], text = guide, df = dockerfile) => recipeProblems(ms, text, df, ensureSystem);
const shardScript = (d: Doc) => d.spec.template.spec.containers[0].args as string[];

describe("deploy/k8s against the Kubernetes schemas (kubernetes-models, Kubernetes 1.33)", () => {
  it("holds a Namespace, a PersistentVolumeClaim, two Jobs and a Pod, each valid", () => {
    expect(manifests.map((m) => `${m.doc.apiVersion}/${m.doc.kind} ${m.doc.metadata.name}`).sort()).toEqual([
      "batch/v1/Job gatebench",
      "batch/v1/Job gatebench-merge",
      "v1/Namespace gatebench",
      "v1/PersistentVolumeClaim gatebench-results",
      "v1/Pod gatebench-results",
    ]);
    for (const m of manifests) expect(schemaErrors(m.doc), m.file).toEqual([]);
  });

  it("no field the Kubernetes types do not know (what kubectl's strict field validation refuses)", () => {
    const errors = strictFieldErrors(manifests.map((m) => m.doc));
    manifests.forEach((m, i) => expect(errors[i], m.file).toEqual([]));
  });

  it("rejects a wrong field type", () => {
    const job = structuredClone(doc("Job/gatebench"));
    job.spec.completions = "4";
    expect(schemaErrors(job)).toEqual(["/spec/completions must be integer"]);
    const pvc = structuredClone(doc("PersistentVolumeClaim/gatebench-results"));
    pvc.spec.accessModes = "ReadWriteMany";
    expect(schemaErrors(pvc)).toEqual(["/spec/accessModes must be array"]);
    expect(strictFieldErrors([job])[0]).toEqual(["/spec/completions Type 'string' is not assignable to type 'number'."]);
  });

  it("rejects a missing required field", () => {
    const job = structuredClone(doc("Job/gatebench-merge"));
    delete job.spec.template.spec.containers[0].name;
    expect(schemaErrors(job)).toEqual(["/spec/template/spec/containers/0 must have required property name (name)"]);
    const pod = structuredClone(doc("Pod/gatebench-results"));
    delete pod.spec.containers;
    expect(schemaErrors(pod)).toEqual(["/spec must have required property containers (containers)"]);
    expect(strictFieldErrors([pod])[0]).toEqual([expect.stringMatching(/^\/spec Property '"containers"' is missing .* but required in type 'IPodSpec'/)]);
  });

  it("rejects a value outside an enum, and a kind no schema describes", () => {
    const job = structuredClone(doc("Job/gatebench"));
    job.spec.completionMode = "indexed";
    expect(schemaErrors(job)).toEqual(["/spec/completionMode must be equal to one of the allowed values"]);
    expect(schemaErrors({ ...doc("Job/gatebench"), apiVersion: "batch/v2" })).toEqual(["no schema for batch/v2/Job"]);
  });

  it("an unknown field passes the schemas (they allow any) but not the strict check", () => {
    const job = structuredClone(doc("Job/gatebench"));
    job.spec.template.spec.containers[0].securityContext.privilged = true;
    job.spec.completion = 4;
    expect(schemaErrors(job)).toEqual([]);
    const errors = strictFieldErrors([job])[0]!;
    expect(errors).toHaveLength(2);
    expect(errors).toEqual([
      expect.stringMatching(/^\/spec\/completion unknown field "completion" \(not in /),
      expect.stringMatching(/^\/spec\/template\/spec\/containers\/0\/securityContext\/privilged unknown field "privilged" \(not in /),
    ]);
  });
});

describe("the recipe holds together: manifests, cluster guide, Dockerfile", () => {
  it("no problem in the files as they are", () => {
    expect(problems(manifests)).toEqual([]);
  });

  it("each shard pod runs `npm run eval -- --shard I/N` with I = JOB_COMPLETION_INDEX + 1, its own out folder and store on the claim", () => {
    const job = doc("Job/gatebench");
    const total = job.spec.completions as number;
    const runs = Array.from({ length: total }, (_, i) => npmCalls(shardScript(job), { JOB_COMPLETION_INDEX: String(i), SHARD_TOTAL: String(total) }).calls);
    runs.forEach((calls, i) => {
      expect(calls[0]!.slice(0, 5)).toEqual(["run", "eval", "--", "--shard", `${i + 1}/${total}`]);
      expect(calls[0]).toEqual(
        expect.arrayContaining(["--out", `/results/shard-${i + 1}`, "--resume", "--store", `/results/store/shard-${i + 1}-of-${total}`]),
      );
      expect(calls[1]).toEqual(["run", "eval", "--", "store", "gc", "--store", `/results/store/shard-${i + 1}-of-${total}`, "--max-mb", "400"]);
    });
    expect(npmCalls(shardScript(doc("Job/gatebench-merge")), {}).calls).toEqual([
      ["run", "eval", "--", "merge", "/results/shard-*", "--out", "/results/merged"],
    ]);
  });

  const broken: [string, () => string[], string][] = [
    [
      "a claim name no PVC has",
      () => problems(edited("Job/gatebench-merge", (d) => (d.spec.template.spec.volumes[0].persistentVolumeClaim.claimName = "gatebench-result"))),
      "gatebench-merge: claim gatebench-result is no PersistentVolumeClaim here (gatebench-results)",
    ],
    [
      "a ReadWriteOnce claim",
      () => problems(edited("PersistentVolumeClaim/gatebench-results", (d) => (d.spec.accessModes = ["ReadWriteOnce"]))),
      "the claim is not ReadWriteMany",
    ],
    ["completions off the shard total", () => problems(edited("Job/gatebench", (d) => (d.spec.completions = 3))), "completions 3 is not SHARD_TOTAL 4"],
    ["parallelism off the shard total", () => problems(edited("Job/gatebench", (d) => (d.spec.parallelism = 2))), "parallelism 2 is not SHARD_TOTAL 4"],
    [
      "SHARD_TOTAL off completions",
      () => problems(edited("Job/gatebench", (d) => (d.spec.template.spec.containers[0].env[0].value = "5"))),
      "completions 4 is not SHARD_TOTAL 5",
    ],
    [
      "a 0-based shard",
      () => problems(edited("Job/gatebench", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace("JOB_COMPLETION_INDEX + 1", "JOB_COMPLETION_INDEX")))),
      "index 0: --shard 0/4 is not I/4",
    ],
    [
      "the same shard in every pod",
      () => problems(edited("Job/gatebench", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace("I=$((JOB_COMPLETION_INDEX + 1))", "I=1")))),
      "index 1: shard 1 again (index 0)",
    ],
    [
      "an out folder the merge does not read",
      () => problems(edited("Job/gatebench", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace("--out /results/shard-$I", "--out /results/run-$I")))),
      "index 0: --out /results/run-1 is not among the merge's shards (/results/shard-*)",
    ],
    [
      "a store the merge would take for a shard",
      () =>
        problems(
          edited("Job/gatebench", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace("STORE=/results/store/shard-", "STORE=/results/shard-store-"))),
        ),
      "index 0: --store /results/shard-store-1-of-4 is among the merge's shards (/results/shard-*)",
    ],
    [
      "no --resume",
      () => problems(edited("Job/gatebench", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace(" --resume", "")))),
      "index 0: no --resume, so a retried pod starts its shard again",
    ],
    [
      "the eval's exit code lost",
      () => problems(edited("Job/gatebench", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace("exit $rc", "exit 0")))),
      "index 0: exits 0 when the eval exits 2",
    ],
    [
      "a merge into one of the shards' folders",
      () =>
        problems(
          edited("Job/gatebench-merge", (d) => (shardScript(d)[2] = shardScript(d)[2]!.replace("--out /results/merged", "--out /results/shard-merged"))),
        ),
      "the merge's --out /results/shard-merged is among its shards (/results/shard-*)",
    ],
    [
      "another image in one Job",
      () => problems(edited("Job/gatebench-merge", (d) => (d.spec.template.spec.containers[0].image = "REGISTRY/gatebench:latest"))),
      "one image for every container, not REGISTRY/gatebench:TAG, REGISTRY/gatebench:latest",
    ],
    [
      "a real-looking image",
      () =>
        problems(
          manifests.map((m) => {
            const d = structuredClone(m.doc);
            for (const c of d.kind === "Pod" ? d.spec.containers : (d.spec?.template?.spec?.containers ?? [])) c.image = "ghcr.io/example/gatebench:latest";
            return { ...m, doc: d };
          }),
        ),
      "the image is the placeholder REGISTRY/gatebench:TAG, not ghcr.io/example/gatebench:latest",
    ],
    [
      "a guide that builds another image",
      () => problems(manifests, guide.replace("docker build -t REGISTRY/gatebench:TAG .", "docker build -t gatebench .")),
      "the guide does not build REGISTRY/gatebench:TAG",
    ],
    [
      "a guide that merges before the shards are done",
      () => {
        const wait = "kubectl -n gatebench wait --for=condition=complete job/gatebench --timeout=6h\n";
        const merge = "kubectl apply -f deploy/k8s/gatebench-merge-job.yaml\n";
        return problems(manifests, guide.replace(wait + merge, merge + wait));
      },
      "the guide does apply the merge Job before it does wait for job/gatebench",
    ],
    [
      "a guide that never copies the merged run out",
      () => problems(manifests, guide.replace(/^kubectl -n gatebench cp .*\n/m, "")),
      "the guide does not copy /results/merged out of pod gatebench-results",
    ],
    [
      "a guide that never applies the claim",
      () => problems(manifests, guide.replace("kubectl apply -f deploy/k8s/gatebench-results-pvc.yaml\n", "")),
      "the guide never applies gatebench-results-pvc.yaml",
    ],
    [
      "a guide without a node setting ensure-system checks",
      () => problems(manifests, guide.replace(/^sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0.*\n/m, "")),
      "the cluster guide does not set kernel.apparmor_restrict_unprivileged_userns",
    ],
    [
      "a claim in another namespace",
      () => problems(edited("PersistentVolumeClaim/gatebench-results", (d) => (d.metadata.namespace = "default"))),
      "gatebench-results-pvc.yaml: namespace default is not gatebench",
    ],
    [
      "unprivileged shard pods",
      () => problems(edited("Job/gatebench", (d) => delete d.spec.template.spec.containers[0].securityContext.privileged)),
      "the shard pods are not privileged",
    ],
    [
      "a namespace that refuses privileged pods",
      () => problems(edited("Namespace/gatebench", (d) => (d.metadata.labels["pod-security.kubernetes.io/enforce"] = "baseline"))),
      "the namespace does not allow privileged pods (pod-security.kubernetes.io/enforce: privileged)",
    ],
    [
      "a confined AppArmor profile",
      () => problems(edited("Job/gatebench", (d) => (d.spec.template.spec.containers[0].securityContext.appArmorProfile.type = "RuntimeDefault"))),
      "the shard pods' AppArmor profile is not Unconfined",
    ],
    [
      "a privileged merge",
      () => problems(edited("Job/gatebench-merge", (d) => (d.spec.template.spec.containers[0].securityContext.privileged = true))),
      "gatebench-merge is privileged",
    ],
    [
      "a workingDir that is not the image's",
      () => problems(edited("Job/gatebench", (d) => (d.spec.template.spec.containers[0].workingDir = "/srv"))),
      "gatebench: workingDir /srv is not the image's /app",
    ],
    [
      "a pod failure policy for a container that does not exist",
      () => problems(edited("Job/gatebench", (d) => (d.spec.podFailurePolicy.rules[0].onExitCodes.containerName = "main"))),
      "podFailurePolicy names container main, not eval",
    ],
  ];
  it.each(broken)("rejects %s", (_, run, expected) => {
    expect(run()).toContainEqual(expect.stringContaining(expected));
  });

  it("the guide's recipe block is the one checked", () => {
    const cmds = recipeCommands(guide);
    expect(cmds[0]).toBe("docker build -t REGISTRY/gatebench:TAG .");
    expect(cmds).toContain("kubectl -n gatebench cp gatebench-results:/results/merged ./gatebench-merged");
  });
});

describe("Dockerfile and .dockerignore", () => {
  it("installs what the harness needs", () => {
    expect(NEEDS).toEqual(expect.arrayContaining(["bubblewrap", "rsync", "git", "python3", "util-linux", "ca-certificates", "sqlite3"]));
    expect(NODE_MAJOR).toBe(20);
    expect(SANDBOX_NODE).toBe("/usr/bin/node");
  });

  it("no problem in the files as they are", () => {
    expect(dockerfileProblems(dockerfile, NEEDS, NODE_MAJOR, SANDBOX_NODE)).toEqual([]);
    expect(dockerignoreProblems(read(".dockerignore"))).toEqual([]);
  });

  const replaced = (from: string | RegExp, to: string) => {
    const text = dockerfile.replace(from, to);
    expect(text, String(from)).not.toBe(dockerfile);
    return dockerfileProblems(text, NEEDS, NODE_MAJOR, SANDBOX_NODE);
  };
  const broken: [string, () => string[], string][] = [
    ["an unpinned base", () => replaced(/^FROM .*$/m, "FROM node:latest"), "FROM node:latest: not node:<x.y.z>-bookworm-slim"],
    ["a base tag that floats", () => replaced(/^FROM .*$/m, "FROM node:20-bookworm-slim"), "FROM node:20-bookworm-slim: not node:<x.y.z>-bookworm-slim"],
    ["another Node major", () => replaced(/^FROM .*$/m, "FROM node:22.12.0-bookworm-slim"), "FROM node:22.12.0-bookworm-slim: Node 22, not 20"],
    ["two stages", () => replaced(/^FROM .*$/m, "FROM node:20.20.2-bookworm-slim AS deps\nFROM node:20.20.2-bookworm-slim"), "one FROM (one stage), not 2"],
    ["npm install", () => replaced("npm ci --omit=dev", "npm install --omit=dev"), "no `npm ci`"],
    ["apt with recommends", () => replaced(" --no-install-recommends", ""), "without --no-install-recommends"],
    ["apt without -y", () => replaced("install -y ", "install "), "without -y"],
    ["apt lists left in the image", () => replaced(" \\\n  && rm -rf /var/lib/apt/lists/*", ""), "does not end by removing /var/lib/apt/lists/*"],
    ["apt install without update", () => replaced("apt-get update \\\n  && ", ""), "apt-get install without apt-get update before it"],
    ["a needed package missing", () => replaced(/^ {4}sqlite3 \\\n/m, ""), "the image does not install sqlite3"],
    ["bubblewrap missing", () => replaced(/^ {4}bubblewrap \\\n/m, ""), "the image does not install bubblewrap"],
    [
      "no Node where the sandboxes look for it",
      () => replaced(/^RUN ln -s \/usr\/local\/bin\/node .*\n/m, "RUN true \\\n"),
      "no /usr/bin/node: the sandboxes start",
    ],
    ["a non-root user", () => replaced(/^WORKDIR /m, "USER node\nWORKDIR "), "USER node: the harness must run as root"],
    ["root without a word why", () => replaced(/^# No USER:[\s\S]*?are the boundary around agent code\.\n/m, ""), "no comment says why the image runs as root"],
    [
      "sources copied before npm ci",
      () => replaced(/^COPY package\.json package-lock\.json \.\/\n/m, "COPY . .\n"),
      "package-lock.json is not copied before `npm ci`",
    ],
    ["a shell-form CMD", () => replaced(/^CMD .*$/m, "CMD npm run eval"), "CMD npm run eval: not"],
    ["no init", () => replaced(/^ENTRYPOINT .*\n/m, ""), "ENTRYPOINT undefined: not tini, installed"],
    ["an unknown instruction", () => replaced(/^WORKDIR \/app$/m, "WORKDIR /app\nRUNN true"), "Unknown instruction: RUNN"],
    ["a relative WORKDIR", () => replaced(/^WORKDIR \/app$/m, "WORKDIR app"), "WORKDIR paths should be absolute"],
    ["JSON in single quotes", () => replaced(/^CMD .*$/m, "CMD ['npm', 'run', 'eval']"), "using single quotes instead of double quotes"],
  ];
  it.each(broken)("rejects %s", (_, run, expected) => {
    expect(run()).toContainEqual(expect.stringContaining(expected));
  });

  it("rejects a .dockerignore that sends node_modules or .git, or leaves out what the eval needs", () => {
    const ignore = read(".dockerignore");
    expect(dockerignoreProblems(ignore.replace(/^node_modules$/m, ""))).toEqual(["node_modules is not left out"]);
    expect(dockerignoreProblems(ignore.replace(/^\.git$/m, ""))).toEqual([".git is not left out"]);
    expect(dockerignoreProblems(`${ignore}tasks\n`)).toEqual(["tasks/README.md is left out, and the eval needs it"]);
    expect(dockerignoreProblems(`${ignore}*.json\n`)).toEqual([
      "package.json is left out, and the eval needs it",
      "package-lock.json is left out, and the eval needs it",
    ]);
  });

  it("the packages that check the recipe are pinned to exact versions", () => {
    for (const name of ["kubernetes-models", "dockerfile-utils"]) expect(pkg.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
