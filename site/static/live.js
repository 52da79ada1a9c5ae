// Live play's transport (issue 22): Trystero over Nostr relays, and the QR encoder.
// Why a file of its own: the page's Python (site/py/live_browser.py) needs a WebRTC room
// and a QR matrix; both libraries are pinned in package.json and served by the site from
// runtime/live/ (build.py copies them). They are imported only when a table opens, so a
// page that never plays live loads this small file only. Everything a peer sends is handed
// to Python as text, after a size check here, never as markup.
// where the pinned libraries are, asked only when a table opens: an offline copy runs this
// file from a blob: URL, against which no relative address resolves (no live play there)
const base = () => new URL("../runtime/live/", import.meta.url);

const live = {
  /** Join the room `room`; `handlers` get (peer, text) / (peer) / (message). */
  async open(room, password, settings, handlers) {
    const { joinRoom, selfId } = await import(new URL("nostr.mjs", base()).href);
    const config = {
      appId: settings.appId,
      password,
      relayConfig: { urls: Array.from(settings.relays) },
    };
    if (settings.iceServers) config.rtcConfig = { iceServers: Array.from(settings.iceServers) };
    // candidates inside the offer and answer: fewer notes through the relays, and a pairing
    // that does not depend on every trickled candidate arriving in time
    // (a setting; tried here: with trickling, a busy host page often failed to pair)
    if (settings.trickleIce !== true) config.trickleIce = false;
    if (settings.turn) config.turnConfig = [settings.turn];
    const limit = settings.maxChars;
    const r = joinRoom(config, room, {
      onJoinError: (e) => { console.warn("live: join error", e && e.error); handlers.error(String((e && e.error) || "the room could not be joined")); },
    });
    const act = r.makeAction("m");
    act.onMessage = (data, ctx) => {
      // bounded before Python sees it: anything but text within the limit is dropped
      if (typeof data !== "string" || data.length > limit) {
        handlers.message(ctx.peerId, "");
        return;
      }
      if (settings.record) (window.conquestLiveReceived ||= []).push(data);  // tests read what arrived
      handlers.message(ctx.peerId, data);
    };
    r.onPeerJoin = (id) => { if (settings.record) console.info("live: peer joined", id); handlers.join(id); };
    r.onPeerLeave = (id) => handlers.leave(id);
    window.addEventListener("pagehide", () => r.leave());
    return {
      self: selfId,
      send: (peer, text) => act.send(text, peer ? { target: peer } : undefined).catch(() => {}),
      leave: () => r.leave(),
      peers: () => Object.keys(r.getPeers()),
    };
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
