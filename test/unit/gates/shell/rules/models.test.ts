import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_MODELS } from "../../../../../gates/shell/rules/index.ts";
import { unmodelled } from "../../../../../gates/shell/rules/models.ts";
import { lit } from "../../../../../gates/shell/rules/types.ts";
import { decide } from "./decide.ts";

const words = (line: string) => line.split(" ").map(lit);

describe("closed world: a subcommand a family does not model is asked about, naming it", () => {
  it.each([
    ["git worktree prune", "git: subcommand `worktree prune` is not modelled"],
    ["git frobnicate x", "git: subcommand `frobnicate` is not modelled"],
    ["git -C sub lfs pull", "git: subcommand `lfs` is not modelled"],
    ["git bisect run make", "git: subcommand `bisect run` is not modelled"],
    ["docker exec -it web sh", "docker: subcommand `exec` is not modelled"],
    ["docker --context prod volume frob x", "docker: subcommand `volume frob` is not modelled"],
    ["npm frobnicate", "npm: subcommand `frobnicate` is not modelled"],
    ["cargo frob", "cargo: subcommand `frob` is not modelled"],
    ["go mod frob", "go: subcommand `mod frob` is not modelled"],
    ["kubectl frob pods", "kubectl: subcommand `frob` is not modelled"],
    ["terraform state rm aws_s3_bucket.b", "terraform: subcommand `state rm` is not modelled"],
  ])("%s", async (cmd, reason) => {
    const d = await decide(cmd);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain(reason);
  });

  it("modelled everyday subcommands are not questioned", async () => {
    for (const cmd of [
      "git status",
      "git stash -u",
      "git -C src log --oneline",
      "git remote -v",
      "git -c alias.co=checkout co main",
      "git --version",
      "docker image ls",
      "npm ci",
      "cargo build --release",
      "go mod tidy",
      "kubectl get pods",
    ])
      expect((await decide(cmd)).kind, cmd).toBe("allow");
  });

  it("a subcommand computed at run time is not modelled", () => {
    const model = COMMAND_MODELS.get("git")!;
    expect(unmodelled("git", model, [{ text: "", glob: false, unknown: "$(x) is computed at run time", src: "$(x)" }])).toMatch(/computed at run time/);
  });

  it("property: a random word that no model lists, as any program's subcommand, is never allowed", async () => {
    const programs = [...COMMAND_MODELS.keys()];
    const listed = new Set([...COMMAND_MODELS.values()].flatMap((m) => [...m.subcommands, ...Object.values(m.actions ?? {}).flat()]));
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{1,11}$/).filter((w) => !listed.has(w));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...programs), word, async (program, sub) => {
        expect(unmodelled(program, COMMAND_MODELS.get(program)!, words(sub))).toBe(`${program}: subcommand \`${sub}\` is not modelled`);
        expect((await decide(`${program} ${sub}`)).kind).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });

  it("property: an unlisted action of a subcommand with listed actions is never allowed", async () => {
    const pairs = [...COMMAND_MODELS].flatMap(([p, m]) => Object.entries(m.actions ?? {}).map(([s, acts]) => ({ p, s, acts })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pairs), fc.stringMatching(/^[a-z][a-z0-9-]{1,11}$/), async ({ p, s, acts }, action) => {
        fc.pre(!acts.includes(action));
        expect(unmodelled(p, COMMAND_MODELS.get(p)!, words(`${s} ${action}`))).toBe(`${p}: subcommand \`${s} ${action}\` is not modelled`);
        expect((await decide(`${p} ${s} ${action}`)).kind).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
});
