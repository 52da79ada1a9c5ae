// The start-up of an offline copy (a single .html file made by static/offline.js; this
// text is inlined into it as its first module script). Not used by the site's own pages.
//
// Why it is written this way: a page opened from file:// may neither fetch() nor import
// modules from file:// URLs, so every file the page needs travels inside it, gzipped and
// base64-encoded in <script type="application/octet-stream" data-offline-file> elements.
// Modules are imported from blob: URLs (allowed from file:// pages); Pyodide gets its
// module constructor directly (createPyodideModule, pinned and tested with Pyodide
// 314.0.7), the lock file as text (lockFileContents), and the wasm and the standard library
// through fetch(), which is answered from the embedded bytes while Python starts. Nothing
// is requested from any network, ever: other requests are refused.
const html = document.documentElement;
// The file as it was opened, before anything changes the page: "Save to file" writes it
// again with the game as it is then (see saveCopy).
const PRISTINE = "<!doctype html>\n" + html.outerHTML;
const STATE_ID = "offline-copy";

performance.mark("offline-boot-start");

function embedded(name) {
  const el = document.querySelector(`script[data-offline-file="${name}"]`);
  if (!el) throw new Error(`this offline copy lacks ${name}; download it again`);
  return el.textContent;
}

function fromBase64(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text.trim());
  const bin = atob(text.trim());
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function file(name) {
  return gunzip(fromBase64(embedded(name)));
}

function blobUrl(bytes, type) {
  return URL.createObjectURL(new Blob([bytes], { type }));
}

// The site's own modules (frame.js, mapboard.js, the modules they import): relative
// imports are pointed at the blob: URL of the module they name.
async function importSiteModules() {
  const nodes = [...document.querySelectorAll("script[data-offline-module]")];
  const texts = new Map();
  for (const el of nodes) {
    texts.set(el.dataset.offlineModule, new TextDecoder().decode(await gunzip(fromBase64(el.textContent))));
  }
  const urls = new Map();
  const urlOf = (name, seen = new Set()) => {
    if (urls.has(name)) return urls.get(name);
    if (seen.has(name) || !texts.has(name)) throw new Error(`module ${name} is missing from this copy`);
    seen.add(name);
    const dir = name.includes("/") ? name.slice(0, name.lastIndexOf("/") + 1) : "";
    const text = texts.get(name).replace(/(from\s*|import\s*\(?\s*)"\.\/([^"]+)"/g,
      (_, head, rel) => `${head}"${urlOf(dir + rel, seen)}"`);
    const url = blobUrl(text, "text/javascript");
    urls.set(name, url);
    return url;
  };
  for (const el of nodes) {
    if (el.hasAttribute("data-offline-run")) await import(urlOf(el.dataset.offlineModule));
  }
  return import(urlOf("static/frame.js"));  // the instance already running: its exports
}

// "Save to file": this very file again, with the game as it is now.
function saveCopy(frame, stateJson, filename) {
  const open = `<script type="application/json" id="${STATE_ID}">`;
  const at = PRISTINE.indexOf(open);
  // "</" + "script>": split, since this text itself sits in a script element of the copy
  const end = at < 0 ? -1 : PRISTINE.indexOf("</" + "script>", at);
  if (end < 0) throw new Error("this copy cannot find its own game data");
  // "<" never appears inside the JSON (escaped), so the element cannot be closed early
  const state = String(stateJson).replace(/</g, "\\u003c");
  const blob = new Blob([PRISTINE.slice(0, at + open.length), state, PRISTINE.slice(end)], { type: "text/html" });
  return frame.saveBlob(blob, filename);
}

// Links the page's Python draws while it runs (the rules of the draws under "Check the
// draws", a duel's page) are relative to the site ("../../rules/draws/"): from a file they
// led nowhere (issue 42). A rules page the copy carries (offline.js carryRules) is opened
// within the file, with no network; any other link goes to the site the copy was made from.
// At the click, so links drawn at any time are met; links within the page ("#", "?") and
// whole addresses are left as they are.
function siteLinks() {
  document.addEventListener("click", (ev) => {
    const a = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    const href = a ? a.getAttribute("href") : "";
    if (!href || /^(#|\?|[a-z][a-z0-9+.-]*:)/i.test(href)) return;
    const url = new URL(href, html.dataset.siteUrl || location.href);
    const page = url.pathname.match(/\/rules\/([a-z0-9_-]+)\/?$/i);
    const carried = page && [...document.querySelectorAll("[data-offline-rules]")]
      .find((el) => el.dataset.offlineRules === page[1]);
    if (carried) {
      ev.preventDefault();
      location.hash = "#" + carried.id;
      return;
    }
    a.setAttribute("href", url.href);  // followed as the click goes on: the site's page
  }, true);
}

async function boot() {
  siteLinks();
  const frame = await importSiteModules();  // frame.js first: the engine status and its failure banner
  globalThis.conquestOfflineCopy = async (stateJson, filename) => saveCopy(frame, stateJson, filename);

  const [mjs, asmMjs, wasm, stdlib, lock, app] = await Promise.all(
    ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "app.zip"].map(file),
  );
  const served = {
    "pyodide.asm.wasm": [wasm, "application/wasm"],
    "python_stdlib.zip": [stdlib, "application/zip"],
  };
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = String((input && input.url) || input);
    for (const [name, [bytes, type]] of Object.entries(served)) {
      if (url.endsWith("/" + name)) return new Response(bytes, { headers: { "Content-Type": type } });
    }
    if (url.startsWith("blob:") || url.startsWith("data:")) return realFetch(input, init);
    throw new TypeError(`an offline copy makes no network requests (${url})`);
  };
  let py;
  try {
    const { loadPyodide } = await import(blobUrl(mjs, "text/javascript"));
    const { default: createPyodideModule } = await import(blobUrl(asmMjs, "text/javascript"));
    performance.mark("python-load-start");
    py = await loadPyodide({
      indexURL: new URL("./", location.href).href,  // never fetched: the wrapper answers
      createPyodideModule,
      lockFileContents: new TextDecoder().decode(lock),
    });
    performance.mark("python-load-end");
  } finally {
    globalThis.fetch = realFetch;
  }
  py.unpackArchive(app, "zip", { extractDir: "/home/pyodide/conquest-app" });
  py.runPython("import sys\nsys.path.insert(0, '/home/pyodide/conquest-app')\nimport offline\noffline.boot_copy()");
}

boot().catch((err) => {
  console.error(err);
  const message = String((err && err.message) || err);
  if (globalThis.conquestEngineFailed) globalThis.conquestEngineFailed(message);
  else html.dataset.engine = "failed";
});
