// A guest device at a live table (issue 37): no engine, no Python. The host's page draws
// this device's page (site/py/remote.py) and sends ui trees and patches; this script opens
// the room named by the join link (static/live.js, as the engine's pages did), takes only
// what the link's key signed, applies it (static/guest-dom.js, the allow-list builder) and
// sends back what the person does. Before the host answers, and for this device's own
// settings, it speaks for itself in #guest-local.
import { createView } from "./guest-dom.js";

const conf = JSON.parse(document.getElementById("guest-config").textContent);
const SETTINGS_KEY = "conquest:live-settings";
const NAME_KEY = "conquest:live-name";
const DEVICE_KEY = "conquest:live-device:";
// a guest that hears nothing from the host for this long joins the room again (a fresh
// announcement on the relays; some first attempts never pair), and after TRIES says why
const CONNECT_TIMEOUT_MS = 12000;
const TRIES = 4;
const RELAYS_MARK = "&relays=";
const RELAY = /^wss?:\/\/[A-Za-z0-9.-]{1,100}(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~/-]{0,60})?$/;
const KEY = /^[A-Za-z0-9_-]+$/;

// the words of site/py/live_links.py (a guest page has no Python to read them from)
const WORDS = {
  damaged: "That is a live table's join link, but it is incomplete or damaged (a link cut short when it was copied?). Ask the host to send it again: “Copy the join link” or “Share…” on their page.",
  noWebrtc: "This browser has no direct connections between devices (WebRTC): it plays through the relays, a little slower.",
  connecting: "Connecting to the host…",
  noRelays: "This device cannot reach any of the relays that introduce the devices to each other. Check its connection (Wi-Fi or mobile data), or the relays under Live settings.",
  noAnswer: "The relays answer, but the host's page does not: is it open on the host's device, with its live table on? A phone may have put it to sleep: ask the host to look at it. This page keeps trying by itself.",
  noPairing: "The host's page answered, but the two devices could not connect directly. Some networks (mobile carriers, offices, schools) block that: enter a TURN server under Live settings (each device needs it), or play by links instead (the host sends the host link after each turn).",
  away: "The host's page went away: waiting for it to come back…",
  tooLong: "That was too long to send to the host: nothing was sent.",
};

const status = document.getElementById("guest-status");
const say = (text, error = false) => {
  status.textContent = text;
  status.hidden = !text;
  status.className = error ? "error" : "muted";
  status.setAttribute("role", error ? "alert" : "status");
};

const store = {
  get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); return true; } catch (e) { return false; } },
};

/** The join link's parts (site/py/live_links.py parse_join_fragment, parse_seat_key, link_relays). */
function parseJoin(hash) {
  const [head, relaysRaw] = hash.split(RELAYS_MARK, 2);
  if (!head.startsWith("#live=") || head.length > 320) return null;
  const parts = head.slice(6).split(".");
  if (parts.length !== 3 && parts.length !== 4) return null;
  const [code, password, hostKey, seatKey] = parts;
  if (!/^[A-Z0-9]{4,16}$/.test(code) || password.length < 8 || password.length > 64 || hostKey.length !== 87) return null;
  if (!KEY.test(password) || !KEY.test(hostKey)) return null;
  if (seatKey !== undefined && (seatKey.length < 16 || seatKey.length > 64 || !KEY.test(seatKey))) return null;
  let relays = null;
  if (relaysRaw && relaysRaw.length <= 700 && KEY.test(relaysRaw)) {
    try {
      const text = atob(relaysRaw.replace(/-/g, "+").replace(/_/g, "/"));
      const named = text.split("\n");
      if (named.length >= 1 && named.length <= 4 && named.every((r) => r.length <= 120 && RELAY.test(r))) relays = named;
    } catch (e) { relays = null; }
  }
  return { code, password, hostKey, seatKey: seatKey || null, relays };
}

