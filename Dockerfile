# gatebench's image, for the cluster recipe in deploy/k8s/ (docs/cluster.md):
#   docker build -t REGISTRY/gatebench:TAG .
# `docker run` of it needs what the pods get: see docs/cluster.md for the privileges bubblewrap needs.
#
# Base: the official Node.js image, Debian bookworm-slim variant, pinned by its full version tag.
# - Node 20 is what package.json's engines, CI and the development machines run (20.20.2).
#   Debian bookworm's own nodejs is 18, too old. 20.20.2 is the last Node 20 release (end of life
#   2026-04-30), so this tag gets no more rebuilds: move to a node:22.x-bookworm-slim tag together
#   with the project's Node.
# - bookworm is the Debian release gatebench is developed and tested on: bubblewrap, rsync, git
#   and python3 come in the versions its tests ran with (bubblewrap's version and the OS release
#   are part of every record's harness fingerprint).
# - slim: no compilers, no docs. Nothing needs a toolchain (tree-sitter-bash and koffi ship
#   prebuilt linux-x64 and linux-arm64 binaries in their npm packages), so one stage is enough: a
#   build stage would only leave npm's cache behind, which `npm cache clean` removes here.
FROM node:20.20.2-bookworm-slim

# The system packages .ci/run installs, less the browser (the report test's, not the eval's):
# bubblewrap (the sandbox), rsync (used inside task worlds), git, python3 (task worlds and the
# hostile personas), util-linux (prlimit), ca-certificates (model APIs over HTTPS), sqlite3
# (task worlds), tini (below). Not pinned to Debian versions: bookworm's security updates replace
# them, and a pinned version would stop building when they do.
RUN apt-get update \
  && apt-get install -y --no-install-recommends \
    bubblewrap \
    ca-certificates \
    git \
    python3 \
    rsync \
    sqlite3 \
    tini \
    util-linux \
  && rm -rf /var/lib/apt/lists/*

# The sandboxes bind /usr read-only and start the in-sandbox helper, the measurer and the gate
# processes as /usr/bin/node (harness/sandbox/world/world.ts, measurer.ts, gates/pi-extension/): this image
# has Node in /usr/local/bin, so every trial would fail with `bwrap: execvp /usr/bin/node: No such
# file or directory`. The link stays inside /usr, so it resolves in the sandboxes too.
RUN ln -s /usr/local/bin/node /usr/bin/node \
  && /usr/bin/node --version

# No USER: the harness runs as root on purpose. As root it runs every sandbox as an unprivileged
# host uid of its own (2,000,000,000 and up, no passwd entry; harness/sandbox/world/identity.ts), which
# only root can switch to, and its measurer reads every world with CAP_DAC_READ_SEARCH. Run as
# another user, every sandbox would run as that one user. The sandboxes, not this process's user,
# are the boundary around agent code.
#
# /app and everything in it must stay readable by others: the sandboxes bind node_modules,
# gates/pi-extension and the in-sandbox helper in place, as the sandbox uids
# (harness/sandbox/world/access.ts refuses the run, exit 2, otherwise). COPY keeps the build context's
# modes, so build from a checkout made with umask 022 (git's default modes).
WORKDIR /app

# Dependencies first, so a source change reuses this layer. The lockfile is committed; devDependencies
# (tests, lint, benchmarks, the browser driver) are not needed to run or merge an eval.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force

COPY . .

# tini as PID 1 reaps the processes the sandboxes leave to it and passes SIGTERM on to npm's
# process group (-g), so a deleted pod stops its trials at once.
ENTRYPOINT ["/usr/bin/tini", "-g", "--"]
CMD ["npm", "run", "eval"]
