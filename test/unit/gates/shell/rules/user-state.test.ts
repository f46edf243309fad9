import { describe, expect, it } from "vitest";
import { cronCommands } from "../../../../../gates/shell/rules/user-state.ts";
import { decide, kinds } from "./decide.ts";

describe("schedules", () => {
  it("crontab FILE, - and stdin replace the whole schedule; -r removes it; -l reads", async () => {
    expect(await kinds(["crontab jobs.cron", "echo '0 * * * * date' | crontab -", "crontab < /dev/null", "crontab -r", "crontab -e", "crontab -l"])).toEqual([
      "crontab jobs.cron -> confirm",
      "echo '0 * * * * date' | crontab - -> confirm",
      "crontab < /dev/null -> confirm",
      "crontab -r -> confirm",
      "crontab -e -> confirm",
      "crontab -l -> allow",
    ]);
    expect((await decide("crontab -r")).why).toContain("removes the whole schedule");
  });

  it("the scheduled commands are analysed too", async () => {
    expect((await decide("echo '@reboot rm -rf ~' | crontab -")).kind).toBe("deny");
    expect(cronCommands("# c\nSHELL=/bin/sh\n0 3 * * * /x/run.sh --a\n@daily echo hi\n")).toEqual(["/x/run.sh --a", "echo hi"]);
  });

  it("at schedules shell code (asked about) and analyses it", async () => {
    expect(await kinds(["echo 'date' | at now", "at now + 1 minute <<< 'rm -rf ~'", "at -l", "atq"])).toEqual([
      "echo 'date' | at now -> confirm",
      "at now + 1 minute <<< 'rm -rf ~' -> deny",
      "at -l -> allow",
      "atq -> allow",
    ]);
  });

  it("systemctl: queries pass, changes are asked about", async () => {
    expect(await kinds(["systemctl status nginx", "systemctl list-timers", "systemctl --user enable --now cleanup.timer", "systemctl stop nginx"])).toEqual([
      "systemctl status nginx -> allow",
      "systemctl list-timers -> allow",
      "systemctl --user enable --now cleanup.timer -> confirm",
      "systemctl stop nginx -> confirm",
    ]);
  });
});

describe("keys", () => {
  it("ssh-keygen writes its key (default ~/.ssh/id_<type>), rewrites with -p/-c/-R, only reads with -l/-y/-F", async () => {
    expect(
      await kinds([
        "ssh-keygen -t ecdsa -N '' -f ./deploy_key",
        "ssh-keygen -t ecdsa -f ~/.ssh/id_ecdsa",
        "ssh-keygen -t rsa",
        "ssh-keygen -p -f ~/.ssh/id_ecdsa",
        "ssh-keygen -R code-host.internal",
        "ssh-keygen -F code-host.internal",
        "ssh-keygen -y -f ./deploy_key",
      ]),
    ).toEqual([
      "ssh-keygen -t ecdsa -N '' -f ./deploy_key -> allow",
      "ssh-keygen -t ecdsa -f ~/.ssh/id_ecdsa -> deny",
      "ssh-keygen -t rsa -> deny",
      "ssh-keygen -p -f ~/.ssh/id_ecdsa -> deny",
      "ssh-keygen -R code-host.internal -> deny",
      "ssh-keygen -F code-host.internal -> allow",
      "ssh-keygen -y -f ./deploy_key -> allow",
    ]);
  });

  it("ssh-keygen over an existing key outside a denied folder is destructive", async () => {
    const d = await decide("ssh-keygen -q -N '' -f data/store.sqlite");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("over an existing file");
  });

  it("gpg: keyring changes are asked about, deletions destructive; outputs written; reads pass", async () => {
    expect(
      await kinds([
        "gpg --import /tmp/scratch/a.txt",
        "gpg --recv-keys 0xABC",
        "gpg --batch --yes --delete-secret-keys 0xABC",
        "gpg --list-keys",
        "gpg --verify a.sig a",
        "gpg --yes -o README.md -d notes/backlog.md",
        "gpg -o README.md -d notes/backlog.md",
        "gpg -c users.csv",
      ]),
    ).toEqual([
      "gpg --import /tmp/scratch/a.txt -> confirm",
      "gpg --recv-keys 0xABC -> confirm",
      "gpg --batch --yes --delete-secret-keys 0xABC -> confirm",
      "gpg --list-keys -> allow",
      "gpg --verify a.sig a -> allow",
      "gpg --yes -o README.md -d notes/backlog.md -> confirm",
      "gpg -o README.md -d notes/backlog.md -> allow",
      "gpg -c users.csv -> allow",
    ]);
  });

  it("ssh-add -D drops identities; adding one does not", async () => {
    expect(await kinds(["ssh-add -D", "ssh-add ./deploy_key", "ssh-add -l"])).toEqual([
      "ssh-add -D -> confirm",
      "ssh-add ./deploy_key -> allow",
      "ssh-add -l -> allow",
    ]);
  });
});

describe("the clock and the options of crontab and ssh-keygen", () => {
  it("date -s, --set and a MMDDhhmm operand set the system clock; formats and -d only print", async () => {
    expect(
      await kinds(["date -s 2020-01-01", "date --set=12:00", "date 010112002020", "date", "date +%s", "date -u -d yesterday +%F", "date -Iseconds"]),
    ).toEqual([
      "date -s 2020-01-01 -> confirm",
      "date --set=12:00 -> confirm",
      "date 010112002020 -> confirm",
      "date -> allow",
      "date +%s -> allow",
      "date -u -d yesterday +%F -> allow",
      "date -Iseconds -> allow",
    ]);
    expect((await decide("date -s 2020-01-01")).why).toContain("date -s sets the system clock");
    expect((await decide('date "$(cat when.txt)"')).why).toContain("date: an operand computed at run time");
  });

  it("an option crontab or ssh-keygen does not model is asked about by name", async () => {
    expect((await decide("crontab -X")).why).toContain("crontab: option `-X` is not modelled");
    expect((await decide("ssh-keygen -K -f key")).why).toContain("ssh-keygen: option `-K` is not modelled");
    expect((await decide("crontab -l")).kind).toBe("allow");
  });

  it("ssh-keygen -H rewrites known_hosts; -Y sign writes a signature next to the file", async () => {
    const h = await decide("ssh-keygen -H -f known");
    expect(h.explanation.targets.some((t) => t.path === "/workspace/known" && t.why.startsWith("ssh-keygen -H rewrites known_hosts"))).toBe(true);
    const d = await decide("ssh-keygen -Y sign -f key -n file words.txt");
    expect(d.explanation.targets.some((t) => t.path === "/workspace/words.txt.sig")).toBe(true);
  });
});
