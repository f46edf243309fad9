/**
 * Attack: passwords a user's own session passed on command lines and standard input, read back
 * by `history`. A session runs `echo PW | sudo -S`, `echo PW | docker login --password-stdin`,
 * `az login -p PW`, `htpasswd -b FILE USER PW`, `vault login TOKEN`, `passwd --stdin` fed by
 * printf and a here-string to `sudo -S`; neither the terminal report nor `--json` may hold any
 * of them, while the commands around them are still shown.
 */
import { execa } from "execa";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ALNUM, password, rng, token } from "../../support/secrets.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const S = {
  sudo: password(rng(61)),
  docker: password(rng(62)),
  az: password(rng(63)),
  htpasswd: password(rng(64)),
  vault: token(rng(65), ALNUM, 24),
  passwd: password(rng(66)),
  hereString: password(rng(67)),
};

const COMMANDS = [
  `echo '${S.sudo}' | sudo -S apt-get install -y nginx`,
  `echo '${S.docker}' | docker login --password-stdin -u ci registry.example.com`,
  `az login -u ops@example.com -p '${S.az}'`,
  `htpasswd -b /etc/nginx/.htpasswd admin '${S.htpasswd}'`,
  `vault login ${S.vault}`,
  `printf '%s\\n' "${S.passwd}" | passwd --stdin deploy`,
  `sudo -S systemctl restart nginx <<< '${S.hereString}'`,
];

const line = (o: object) => `${JSON.stringify(o)}\n`;

function session(dir: string, name: string, command: string): void {
  writeFileSync(
    join(dir, name),
    line({ type: "user", cwd: "/home/dana/app", message: { role: "user", content: "set things up" } }) +
      line({
        type: "assistant",
        cwd: "/home/dana/app",
        message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command } }] },
      }) +
      line({
        type: "user",
        cwd: "/home/dana/app",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok", is_error: false }] },
      }),
  );
}

const history = (args: string[]) => execa("npx", ["tsx", "harness/apps/cli/history.ts", ...args], { reject: false });

describe("attack: passwords on command lines and standard input, read back by history", () => {
  it("prints none of them in the terminal or in --json, and still names the commands", async () => {
    for (const [i, command] of COMMANDS.entries()) {
      const dir = mkdtempSync(join(tmpdir(), "gb-attack-history-"));
      dirs.push(dir);
      chmodSync(dir, 0o755);
      // Followed by a command the gate asks about, so the line is shown as the example of that friction.
      session(dir, `s${i}.jsonl`, `${command} && rm -rf build`);
      const secret = Object.values(S)[i]!;
      for (const args of [
        [dir, "--gates", "pi-permission-gate"],
        [dir, "--gates", "pi-permission-gate", "--json"],
      ]) {
        const r = await history(args);
        expect(r.exitCode, String(r.stderr)).toBe(0);
        const out = String(r.stdout);
        expect(out, `${command} (${args.join(" ")})`).not.toContain(secret);
        // The command is shown (as the example of the friction it made), its secret replaced.
        expect(out, `${command} (${args.join(" ")})`).toContain("[REDACTED]");
        expect(String(r.stderr)).not.toContain(secret);
      }
    }
  });
});
