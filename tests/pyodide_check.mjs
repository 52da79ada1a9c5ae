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
# issue 20, item 2: input nested far deeper than Pyodide's stack allows is refused before the
# parser recurses (a fatal "Maximum call stack size exceeded" before), and the engine lives on
import base64, zlib
from conquest.savecode import SaveCodeError, parse_fragment, parse_save_json
from conquest.games.campaign import PackError, load_pack
deep = '{"v":1,"game":"world","options":{},"log":' + "[" * 4700 + "]" * 4700 + "}"
z = zlib.compressobj(9, zlib.DEFLATED, -15)
link = "#h=c1." + base64.urlsafe_b64encode(z.compress(deep.encode()) + z.flush()).decode().rstrip("=")
hostile = {"link_chars": len(link)}
for name, work in (("nesting_link", lambda: parse_fragment(link)), ("nesting_file", lambda: parse_save_json(deep)),
                   ("deep_pack", lambda: load_pack('{"title":"x","questions":' + "[" * 100000 + "]" * 100000 + "}"))):
    try:
        work()
        hostile[name] = "accepted"
    except (SaveCodeError, PackError) as exc:
        hostile[name] = exc.code
hostile["after"] = decode_save(encode_save(m.save().to_json()))["log"] == list(m.log)
report["hostile"] = hostile
json.dumps(report)
`);
console.log(out);
