// Conquest's Pyodide loader, handed to PyScript as its interpreter module (build.py writes
// it next to pyodide.mjs, so PyScript's indexURL stays right).
//
// Why: booting Python is most of a page's start-up. After the first boot in a browser, this
// keeps a memory snapshot of the freshly initialised interpreter (Pyodide's experimental
// snapshot API) in Cache Storage, keyed by the site's build version, and later boots
// restore it instead of initialising Python again. Any failure falls back to a plain boot.
import { loadPyodide as plainLoad, version } from "./pyodide.mjs";

export { version };

const BUILD = __VERSION__;
const SNAPSHOT_DELAY_MS = 4000;
const CACHE = "python-snapshot";  // not "conquest-…": sw.js clears those on update
const KEY = new URL("snapshot-" + BUILD + ".bin", import.meta.url).href;
// Standard-library modules PyScript and the pages import anyway: imported before the
// snapshot is taken, so restored interpreters have them at no cost.
const PRELOAD = "import asyncio, json, zlib, base64, re, dataclasses, inspect, typing, pathlib, " +
  "importlib, pkgutil, secrets, random, abc, collections, functools, itertools, math, enum";

async function readSnapshot() {
  if (!("caches" in globalThis)) return null;
  try {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(KEY);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (_) {
    return null;
  }
}

async function dropSnapshot() {
  try { await (await caches.open(CACHE)).delete(KEY); } catch (_) { /* nothing to drop */ }
}

// Take the snapshot in a worker, after the page is ready: a snapshot-making interpreter
// is restricted (no DOM), so the page never runs on one, and its start-up is not slowed.
function snapshotLater() {
  const start = () => {
    try {
      const worker = new Worker(new URL("./conquest-snapshot-worker.mjs", import.meta.url), { type: "module" });
      worker.onmessage = (ev) => { worker.terminate(); globalThis.conquestSnapshot = ev.data; };
      worker.onerror = (ev) => { ev.preventDefault(); worker.terminate(); globalThis.conquestSnapshot = "failed"; };
      worker.postMessage({ key: KEY, cache: CACHE, preload: PRELOAD });
    } catch (err) {
      console.warn("Python snapshot not taken:", err && err.message);
    }
  };
  // a few seconds after the page is ready, when idle: the worker's one-off Python start
  // should not compete with what the visitor does first (e.g. the computer's first move)
  const idle = "requestIdleCallback" in globalThis ? (f) => requestIdleCallback(f, { timeout: 10000 }) : (f) => setTimeout(f, 0);
  const whenReady = () => {
    if (document.documentElement.dataset.engine === "ready") {
      setTimeout(() => idle(start), SNAPSHOT_DELAY_MS);
    } else {
      setTimeout(whenReady, 500);
    }
  };
  whenReady();
}

async function boot(options) {
  performance.mark("python-load-start");  // the benchmark reads these marks
  const snapshot = await readSnapshot();
  if (snapshot) {
    try {
      const py = await plainLoad({ ...options, _loadSnapshot: snapshot });
      globalThis.conquestBoot = "snapshot";
      performance.mark("python-load-end");
      return py;
    } catch (err) {
      console.warn("Python snapshot unusable, booting afresh:", err && err.message);
      await dropSnapshot();
    }
  }
  const py = await plainLoad(options);
  globalThis.conquestBoot = "plain";
  performance.mark("python-load-end");
  if ("caches" in globalThis && "Worker" in globalThis) snapshotLater();
  return py;
}

let booting = null;

// Whether the page's Python can still run. Why: a fatal error inside Pyodide (e.g. the
// engine's own JavaScript stack overflowing: Firefox's "too much recursion", issue 23)
// leaves every later call refused; frame.js asks this after an uncaught error so the page
// says the engine stopped instead of going quiet.
export async function engineAlive() {
  if (!booting) return true;
  try {
    const py = await booting;
    py.runPython("0");
    return true;
  } catch (_) {
    return false;
  }
}

// Called by frame.js as soon as the page starts, so Python boots while PyScript itself is
// still loading and reading its configuration; PyScript's call below then gets the same
// interpreter. PyScript passes only indexURL (this folder), stdout and stderr, so the early
// boot uses the same indexURL and the streams are attached when PyScript asks.
export function preboot() {
  if (!booting) booting = boot({ indexURL: new URL("./", import.meta.url).href });
  return booting;
}

// PyScript compiles its worker hooks with Function() on every page, workers or not: an eval
// the site's Content-Security-Policy forbids (build.CONTENT_SECURITY_POLICY, no
// 'unsafe-eval'). The pages use no PyScript workers, so those hooks are emptied here, before
// PyScript gets its interpreter and reads them; the main thread's hooks are untouched.
async function noWorkerHooks() {
  if (!globalThis.document) return;
  try {
    const { hooks } = await import(new URL("../pyscript/core.js", import.meta.url).href);
    for (const set of Object.values(hooks.worker)) set.clear();
  } catch (err) {
    console.warn("PyScript worker hooks left as they are:", err && err.message);
  }
}

export async function loadPyodide(options = {}) {
  const { stdout, stderr, ...rest } = options;
  if (!booting) booting = boot({ ...rest, indexURL: rest.indexURL || new URL("./", import.meta.url).href });
  const [py] = await Promise.all([booting, noWorkerHooks()]);
  if (stdout) py.setStdout({ batched: stdout });
  if (stderr) py.setStderr({ batched: stderr });
  return py;
}