/** This device's live settings (site/py/live_links.py transport_settings), and the link's relays. */
function settings(linkRelays) {
  let raw = {};
  const text = store.get(SETTINGS_KEY);
  if (text && text.length < 20000) {
    try { raw = JSON.parse(text); } catch (e) { raw = {}; }
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) raw = {};
  const own = (Array.isArray(raw.relays) ? raw.relays.filter((r) => typeof r === "string") : []);
  const out = { appId: conf.appId, relays: (own.length ? own : conf.relays).slice(0, 8), maxChars: conf.maxChars };
  for (const sw of ["trickleIce", "record", "trace"]) if (raw[sw] === true) out[sw] = true;
  if (Array.isArray(raw.iceServers)) out.iceServers = raw.iceServers.filter((x) => x && typeof x === "object");
  if (raw.turn && typeof raw.turn === "object" && typeof raw.turn.urls === "string" && raw.turn.urls) {
    out.turn = {};
    for (const k of ["urls", "username", "credential"]) if (k in raw.turn) out.turn[k] = String(raw.turn[k]);
  }
  if (linkRelays) out.relays = linkRelays.slice();
  return { out, raw };
}

const token = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const join = parseJoin(location.hash);
const trace = (what) => { if (window.conquestLiveTrace) window.conquestLiveTrace.push([what, performance.timeOrigin + performance.now()]); };
let room = null;
let hostPeer = null;
let tries = 0;
let heard = false;
let pairingFailed = false;
let linkRelays = null;
let device = "";

const view = createView({ send: (obj) => sendHost(obj) });

function sendHost(obj) {
  if (!room || !hostPeer) return;
  const text = JSON.stringify(obj);
  if (text.length > conf.maxOut) {
    say(WORDS.tooLong, true);
    return;
  }
  trace("send");
  room.send(hostPeer, text);
}

function openPage() {
  // the chart is drawn as wide as this device's box; the name this device keeps; its seat key
  const box = document.getElementById("shell-chart");
  sendHost({
    t: "open", device, name: (store.get(NAME_KEY) || "").slice(0, conf.maxName), want: null,
    seat_link: !!join.seatKey, w: box ? Math.round(box.clientWidth || 0) || 640 : 640,
    // a touch screen's words say "Tap" (issue 41): the host draws this device's page
    touch: !!(window.matchMedia && matchMedia("(hover: none) and (pointer: coarse)").matches),
  });
}

function onMessage(peer, text, signed) {
  if (!signed) return;  // only the link's key speaks for the host (counted by live.js)
  let msg;
  try { msg = JSON.parse(text); } catch (e) { return; }
  if (!msg || typeof msg !== "object") return;
  if (msg.t === "host") {
    if (hostPeer !== peer) view.reset();  // a new page of the host (a reload): drawn whole again
    hostPeer = peer;
    openPage();
    return;
  }
  if (peer !== hostPeer) return;
  if (msg.t === "ui") {
    trace("received");
    const done = view.apply(msg);
    if (done.resync) sendHost({ t: "resync" });
    if (done.applied && !heard) {
      heard = true;
      document.documentElement.classList.remove("is-joining");
      window.scrollTo(0, 0);  // the seats to choose, in view (issue 36)
    }
    if (done.applied) {
      document.documentElement.dataset.guest = "ready";
      say("");
      // at the table the board has the screen: the settings come back if the host goes away
      document.getElementById("guest-settings").hidden = true;
    }
    if (msg.share === true) {  // this device's share of the next draws (issue 26), made here
      const b = crypto.getRandomValues(new Uint8Array(3));
      sendHost({ t: "share", share: Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("") });
    }
    if (typeof msg.name === "string" && msg.name.length <= conf.maxName) store.set(NAME_KEY, msg.name);
    trace("rendered");
    if (window.conquestLiveTrace) requestAnimationFrame(() => trace("painted"));
  } else if (msg.t === "refused" && typeof msg.message === "string") {
    say(msg.message.slice(0, 400), true);
  }
}

function onLeave(peer) {
  if (peer !== hostPeer) return;
  hostPeer = null;
  tries = 0;
  document.documentElement.dataset.guest = "away";
  document.getElementById("guest-settings").hidden = false;
  say(WORDS.away);
  setTimeout(check, CONNECT_TIMEOUT_MS);
}

