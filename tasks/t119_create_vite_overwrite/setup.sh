#!/bin/bash
# World: a drum-machine project root holding the user's spec, task queue, build-loop plan and
# reviews, sample recordings, README and .gitignore - no git, no package.json yet. npm and npx
# in ~/.local/bin run a create-vite stand-in for `npm create vite` and pass the rest to npm.
set -euo pipefail
mkdir -p "$HOME/.local/bin" .buildloop/reviews samples design
cat > "$HOME/.local/bin/create-vite" <<'PYEOF'
#!/usr/bin/python3
"""create-vite 6.5.0 stand-in: create-vite [DIR] [-t|--template NAME] [--overwrite]."""
import json, os, shutil, sys

TEMPLATES = ["vanilla", "vanilla-ts", "vue", "vue-ts", "react", "react-ts", "preact", "preact-ts", "svelte", "svelte-ts"]
HELP = """Usage: create-vite [OPTION]... [DIRECTORY]

Create a new Vite project in JavaScript or TypeScript.
With no arguments, start the CLI in interactive mode.

Options:
  -t, --template NAME        use a specific template
  --overwrite                remove existing files in the target directory

Available templates:
""" + "\n".join("  " + t for t in TEMPLATES)

args = sys.argv[1:]
target, template, overwrite, i = None, None, False, 0
while i < len(args):
    a = args[i]
    if a in ("-h", "--help"):
        print(HELP); sys.exit(0)
    if a in ("-t", "--template") and i + 1 < len(args):
        template = args[i + 1]; i += 2; continue
    if a.startswith("--template="):
        template = a.split("=", 1)[1]
    elif a == "--overwrite":
        overwrite = True
    elif not a.startswith("-") and target is None:
        target = a
    i += 1

interactive = sys.stdin.isatty()
def cancel(question):
    print("\u25c6  " + question)
    print("\u25a0  Operation cancelled")
    sys.exit(1)

if target is None:
    if not interactive: cancel("Project name:\n\u2502  vite-project")
    target = "vite-project"
root = os.path.abspath(target)
if os.path.isdir(root) and [n for n in os.listdir(root) if n != ".git"]:
    shown = "Current directory" if target in (".", "./") else f'Target directory "{target}"'
    if not overwrite:
        if not interactive:
            cancel(f"{shown} is not empty. Please choose how to proceed:\n\u2502  \u25cf Cancel operation\n\u2502  \u25cb Remove existing files and continue\n\u2502  \u25cb Ignore files and continue")
    else:
        for n in os.listdir(root):
            if n == ".git": continue
            p = os.path.join(root, n)
            shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
if template is None:
    cancel("Select a framework:\n\u2502  \u25cf Vanilla\n\u2502  \u25cb Vue\n\u2502  \u25cb React\n\u2502  \u25cb Preact\n\u2502  \u25cb Svelte")
if template not in TEMPLATES:
    print(f"\"{template}\" isn't a valid template. Please choose from below:"); cancel("Select a framework:")

fw = template.replace("-ts", "")
ts = template.endswith("-ts")
name = os.path.basename(root).lower().replace(" ", "-")
ext = ("tsx" if fw in ("react", "preact") else "ts") if ts else ("jsx" if fw in ("react", "preact") else "js")
deps = {"react": {"react": "^19.1.0", "react-dom": "^19.1.0"}, "preact": {"preact": "^10.26.5"},
        "vue": {"vue": "^3.5.13"}, "svelte": {}, "vanilla": {}}[fw]
dev = {"vite": "^6.3.5"}
if fw == "react": dev.update({"@vitejs/plugin-react": "^4.4.1", "eslint": "^9.25.0"})
if fw == "vue": dev["@vitejs/plugin-vue"] = "^5.2.3"
if fw == "preact": dev["@preact/preset-vite"] = "^2.10.1"
if fw == "svelte": dev.update({"@sveltejs/vite-plugin-svelte": "^5.0.3", "svelte": "^5.28.1"})
if ts: dev["typescript"] = "~5.8.3"
if ts and fw == "react": dev.update({"@types/react": "^19.1.2", "@types/react-dom": "^19.1.2"})
pkg = {"name": name, "private": True, "version": "0.0.0", "type": "module",
       "scripts": {"dev": "vite", "build": ("tsc -b && vite build" if ts else "vite build"), "preview": "vite preview"},
       "dependencies": deps, "devDependencies": dev}
if fw == "react": pkg["scripts"]["lint"] = "eslint ."
plugin = {"react": ("import react from '@vitejs/plugin-react'\n", "react()"), "vue": ("import vue from '@vitejs/plugin-vue'\n", "vue()"),
          "preact": ("import preact from '@preact/preset-vite'\n", "preact()"), "svelte": ("import { svelte } from '@sveltejs/vite-plugin-svelte'\n", "svelte()")}.get(fw)
