"use strict";
// Reading and writing one file the safe way: never blocking on a FIFO or a device.
const fsx = require("./fsx.cjs");
const fs = require("node:fs");
const path = require("node:path");
const { OpError } = require("./errors.cjs");

const O_READ_SAFE = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/** Reads a regular file (following links unless noFollow). Never blocks on a FIFO or device. */
async function readRegular(abs, { noFollow = false } = {}) {
  const flags = O_READ_SAFE | (noFollow ? fs.constants.O_NOFOLLOW : 0);
  let fh;
  try {
    fh = await fsx.open(abs, flags);
  } catch (e) {
    if (e.code === "ELOOP" && noFollow) throw new OpError("ELOOP", `${abs} is a symbolic link`);
    throw e;
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new OpError("EISDIR", `${abs} is a directory`);
    if (!st.isFile()) throw new OpError("ENOTREG", `${abs} is not a regular file`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** Writes a file like Pi's write (parents created, links followed) without blocking on FIFOs. */
async function writeRegular(abs, content) {
  await fsx.mkdir(path.posix.dirname(abs), { recursive: true });
  const fh = await fsx.open(abs, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_NONBLOCK, 0o644);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new OpError("ENOTREG", `${abs} is not a regular file`);
    await fh.truncate(0);
    await fh.writeFile(content, "utf-8");
  } finally {
    await fh.close();
  }
}

module.exports = { O_READ_SAFE, readRegular, writeRegular };
