// The page frame's small JavaScript side: offline cache, banners, and the engine state
// shown before Python runs. Everything about the games is Python (site/py, conquest/).
const me = document.querySelector('script[src$="static/frame.js"]');
const root = (me && me.dataset.root) || "./";
const html = document.documentElement;

function setStatus(state, text) {
  html.dataset.engine = state;
  const el = document.querySelector("#engine-status .engine-text");
  if (el) el.textContent = text;
}

export function showBanner(kind, text) {
  const el = document.getElementById(kind === "error" ? "error-banner" : "notice-banner");
  if (!el) return;
  el.querySelector(".banner-text").textContent = String(text);  // text, never markup
  el.hidden = false;
}

// Hands a file to the person (the browser's download): the one way both the offline copy's
// "Download offline copy" (static/offline.js) and its "Save to file" (static/offline-boot.js)
// write their .html file. Returns its size in bytes.
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return blob.size;
}

// One authority per live table (issue 36): the tab that runs a table holds a lock named after
// its room for the page's life, so a second tab or window of the same table in this browser
// (site/py/live_browser.py) finds it taken and only shows the game, and the Metagame console
// (site/py/duel_desk.py) can tell whether a duel's table is open in some tab. `hold` answers
// true (held now, until the page goes), false (another tab holds it); both answer null where
// the browser has no Web Locks (every browser that runs the engine has them on a secure page,
// and a table needs a secure page anyway, for its signing key): nothing is checked there.
window.conquestTableLock = {
  hold(name) {
    const locks = navigator.locks;
    if (!locks || !locks.request) return Promise.resolve(null);
    return new Promise((answer) => {
      locks.request(String(name), { ifAvailable: true }, (lock) => {
        answer(lock !== null);
        return lock === null ? null : new Promise(() => {});  // never settles: held while the page lives
      }).catch(() => answer(null));
    });
  },
  async held(name) {
    const locks = navigator.locks;
    if (!locks || !locks.query) return null;
    try {
      const state = await locks.query();
      return (state.held || []).some((lock) => lock.name === String(name));
    } catch (err) {
      return null;
    }
  },
};

document.addEventListener("click", (ev) => {
  const btn = ev.target.closest && ev.target.closest(".banner-close");
  if (btn) btn.parentElement.hidden = true;
});

// "Share…" buttons (issue 36: the host's join link, on a phone): data-share is the URL and
// data-share-title the title, handed to the system's share sheet as data, never markup. Where
// the browser has no Web Share API, html lacks data-can-share and the CSS hides the buttons
// (static/live.css). Cancelling the sheet (AbortError) is not an error.
if (typeof navigator.share === "function") html.dataset.canShare = "";
document.addEventListener("click", (ev) => {
  const btn = ev.target.closest && ev.target.closest("button[data-share]");
  if (!btn || typeof navigator.share !== "function") return;
  navigator.share({ title: String(btn.dataset.shareTitle || document.title), url: String(btn.dataset.share) })
    .catch((err) => {
      if (err && err.name === "AbortError") return;
      showBanner("error", "Sharing failed (" + String(err && err.name || err) + "): copy the link instead.");
    });
});

// The engine is "starting" until the page's Python says "ready"; any uncaught error before
// that marks it "failed" with a message, so nobody waits for nothing.
function fail(message) {
  if (html.dataset.engine === "ready") return;
  setStatus("failed", "Engine failed");
  showBanner("error", "The game engine could not start: " + message + " Reload the page to try again.");
}
window.addEventListener("error", (ev) => {
  if (html.dataset.engine === "starting" && ev.message) fail(ev.message);
  else if (html.dataset.engine === "ready") checkAlive(ev.message);
});
// After the engine is ready, Python's own errors land in the banner through frame.on; an
// uncaught JavaScript error may mean Pyodide itself died (issue 23: Firefox's "too much
// recursion"), after which nothing the page does answers: say so, and how to go on.
let checking = false;
function checkAlive(message) {
  if (checking || location.protocol === "file:") return;
  checking = true;
  import(new URL(root + "runtime/pyodide/conquest-boot.mjs", location.href).href)
    .then((boot) => boot.engineAlive())
    .then((alive) => {
      checking = false;
      if (alive) return;
      setStatus("failed", "Engine stopped");
      showBanner("error", "The game engine stopped (" + String(message || "an internal error") + "). "
        + "Your saved games are kept in this browser: reload the page to go on.");
    })
    .catch(() => { checking = false; });
}
window.addEventListener("unhandledrejection", (ev) => {
  if (html.dataset.engine === "starting") fail(String(ev.reason && ev.reason.message || ev.reason));
});
// The page's Python bootstrap (written by build.py) calls this if the page module raised.
window.conquestEngineFailed = (message) => fail(String(message));
performance.mark("frame-start");

// Start booting Python now, in parallel with PyScript's own loading (see boot.mjs).
if (location.protocol !== "file:") {
  import(new URL(root + "runtime/pyodide/conquest-boot.mjs", location.href).href)
    .then((boot) => boot.preboot())
    .catch((err) => console.warn("early Python boot unavailable:", err && err.message));
}

// Offline: cache the whole site on the first visit (see sw.js). Registered once the engine
// is up, so the worker's downloads never compete with the page's own start; it revalidates
// what the page already fetched instead of downloading it again. A new build brings a new
// cache; the page tells the user once the new version is ready.
function registerWorker() {
  navigator.serviceWorker.register(root + "sw.js", { scope: root }).then((reg) => {
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && navigator.serviceWorker.controller) {
          showBanner("notice", "A new version of Conquest is ready: reload the page to use it.");
        }
      });
    });
  }).catch((err) => console.warn("offline cache unavailable:", err && err.message));
}
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  if (navigator.serviceWorker.controller) {
    registerWorker();  // already installed: just check for a new build
  } else {
    const started = new MutationObserver(() => {
      if (html.dataset.engine !== "starting") { started.disconnect(); registerWorker(); }
    });
    started.observe(html, { attributes: true, attributeFilter: ["data-engine"] });
  }
}
// "Download offline copy" (site/py/offline.py calls this): the assembler is loaded on the
// first click only. An offline copy sets its own ("Save to file", static/offline-boot.js).
const offlineCopy = html.hasAttribute("data-offline-copy");
if (!offlineCopy) {
  window.conquestOfflineCopy = async (stateJson, filename, lazyJson) =>
    (await import(new URL(root + "static/offline.js", location.href).href)).download(stateJson, filename, root, lazyJson);
}
if (location.protocol === "file:" && !offlineCopy) {
  setStatus("failed", "Engine unavailable");
  showBanner("error", "This page was opened from a file. Browsers do not run the game engine from file:// pages: open the site's web address instead (it works offline once visited), or use “Download offline copy” on a game page for a file that plays from disk.");
}
