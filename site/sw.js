// Conquest's service worker: caches the site on the first visit so every page loads and
// boots offline afterwards (what only works online, a guest's page and live play's transport,
// is kept the first time it is fetched instead: buildlib/runtime.py ONLINE_ONLY). VERSION is a hash of the build's content: a new build
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
      if (req.mode === "navigate") return notFound(url);
      throw err;
    }
  })());
});

// An address that is not part of the site, opened offline: a styled "not found" page from
// the cached style sheet (a <base> at the site's root makes its links work at any depth),
// with the address shown as text, never as markup (issue 9 item 14).
function notFound(url) {
  const esc = (t) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<base href="${esc(self.registration.scope)}"><title>Page not found · Conquest</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="static/style.css"></head>
<body><header class="site-header"><a class="brand" href="./"><img src="favicon.svg" alt="" width="28" height="28"> Conquest</a></header>
<main id="main"><h1>Page not found</h1>
<p>There is no page at this address in Conquest (you are offline, so only the site's own pages can open):</p>
<p><code class="url" id="not-found-url">${esc(url.pathname + url.search)}</code></p>
<p><a class="button" href="./">Go to the games</a></p></main></body></html>`;
  return new Response(html, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
