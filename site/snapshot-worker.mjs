// Makes the Python memory snapshot that conquest-boot.mjs restores on later page loads.
// Runs in a worker so the page's own interpreter is never a restricted snapshot-making one.
//
// Issue 38: the snapshot holds the whole app imported, not only the standard library, so a
// restored page imports nothing. The app is unpacked where PyScript unpacks it on a page
// (Pyodide's home folder, the cwd), so every module's file is the one the page will have.
// The page modules bind `document = js.document` when imported; a worker has no document,
// so a stand-in is set first: Pyodide records how a global was reached ("document") and,
// on restore, binds the page's own document there.
import { loadPyodide } from "./pyodide.mjs";
import { packSnapshot } from "./conquest-boot.mjs";

self.onmessage = async (ev) => {
  const { key, cache: cacheName, preload, app } = ev.data;
  try {
    const [py, zip] = await Promise.all([
      loadPyodide({ indexURL: new URL("./", import.meta.url).href, _makeSnapshot: true }),
      fetch(app).then((res) => {
        if (!res.ok) throw new Error("app " + res.status);
        return res.arrayBuffer();
      }),
    ]);
    self.document = {};
    py.runPython(preload);
    py.unpackArchive(zip, "zip", { extractDir: py.runPython("import os; os.getcwd()") });
    const failed = py.runPython(`
import importlib, os, sys
if "" not in sys.path:
    sys.path.insert(0, "")
failed = []
for root, dirs, files in os.walk("."):
    # walked in order, without bytecode caches and PyScript's package (its bytecode waits in
    # pyscript/__pycache__ for PyScript to write and import it on the page: not ours)
    dirs[:] = sorted(d for d in dirs if d != "__pycache__" and (root, d) != (".", "pyscript"))
    for name in sorted(files):
        if not name.endswith(".pyc"):
            continue
        module = os.path.join(root, name[:-4])[2:].replace("/", ".").removesuffix(".__init__")
        try:
            importlib.import_module(module)
        except Exception as exc:  # the page imports it itself then, and says what failed
            failed.append(f"{module}: {type(exc).__name__}")
# what a page's start reads (data files) is read now, once, into the snapshot: a module's
# snapshot_warm(), where it has one (site/games/campaign/__init__.py: the question bank)
for name, module in sorted(sys.modules.items()):
    warm = getattr(module, "snapshot_warm", None)
    if callable(warm) and getattr(module, "__file__", "").startswith(os.getcwd()):
        try:
            warm()
        except Exception as exc:
            failed.append(f"{name}.snapshot_warm: {type(exc).__name__}")
", ".join(failed)
`);
    if (failed) console.warn("Python snapshot without: " + failed);
    const bytes = packSnapshot(py.makeMemorySnapshot());
    const cache = await caches.open(cacheName);
    for (const req of await cache.keys()) if (req.url !== key) await cache.delete(req);
    await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    self.postMessage("saved");
  } catch (err) {
    self.postMessage("failed: " + (err && err.message));
  }
};
