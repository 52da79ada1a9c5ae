// Conquest's service worker: caches the whole site on the first visit so every page loads
// and boots offline afterwards. VERSION is a hash of the build's content: a new build
// installs a new cache and deletes the old one.
const VERSION = __VERSION__;
const CACHE = "conquest-" + VERSION;
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    // "no-cache": revalidate with the server, so files the page just loaded cost a 304, and
    // nothing stale from the HTTP cache slips into this version's cache
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(
      keys.filter((k) => k.startsWith("conquest-") && k !== CACHE).map((k) => caches.delete(k))
    )).then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    if (hit) return hit;
    try {
      const res = await fetch(req);
      if (res.ok && res.type === "basic") cache.put(req, res.clone());
      return res;
    } catch (err) {
      if (req.mode === "navigate") {
        const index = await cache.match(new URL("./", self.registration.scope).href);
        if (index) return index;
      }
      throw err;
    }
  })());
});
