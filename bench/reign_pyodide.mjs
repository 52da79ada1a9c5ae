// Time per bot decision of To Reign Supreme on Pyodide (the interpreter the page runs),
// in Node: the same WebAssembly build as in the browser, without the page's rendering.
// Plays seeded self-play games per level with bench/reign.py's `play` and prints mean,
// 95th percentile and max per kind of decision (turn actions, secret battle choices).
// Not a test: it asserts nothing.
// Usage: node bench/reign_pyodide.mjs [games per level, default 4]
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const games = Number(process.argv[2] || 4);
const py = await loadPyodide();
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.globals.set("GAMES", games);
py.runPython(`
import sys
sys.path[:0] = ["/repo", "/repo/bench"]
import reign as bench
from conquest.games.reign.engine import ReignGame
game = ReignGame()
print(f"To Reign Supreme on Pyodide (Python {sys.version.split()[0]}): time per bot decision,"
      f" {GAMES} self-play games per level, easy setup")
for level in ("Random", "Heuristic", "Monte Carlo"):
    played = [bench.play(game, "easy", (level, level), 500 + k) for k in range(GAMES)]
    bench.decision_times(played, level)
`);
