// Runs one Python script inside Pyodide under Node, at build time (buildlib/bytecode.py).
// Why Pyodide and not the build's own Python: bytecode is tied to the interpreter's exact
// version (Pyodide 314.0.7 is CPython 3.14), so the interpreter that runs the pages is the one
// that compiles them; and what the pages import is learnt by importing it there.
//
// Usage: node buildlib/pyodide_run.mjs <pyodide dir> <work dir> <script.py>
// The work dir is mounted at /work; the script reads its job there and writes its results.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, workDir, script] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
// The page modules bind `document = js.document` when imported; Node has no document, so a
// stand-in object takes its place (the snapshot worker does the same, site/snapshot-worker.mjs).
globalThis.document = {};
const py = await loadPyodide({
  indexURL: resolve(pyodideDir) + "/",
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: resolve(workDir) }, "/work");
try {
  py.runPython(readFileSync(script, "utf8"), { filename: script });
} catch (err) {
  process.stderr.write(String(err && err.message || err) + "\n");
  process.exit(1);
}
