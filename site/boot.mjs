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
// the app the pages unpack (their PyScript config's "files"): the snapshot imports all of it
const APP = new URL(__APP_ZIP__, import.meta.url).href;  // build.py: runtime.APP_ZIP
// Standard-library modules PyScript and the pages import anyway: imported before the
// snapshot is taken, so restored interpreters have them at no cost.
const PRELOAD = "import asyncio, json, zlib, base64, re, dataclasses, inspect, typing, pathlib, " +
  "importlib, pkgutil, secrets, random, abc, collections, functools, itertools, math, enum";

// The stored snapshot is "packed": the interpreter's memory without its all-zero 4 KiB blocks
// (a third of it), so a page reads 24 MB instead of 38 from Cache Storage (issue 38: reading
// it was the largest part of a warm start). Layout, little-endian u32s: magic, the full
// length, the number of kept blocks, their indexes; then the kept blocks, in order.
const PACKED = 0x50535143;  // "CQSP"
const BLOCK = 4096;

export function packSnapshot(bytes) {
  const blocks = Math.ceil(bytes.length / BLOCK);
  const kept = [];
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK;
    const end = Math.min(start + BLOCK, bytes.length);
    let zero = true;
    for (let i = start; i < end; i++) if (bytes[i] !== 0) { zero = false; break; }
    if (!zero) kept.push(b);
  }
  const head = new Uint32Array(3 + kept.length);
  head.set([PACKED, bytes.length, kept.length]);
  head.set(kept, 3);
  const out = new Uint8Array(head.byteLength + kept.length * BLOCK);
  out.set(new Uint8Array(head.buffer));
  kept.forEach((b, k) => out.set(bytes.subarray(b * BLOCK, Math.min((b + 1) * BLOCK, bytes.length)), head.byteLength + k * BLOCK));
  return out;
}

export function unpackSnapshot(buffer) {
  const words = new Uint32Array(buffer, 0, 3);
  if (words[0] !== PACKED) throw new Error("not a packed snapshot");
  const [, length, count] = words;
  const kept = new Uint32Array(buffer, 12, count);
  const data = new Uint8Array(buffer, 12 + count * 4);
  const out = new Uint8Array(length);
  for (let k = 0; k < count; k++) {
    const at = kept[k] * BLOCK;
    out.set(data.subarray(k * BLOCK, k * BLOCK + Math.min(BLOCK, length - at)), at);
  }
  return out;
}

// The stored snapshot's response (found at once), not yet its body: reading the body runs
// while Pyodide loads its JavaScript.
async function snapshotResponse() {
  if (!("caches" in globalThis)) return null;
  try {
    return (await (await caches.open(CACHE)).match(KEY)) || null;
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
      worker.postMessage({ key: KEY, cache: CACHE, preload: PRELOAD, app: APP });
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

// Restores a snapshot larger than the interpreter's first heap. Why: Pyodide sizes the heap
// for a snapshot with Emscripten's INITIAL_MEMORY, which this build never reads (its memory
// is declared in the wasm: pyodide/pyodide#6254), so a snapshot over the 30 MiB it starts
// with (the whole app imported and the question bank read, issue 38) failed to restore with
// "offset is out of bounds". The heap is grown first, by Emscripten's own resize function
// (it renews the views Pyodide copies the snapshot through), taken from the imports the wasm
// is instantiated with, in the file-system hook Pyodide calls between instantiating and
// restoring.
async function loadSnapshot(options, snapshot) {
  const real = { streaming: WebAssembly.instantiateStreaming, plain: WebAssembly.instantiate };
  let resize = null;
  let memory = null;
  const seen = (imports, result) => {
    if (imports && imports.env && typeof imports.env.emscripten_resize_heap === "function" && !resize) {
      resize = imports.env.emscripten_resize_heap;
      return result.then((r) => { memory = (r.instance || r).exports.memory; return r; });
    }
    return result;
  };
  WebAssembly.instantiateStreaming = function (source, imports) { return seen(imports, real.streaming.call(this, source, imports)); };
  WebAssembly.instantiate = function (source, imports) { return seen(imports, real.plain.call(this, source, imports)); };
  try {
    return await plainLoad({
      ...options,
      _loadSnapshot: snapshot,
      fsInit: async () => {
        const bytes = await snapshot;
        const dataLength = bytes.length - new Uint32Array(bytes.buffer, bytes.byteOffset, 2)[1];
        if (!resize || !memory) throw new Error("the interpreter's heap could not be sized for the snapshot");
        if (memory.buffer.byteLength < dataLength && !resize(dataLength)) throw new Error("no memory for the snapshot");
      },
    });
  } finally {
    WebAssembly.instantiateStreaming = real.streaming;
    WebAssembly.instantiate = real.plain;
  }
}

async function boot(options) {
  performance.mark("python-load-start");  // the benchmark reads these marks
  const stored = await snapshotResponse();
  if (stored) {
    try {
      const snapshot = stored.arrayBuffer().then((buffer) => {
        const bytes = unpackSnapshot(buffer);
        performance.mark("snapshot-read");
        return bytes;
      });
      const py = await loadSnapshot(options, snapshot);
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

// Called by frame.js as soon as it runs (an async module, issue 38), so Python boots while PyScript itself is
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
