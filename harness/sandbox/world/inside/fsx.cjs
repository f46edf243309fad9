"use strict";
// The file system calls the helper and the measurer make, for any path: names are bytes (read
// with encoding "buffer" and decoded losslessly, kernel/fs-names.ts), and a path too long for
// one call goes through folders opened on the way.
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const { decodeName, onPath, onPathSync } = require("../../../../kernel/fs-names.ts");

const BYTES = { encoding: "buffer" };

const lstat = (p, opts) => onPath(p, (q) => fsp.lstat(q, opts));
const stat = (p, opts) => onPath(p, (q) => fsp.stat(q, opts));
const open = (p, flags, mode) => onPath(p, (q) => fsp.open(q, flags, mode));
const unlink = (p) => onPath(p, (q) => fsp.unlink(q));
const rmdir = (p) => onPath(p, (q) => fsp.rmdir(q));
const rm = (p, opts) => onPath(p, (q) => fsp.rm(q, opts));
const mkdir = (p, opts) => onPath(p, (q) => fsp.mkdir(q, opts));
const readdir = async (p) => (await onPath(p, (q) => fsp.readdir(q, BYTES))).map(decodeName);
const readlink = async (p) => decodeName(await onPath(p, (q) => fsp.readlink(q, BYTES)));
const realpath = async (p) => decodeName(await onPath(p, (q) => fsp.realpath(q, BYTES)));

/** fs.watch with decoded names (an event without a name keeps its null). */
function watch(p, opts, listener) {
  return onPathSync(p, (q) => fs.watch(q, { ...opts, encoding: "buffer" }, (type, name) => listener(type, name == null ? name : decodeName(name))));
}

module.exports = { lstat, stat, open, unlink, rmdir, rm, mkdir, readdir, readlink, realpath, watch };
