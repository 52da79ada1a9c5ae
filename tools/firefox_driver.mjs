// A small driver of Debian's Firefox for Python (tools/engines.py): one Firefox for the
// whole session, driven by puppeteer-core over WebDriver BiDi, answering JSON lines.
//
// Why a driver and not a Node script per scenario: Firefox starts once per test session
// (one browser per engine, as the suite's time budget asks) and the scenarios are written
// once, in Python, for every engine (tests/cross/). Nothing is downloaded: puppeteer-core
// is given the system Firefox.
//
// Protocol: stdin lines {"id", "op", ...}; stdout lines {"id", "ok": value} or
// {"id", "error": text}. Pages and contexts are named by the ids this driver hands out.
// Page events (console errors, page errors, dialogs) are kept per page and returned by
// the "events" op, so the Python side asserts on them as the Chromium tests do.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const executablePath = process.argv[2] || "/usr/bin/firefox-esr";
// where the pages' downloads land (the offline copy test opens them from there)
const downloads = process.argv[3] || "";
const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  protocolTimeout: 600_000,
  extraPrefsFirefox: {
    // keep a machine whose only network is 127.0.0.1 from calling out
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "browser.safebrowsing.malware.enabled": false,
    "browser.safebrowsing.phishing.enabled": false,
    "app.update.enabled": false,
    "datareporting.policy.dataSubmissionEnabled": false,
    "toolkit.telemetry.enabled": false,
    // service workers on http://127.0.0.1 (a secure context) in automation
    "dom.serviceWorkers.enabled": true,
    "dom.serviceWorkers.testing.enabled": true,
    // downloads go to a folder of the caller's, without asking
    ...(downloads ? {
      "browser.download.folderList": 2,
      "browser.download.dir": downloads,
      "browser.download.useDownloadDir": true,
      "browser.download.always_ask_before_handling_new_types": false,
      "browser.helperApps.neverAsk.saveToDisk": "text/html,application/json,application/octet-stream",
      "browser.download.manager.showWhenStarting": false,
    } : {}),
  },
});

const contexts = new Map();
const pages = new Map();
let next = 1;

function track(page) {
  const id = `p${next++}`;
  const rec = { page, console: [], errors: [], dialogs: [], answers: [], requests: [] };
  page.on("request", (r) => rec.requests.push(r.url()));
  page.on("console", (m) => { if (m.type() === "error") rec.console.push(m.text()); });
  page.on("pageerror", (e) => rec.errors.push(String(e && e.message || e)));
  page.on("dialog", async (d) => {
    if (rec.answers.length) {
      const a = rec.answers.shift();
      await d.accept(typeof a === "string" ? a : undefined);
    } else {
      rec.dialogs.push(`${d.type()}: ${d.message()}`);
      await d.dismiss();
    }
  });
  pages.set(id, rec);
  return id;
}

// a function given as source text (the Python side writes the same JS for every engine)
const fn = (src) => new Function(`return (${src});`)();

const ops = {
  async newContext() {
    const ctx = await browser.createBrowserContext();
    const id = `c${next++}`;
    contexts.set(id, ctx);
    return id;
  },
  async closeContext({ context }) {
    await contexts.get(context).close();
    contexts.delete(context);
    for (const [id, rec] of pages) if (rec.context === context) pages.delete(id);
    return null;
  },
  async newPage({ context, width = 1280, height = 900 }) {
    const page = await contexts.get(context).newPage();
    await page.setViewport({ width, height });
    const id = track(page);
    pages.get(id).context = context;
    return id;
  },
  async goto({ page, url }) {
    await pages.get(page).page.goto(url, { waitUntil: "load", timeout: 120_000 }).catch((e) => {
      // a fragment-only change or a navigation the page made itself is not an error here
      if (!/NS_BINDING_ABORTED|navigation/i.test(String(e))) throw e;
    });
    return null;
  },
  async reload({ page }) {
    await pages.get(page).page.reload({ waitUntil: "load", timeout: 120_000 });
    return null;
  },
  async evaluate({ page, fn: src, args = [] }) {
    return await pages.get(page).page.evaluate(fn(src), ...args);
  },
  async waitFor({ page, fn: src, args = [], timeout = 60_000 }) {
    await pages.get(page).page.waitForFunction(fn(src), { timeout, polling: 200 }, ...args);
    return null;
  },
  // A locator, as Playwright clicks: it finds the element again if the page replaced it
  // (a re-render between finding and clicking) and waits until it is visible, enabled and
  // still. Selectors may use puppeteer's ::-p-text(...) (Page.click_button).
  async click({ page, selector }) {
    await pages.get(page).page.locator(selector).setTimeout(30_000).click();
    return null;
  },
  async clickAt({ page, x, y }) {
    await pages.get(page).page.mouse.click(x, y);
    return null;
  },
  async type({ page, selector, text }) {
    const p = pages.get(page).page;
    await p.click(selector, { count: 3 });
    await p.type(selector, text);
    return null;
  },
  async press({ page, key }) {
    await pages.get(page).page.keyboard.press(key);
    return null;
  },
  async screenshot({ page, path }) {
    await pages.get(page).page.screenshot({ path, fullPage: false });
    return null;
  },
  async setViewport({ page, width, height }) {
    await pages.get(page).page.setViewport({ width, height });
    return null;
  },
  async answer({ page, answers }) {
    pages.get(page).answers.push(...answers);
    return null;
  },
  async events({ page }) {
    const { console: c, errors, dialogs, requests } = pages.get(page);
    return { console: c, errors, dialogs, requests };
  },
  async version() {
    return await browser.version();
  },
};

const rl = createInterface({ input: process.stdin });
rl.on("line", async (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  try {
    const value = await ops[msg.op](msg);
    process.stdout.write(JSON.stringify({ id: msg.id, ok: value === undefined ? null : value }) + "\n");
  } catch (e) {
    process.stdout.write(JSON.stringify({ id: msg.id, error: String(e && e.stack || e) }) + "\n");
  }
});
rl.on("close", async () => {
  await browser.close().catch(() => {});
  process.exit(0);
});
