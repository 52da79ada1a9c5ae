// Pan, zoom and territory info for the inline map SVGs (buildlib/mapsvg.py).
// Plain ES module, no dependencies and no requests: it works before Python has started and
// any page can reuse it:
//
//   import { attachMapView } from "../static/mapview.js";
//   const view = attachMapView(svg, { onSelect: (id, el) => ..., info: infoElement });
//   view.zoomIn(); view.zoomOut(); view.reset(); view.select("seattle"); view.destroy();
//
// Mouse wheel zooms at the pointer, dragging pans, two fingers pinch-zoom, and with the focus
// inside the map the keys + - 0 and the arrows zoom, reset and pan; Tab moves from territory
// to territory, Enter or Space selects. Only the map group moves (the legend stays put).
//
// With { roving: true } (the game boards, static/mapboard.js) the map is one Tab stop instead
// of one per territory: the arrow keys move to the nearest territory in that direction,
// Shift+arrows pan, a letter jumps to the next territory whose name starts with it (the
// current choices first), and the Tab stop rests on a choice of the step ("is-eligible").
// Focusing the <svg> itself (the page's script after a step) moves the focus to that stop.
// A drawn ring marks the focused territory above its neighbours' borders.
//
// With { minTarget: 44 } (the game boards) a tap with a finger or pen picks a territory only
// when it is drawn at least 44x44 CSS px and its name is shown (the labels are not hidden as
// too small): otherwise the tap zooms in on that territory until it is, and the next tap
// picks it (issue 21: on a phone no pick is ever a guess between 7-px shapes, and no unnamed
// tap spends anything). A mouse click picks at once, as before. A tap on a mark carrying
// data-t (a troop badge) is a tap on territory data-t, wherever the badge is drawn.

const MIN_SCALE = 1;
const MAX_SCALE = 14;
const DRAG_THRESHOLD = 4; // px before a press becomes a pan rather than a click

function viewportOf(svg) {
  let vp = svg.querySelector(":scope > g.viewport");
  if (vp) return vp;
  // an SVG from elsewhere: wrap everything but metadata and the legend
  vp = document.createElementNS("http://www.w3.org/2000/svg", "g");
  vp.setAttribute("class", "viewport");
  const keep = new Set(["title", "desc", "style", "defs"]);
  for (const child of Array.from(svg.childNodes)) {
    const tag = child.nodeName.toLowerCase();
    if (keep.has(tag) || (child.classList && child.classList.contains("legend"))) continue;
    vp.appendChild(child);
  }
  const legend = svg.querySelector(":scope > .legend");
  svg.insertBefore(vp, legend || null);
  return vp;
}

function territoryOf(target, svg) {
  const el = target && target.closest ? target.closest(".territory") : null;
  return el && svg.contains(el) ? el : null;
}