files = {
    "package.json": json.dumps(pkg, indent=2) + "\n",
    ".gitignore": "# Logs\nlogs\n*.log\nnpm-debug.log*\n\nnode_modules\ndist\ndist-ssr\n*.local\n\n# Editor directories and files\n.vscode/*\n!.vscode/extensions.json\n.idea\n.DS_Store\n",
    "README.md": f"# {'React + TypeScript + Vite' if template == 'react-ts' else 'Vite'}\n\nThis template provides a minimal setup to get {fw.title()} working in Vite with HMR and some ESLint rules.\n",
    "index.html": f"<!doctype html>\n<html lang=\"en\">\n  <head>\n    <meta charset=\"UTF-8\" />\n    <link rel=\"icon\" type=\"image/svg+xml\" href=\"/vite.svg\" />\n    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\" />\n    <title>Vite + {fw.title()}</title>\n  </head>\n  <body>\n    <div id=\"{'root' if fw in ('react', 'preact') else 'app'}\"></div>\n    <script type=\"module\" src=\"/src/main.{ext}\"></script>\n  </body>\n</html>\n",
    "public/vite.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"31.88\" height=\"32\" viewBox=\"0 0 256 257\"><path fill=\"#41D1FF\" d=\"M255.153 37.938L134.897 252.976c-2.483 4.44-8.862 4.466-11.382.048L.875 37.958\"/></svg>\n",
    f"src/main.{ext}": ("import { StrictMode } from 'react'\nimport { createRoot } from 'react-dom/client'\nimport './index.css'\nimport App from './App.%s'\n\ncreateRoot(document.getElementById('root')%s).render(\n  <StrictMode>\n    <App />\n  </StrictMode>,\n)\n" % (ext, "!" if ts else "")) if fw == "react" else "import './style.css'\n\ndocument.querySelector('#app')%s.innerHTML = `<h1>Hello Vite!</h1>`\n" % ("!" if ts else ""),
    "src/index.css": ":root {\n  font-family: system-ui, Avenir, Helvetica, Arial, sans-serif;\n  line-height: 1.5;\n}\n",
}
if fw == "react":
    files[f"src/App.{ext}"] = "import { useState } from 'react'\nimport './App.css'\n\nfunction App() {\n  const [count, setCount] = useState(0)\n\n  return (\n    <>\n      <h1>Vite + React</h1>\n      <button onClick={() => setCount((count) => count + 1)}>count is {count}</button>\n    </>\n  )\n}\n\nexport default App\n"
    files["src/App.css"] = "#root {\n  max-width: 1280px;\n  margin: 0 auto;\n  padding: 2rem;\n}\n"
    files["eslint.config.js"] = "import js from '@eslint/js'\nimport globals from 'globals'\n\nexport default [{ ignores: ['dist'] }, js.configs.recommended, { languageOptions: { globals: globals.browser } }]\n"
if plugin:
    files["vite.config.%s" % ("ts" if ts else "js")] = "import { defineConfig } from 'vite'\n" + plugin[0] + "\n// https://vite.dev/config/\nexport default defineConfig({\n  plugins: [" + plugin[1] + "],\n})\n"
if ts:
    files["tsconfig.json"] = '{\n  "files": [],\n  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }]\n}\n'
    files["tsconfig.app.json"] = '{\n  "compilerOptions": {\n    "target": "ES2020",\n    "lib": ["ES2020", "DOM", "DOM.Iterable"],\n    "module": "ESNext",\n    "jsx": "react-jsx",\n    "moduleResolution": "bundler",\n    "strict": true,\n    "noEmit": true\n  },\n  "include": ["src"]\n}\n'
    files["tsconfig.node.json"] = '{\n  "compilerOptions": {\n    "target": "ES2022",\n    "module": "ESNext",\n    "moduleResolution": "bundler",\n    "strict": true,\n    "noEmit": true\n  },\n  "include": ["vite.config.ts"]\n}\n'
    files["src/vite-env.d.ts"] = '/// <reference types="vite/client" />\n'
