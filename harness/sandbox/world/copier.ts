/**
 * World copies (trial-dir.ts) through one long-lived bash process instead of a process started
 * per copy. Starting a process from the harness forks the harness itself, hundreds of
 * megabytes of page tables, for every checkpoint, clone and hidden test: that fork cost more
 * than most copies. The copier is small; it forks a subshell per copy, which runs `cp` and
 * `chown` as before, so copies run side by side.
 *
 * Protocol: a request is NUL-terminated fields on stdin: an id, the number of arguments, the
 * arguments; the answer is one line on stdout, `<id> <exit code> <the copy's output, one line>`
 * (shorter than a pipe's atomic write, so answers of concurrent copies never interleave). The
 * process keeps the harness alive only while a copy is pending; if it dies, pending copies fail
 * and the next copy starts a new one.
 */
import { execa } from "execa";
import { holdProcess } from "../process/hold.ts";

/**
 * `copy OWNER INTO N FROM_1 .. FROM_N ROOT...`: each FROM into the folder INTO (cp -a: links stay
 * links, nothing is dereferenced; a folder copied onto an existing folder of its name fills it),
 * then every ROOT and everything in it to OWNER, unless OWNER is empty (chown -R -P -h: links are
 * re-owned, never their targets).
 * `remove DIR`: rm -rf of DIR (GNU rm walks by descriptor: any depth, links removed, never
 * followed), after giving its owner access to every folder in it (a folder of mode 000 cannot be
 * emptied otherwise when the harness does not run as root). `empty DIR`: the same for everything
 * in DIR, keeping DIR.
 */
const COPIER_SCRIPT = [
  "remove() {",
  '  /bin/chmod -R u+rwX -- "$1" 2>/dev/null',
  '  /bin/rm -rf --one-file-system -- "$1"',
  "}",
  "empty() {",
  '  /bin/chmod -R u+rwX -- "$1" 2>/dev/null',
  '  /usr/bin/find "$1" -mindepth 1 -maxdepth 1 -exec /bin/rm -rf --one-file-system -- {} +',
  "}",
  "copy() {",
  '  local owner="$1" into="$2" n="$3"',
  "  shift 3",
  '  local from=("${@:1:n}") roots=("${@:n+1}")',
  '  /bin/cp -a --no-dereference -- "${from[@]}" "$into/" || return',
  '  if [ -n "$owner" ]; then /bin/chown -R -P -h -- "$owner" "${roots[@]}" || return; fi',
  "}",
  "while IFS= read -r -d '' id && IFS= read -r -d '' n; do",
  "  args=()",
  "  for ((i = 0; i < n; i++)); do IFS= read -r -d '' a || exit 0; args+=(\"$a\"); done",
  "  (",
  '    out=$(case "${args[0]}" in (copy | remove | empty) "${args[@]}" ;; (*) echo "unknown copier command ${args[0]}" && false ;; esac 2>&1)',
  "    rc=$?",
  "    out=${out//$'\\n'/ }",
  "    if ((${#out} > 400)); then out=${out: -400}; fi",
  '    printf \'%s %s %s\\n\' "$id" "$rc" "$out"',
  "  ) &",
  "done",
].join("\n");

const spawnCopier = () =>
  execa("/bin/bash", ["-c", COPIER_SCRIPT, "copier"], { stdin: "pipe", stdout: "pipe", stderr: "ignore", buffer: false, reject: false });
type Copier = ReturnType<typeof spawnCopier>;

interface Pending {
  resolve: (r: CopyResult) => void;
  reject: (e: Error) => void;
}

export interface CopyResult {
  exitCode: number;
  /** What cp and chown printed (errors), on one line, at most 400 characters. */
  output: string;
}

let copier: Copier | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function hold(held: boolean): void {
  if (copier) holdProcess(copier, held);
}

function started(): Copier {
  if (copier && copier.exitCode === null && !copier.killed) return copier;
  const c = spawnCopier();
  copier = c;
  let rest = "";
  c.stdout.setEncoding("utf8");
  c.stdout.on("data", (chunk: string) => {
    rest += chunk;
    for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      const m = /^(\d+) (\d+) ?(.*)$/.exec(line);
      const p = m ? pending.get(Number(m[1])) : undefined;
      if (!m || !p) continue;
      pending.delete(Number(m[1]));
      p.resolve({ exitCode: Number(m[2]), output: m[3] ?? "" });
    }
    if (pending.size === 0) hold(false);
  });
  c.stdin.on("error", () => {});
  void c.then(() => {
    if (copier === c) copier = undefined;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(new Error("the copier process ended"));
    }
  });
  return c;
}

/** What to copy: the folders `from` into the folder `into`, then the folders `roots` (and all in them) given to `owner` ("": no one). */
export interface CopyRequest {
  owner: string;
  from: readonly string[];
  into: string;
  roots: readonly string[];
}

/** Runs one copy (see COPIER_SCRIPT) in the copier. */
export function copyRoots(req: CopyRequest): Promise<CopyResult> {
  return request(["copy", req.owner, req.into, String(req.from.length), ...req.from, ...req.roots]);
}

/** rm -rf of `dir` in the copier (see COPIER_SCRIPT): for trees fs.rm cannot remove (deeper than PATH_MAX). */
export function removeInCopier(dir: string): Promise<CopyResult> {
  return request(["remove", dir]);
}

/** rm -rf of everything in `dir`, keeping `dir`, in the copier. */
export function emptyInCopier(dir: string): Promise<CopyResult> {
  return request(["empty", dir]);
}

function request(args: string[]): Promise<CopyResult> {
  for (const a of args) if (a.includes("\0")) return Promise.reject(new Error("a copier argument holds a NUL byte"));
  const c = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    hold(true);
    c.stdin.write([String(id), String(args.length), ...args].map((f) => `${f}\0`).join(""));
  });
}
