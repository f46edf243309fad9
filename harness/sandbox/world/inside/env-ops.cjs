"use strict";
// What gates may ask about the world (EnvView): realpath, lstat, readlink, a file's text, a folder's names.
const fsx = require("./fsx.cjs");
const { readRegular } = require("./files.cjs");
const { resolvePath } = require("./paths.cjs");
const { typeOf } = require("./walk.cjs");

async function opRealpath({ path: p }) {
  try {
    return await fsx.realpath(resolvePath(p));
  } catch {
    return null;
  }
}

async function opLstat({ path: p }) {
  try {
    const st = await fsx.lstat(resolvePath(p));
    return { type: typeOf(st), size: st.size, mode: st.mode & 0o7777 };
  } catch {
    return null;
  }
}

async function opReadlink({ path: p }) {
  try {
    return await fsx.readlink(resolvePath(p));
  } catch {
    return null;
  }
}

async function opReadFile({ path: p, maxBytes }) {
  try {
    const buf = await readRegular(resolvePath(p), { noFollow: true });
    return (maxBytes ? buf.subarray(0, maxBytes) : buf).toString("utf-8");
  } catch {
    return null;
  }
}

async function opReaddir({ path: p }) {
  try {
    const abs = resolvePath(p);
    if (!(await fsx.lstat(abs)).isDirectory()) return null;
    return (await fsx.readdir(abs)).sort();
  } catch {
    return null;
  }
}

module.exports = { opRealpath, opLstat, opReadlink, opReadFile, opReaddir };
