"use strict";
// Request paths inside the sandbox: ~ is the home folder, relative paths start at /workspace.
const path = require("node:path");
const { OpError } = require("./errors.cjs");

const WORKSPACE = "/workspace";
const HOME = "/home/user";

/** Sandbox path for a request path: ~ expands to HOME, relative paths resolve against /workspace. */
function resolvePath(p) {
  if (typeof p !== "string" || p === "") throw new OpError("EINVAL", "path must be a non-empty string");
  if (p === "~") return HOME;
  if (p.startsWith("~/")) return path.posix.resolve(HOME, p.slice(2));
  return path.posix.resolve(WORKSPACE, p);
}

/** Like resolvePath but with Pi's tool conveniences (leading '@' stripped, unicode spaces normalised). */
function resolveToolPath(p, fallback) {
  if (p === undefined || p === null || p === "") {
    if (fallback !== undefined) return resolvePath(fallback);
  }
  if (typeof p !== "string") throw new OpError("EINVAL", "path must be a string");
  let s = p.replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");
  if (s.startsWith("@")) s = s.slice(1);
  return resolvePath(s);
}

module.exports = { WORKSPACE, HOME, resolvePath, resolveToolPath };
