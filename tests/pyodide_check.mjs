// Runs the engines under Pyodide's Python 3.14 in Node (the same interpreter the pages
// use): imports every game and plays a short seeded random playout of each.
// Usage: node tests/pyodide_check.mjs <repo root>
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const root = process.argv[2];
const py = await loadPyodide();
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
const out = py.runPython(`
import sys, json
sys.path.insert(0, "/repo")
from conquest.core import games
from conquest.rng import Rng
from conquest.session import Match, replay
from conquest.savecode import encode_save, decode_save
report = {"python": sys.version.split()[0], "games": {}}
for gid, game in games().items():
    rng = Rng(5)
    m = Match(game, game.default_options(), rng=rng)
    m.resolve_chance()
    steps = 0
    while steps < 60 and game.outcome(m.state) is None:
        acts = game.legal_actions(m.state)
        m.play(acts[rng.below(len(acts))])
        steps += 1
    again = replay(decode_save(encode_save(m.save().to_json())))
    report["games"][gid] = {"steps": steps, "replay_equal": again.state == m.state}
json.dumps(report)
`);
console.log(out);
