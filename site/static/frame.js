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

// "Back to the campaign" on a campaign duel's page (issue 39): when the campaign's console is
// open in another tab of this browser (it answers on the "conquest-consoles" channel, and has
// taken the result from storage), this tab goes back to it instead of opening a second console:
// the console's tab is asked to come forward and this one closes (a tab the console opened may);
// with no console answering, the link opens the console here, as before.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-console]");
  if (!a || typeof BroadcastChannel !== "function" || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
  ev.preventDefault();
  const slot = String(a.dataset.console);
  const ch = new BroadcastChannel("conquest-consoles");
  let answered = false;
  ch.onmessage = (m) => {
    let msg = null;
    try { msg = JSON.parse(String(m.data).slice(0, 2000)); } catch (err) { return; }
    if (!msg || msg.t !== "here" || msg.slot !== slot || answered) return;
    answered = true;
    ch.close();
    window.close();
    setTimeout(() => showBanner("notice", "The campaign's console is open in another tab and has the result: "
      + "switch to that tab (this one may be closed)."), 300);
  };
  ch.postMessage(JSON.stringify({ t: "back", slot }));
  setTimeout(() => { if (!answered) { ch.close(); window.location.href = a.href; } }, 400);
});

// The engine is "starting" until the page's Python says "ready"; any uncaught error before
// that marks it "failed" with a message, so nobody waits for nothing.
function fail(message) {
  if (html.dataset.engine === "ready") return;
  whenParsed(() => {
    setStatus("failed", "Engine failed");
    showBanner("error", "The game engine could not start: " + message + " Reload the page to try again.");
  });
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

// Start booting Python now, in parallel with PyScript's own loading (see boot.mjs). This
// module is async (issue 38): it runs as soon as it arrives, not after the whole page is
// parsed. (A classic script in the head would start it sooner still, but it held the first
// paint back behind Pyodide's JavaScript: 250-450 ms instead of 150-280.)
if (location.protocol !== "file:") {
  import(new URL(root + "runtime/pyodide/conquest-boot.mjs", location.href).href)
    .then((boot) => boot.preboot())
    .catch((err) => console.warn("early Python boot unavailable:", err && err.message));
}

// Offline: cache the site on the first visit (see sw.js). Registered once the engine
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
// frame.js runs as soon as it arrives (async, issue 38: Python starts booting while the page
// is still parsed), so what it shows waits for the page's elements
function whenParsed(fn) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn, { once: true });
  else fn();
}
if (location.protocol === "file:" && !offlineCopy) whenParsed(() => {
  setStatus("failed", "Engine unavailable");
  showBanner("error", "This page was opened from a file. Browsers do not run the game engine from file:// pages: open the site's web address instead (it works offline once visited), or use “Download offline copy” on a game page for a file that plays from disk.");
});

// -- Before the engine is ready (issue 38) ---------------------------------------------------
// A game page is usable from its first paint, while Python still boots: its rules link is a
// link, its set-up form can be filled in, and a Start pressed (or a saved-game file picked)
// then is kept and handed to the page's Python once the engine is ready, instead of the
// browser's default (a form submit would reload the page and lose what was typed).
const waiting = { submit: null, file: null };
const NOTICE = "The game engine is still starting: this goes ahead as soon as it is ready.";
function starting() { return html.dataset.engine === "starting"; }
document.addEventListener("submit", (ev) => {
  if (!starting()) return;
  ev.preventDefault();
  waiting.submit = ev.target;
  whenParsed(() => showBanner("notice", NOTICE));
}, true);
document.addEventListener("change", (ev) => {
  if (!starting() || !(ev.target instanceof HTMLInputElement) || ev.target.type !== "file") return;
  waiting.file = ev.target;
  whenParsed(() => showBanner("notice", NOTICE));
}, true);
// ...and it lists this browser's saved games from the storage index (the index's layout is
// conquest/store.py's: "conquest:slots", a JSON list of slot records), as text, a name
// opening the game (?slot=id) as the full lists do: on a game page, its game's, beside the
// list Python draws there (Shell.saved.render, into #shell-saved); on the landing page,
// every playable game's with its title (the page's site data), in #slot-list, which
// Python redraws whole (pages/home.py). Once the engine is ready the early list goes.
const SLOT_ID = /^[a-z0-9]{1,24}$/;
function siteData() {
  try {
    const node = document.getElementById("site-data");
    return node ? JSON.parse(node.textContent) : {};
  } catch (_) {
    return {};
  }
}
function earlySaved() {
  if (!starting() || location.search || location.hash) return;
  const gamePage = /\/play\/([a-z][a-z0-9_-]{0,39})\/$/.exec(location.pathname);
  const box = document.getElementById(gamePage ? "shell-saved" : "slot-list");
  if (!box) return;
  const titles = siteData().titles || {};
  let index = [];
  try {
    const raw = localStorage.getItem("conquest:slots");
    index = raw && raw.length < 2_000_000 ? JSON.parse(raw) : [];
  } catch (_) {
    return;  // storage disabled or a damaged index: the engine says which, once it runs
  }
  if (!Array.isArray(index)) return;
  const fits = (s) => s && typeof s.id === "string" && SLOT_ID.test(s.id)
    && (gamePage ? s.game === gamePage[1] : Object.prototype.hasOwnProperty.call(titles, s.game));
  const mine = index.filter(fits).sort((a, b) => (Number(b.updated) || 0) - (Number(a.updated) || 0)).slice(0, 50);
  if (!mine.length) return;
  const wrap = document.createElement("div");
  wrap.id = "shell-saved-early";
  wrap.className = "shell-saved";
  const title = document.createElement("h2");
  title.textContent = "Your saved games";
  const list = document.createElement("ul");
  for (const s of mine) {
    const item = document.createElement("li");
    const a = document.createElement("a");
    a.href = (gamePage ? "" : "play/" + s.game + "/") + "?slot=" + s.id;
    a.className = "button secondary";
    const name = String(s.name || "Untitled game").slice(0, 80);
    a.textContent = (s.result || s.mode === "view" ? "Open" : "Resume") + " “" + name + "”";
    const note = document.createElement("span");
    note.className = "muted";
    const steps = Math.max(0, Math.floor(Number(s.steps) || 0));
    note.textContent = (gamePage ? "" : " · " + String(titles[s.game])) + " · " + steps + (steps === 1 ? " step" : " steps");
    item.append(a, note);
    list.append(item);
  }
  // the landing page has its own "Your saved games" heading above #slot-list: one heading
  if (gamePage) wrap.append(title);
  wrap.append(list);
  if (gamePage) box.after(wrap);
  else box.replaceChildren(wrap);
}
whenParsed(earlySaved);
new MutationObserver(() => {
  if (starting()) return;
  const early = document.getElementById("shell-saved-early");
  if (early) early.remove();
  const notice = document.getElementById("notice-banner");
  if (notice && notice.querySelector(".banner-text").textContent === NOTICE) notice.hidden = true;
  if (html.dataset.engine !== "ready") return;
  const { submit, file } = waiting;
  waiting.submit = waiting.file = null;
  if (file) file.dispatchEvent(new Event("change", { bubbles: true }));
  if (submit && submit.isConnected) {
    if (typeof submit.requestSubmit === "function") submit.requestSubmit();
    else submit.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  }
}).observe(html, { attributes: true, attributeFilter: ["data-engine"] });
