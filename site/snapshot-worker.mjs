// Makes the Python memory snapshot that conquest-boot.mjs restores on later page loads.
// Runs in a worker so the page's own interpreter is never a restricted snapshot-making one.
import { loadPyodide } from "./pyodide.mjs";

self.onmessage = async (ev) => {
  const { key, cache: cacheName, preload } = ev.data;
  try {
    const py = await loadPyodide({ indexURL: new URL("./", import.meta.url).href, _makeSnapshot: true });
    py.runPython(preload);
    const bytes = py.makeMemorySnapshot();
    const cache = await caches.open(cacheName);
    for (const req of await cache.keys()) if (req.url !== key) await cache.delete(req);
    await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    self.postMessage("saved");
  } catch (err) {
    self.postMessage("failed: " + (err && err.message));
  }
};