export function attachMapView(svg, options = {}) {
  const { onSelect = null, info = null, onHover = null, roving = false, minTarget = 0 } = options;
  const vp = viewportOf(svg);
  const vb = svg.viewBox.baseVal;
  const full = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
  let k = 1, tx = 0, ty = 0;
  let selected = null;
  const idPrefix = (el) => el.id.slice(0, el.id.length - ("t-" + el.dataset.id).length);

  // labels smaller than this on screen are hidden ("labels-small") until the map is zoomed in
  // (issue 21: a map label is never drawn under 9 px)
  const MIN_LABEL_PX = 9;
  const labels = svg.querySelector("g.labels[font-size]");
  // the same for the page's marks (troop numbers...) whose font size the <svg> gives in
  // data-mark-font: "marks-small" (a page's stylesheet decides what to hide)
  const markFont = parseFloat(svg.dataset.markFont || "0");
  // a map may also carry larger labels of the names that do not overlap at that size
  // ("labels-main", shown while the full set is too small to read, issue 21 item 8)
  // (or tiers of them in decreasing sizes, each "is-small" while drawn under 9 px: World)
  const mainTiers = [...svg.querySelectorAll("g.labels-main[font-size]")];
  const mainLabels = mainTiers[0] || null;
  function labelSize() {
    const unit = (svg.clientWidth || full.w) / full.w;
    if (markFont) svg.classList.toggle("marks-small", markFont * k * unit < MIN_LABEL_PX);
    if (!labels) return;
    const px = parseFloat(labels.getAttribute("font-size")) * k * unit;
    const mainPx = mainLabels ? parseFloat(mainLabels.getAttribute("font-size")) * k * unit : 0;
    // the size of the names on screen now: the full set's, or the larger main set's
    svg.dataset.labelPx = (px < MIN_LABEL_PX && mainPx >= MIN_LABEL_PX ? mainPx : px).toFixed(1);
    svg.classList.toggle("labels-small", px < MIN_LABEL_PX);
    if (mainLabels) svg.classList.toggle("labels-main-small", mainPx < MIN_LABEL_PX);
    for (const g of mainTiers) {
      g.classList.toggle("is-small", parseFloat(g.getAttribute("font-size")) * k * unit < MIN_LABEL_PX);
    }
  }

  function apply() {
    vp.setAttribute("transform", `translate(${tx.toFixed(2)} ${ty.toFixed(2)}) scale(${k.toFixed(4)})`);
    svg.dataset.zoom = k.toFixed(2);
    labelSize();
  }
  if ((labels || markFont) && window.ResizeObserver) new ResizeObserver(labelSize).observe(svg);

  function clamp() {
    k = Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));
    // keep the map covering the view: translate within [size*(1-k), 0] (+ origin offset)
    const minX = full.x + full.w * (1 - k) - full.x * k, maxX = full.x - full.x * k;
    const minY = full.y + full.h * (1 - k) - full.y * k, maxY = full.y - full.y * k;
    tx = Math.min(maxX, Math.max(minX, tx));
    ty = Math.min(maxY, Math.max(minY, ty));
  }

  function toSvg(clientX, clientY) {
    const m = svg.getScreenCTM();
    if (!m) return { x: full.x + full.w / 2, y: full.y + full.h / 2 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  function zoomAt(factor, px, py) {
    const k2 = Math.min(MAX_SCALE, Math.max(MIN_SCALE, k * factor));
    const f = k2 / k;
    tx = px - (px - tx) * f;
    ty = py - (py - ty) * f;
    k = k2;
    clamp();
    apply();
  }

  const centre = () => ({ x: full.x + full.w / 2, y: full.y + full.h / 2 });
  function zoomIn() { const c = centre(); zoomAt(1.5, c.x, c.y); }
  function zoomOut() { const c = centre(); zoomAt(1 / 1.5, c.x, c.y); }
  function reset() { k = 1; tx = 0; ty = 0; apply(); }
  function panBy(dx, dy) { tx += dx; ty += dy; clamp(); apply(); }

  // bring a territory into view when it gets keyboard focus while zoomed in
  function reveal(el) {
    if (k === 1 || !el.getBBox) return;
    const b = el.getBBox();
    const cx = (b.x + b.width / 2) * k + tx, cy = (b.y + b.height / 2) * k + ty;
    const mx = full.w * 0.12, my = full.h * 0.12;
    if (cx < full.x + mx || cx > full.x + full.w - mx || cy < full.y + my || cy > full.y + full.h - my) {
      tx += full.x + full.w / 2 - cx;
      ty += full.y + full.h / 2 - cy;
      clamp();
      apply();
    }
  }

  // ---- info box and neighbour highlight
  let highlighted = [];
  function show(el) {
    for (const n of highlighted) n.classList.remove("is-neighbour");
    highlighted = [];
    for (const t of svg.querySelectorAll(".territory.is-hover")) t.classList.remove("is-hover");
    const target = el || selected;
    if (!target) {
      if (info) info.textContent = info.dataset.empty || "";
      if (onHover) onHover(null, null);
      return;
    }
    if (el) el.classList.add("is-hover");
    const prefix = idPrefix(target);
    const ids = (target.dataset.neighbours || "").split(" ").filter(Boolean);
    const names = [];
    for (const id of ids) {
      const n = svg.querySelector(`#${CSS.escape(prefix + "t-" + id)}`);
      if (n) {
        n.classList.add("is-neighbour");
        highlighted.push(n);
        names.push(n.dataset.name || id);
      } else {
        names.push(id);
      }
    }
    if (info) {
      info.replaceChildren();
      const strong = document.createElement("strong");
      strong.textContent = target.dataset.name || target.dataset.id;
      info.append(strong);
      const group = svg.querySelector(`.legend [data-group="${CSS.escape(target.dataset.group || "")}"]`);
      const groupName = group ? group.dataset.name : target.dataset.group;
      if (groupName) info.append(` (${groupName})`);
      info.append(document.createElement("br"));
      info.append(`Borders ${names.length}: ${names.join(", ")}`);
    }
    if (onHover) onHover(target.dataset.id, target);
  }

  function select(elOrId) {
    const el = typeof elOrId === "string"
      ? svg.querySelector(`.territory[data-id="${CSS.escape(elOrId)}"]`)
      : elOrId;
    if (selected) {
      selected.classList.remove("is-selected");
      selected.removeAttribute("aria-pressed");
    }
    selected = el || null;
    if (selected) {
      selected.classList.add("is-selected");
      selected.setAttribute("aria-pressed", "true");
    }
    show(selected);
    if (onSelect) onSelect(selected ? selected.dataset.id : null, selected);
  }

  // ---- pointer: drag to pan, pinch to zoom, click to select
  const pointers = new Map();
  let dragged = false, start = null, pinch = null;

  let pointerAt = -1e9;  // when a pointer last pressed or lifted: the focus it moves is not a key's
  const byPointer = () => performance.now() - pointerAt < 1000;

  function onPointerDown(ev) {
    pointerAt = performance.now();
    if (ev.pointerType === "mouse" && ev.button !== 0) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 1) {
      dragged = false;
      start = { x: ev.clientX, y: ev.clientY, tx, ty };
    } else if (pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), k };
      dragged = true;
    }
  }

  function onPointerMove(ev) {
    if (!pointers.has(ev.pointerId)) {
      if (ev.pointerType === "mouse") show(territoryOf(ev.target, svg));
      return;
    }
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size >= 2 && pinch) {
      const [a, b] = Array.from(pointers.values());
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const mid = toSvg((a.x + b.x) / 2, (a.y + b.y) / 2);
      if (pinch.d > 0) zoomAt((pinch.k * d / pinch.d) / k, mid.x, mid.y);
      ev.preventDefault();
      return;
    }
    if (!start) return;
    const dxPx = ev.clientX - start.x, dyPx = ev.clientY - start.y;
    if (!dragged && Math.hypot(dxPx, dyPx) < DRAG_THRESHOLD) return;
    if (!dragged) {
      dragged = true;
      try { svg.setPointerCapture(ev.pointerId); } catch (_) { /* not capturable */ }
      svg.classList.add("is-panning");
    }
    const p0 = toSvg(start.x, start.y), p1 = toSvg(ev.clientX, ev.clientY);
    tx = start.tx + (p1.x - p0.x);
    ty = start.ty + (p1.y - p0.y);
    clamp();
    apply();
    ev.preventDefault();
  }

  function onPointerUp(ev) {
    pointerAt = performance.now();
    if (!pointers.has(ev.pointerId)) return;
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) {
      svg.classList.remove("is-panning");
      if (!dragged && ev.type === "pointerup") {
        const el = hit(ev.clientX, ev.clientY, ev.target);
        if (el && minTarget && ev.pointerType !== "mouse" && !bigEnough(el)) zoomToTap(el);
        else if (el) select(el);
      }
      start = null;
    } else if (pointers.size === 1) {
      const [p] = Array.from(pointers.values());
      start = { x: p.x, y: p.y, tx, ty };
    }
  }

  // ---- taps (issue 21): badges are targets, and small or unnamed territories zoom first
  function hit(clientX, clientY, fallback) {
    let best = null, bestD = Infinity;
    for (const mark of svg.querySelectorAll("[data-t]")) {
      const r = (mark.querySelector("circle") || mark).getBoundingClientRect();
      if (clientX < r.left - 2 || clientX > r.right + 2 || clientY < r.top - 2 || clientY > r.bottom + 2) continue;
      const d = Math.hypot(clientX - (r.left + r.right) / 2, clientY - (r.top + r.bottom) / 2);
      if (d < bestD) { bestD = d; best = mark; }
    }
    if (best) {
      const el = svg.querySelector(`.territory[data-index="${CSS.escape(best.dataset.t)}"]`);
      if (el) return el;
    }
    return territoryOf(document.elementFromPoint(clientX, clientY) || fallback, svg);
  }
  function named() { return !labels || !svg.classList.contains("labels-small"); }
  function bigEnough(el) {
    const r = el.getBoundingClientRect();
    return (r.width >= minTarget && r.height >= minTarget && named()) || k >= MAX_SCALE;
  }
  // the scale at which ``el`` is drawn minTarget px each way (with a margin) and named
  function zoomToTap(el) {
    const m = svg.getScreenCTM();
    const b = el.getBBox();
    const unit = m ? Math.hypot(m.a, m.b) : 1;  // CSS px per map unit at scale 1
    let want = Math.max(minTarget * 1.15 / Math.max(b.width * unit, 1e-6),
      minTarget * 1.15 / Math.max(b.height * unit, 1e-6));
    if (labels) want = Math.max(want, MIN_LABEL_PX * 1.05 / (parseFloat(labels.getAttribute("font-size")) * unit));
    k = Math.min(MAX_SCALE, Math.max(want, k * 1.25));
    tx = full.x + full.w / 2 - (b.x + b.width / 2) * k;
    ty = full.y + full.h / 2 - (b.y + b.height / 2) * k;
    clamp();
    apply();
    svg.dispatchEvent(new CustomEvent("map-zoomed", { detail: el.dataset.name || el.dataset.id, bubbles: true }));
  }

  function onWheel(ev) {
    ev.preventDefault();
    const p = toSvg(ev.clientX, ev.clientY);
    const step = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
    zoomAt(Math.exp(-step * 0.0015), p.x, p.y);
  }

  function onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const step = full.w * 0.08;
    const el = territoryOf(ev.target, svg);
    if (roving && el && rove(ev, el)) { ev.preventDefault(); return; }
    switch (ev.key) {
      case "+": case "=": zoomIn(); break;
      case "-": case "_": zoomOut(); break;
      case "0": reset(); break;
      case "ArrowLeft": panBy(step, 0); break;
      case "ArrowRight": panBy(-step, 0); break;
      case "ArrowUp": panBy(0, step); break;
      case "ArrowDown": panBy(0, -step); break;
      case "Enter": case " ":
        if (!el) return;
        select(el);
        break;
      case "Escape": select(null); break;
      default: return;
    }
    ev.preventDefault();
  }

  // ---- roving focus: one Tab stop, arrows and letters between territories
  const centres = new Map();
  let stop = null, typed = "", typedAt = 0, refreshQueued = false, ring = null;
  const all = () => Array.from(svg.querySelectorAll(".territory"));
  function centreOf(el) {
    let c = centres.get(el);
    if (!c) {
      const b = el.getBBox ? el.getBBox() : { x: 0, y: 0, width: 0, height: 0 };
      c = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      centres.set(el, c);
    }
    return c;
  }
  function setStop(el) {
    if (!el || el === stop) return;
    if (stop) stop.setAttribute("tabindex", "-1");
    stop = el;
    stop.setAttribute("tabindex", "0");
  }
  function nearest(from, among) {
    if (!from) return among[0] || null;
    const a = centreOf(from);
    let best = null, bestD = Infinity;
    for (const t of among) {
      const c = centreOf(t), d = (c.x - a.x) ** 2 + (c.y - a.y) ** 2;
      if (d < bestD) { bestD = d; best = t; }
    }
    return best;
  }
  // where the Tab stop should rest: the current stop if it is a choice (or nothing is), else
  // the choice nearest to it
  function bestStop() {
    const choices = Array.from(svg.querySelectorAll(".territory.is-eligible"));
    if (!choices.length || (stop && stop.classList.contains("is-eligible"))) return stop || all()[0] || null;
    return nearest(stop, choices);
  }
  function refresh() {
    refreshQueued = false;
    if (!svg.contains(document.activeElement)) setStop(bestStop());
  }
  function toward(el, ax, ay) {
    const a = centreOf(el);
    let best = null, bestScore = Infinity, loose = null, looseScore = Infinity;
    for (const t of all()) {
      if (t === el) continue;
      const c = centreOf(t), dx = c.x - a.x, dy = c.y - a.y;
      const along = dx * ax + dy * ay, across = Math.abs(dx * ay - dy * ax);
      if (along <= 0.5) continue;
      const score = along + 2 * across;
      if (across <= 2 * along && score < bestScore) { best = t; bestScore = score; }
      if (score < looseScore) { loose = t; looseScore = score; }
    }
    return best || loose;
  }
  function jumpTo(el) {
    if (!el) return;
    setStop(el);
    el.focus();
  }
  function rove(ev, el) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[ev.key] && !ev.shiftKey) {
      jumpTo(toward(el, ...dirs[ev.key]));
      return true;
    }
    if (ev.key.length !== 1 || !/\p{L}/u.test(ev.key)) return false;
    const now = Date.now();
    typed = (now - typedAt < 800 ? typed : "") + ev.key.toLowerCase();
    typedAt = now;
    const named = (t) => (t.dataset.name || "").toLowerCase();
    let hits = all().filter((t) => named(t).startsWith(typed));
    if (!hits.length && typed.length > 1) {  // a repeated letter cycles through that letter
      typed = ev.key.toLowerCase();
      hits = all().filter((t) => named(t).startsWith(typed));
    }
    if (!hits.length) return false;
    const choices = hits.filter((t) => t.classList.contains("is-eligible"));
    const list = (choices.length ? choices : hits).sort((a, b) => named(a).localeCompare(named(b)));
    const at = list.indexOf(el);
    jumpTo(typed.length > 1 && at >= 0 ? el : list[(at + 1) % list.length]);
    return true;
  }
  function showRing(el) {
    if (!roving) return;
    if (!ring) {
      ring = document.createElementNS("http://www.w3.org/2000/svg", "g");
      ring.setAttribute("class", "focus-ring");
      ring.setAttribute("aria-hidden", "true");
      ring.setAttribute("pointer-events", "none");
      for (const [colour, width] of [["#fff", 7], ["#111", 4.5], ["#ffb300", 2.5]]) {
        const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
        p.setAttribute("fill", "none");
        p.setAttribute("stroke", colour);
        p.setAttribute("stroke-width", String(width));
        p.setAttribute("stroke-linejoin", "round");
        p.setAttribute("vector-effect", "non-scaling-stroke");
        ring.append(p);
      }
      vp.append(ring);
    }
    const visible = el && el.matches(":focus-visible");
    ring.style.display = visible ? "" : "none";
    if (visible) for (const p of ring.children) p.setAttribute("d", el.getAttribute("d") || "");
  }
  function onSvgFocus(ev) {
    // a tap's focus (after a zoom, it lands on the <svg>) must not jump and pan the map away
    if (ev.target !== svg || byPointer()) return;
    jumpTo(bestStop());
  }
  if (roving) {
    for (const t of all()) t.setAttribute("tabindex", "-1");
    svg.setAttribute("tabindex", "-1");
    setStop(bestStop());
    new MutationObserver(() => {
      if (!refreshQueued) { refreshQueued = true; queueMicrotask(refresh); }
    }).observe(svg, { subtree: true, attributes: true, attributeFilter: ["class"] });
    svg.addEventListener("focus", onSvgFocus);
  }

  function onFocusIn(ev) {
    const el = territoryOf(ev.target, svg);
    if (el) { if (roving) setStop(el); if (!byPointer()) reveal(el); show(el); showRing(el); }
  }
  function onFocusOut() { show(null); showRing(null); }
  function onLeave(ev) { if (ev.pointerType === "mouse") show(null); }

  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", onPointerUp);
  svg.addEventListener("pointerleave", onLeave);
  svg.addEventListener("wheel", onWheel, { passive: false });
  svg.addEventListener("keydown", onKey);
  svg.addEventListener("focusin", onFocusIn);
  svg.addEventListener("focusout", onFocusOut);
  svg.classList.add("is-interactive");
  apply();

  return {
    zoomIn, zoomOut, reset, select,
    panBy,
    get scale() { return k; },
    get selected() { return selected ? selected.dataset.id : null; },
    destroy() {
      svg.removeEventListener("pointerdown", onPointerDown);
      svg.removeEventListener("pointermove", onPointerMove);
      svg.removeEventListener("pointerup", onPointerUp);
      svg.removeEventListener("pointercancel", onPointerUp);
      svg.removeEventListener("pointerleave", onLeave);
      svg.removeEventListener("wheel", onWheel);
      svg.removeEventListener("keydown", onKey);
      svg.removeEventListener("focusin", onFocusIn);
      svg.removeEventListener("focusout", onFocusOut);
      svg.classList.remove("is-interactive");
    },
  };
}
