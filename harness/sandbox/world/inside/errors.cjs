"use strict";
// The error an op answers with: a code the host reads (ENOENT, EINVAL...) and a message.
class OpError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

module.exports = { OpError };
