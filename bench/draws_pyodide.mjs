// The draw protocol's costs (issue 26) on Pyodide, the page's interpreter, in Node: runs
// bench/draws.py there. Not a test: it asserts nothing.
// Usage: node bench/draws_pyodide.mjs
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const py = await loadPyodide();
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.runPython(`
import sys
sys.path[:0] = ["/repo", "/repo/bench"]
import draws
draws.main()
`);
