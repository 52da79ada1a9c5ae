// "Download offline copy": one .html file that holds a game page, its styles, the Python
// runtime, our engine and page Python, the map and the current game, and plays from disk
// (file://) with no server and no network. Loaded by frame.js on the first click only.
//
// Why it is assembled here, at the click, and not by the build: the site already serves
// (and its service worker keeps) every file the copy needs, so the build writes no
// ~9 MB file per game, and the copy holds the game as it is at that moment. Each runtime
// file is gzipped (CompressionStream) and base64-encoded into its own element; the copy's
// start-up (static/offline-boot.js, inlined as its first module) decodes them.

import { saveBlob } from "./frame.js";

const RUNTIME = {
  "pyodide.mjs": "runtime/pyodide/pyodide.mjs",
  "pyodide.asm.mjs": "runtime/pyodide/pyodide.asm.mjs",
  "pyodide.asm.wasm": "runtime/pyodide/pyodide.asm.wasm",
  "python_stdlib.zip": "runtime/pyodide/python_stdlib.zip",
  "pyodide-lock.json": "runtime/pyodide/pyodide-lock.json",
  "app.zip": "py/app.zip",
};
const STATE_ID = "offline-copy";

async function get(url, kind) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} could not be read (${res.status})`);
  return kind === "text" ? res.text() : new Uint8Array(await res.arrayBuffer());
}

function toBase64(bytes) {
  if (bytes.toBase64) return bytes.toBase64();
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += btoa(String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)));
  }
  return out;
}

async function gzip64(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return toBase64(new Uint8Array(await new Response(stream).arrayBuffer()));
}

function element(tag, attrs, text) {
  return `<${tag}${Object.entries(attrs).map(([k, v]) => ` ${k}="${String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`).join("")}>${text}</${tag}>`;
}

// The runtime's parts do not change while the page is open: made once per page.
let runtimeParts = null;

async function runtime(root) {
  const parts = [];
  await Promise.all(Object.entries(RUNTIME).map(async ([name, path], i) => {
    const data = await gzip64(await get(new URL(root + path, location.href).href, "bytes"));
    parts[i] = element("script", { type: "application/octet-stream", "data-offline-file": name }, data);
  }));
  return parts;
}

// The page as the site serves it, made to stand alone: styles inlined, PyScript and the
// preloads gone, the site's modules embedded, links pointing at the site.
async function standalone(root) {
  const pageUrl = location.origin + location.pathname;
  const doc = new DOMParser().parseFromString(await get(pageUrl, "text"), "text/html");
  const at = (path) => new URL(path, pageUrl).href;
  await carryRules(doc, at);
  doc.querySelectorAll('link[rel="modulepreload"], link[rel="preload"], script[type="py"], mpy-config').forEach((n) => n.remove());
  doc.querySelectorAll('script[src*="runtime/pyscript/"], link[href*="runtime/pyscript/"]').forEach((n) => n.remove());
  // a home-screen icon means nothing to a file on disk (and the copy's policy loads no image from it)
  doc.querySelectorAll('link[rel="apple-touch-icon"]').forEach((n) => n.remove());
  for (const link of doc.querySelectorAll('link[rel="stylesheet"]')) {
    const style = doc.createElement("style");
    style.textContent = await get(at(link.getAttribute("href")), "text");
    link.replaceWith(style);
  }
  // images (the icon, the brand's logo) as data: URLs, so nothing is read from disk
  for (const [sel, attr] of [['link[rel="icon"]', "href"], ["img[src]", "src"]]) {
    for (const node of doc.querySelectorAll(sel)) {
      const src = node.getAttribute(attr);
      if (src.startsWith("data:")) continue;
      const type = src.endsWith(".svg") ? "image/svg+xml" : src.endsWith(".png") ? "image/png" : "application/octet-stream";
      node.setAttribute(attr, `data:${type};base64,` + toBase64(await get(at(src), "bytes")));
    }
  }
  // module scripts (frame.js, mapboard.js and what they import), in the page's order: the
  // copy runs those the page ran, in the same order, frame.js first
  const modules = new Map();
  const addModule = async (url) => {
    const name = new URL(url).pathname.slice(new URL(root, location.href).pathname.length);
    if (modules.has(name)) return name;
    const text = await get(url, "text");
    modules.set(name, text);
    for (const m of text.matchAll(/(?:from\s*|import\s*\(?\s*)"(\.\/[^"]+)"/g)) await addModule(new URL(m[1], url).href);
    return name;
  };
  // classic scripts with a src (static/joining.js: a join link's first frame, issue 36) are
  // for live play, which a copy on disk never does: left out, with the class they may have set
  for (const s of doc.querySelectorAll("script[src]:not([type])")) s.remove();
  doc.documentElement.classList.remove("is-joining");
  const run = [];
  for (const s of doc.querySelectorAll("script[type=module][src]")) {
    run.push(await addModule(at(s.getAttribute("src"))));
    s.remove();
  }
  for (const a of doc.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    // links within the page stay (the copy's own "?" is its set-up); the rest go to the site
    if (!href.startsWith("#") && !href.startsWith("?")) a.setAttribute("href", at(href));
  }
  doc.documentElement.setAttribute("data-offline-copy", "");
  doc.documentElement.setAttribute("data-site-url", pageUrl);
  doc.title = doc.title + " (offline copy)";
  const boot = await get(new URL(root + "static/offline-boot.js", location.href).href, "text");
  if (boot.includes("</script")) throw new Error("offline-boot.js must not contain '</script'");
  const head = doc.createElement("script");
  head.type = "module";
  head.id = "offline-boot";
  head.textContent = boot;
  doc.head.prepend(head);
  const meta = doc.createElement("meta");
  meta.name = "generator";
  meta.content = "Conquest offline copy";
  doc.head.prepend(meta);
  // the copy's own policy, before any script: its one inline script (by hash), modules from
  // blob: URLs, and no network at all (connect-src reaches only blob: and data:)
  doc.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]').forEach((n) => n.remove());
  const csp = doc.createElement("meta");
  csp.httpEquiv = "Content-Security-Policy";
  csp.content = await copyPolicy(boot);
  doc.head.prepend(csp);
  const charset = doc.querySelector("meta[charset]");
  if (charset) doc.head.prepend(charset);  // within the first bytes, as browsers expect
  const moduleParts = [];
  for (const [name, text] of modules) {
    const attrs = { type: "application/octet-stream", "data-offline-module": name };
    if (run.includes(name)) attrs["data-offline-run"] = "";
    moduleParts.push(element("script", attrs, await gzip64(new TextEncoder().encode(text))));
  }
  const text = "<!doctype html>\n" + doc.documentElement.outerHTML;
  const cut = text.lastIndexOf("</body>");
  return { before: text.slice(0, cut), after: text.slice(cut), moduleParts };
}

// The rules inside the copy (issue 21, item 9; issue 42): the game's rules page and the
// rules of the draws (the page's Python links to them under "Check the draws"), each page's
// article from this same site, placed after the game in a section of its own
// (data-offline-rules names the page). The crumbs' Rules link points at the game's; a link
// to a rules page the page's Python draws while it runs (relative to the site, so from a file
// it led nowhere) is sent to its section by offline-boot.js. So every Rules link works from
// disk. Links of the articles to other pages go to the site, as the page's own do.
async function carryRules(doc, at) {
  const link = doc.getElementById("shell-rules-link");
  if (!link) return;
  const own = at(link.getAttribute("href"));
  const pages = [[own, "offline-rules", "The rules"],
                 [new URL("../draws/", own).href, "offline-rules-draws", "How the draws are made"]];
  for (const [url, id, what] of pages) {
    const rules = new DOMParser().parseFromString(await get(url, "text"), "text/html");
    const article = rules.querySelector("article.rules");
    if (!article) throw new Error(`the rules page ${url} has no article`);
    article.querySelectorAll(".crumbs, script").forEach((n) => n.remove());
    const section = doc.createElement("section");
    section.id = id;
    section.className = "offline-rules";
    section.dataset.offlineRules = new URL(url).pathname.split("/").filter(Boolean).pop();
    section.setAttribute("aria-label", `${what}, carried in this copy`);
    const note = doc.createElement("p");
    note.className = "muted";
    note.textContent = `${what}, carried in this offline copy (as the site showed them when it was made).`;
    section.append(note, doc.importNode(article, true));
    (doc.querySelector("main") || doc.body).append(section);
  }
  link.setAttribute("href", "#offline-rules");
}

async function copyPolicy(boot) {
  let inline = "'unsafe-inline'";  // only where the browser cannot hash (no crypto.subtle)
  if (globalThis.crypto && crypto.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(boot)));
    inline = `'sha256-${toBase64(digest)}'`;
  }
  return [
    "default-src 'none'",
    `script-src ${inline} blob: 'wasm-unsafe-eval'`,
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "connect-src blob: data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

// Data files kept out of app.zip that this game needs (an old game's questions, see
// conquest.catalog.LAZY_DIR): [[name, site path], ...] from offline.py, each embedded as
// data-offline-lazy="name", which the copy's Python reads when the engine asks for it.
async function lazyParts(root, lazyJson) {
  const parts = [];
  for (const [name, path] of JSON.parse(lazyJson || "[]")) {
    if (!/^[\w.-]+$/.test(name) || !/^py\/[\w./-]+$/.test(path) || path.includes("..")) throw new Error(`bad data file ${name}`);
    const data = await gzip64(await get(new URL(root + path, location.href).href, "bytes"));
    parts.push(element("script", { type: "application/octet-stream", "data-offline-lazy": name }, data));
  }
  return parts;
}

/** Make the copy and hand it to the browser as a download; resolves to its size in bytes. */
export async function download(stateJson, filename, root, lazyJson) {
  if (!runtimeParts) runtimeParts = runtime(root).catch((err) => { runtimeParts = null; throw err; });
  const [page, runtimeFiles, lazy] = await Promise.all([standalone(root), runtimeParts, lazyParts(root, lazyJson)]);
  const parts = [...runtimeFiles, ...lazy];
  const state = String(stateJson).replace(/</g, "\\u003c");  // data, never markup
  const blob = new Blob([
    page.before,
    `<script type="application/json" id="${STATE_ID}">${state}</script>\n`,
    ...page.moduleParts.map((p) => p + "\n"),
    ...parts.map((p) => p + "\n"),
    page.after,
  ], { type: "text/html" });
  return saveBlob(blob, filename);
}
