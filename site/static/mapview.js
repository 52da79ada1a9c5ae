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
  const { onSelect = null, info = null, onHover = null } = options;
  const vp = viewportOf(svg);
  const vb = svg.viewBox.baseVal;
  const full = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
  let k = 1, tx = 0, ty = 0;
  let selected = null;
  const idPrefix = (el) => el.id.slice(0, el.id.length - ("t-" + el.dataset.id).length);

  function apply() {
    vp.setAttribute("transform", `translate(${tx.toFixed(2)} ${ty.toFixed(2)}) scale(${k.toFixed(4)})`);
    svg.dataset.zoom = k.toFixed(2);
  }

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

  function onPointerDown(ev) {
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
    if (!pointers.has(ev.pointerId)) return;
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) {
      svg.classList.remove("is-panning");
      if (!dragged && ev.type === "pointerup") {
        const el = territoryOf(document.elementFromPoint(ev.clientX, ev.clientY) || ev.target, svg);
        if (el) select(el);
      }
      start = null;
    } else if (pointers.size === 1) {
      const [p] = Array.from(pointers.values());
      start = { x: p.x, y: p.y, tx, ty };
    }
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

  function onFocusIn(ev) {
    const el = territoryOf(ev.target, svg);
    if (el) { reveal(el); show(el); }
  }
  function onFocusOut() { show(null); }
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
