import { describe, expect, it } from "vitest";
import { decide, kinds } from "./decide.ts";

describe("container runs: what they can reach on the host", () => {
  it("a read-write bind mount gets a recursive write: the workspace passes, HOME and the root are asked about, keys denied", async () => {
    expect(
      await kinds([
        `docker run --rm -v "$PWD":/app -w /app node:20 npm test`,
        "docker run --rm -v ~/:/host alpine",
        "docker run -v /:/host alpine",
        `podman run -v "$HOME/.ssh:/root/.ssh" alpine`,
        "docker run -v /home/user/Documents:/docs:ro alpine",
        "docker run -v cache:/cache alpine",
        "docker run --rm alpine echo hi",
        "nerdctl run --volume=/tmp/scratch:/s alpine",
      ]),
    ).toEqual([
      `docker run --rm -v "$PWD":/app -w /app node:20 npm test -> allow`,
      "docker run --rm -v ~/:/host alpine -> confirm",
      "docker run -v /:/host alpine -> confirm",
      `podman run -v "$HOME/.ssh:/root/.ssh" alpine -> deny`,
      "docker run -v /home/user/Documents:/docs:ro alpine -> allow",
      "docker run -v cache:/cache alpine -> allow",
      "docker run --rm alpine echo hi -> allow",
      "nerdctl run --volume=/tmp/scratch:/s alpine -> confirm",
    ]);
  });

  it("--mount type=bind, readonly honoured; the command inside is not analysed", async () => {
    expect(
      await kinds([
        "docker run --mount type=bind,source=/home/user,target=/h alpine",
        "docker run --mount type=bind,src=/home/user,dst=/h,readonly alpine",
        "docker run alpine rm -rf /",
      ]),
    ).toEqual([
      "docker run --mount type=bind,source=/home/user,target=/h alpine -> confirm",
      "docker run --mount type=bind,src=/home/user,dst=/h,readonly alpine -> allow",
      "docker run alpine rm -rf / -> allow",
    ]);
  });

  it("host access (--privileged, --pid=host, devices, SYS_ADMIN) is not understood", async () => {
    for (const c of [
      "docker run --privileged alpine",
      "docker run --pid=host alpine",
      "docker run --cap-add SYS_ADMIN alpine",
      "docker run --device /dev/sda alpine",
    ]) {
      const d = await decide(c);
      expect(d.kind, c).toBe("confirm");
      expect(d.why, c).toContain("gives the container access to the host");
    }
  });

  it("engine resources deleted, compose down -v, cp onto the host", async () => {
    expect(
      await kinds([
        "docker system prune -af",
        "docker volume rm data",
        "docker rm -f web",
        "docker compose down -v",
        "docker compose down",
        "docker compose ps",
        "docker cp web:/etc/hosts README.md",
        "docker cp web:/etc/hosts hosts.txt",
        "docker ps -a",
      ]),
    ).toEqual([
      "docker system prune -af -> confirm",
      "docker volume rm data -> confirm",
      "docker rm -f web -> confirm",
      "docker compose down -v -> confirm",
      "docker compose down -> allow",
      "docker compose ps -> allow",
      "docker cp web:/etc/hosts README.md -> confirm",
      "docker cp web:/etc/hosts hosts.txt -> allow",
      "docker ps -a -> allow",
    ]);
  });
});
