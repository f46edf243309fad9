import { describe, expect, it } from "vitest";
import { decide, expectKinds, kinds } from "./decide.ts";

describe("build tools' own delete modes", () => {
  it("clean targets delete build outputs (recursive, destructive)", async () => {
    const cases = [
      "cargo clean",
      "mvn clean",
      "mvn clean install",
      "gradle clean",
      "./gradlew clean build",
      "dotnet clean",
      "ninja -t clean",
      "cmake --build build --target clean",
      "go clean",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    expect((await decide("cargo clean")).resources).toEqual(["/workspace/target"]);
  });

  it("caches in HOME: asked about as deletions outside the workspace", async () => {
    for (const c of [
      "go clean -cache -modcache",
      "bazel clean --expunge",
      "npm cache clean --force",
      "pip cache purge",
      "uv cache clean",
      "poetry cache clear --all pypi",
      "yarn cache clean",
    ]) {
      const d = await decide(c);
      expect(d.kind, c).toBe("confirm");
      expect(d.resources.join(" "), c).toContain("/home/user/");
    }
  });

  it("building, testing and running leave the project's outputs alone", async () => {
    const cases = [
      "cargo build --release",
      "cargo test",
      "go test ./...",
      "go build ./...",
      "mvn -q test",
      "gradle test",
      "dotnet build",
      "cmake -S . -B build",
      "cmake --build build",
      "ninja",
      "cargo clean --dry-run",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "allow"));
  });

  it("cmake -E speaks coreutils", async () => {
    expect(
      await kinds([
        "cmake -E remove_directory src",
        "cmake -E rm -rf ~",
        "cmake -E make_directory out",
        "cmake -E echo hi",
        "cmake -E copy src/server.ts README.md",
      ]),
    ).toEqual([
      "cmake -E remove_directory src -> confirm",
      "cmake -E rm -rf ~ -> deny",
      "cmake -E make_directory out -> allow",
      "cmake -E echo hi -> allow",
      "cmake -E copy src/server.ts README.md -> confirm",
    ]);
  });

  it("runners hand their payload on", async () => {
    expect(
      await kinds([
        "poetry run rm -rf ~",
        "pipenv run pytest",
        "conda run -n env rm -rf src",
        "bundle exec rake test",
        "nix-shell --run 'rm -rf src'",
        "nix develop -c rm -rf src",
        "direnv exec . rm -rf src",
        "npm exec -- rimraf dist",
        "pnpm dlx rimraf dist",
      ]),
    ).toEqual([
      "poetry run rm -rf ~ -> deny",
      "pipenv run pytest -> allow",
      "conda run -n env rm -rf src -> confirm",
      "bundle exec rake test -> allow",
      "nix-shell --run 'rm -rf src' -> confirm",
      "nix develop -c rm -rf src -> confirm",
      "direnv exec . rm -rf src -> confirm",
      "npm exec -- rimraf dist -> confirm",
      "pnpm dlx rimraf dist -> confirm",
    ]);
  });
});
