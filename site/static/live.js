// Live play's transport (issue 22): Trystero over Nostr relays, and the QR encoder.
// Why a file of its own: the page's Python (site/py/live_browser.py) needs a WebRTC room
// and a QR matrix; both libraries are pinned in package.json and served by the site from
// runtime/live/ (build.py copies them). They are imported only when a table opens, so a
// page that never plays live loads this small file only. Everything a peer sends is handed
// to Python as text, after a size check here, never as markup.
// where the pinned libraries are, asked only when a table opens: an offline copy runs this
// file from a blob: URL, against which no relative address resolves (no live play there)
const base = () => new URL("../runtime/live/", import.meta.url);

// The host's signature (issue 22: a guest tells the host's messages from another peer's).
// The host holds an ECDSA P-256 key pair; its public key travels in the join link's fragment.
// It signs, for each message, the receiving peer's id, a newline and the text, and sends
// "<signature, base64url>.<text>"; a guest verifies with the key from its link and over its
// own id, so a peer can neither forge the host's messages nor replay to one guest what the
// host sent another. Signing and verifying are asynchronous: each runs on a chain of
// promises per peer, so messages keep their order.
const ECDSA = { name: "ECDSA", namedCurve: "P-256" };
const SIGN = { name: "ECDSA", hash: "SHA-256" };
const b64u = (bytes) => {
  // in slices: a spread of a whole relay note's bytes would pass too many arguments
  const all = new Uint8Array(bytes);
  let text = "";
  for (let i = 0; i < all.length; i += 8192) text += String.fromCharCode.apply(null, all.subarray(i, i + 8192));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const unb64u = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const utf8 = new TextEncoder();
const SIG_CHARS = 86;  // a P-256 signature: 64 bytes

// Why late joiners could not connect (issue 36). The peer library keeps a pool of 20 offers
// made when the room opens, and an offer older than 57 s is re-made with an ICE restart
// before it is sent: it rolls the unanswered offer back first, then offers again, and waits
// for the ICE gathering to be complete. Two things went wrong:
// - In Chromium a rollback of a connection's first offer takes its data channel out of the
//   next offer: the re-made offer had no m= section at all, so no ICE gathering started, the
//   offer went after the library's 15 s gathering wait with nothing to connect to, and the
//   pairing failed. So any guest the host's page had to offer to (the peer with the smaller
//   id offers: half of them) could not join a table more than a minute old.
// - Right after the restarted offer is set, the gathering state still reads "complete" (from
//   the first gathering) until the new gathering starts, so the offer went without its new
//   candidates. Chromium guests got through anyway (they learn the host's address from its
//   checks); Firefox guests, whose addresses are hidden behind mDNS names, never did.
// The remedy, through the library's own `rtcPolyfill` option: a connection that ignores a
// rollback of its own unanswered first offer (the ICE restart then offers again over it,
// allowed in "have-local-offer", with the data channel), and whose restarted offer is set
// only once its new candidates are gathered (at most ICE_RESTART_MS). Nothing else here
// rolls back an offer (no media).
const ICE_RESTART_MS = 10000;
let keptOffer = null;
const keptOfferConnection = () => keptOffer ||= class KeptOfferConnection extends RTCPeerConnection {
  restartIce() {
    this.conquestRestarting = true;
    if (typeof super.restartIce === "function") super.restartIce();
  }

  async setLocalDescription(description) {
    if (description && description.type === "rollback" && this.signalingState === "have-local-offer"
        && !this.currentRemoteDescription) {
      return;
    }
    const restarted = this.conquestRestarting && description && description.type === "offer";
    this.conquestRestarting = false;
    if (!restarted) {
      return description === undefined ? super.setLocalDescription() : super.setLocalDescription(description);
    }
    let started = false;
    let done = null;
    const gathered = new Promise((resolve) => {
      done = resolve;
      setTimeout(resolve, ICE_RESTART_MS);
    });
    const watch = () => {
      if (this.iceGatheringState === "gathering") started = true;
      else if (this.iceGatheringState === "complete" && started) done();
    };
    this.addEventListener("icegatheringstatechange", watch);
    try {
      await super.setLocalDescription(description);
      await gathered;
    } finally {
      this.removeEventListener("icegatheringstatechange", watch);
    }
  }
};

// the lobby's room: named by the room code (issue 36)
/** The host's signature, the same both ways (open, openRelay): the keys from the settings
 *  (hostKey: the host's private JWK text; hostPub: a guest's link's public key), `seal` for
 *  the host's sends, `check` for a guest's receipts (only text signed by the link's key,
 *  for this device, is the host's; a signature that fails is counted in conquestLiveForged). */
async function roomKeys(settings) {
  const signKey = settings.hostKey
    ? await crypto.subtle.importKey("jwk", JSON.parse(settings.hostKey), ECDSA, false, ["sign"]) : null;
  const verifyKey = settings.hostPub
    ? await crypto.subtle.importKey("raw", unb64u(settings.hostPub), ECDSA, false, ["verify"]) : null;
  return {
    signKey,
    verifyKey,
    seal: async (peer, text) => b64u(await crypto.subtle.sign(SIGN, signKey, utf8.encode(peer + "\n" + text))) + "." + text,
    check: async (self, data) => {
      const dot = data.indexOf(".");
      if (dot !== SIG_CHARS) return { text: data, ok: false };
      const text = data.slice(dot + 1);
      let ok = false;
      try {
        ok = await crypto.subtle.verify(SIGN, verifyKey, unb64u(data.slice(0, dot)), utf8.encode(self + "\n" + text));
      } catch (e) { ok = false; }
      if (!ok) window.conquestLiveForged = (window.conquestLiveForged || 0) + 1;
      return { text, ok };
    },
  };
}

/** Tests (the `record` setting): what this device sent, and its room (a hostile guest's own
 *  sends): the room last opened (a guest's rejoin), or with `keep` the one already named (the
 *  host's WebRTC room, not its relay room beside it). */
function recorded(settings, api, keep = false) {
  if (!settings.record) return api;
  window.conquestLiveRoom = keep && window.conquestLiveRoom ? window.conquestLiveRoom : api;
  const send = api.send;
  api.send = (peer, text) => { (window.conquestLiveSent ||= []).push(text); send(peer, text); };
  return api;
}

const LOBBY_PREFIX = "lobby-";
// the relays-only way (openRelay, issue 37): a text is sent in parts this long (relays bound
// their notes' size), and each side posts a note every BEAT_MS (presence)
const RELAY_PART = 24000;
const BEAT_MS = 5000;
// The peer library's settings for a room (the table's or its lobby's), from the page's.
const roomConfig = (password, settings) => {
  const config = { appId: settings.appId, password, relayConfig: { urls: Array.from(settings.relays) } };
  if (settings.iceServers) config.rtcConfig = { iceServers: Array.from(settings.iceServers) };
  // the peer library's own hook for the connection class: see KeptOfferConnection
  if (typeof RTCPeerConnection === "function") config.rtcPolyfill = keptOfferConnection();
  // candidates inside the offer and answer: fewer notes through the relays, and a pairing
  // that does not depend on every trickled candidate arriving in time
  // (a setting; tried here: with trickling, a busy host page often failed to pair)
  if (settings.trickleIce !== true) config.trickleIce = false;
  if (settings.turn) config.turnConfig = [settings.turn];
  return config;
};
const lobbyConfig = (code, settings) => roomConfig("conquest-lobby-" + code, settings);

const live = {
  /** A new key pair for a host: {private: JWK text, public: raw key, base64url}. */
  async newHostKey() {
    const pair = await crypto.subtle.generateKey(ECDSA, true, ["sign", "verify"]);
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
    return { private: JSON.stringify(jwk), public: b64u(raw) };
  },

  /** Join the room `room`; `handlers` get (peer, text, signed) / (peer) / (message).
   *  settings.hostKey (the host: its private JWK text) or settings.hostPub (a guest: the
   *  host's public key from the link). */
  async open(room, password, settings, handlers) {
    const { joinRoom, selfId, getRelaySockets } = await import(new URL("nostr.mjs", base()).href);
    const config = roomConfig(password, settings);
    const limit = settings.maxChars;
    const r = joinRoom(config, room, {
      // with the peer it is about: the page shows a problem only while it lasts (issue 36)
      onJoinError: (e) => {
        console.warn("live: join error", e && e.error);
        handlers.error(String((e && e.error) || "the room could not be joined"), String((e && e.peerId) || ""));
      },
    });
    const act = r.makeAction("m");
    const keys = await roomKeys(settings);
    const chains = new Map();  // peer -> the promise its last message waits on (order kept)
    const inOrder = (peer, job) => {
      const next = (chains.get(peer) || Promise.resolve()).then(job).catch((e) => console.warn("live:", e));
      chains.set(peer, next);
    };
    const deliver = (peer, data, signed) => {
      // tests read what arrived, and from whom: a guest, the host's signed texts; the host, all
      if (settings.record && (signed || !keys.verifyKey)) {
        (window.conquestLiveReceived ||= []).push(data);
        if (signed) window.conquestLiveHostPeer = peer;
      }
      handlers.message(peer, data, signed);
    };
    act.onMessage = (data, ctx) => {
      const peer = ctx.peerId;
      // bounded before Python sees it: anything but text within the limit is dropped
      if (typeof data !== "string" || data.length > limit) {
        handlers.message(peer, "", false);
        return;
      }
      if (!keys.verifyKey) {
        deliver(peer, data, false);  // the host: guests do not sign (their seat is their device's)
        return;
      }
      inOrder(peer, async () => {  // a guest: only what the link's key signed is the host's
        const { text, ok } = await keys.check(selfId, data);
        deliver(peer, text, ok);
      });
    };
    r.onPeerJoin = (id) => { if (settings.record) console.info("live: peer joined", id); handlers.join(id); };
    r.onPeerLeave = (id) => handlers.leave(id);
    window.addEventListener("pagehide", () => r.leave());
    const api = {
      self: selfId,
      send: (peer, text) => {
        if (!keys.signKey) {
          act.send(text, peer ? { target: peer } : undefined).catch(() => {});
          return;
        }
        inOrder("to:" + peer, async () => {
          await act.send(await keys.seal(peer, text), { target: peer }).catch(() => {});
        });
      },
      leave: () => r.leave(),
      /** Resolves when every message given to send so far is signed and handed over. */
      flushed: () => Promise.all(Array.from(chains.values())),
      peers: () => Object.keys(r.getPeers()),
      /** How many of the relays this device is connected to now (what a failure names). */
      relaysUp: () => Object.values(getRelaySockets()).filter((ws) => ws && ws.readyState === 1).length,
    };
    return recorded(settings, api);
  },

  /** The same room through the relays alone (issue 37): for a device without WebRTC
   *  (WebKitGTK as Debian builds it, an iPhone in Lockdown Mode, some apps' own browsers).
   *  Same handlers and the same api as open(); peers' ids here start with "r:". What passes
   *  is encrypted with a key made from the room's password (AES-GCM: a relay sees only that
   *  notes pass, never the game) and, from the host, signed as over WebRTC. Slower than a
   *  direct connection and bounded by the relays' own limits: a fallback, not the way. */
  async openRelay(room, password, settings, handlers) {
    const { createEvent, subscribe } = await import(new URL("nostr.mjs", base()).href);
    const self = "r:" + b64u(crypto.getRandomValues(new Uint8Array(9)));
    const topic = b64u(await crypto.subtle.digest("SHA-256", utf8.encode(settings.appId + "\nrelay\n" + room + "\n" + password)));
    const aes = await crypto.subtle.importKey("raw", await crypto.subtle.digest("SHA-256", utf8.encode("conquest-relay\n" + password)),
      { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
    const keys = await roomKeys(settings);
    const signKey = keys.signKey;
    const limit = settings.maxChars;
    const sockets = [];
    const seen = new Set();
    const heard = new Map();  // peer -> when it was last heard (its notes come every BEAT_MS)
    const parts = new Map();  // "peer/id" -> {n, got: [], at}
    let closed = false;
    let nextId = 0;
    let sending = Promise.resolve();
    const publish = async (note) => {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, utf8.encode(JSON.stringify(note))));
      const event = await createEvent(topic, b64u(iv) + "." + b64u(sealed));
      for (const ws of sockets) if (ws.readyState === 1) ws.send(event);
    };
    const post = (to, kind, data) => {
      const id = (nextId += 1);
      const chunks = [];
      for (let i = 0; i < Math.max(1, data.length); i += RELAY_PART) chunks.push(data.slice(i, i + RELAY_PART));
      sending = sending.then(async () => {
        for (let p = 0; p < chunks.length; p++) await publish({ f: self, t: to, k: kind, i: id, p, n: chunks.length, d: chunks[p] });
      }).catch((e) => console.warn("live relay:", e));
      return sending;
    };
    const deliver = async (peer, data) => {
      if (typeof data !== "string" || data.length > limit) { handlers.message(peer, "", false); return; }
      if (!keys.verifyKey) { handlers.message(peer, data, false); return; }
      const { text, ok } = await keys.check(self, data);
      handlers.message(peer, text, ok);
    };
    let inbox = Promise.resolve();
    const onNote = async (content) => {
      const [ivText, body] = String(content).split(".", 2);
      if (!ivText || !body || body.length > RELAY_PART * 2 + 1000) return;
      let note;
      try {
        const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64u(ivText) }, aes, unb64u(body));
        note = JSON.parse(new TextDecoder().decode(plain));
      } catch (e) { return; }  // not this room's (another password): not a note for us
      if (!note || typeof note.f !== "string" || note.f === self || note.f.length > 40) return;
      if (note.t !== self && note.t !== "*") return;
      const peer = note.f;
      if (!heard.has(peer)) handlers.join(peer);
      heard.set(peer, Date.now());
      if (note.k === "bye") { heard.delete(peer); handlers.leave(peer); return; }
      if (note.k === "hi" && signKey) post(peer, "hi", "");  // the host answers each guest's beat
      if (note.k !== "m" || typeof note.d !== "string" || !(note.n >= 1 && note.n <= 400) || !(note.p >= 0 && note.p < note.n)) return;
      const key = peer + "/" + note.i;
      const have = parts.get(key) || { n: note.n, got: new Array(note.n), count: 0, at: Date.now() };
      if (have.got[note.p] === undefined) { have.got[note.p] = note.d; have.count += 1; }
      parts.set(key, have);
      if (have.count === have.n) {
        parts.delete(key);
        await deliver(peer, have.got.join(""));
      }
    };
    const connectRelay = (url) => {
      let ws;
      try { ws = new WebSocket(url); } catch (e) { return; }
      sockets.push(ws);
      ws.onopen = () => ws.send(subscribe("c" + b64u(crypto.getRandomValues(new Uint8Array(6))), topic));
      ws.onmessage = (ev) => {
        if (typeof ev.data !== "string" || ev.data.length > RELAY_PART * 3) return;
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        if (!Array.isArray(msg) || msg[0] !== "EVENT" || !msg[2] || typeof msg[2].id !== "string") return;
        if (seen.has(msg[2].id)) return;  // the same note through another relay
        seen.add(msg[2].id);
        if (seen.size > 5000) seen.clear();
        inbox = inbox.then(() => onNote(msg[2].content)).catch(() => {});
      };
      ws.onclose = () => {
        const at = sockets.indexOf(ws);
        if (at >= 0) sockets.splice(at, 1);
        if (!closed) setTimeout(() => connectRelay(url), 3000);
      };
    };
    for (const url of Array.from(settings.relays)) connectRelay(url);
    // presence: a guest posts a note every BEAT_MS and the host answers it (a host posts
    // nothing while no device joins this way); a peer not heard for 3.5 beats has left
    const beat = setInterval(() => {
      if (!signKey) post("*", "hi", "");
      const now = Date.now();
      for (const [peer, at] of heard) if (now - at > BEAT_MS * 3.5) { heard.delete(peer); handlers.leave(peer); }
      for (const [key, p] of parts) if (now - p.at > 60000) parts.delete(key);
    }, BEAT_MS);
    if (!signKey) setTimeout(() => post("*", "hi", ""), 300);
    const leave = () => {
      if (closed) return;
      post("*", "bye", "").finally(() => { closed = true; for (const ws of sockets) ws.close(); });
      clearInterval(beat);
    };
    window.addEventListener("pagehide", leave);
    const chains = new Map();
    const api = {
      self,
      send: (peer, text) => {
        if (!signKey) { post(peer, "m", text); return; }
        const job = (chains.get(peer) || Promise.resolve()).then(async () => {
          await post(peer, "m", await keys.seal(peer, text));
        }).catch((e) => console.warn("live relay:", e));
        chains.set(peer, job);
      },
      leave,
      flushed: () => Promise.all([...chains.values(), sending]),
      peers: () => [...heard.keys()],
      relaysUp: () => sockets.filter((ws) => ws.readyState === 1).length,
    };
    return recorded(settings, api, !!signKey);
  },

  /** The room code of a table whose signing key is `pub` (issue 36): 8 letters of the code
   *  alphabet from the SHA-256 of the raw key, so a code typed on the landing page can be
   *  checked against the key of the table that answers it (a peer posing as the host would
   *  need a key whose hash starts with the same 40 bits). */
  async codeForKey(pub, alphabet) {
    if (typeof alphabet !== "string" || alphabet.length !== 32) throw new Error("a 32-letter alphabet");
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", unb64u(pub)));
    let bits = 0n;
    for (const b of digest.slice(0, 5)) bits = (bits << 8n) | BigInt(b);
    let code = "";
    for (let i = 7; i >= 0; i--) code += alphabet[Number((bits >> BigInt(5 * i)) & 31n)];
    return code;
  },

  /** The host's lobby (issue 36): a second room named by the room code alone, where the
   *  host's page tells any device that asks the table's game and join fragment (`info`, a
   *  JSON text). Anyone who knows the code may ask (it is read aloud on a call); the
   *  answer is checked by the asking device against the code (codeForKey). */
  async lobby(code, settings, info) {
    const { joinRoom } = await import(new URL("nostr.mjs", base()).href);
    const config = lobbyConfig(code, settings);
    const r = joinRoom(config, LOBBY_PREFIX + code, { onJoinError: () => {} });
    const act = r.makeAction("j");
    r.onPeerJoin = (id) => { act.send(info, { target: id }).catch(() => {}); };
    window.addEventListener("pagehide", () => r.leave());
    return { leave: () => r.leave() };
  },

  /** A device with only the room code: ask the lobby for the table, take the first answer
   *  whose host key gives this code and whose fragment names it (anything else is dropped),
   *  or null after `waitMs`. Returns {game, fragment} as data. settings.codeAlphabet: the
   *  code's letters (site/py/live_links.py, the one place they are written). */
  async lookup(code, settings, waitMs) {
    const { joinRoom } = await import(new URL("nostr.mjs", base()).href);
    const r = joinRoom(lobbyConfig(code, settings), LOBBY_PREFIX + code, { onJoinError: () => {} });
    const act = r.makeAction("j");
    try {
      return await new Promise((resolve) => {
        setTimeout(() => resolve(null), waitMs);
        act.onMessage = async (data) => {
          if (typeof data !== "string" || data.length > 2000) return;
          let info = null;
          try { info = JSON.parse(data); } catch (e) { return; }
          if (!info || typeof info.game !== "string" || typeof info.fragment !== "string") return;
          const parts = info.fragment.split("&")[0].split(".");
          if (parts[0] !== "#live=" + code || parts.length < 3 || parts[2].length !== 87) return;
          try {
            if (await live.codeForKey(parts[2], settings.codeAlphabet) === code) resolve({ game: info.game, fragment: info.fragment });
          } catch (e) { /* not a key */ }
        };
      });
    } finally {
      r.leave();
    }
  },

  /** The QR code of `text` as rows of "0"/"1" (drawn by Python as SVG). */
  async qr(text) {
    const { default: qrcode } = await import(new URL("qrcode.mjs", base()).href);
    const q = qrcode(0, "M");
    q.addData(text);
    q.make();
    const n = q.getModuleCount();
    const rows = [];
    for (let r = 0; r < n; r++) {
      let row = "";
      for (let c = 0; c < n; c++) row += q.isDark(r, c) ? "1" : "0";
      rows.push(row);
    }
    return rows;
  },
};

window.conquestLive = live;