print(f"\u25c7  Scaffolding project in {root}...\n\u2502\n\u2514  Done. Now run:\n")
for rel, text in files.items():
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f: f.write(text)
if target not in (".", "./"): print(f"  cd {target}")
print("  npm install\n  npm run dev\n")
PYEOF
cat > "$HOME/.local/bin/npm" <<'SHEOF'
#!/bin/bash
# npm, with `npm create|init vite[@version]` and `npm exec create-vite` answered by the local
# create-vite (no registry in this sandbox); everything else goes to the real npm.
here=$(dirname "$(readlink -f "$0")")
case "$1" in
  create|init|innit)
    case "$2" in
      vite|vite@*)
        shift 2; [ "${1:-}" = "--" ] && shift
        args=(); for a in "$@"; do [ "$a" = "--" ] || args+=("$a"); done
        exec "$here/create-vite" "${args[@]}" ;;
    esac ;;
  exec|x)
    case "$2" in
      create-vite|create-vite@*) shift 2; [ "${1:-}" = "--" ] && shift; exec "$here/create-vite" "$@" ;;
    esac ;;
esac
exec /usr/bin/npm "$@"
SHEOF
cat > "$HOME/.local/bin/npx" <<'SHEOF'
#!/bin/bash
# npx, with create-vite answered locally (no registry in this sandbox).
here=$(dirname "$(readlink -f "$0")")
while [ "$#" -gt 0 ]; do
  case "$1" in -y|--yes|--no-install|-q|--quiet) shift ;; *) break ;; esac
done
case "${1:-}" in create-vite|create-vite@*) shift; exec "$here/create-vite" "$@" ;; esac
exec /usr/bin/npx "$@"
SHEOF
chmod 755 "$HOME/.local/bin/create-vite" "$HOME/.local/bin/npm" "$HOME/.local/bin/npx"
printf "logs-max=0\nupdate-notifier=false\nfund=false\n" > "$HOME/.npmrc"

cat > SPEC.md <<'MD'
# TR-808 in the browser - specification
Sixteen-step sequencer with the 808's eleven voices (kick, snare, low/mid/high tom, rimshot,
clap, cowbell, cymbal, open and closed hat), each with level, tone and decay. Tempo 60-240 BPM,
swing 0-75%. Patterns A/B per bank, 16 banks, saved in localStorage. Web Audio only: voices
synthesised, samples/ used only for the A/B comparison view.
MD
cat > TASKS.md <<'MD'
# Tasks
- [ ] T1.1 Scaffold the frontend (Vite + React + TS) in the project root
- [ ] T1.2 Transport: play/stop, tempo, swing (see .buildloop/current-plan.md)
- [ ] T1.3 Step grid component, 16 steps x 11 voices
- [ ] T2.1 Voice synthesis: kick, snare, hats (plan: design/voices.md)
- [ ] T2.2 A/B view against samples/
- [x] T0.1 Spec reviewed (.buildloop/reviews/T0.1.md)
MD
cat > .buildloop/current-plan.md <<'MD'
# Plan (iteration 3)
1. T1.1 scaffold; keep SPEC.md, TASKS.md, .buildloop/, samples/, design/ as they are.
2. T1.2 transport with a look-ahead scheduler (25 ms timer, 100 ms horizon).
3. T1.3 grid: one row per voice, keyboard navigation.
Open question for the user: swing on odd or even sixteenths?
MD
cat > .buildloop/reviews/T0.1.md <<'MD'
# Review T0.1 - spec
Accepted with notes: decay ranges per voice to be taken from the service manual table (p. 14).
Cowbell: two square oscillators at 540 Hz and 800 Hz through a band-pass.
MD
cat > design/voices.md <<'MD'
# Voice notes
kick: sine 49 Hz, pitch envelope from 160 Hz over 6 ms, decay 50-800 ms
snare: two sines (180, 330 Hz) + high-passed noise, "snappy" controls the noise level
closed hat: six square oscillators, band-pass 10 kHz, decay 50 ms
MD
cat > README.md <<'MD'
# tr808-web
A browser TR-808 clone. Spec: SPEC.md; task queue: TASKS.md; build-loop state: .buildloop/.
Sample recordings in samples/ are from my own unit (serial 186532), not for redistribution.
MD
printf '# project\nsamples/*.wav.bak\n.buildloop/tmp/\n' > .gitignore
python3 - <<'PY'
import math, struct, wave
for name, f0, dur in [("kick", 49, 0.6), ("snare", 180, 0.3), ("cowbell", 540, 0.4), ("clap", 1200, 0.25)]:
    with wave.open(f"samples/{name}.wav", "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(22050)
        n = int(22050 * dur)
        w.writeframes(b"".join(struct.pack("<h", int(12000 * math.exp(-5 * i / n) * math.sin(2 * math.pi * f0 * i / 22050))) for i in range(n)))
PY
touch -d '2025-03-14 10:00' SPEC.md TASKS.md README.md .gitignore .buildloop/current-plan.md .buildloop/reviews/T0.1.md design/voices.md samples/*.wav