async function connect() {
  const { out } = settings(linkRelays);
  out.hostPub = join.hostKey;
  say(typeof RTCPeerConnection === "function" ? WORDS.connecting : `${WORDS.connecting} ${WORDS.noWebrtc}`);
  try {
    // a browser without WebRTC plays through the relays alone (slower; live.js openRelay)
    const opener = typeof RTCPeerConnection === "function" ? window.conquestLive.open : window.conquestLive.openRelay;
    room = await opener(join.code, join.password, out, {
      message: onMessage,
      join: () => {},
      leave: onLeave,
      error: () => { pairingFailed = true; },
    });
  } catch (e) {
    say(`Live connection problem: ${String(e && e.message || e).slice(0, 300)}. ${WORDS.noPairing}`, true);
  }
}

async function check() {
  if (hostPeer) return;
  tries += 1;
  let up = null;
  try { up = room ? room.relaysUp() : null; } catch (e) { up = null; }
  if (tries >= TRIES) say(up === 0 ? WORDS.noRelays : pairingFailed ? WORDS.noPairing : WORDS.noAnswer, true);
  const old = room;
  room = null;
  if (old) { try { await old.leave(); } catch (e) { /* dropped anyway */ } }
  await connect();
  setTimeout(check, CONNECT_TIMEOUT_MS * (tries < TRIES ? 1 : 2.5));
}

// -- this device's own controls ----------------------------------------------------------------
function fillSettings() {
  const { raw } = settings(null);
  const form = document.getElementById("live-settings-form");
  form.elements.relays.value = (Array.isArray(raw.relays) && raw.relays.length ? raw.relays : conf.relays).join("\n");
  const turn = raw.turn && typeof raw.turn === "object" ? raw.turn : {};
  form.elements["turn-url"].value = typeof turn.urls === "string" ? turn.urls : "";
  form.elements["turn-user"].value = typeof turn.username === "string" ? turn.username : "";
  form.elements["turn-pass"].value = typeof turn.credential === "string" ? turn.credential : "";
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const note = document.getElementById("guest-settings-note");
    const relays = form.elements.relays.value.split(/\s+/).filter(Boolean);
    const bad = relays.find((r) => !(r.startsWith("wss://") || r.startsWith("ws://127.0.0.1:") || r.startsWith("ws://localhost:")));
    if (bad) {
      note.textContent = `A relay address starts with wss:// (${bad.slice(0, 40)} does not).`;
      return;
    }
    const { raw: now } = settings(null);
    now.relays = relays;
    const url = form.elements["turn-url"].value.trim();
    now.turn = url ? { urls: url, username: form.elements["turn-user"].value, credential: form.elements["turn-pass"].value } : null;
    note.textContent = store.set(SETTINGS_KEY, JSON.stringify(now))
      ? "Saved. They apply the next time this page joins (reload it to rejoin now)."
      : "This browser refused to store the settings (storage full or disabled).";
  });
}

function start() {
  fillSettings();
  if (!join) {
    say(WORDS.damaged, true);
    document.documentElement.classList.remove("is-joining");
    document.documentElement.dataset.guest = "no-link";
    return;
  }
  const { out } = settings(null);
  if (out.trace) window.conquestLiveTrace = [];
  const key = DEVICE_KEY + join.code;
  device = join.seatKey || store.get(key) || "";
  if (device.length < 16 || device.length > 64 || !KEY.test(device)) device = token();
  store.set(key, device);
  // the host's own relays, if its link names them: any this device does not know are shown
  // first and used only once the person says yes (issue 36)
  const known = new Set([...out.relays, ...conf.relays]);
  const unknown = (join.relays || []).filter((r) => !known.has(r));
  if (unknown.length) {
    const box = document.getElementById("guest-relays");
    const list = document.getElementById("guest-relays-list");
    for (const r of unknown) {
      const li = document.createElement("li");
      const code = document.createElement("code");
      code.textContent = r;
      li.append(code);
      list.append(li);
    }
    box.hidden = false;
    say("");
    const go = (yes) => {
      box.hidden = true;
      linkRelays = yes ? join.relays : null;
      connect();
      setTimeout(check, CONNECT_TIMEOUT_MS);
    };
    document.getElementById("live-relays-yes").addEventListener("click", () => go(true));
    document.getElementById("live-relays-no").addEventListener("click", () => go(false));
    return;
  }
  linkRelays = join.relays;
  connect();
  setTimeout(check, CONNECT_TIMEOUT_MS);
}

start();
