// A guest device's page, drawn by the host (issue 37). A guest device runs no engine: booting
// Python for one seat cost a phone 6.6 MB and most of a minute. The host's page draws each
// device's page (site/py/remote.py) and sends it `ui` trees and patches; this module applies
// them to the guest page's DOM by the rules of site/py/dom.py (handler keys by place, the
// person's own `open` of a <details>, props only when changed and never on the focused
// element, text always as text) and turns the person's input into messages for the host.
// The wire format: site/README.md, "Guest devices".
//
// The host is not trusted: its messages are signed, but a host's page is whoever made the
// table, and the guest page runs on this site's origin. So every tree goes through an
// allow-list (tags, attributes, URLs, style values), is bounded in depth, size and length,
// and is built with DOM calls only (nothing is ever parsed as markup). What is refused
// is counted (`dropped`, and `window.conquestGuestDropped` for the tests), never thrown.

const SVG_NS = "http://www.w3.org/2000/svg";
const HTML_NS = "http://www.w3.org/1999/xhtml";
const XLINK_NS = "http://www.w3.org/1999/xlink";

const MAX_DEPTH = 64;
const MAX_NODES = 200_000; // per message
const MAX_CHARS = 100_000; // per text or attribute value
const MAX_VALUE = 2_000; // an event's value and each form field sent back
const MAX_FIELDS = 40;
const MAX_DATA = 40; // dataset keys sent back
// remote.check_event refuses a dataset value over 200 chars or a key name over 40: cut to fit
const MAX_DATA_CHARS = 200;
const MAX_KEY_CHARS = 40;
const INPUT_DELAY_MS = 300;
const CONTAINER_ID = /^[a-z][a-z0-9-]{0,40}$/;
const MAX_ID = 200; // ids named by paint, hide, cls, focus, home, reveal

const words = (s) => new Set(s.split(/\s+/).filter(Boolean));

/** Handler kinds (ui._EVENTS) and the DOM events that carry them (focus and blur do not bubble). */
const KINDS = words("click input change submit keydown focus blur pointerdown pointermove pointerup pointercancel pointerover pointerout");
const DOM_KIND = { focus: "focusin", blur: "focusout" };
const KIND_OF = { focusin: "focus", focusout: "blur" };
const POINTER = (kind) => kind.startsWith("pointer");
/** Keys the log and the board use: a keydown handler on the host would have prevented them. */
const NAV_KEYS = words("ArrowUp ArrowDown ArrowLeft ArrowRight Home End PageUp PageDown");

// -- the allow-list ---------------------------------------------------------------------------
const HTML_TAGS = words(`
  div span p a button form input select option optgroup textarea label fieldset legend
  ul ol li dl dt dd table thead tbody tfoot tr th td caption h1 h2 h3 h4 h5 h6
  strong em b i u s small code pre kbd sub sup mark abbr time details summary
  section aside nav header footer figure figcaption br hr bdi output meter progress img`);
// case matters in SVG (clipPath); `use` only ever with a local href (below)
const SVG_TAGS = words(`
  svg g path rect circle ellipse line polyline polygon text tspan title desc defs marker
  clipPath pattern linearGradient radialGradient stop use`);
const GLOBAL_ATTRS = words("id class style title role hidden tabindex lang dir");
const ARIA = /^aria-[a-z]{1,40}$/;
const DATA = /^data-[a-z0-9][a-z0-9_.-]{0,79}$/; // remote.check_event: names up to 80
const FIELD = "name disabled form autocomplete";
const TEXTY = "placeholder readonly required minlength maxlength inputmode autocapitalize spellcheck enterkeyhint";
const TAG_ATTRS = new Map(Object.entries({
  a: words("href target rel download"),
  button: words(`type value ${FIELD}`),
  // no name: a form's name is a property of `document` (it would hide getElementById)
  form: words("novalidate autocomplete"),
  input: words(`type value checked min max step size pattern list multiple ${FIELD} ${TEXTY}`),
  select: words(`multiple size required ${FIELD}`),
  option: words("value selected disabled label"),
  optgroup: words("label disabled"),
  textarea: words(`rows cols wrap ${FIELD} ${TEXTY}`),
  label: words("for"),
  fieldset: words("name disabled form"),
  output: words("for name form"),
  meter: words("value min max low high optimum"),
  progress: words("value max"),
  ol: words("start reversed type"),
  li: words("value"),
  th: words("colspan rowspan headers scope abbr"),
  td: words("colspan rowspan headers"),
  time: words("datetime"),
  details: words("open"),
  img: words("src alt width height decoding"),
}));
// img[src]: only a question's picture of this site (issue 40: a Short Campaign flag or emoji,
// copied there by build.py), relative to the page; a host may not make a device load anything else
const PICTURE_SRC = /^(?:\.\.\/){1,4}pictures\/(?:flag|emoji)\/[0-9a-z]{2,6}(?:-[0-9a-z]{2,6}){0,9}\.svg$/;
// presentation and geometry; href / xlink:href separately (local "#..." only)
const SVG_ATTRS = words(`
  viewBox width height x y x1 y1 x2 y2 cx cy r rx ry d points dx dy fill stroke stroke-width
  stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit opacity
  fill-opacity fill-rule clip-rule stroke-opacity transform font-size font-weight font-style
  font-family text-anchor dominant-baseline paint-order vector-effect preserveAspectRatio
  focusable pointer-events clip-path marker-end marker-start marker-mid offset stop-color
  stop-opacity gradientUnits gradientTransform patternUnits patternContentUnits patternTransform
  clipPathUnits markerWidth markerHeight markerUnits refX refY orient fx fy spreadMethod
  display visibility`);
const INPUT_TYPES = words("text number checkbox radio hidden password range search");
const BUTTON_TYPES = words("button submit reset");
const LINK_TARGETS = words("_blank _self");
const PROP_TAGS = words("input select textarea");
// A form control's name or id is also a property of its form (and hides the form's own):
// these would hide what this module calls on a form, and so stop its drawing
const CLOBBERS = words(`
  attributes childNodes lastChild localName namespaceURI nodeType ownerDocument isConnected data
  replaceWith appendChild remove removeAttribute setAttribute setAttributeNS getAttribute
  hasAttribute closest matches focus classList style hidden value checked querySelector
  scrollIntoView getBoundingClientRect`);

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isIndex = (v) => Number.isSafeInteger(v) && v >= 0;
const cut = (s, n) => (s.length > n ? s.slice(0, n) : s);

/** A style value that can load nothing and hide nothing: no url(), no old IE expression(),
 * no @import, no backslash (a CSS escape would spell any of them), and no image-set(),
 * which takes a URL as a plain string. */
function styleOk(v) {
  const s = v.toLowerCase();
  return !(s.includes("url(") || s.includes("expression(") || s.includes("@import") ||
    s.includes("\\") || s.includes("image-set(") || s.includes("src("));
}

/** An SVG presentation value: as a style value, except that url(#id) (a gradient, a clip
 * path, a marker in the page) is allowed. */
function svgValueOk(v) {
  const s = v.toLowerCase();
  if (s.includes("expression(") || s.includes("@import") || s.includes("\\") || s.includes("image-set(") || s.includes("src(")) return false;
  for (let i = s.indexOf("url("); i >= 0; i = s.indexOf("url(", i + 4)) {
    const rest = s.slice(i + 4).replace(/^[\s'"]+/, "");
    if (!rest.startsWith("#")) return false;
  }
  return true;
}

/** a[href]: "#...", a relative path (no scheme, not "//host"), or this origin's http(s). */
function hrefOk(v, doc) {
  if (v.startsWith("#")) return true;
  // the URL parser drops tabs and newlines anywhere ("java\tscript:") and spaces at the ends
  const bare = v.replace(/[\u0000-\u0020\u007f]/g, "");
  const here = doc.defaultView ? doc.defaultView.location : null;
  if (!here) return false;
  let url;
  try {
    url = new URL(v, doc.baseURI);
  } catch {
    return false;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(bare)) {
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === here.origin;
  }
  if (/^[/\\]{2}/.test(bare)) return false; // another host, whatever the scheme
  return url.origin === here.origin;
}

// -- the view -------------------------------------------------------------------------------------
/**
 * The guest page's view of what the host draws.
 * `send(obj)`: a device->host message (ev, pick, key, scroll), a plain object.
 * `root`: where containers and ids are looked up (the document).
 * Returns { apply(msg) -> {applied, resync}, reset(), dropped, lastN }: `resync` asks the
 * host for the whole page (a patch on another base, or one whose places were not found).
 */
export function createView({ send, root = document }) {
  const doc = root.ownerDocument || root;
  const win = doc.defaultView || window;
  const placeholders = new WeakSet(); // what stands for a dropped node: paths stay the host's
  let dropped = 0;
  let lastN = null;

  const drop = (n = 1) => {
    dropped += n;
    win.conquestGuestDropped = dropped;
  };
  drop(0);

  const byId = (id) => {
    if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID) return null;
    if (typeof root.getElementById === "function") return root.getElementById(id);
    return root.querySelector(`[id="${CSS.escape(id)}"]`);
  };
  const container = (cid) => (typeof cid === "string" && CONTAINER_ID.test(cid) ? byId(cid) : null);
  const placeholder = () => {
    const c = doc.createComment("");
    placeholders.add(c);
    return c;
  };

  // -- attributes and props --------------------------------------------------------------------
  /** The attribute's value as it may be set, or null (refused). */
  function cleanValue(name, value, tag, svg) {
    if (typeof value !== "string" || value.length > MAX_CHARS) return null;
    if (name === "style") return styleOk(value) ? value : null;
    if (name === "tabindex") return /^\s*-?\d{1,5}\s*$/.test(value) ? value : null;
    if ((name === "id" || name === "name") && CLOBBERS.has(value)) return null;
    if (svg) {
      if (name === "href" || name === "xlink:href") return value.startsWith("#") ? value : null;
      return SVG_ATTRS.has(name) && !svgValueOk(value) ? null : value;
    }
    if (tag === "a" && name === "href") return hrefOk(value, doc) ? value : null;
    if (tag === "img" && name === "src") return PICTURE_SRC.test(value) ? value : null;
    if (tag === "img" && (name === "width" || name === "height")) return /^\d{1,4}$/.test(value) ? value : null;
    if (tag === "img" && name === "decoding") return value === "async" || value === "sync" ? value : null;
    if (tag === "a" && name === "target") return LINK_TARGETS.has(value) ? value : null;
    if (tag === "input" && name === "type") return INPUT_TYPES.has(value.toLowerCase()) ? value.toLowerCase() : null;
    if (tag === "button" && name === "type") return BUTTON_TYPES.has(value.toLowerCase()) ? value.toLowerCase() : null;
    return value;
  }

  function nameOk(name, tag, svg) {
    if (GLOBAL_ATTRS.has(name) || ARIA.test(name)) return true;
    if (DATA.test(name)) return !name.startsWith("data-on-"); // the client writes those itself
    if (svg) return SVG_ATTRS.has(name) || name === "href" || name === "xlink:href";
    const own = TAG_ATTRS.get(tag);
    return own !== undefined && own.has(name);
  }

  /** The attributes an element gets: the allowed ones of `attrs`, and a handler key for each
   * of `kinds` (`<container>/<path>/<kind>`, as dom.py keys them). */
  function wanted(attrs, kinds, tag, svg, cid, path) {
    const out = new Map();
    for (const name of Object.keys(attrs)) {
      const v = nameOk(name, tag, svg) ? cleanValue(name, attrs[name], tag, svg) : null;
      if (v === null) drop();
      else out.set(name, v);
    }
    for (const kind of kinds) {
      if (typeof kind === "string" && KINDS.has(kind)) out.set(`data-on-${kind}`, `${cid}/${path}/${kind}`);
      else drop();
    }
    return out;
  }

  const setAttr = (el, name, v) => {
    if (name === "xlink:href") el.setAttributeNS(XLINK_NS, name, v);
    else el.setAttribute(name, v);
  };

  /** Exactly `want` on an element that already exists; `open` stays the person's. */
  function setExact(el, want) {
    for (const name of Array.from(el.attributes, (a) => a.name)) {
      if (!want.has(name) && name !== "open") el.removeAttribute(name);
    }
    for (const [name, v] of want) {
      if (name !== "open" && el.getAttribute(name) !== v) setAttr(el, name, v);
    }
  }

  /** value only if it differs and the element is not being typed in; checked always. */
  function setProps(el, props) {
    if (!props) return;
    const tag = el.namespaceURI === HTML_NS ? el.localName : "";
    for (const k of Object.keys(props)) {
      const v = props[k];
      if (!PROP_TAGS.has(tag)) drop();
      else if (k === "value" && (typeof v === "string" || typeof v === "number") && String(v).length <= MAX_CHARS) {
        if (el.value !== String(v) && doc.activeElement !== el) el.value = String(v);
      } else if (k === "checked" && typeof v === "boolean") el.checked = v;
      else drop();
    }
  }

  // -- nodes ------------------------------------------------------------------------------------
  /** What a wire node is, checked against the limits and the allow-list: {text} or
   * {tag, svg, attrs, kids, kinds, props}, or null (dropped, counted). */
  function classify(w, ctx, depth) {
    if (depth > MAX_DEPTH || ctx.left <= 0) {
      drop();
      return null;
    }
    if (typeof w === "string") {
      ctx.left -= 1;
      if (w.length > MAX_CHARS) {
        drop();
        return { text: w.slice(0, MAX_CHARS) };
      }
      return { text: w };
    }
    if (!isObj(w) || typeof w.g !== "string" || !(w.s === undefined || w.s === 1 || w.s === 0)) {
      drop();
      return null;
    }
    const svg = w.s === 1;
    if (!(svg ? SVG_TAGS : HTML_TAGS).has(w.g)) {
      drop(); // with its subtree
      return null;
    }
    ctx.left -= 1;
    const part = (v, ok, empty) => {
      if (v === undefined) return empty;
      if (ok(v)) return v;
      drop();
      return empty;
    };
    return {
      tag: w.g,
      svg,
      attrs: part(w.a, isObj, {}),
      kids: part(w.c, Array.isArray, []),
      kinds: part(w.e, Array.isArray, []),
      props: part(w.p, isObj, null),
    };
  }

  function make(k, ctx, path, depth) {
    const el = k.svg ? doc.createElementNS(SVG_NS, k.tag) : doc.createElement(k.tag);
    for (const [name, v] of wanted(k.attrs, k.kinds, k.tag, k.svg, ctx.cid, path)) setAttr(el, name, v);
    k.kids.forEach((c, i) => el.appendChild(build(c, ctx, `${path}.${i}`, depth + 1)));
    setProps(el, k.props); // after the children: a <select>'s value needs its options
    return el;
  }

  /** A new DOM node for a wire node (a placeholder for a dropped one). */
  function build(w, ctx, path, depth) {
    const k = classify(w, ctx, depth);
    if (k === null) return placeholder();
    if (k.text !== undefined) return doc.createTextNode(k.text);
    return make(k, ctx, path, depth);
  }

  /** Make `old` show `w`, keeping it where the tag matches (dom._patch: focus, typed text
   * and an opened <details> survive a whole redraw). */
  function patchNode(old, w, ctx, path, depth) {
    const k = classify(w, ctx, depth);
    if (k === null) {
      if (!placeholders.has(old)) old.replaceWith(placeholder());
      return;
    }
    if (k.text !== undefined) {
      if (old.nodeType === 3) {
        if (old.data !== k.text) old.data = k.text;
      } else old.replaceWith(doc.createTextNode(k.text));
      return;
    }
    const ns = k.svg ? SVG_NS : HTML_NS;
    if (old.nodeType !== 1 || old.localName !== k.tag || old.namespaceURI !== ns) {
      old.replaceWith(make(k, ctx, path, depth));
      return;
    }
    setExact(old, wanted(k.attrs, k.kinds, k.tag, k.svg, ctx.cid, path));
    patchChildren(old, k.kids, ctx, path, depth + 1);
    setProps(old, k.props);
  }

  function patchChildren(parent, wires, ctx, path, depth) {
    const existing = Array.from(parent.childNodes);
    wires.forEach((w, i) => {
      const p = `${path}.${i}`;
      if (i < existing.length) patchNode(existing[i], w, ctx, p, depth);
      else parent.appendChild(build(w, ctx, p, depth));
    });
    for (const extra of existing.slice(wires.length)) extra.remove();
  }

  // -- patch ops --------------------------------------------------------------------------------
  const LOST = "lost"; // the DOM is not what the host thinks: the caller asks for a resync

  /** The node at `path` under `box`: a node, LOST, or null (through a dropped node). */
  function resolve(box, path) {
    let node = box;
    for (const i of path) {
      if (placeholders.has(node)) return null;
      if (node.nodeType !== 1) return LOST;
      node = node.childNodes[i];
      if (node === undefined) return LOST;
    }
    return node;
  }

  /** One op; returns false when its place was not found (the DOM drifted from the host's). */
  function applyOp(op, ctx) {
    if (!Array.isArray(op) || typeof op[0] !== "string") return bad();
    const [kind, cid, path] = op;
    const box = container(cid);
    if (box === null || !Array.isArray(path) || path.length > MAX_DEPTH + 1 || !path.every(isIndex)) return bad();
    ctx.cid = cid;
    const key = path.map((i) => `.${i}`).join("");
    if (kind === "x") {
      const el = resolve(box, path);
      if (el === LOST || (el !== null && el.nodeType !== 1)) return lost();
      if (el === null || placeholders.has(el) || !isIndex(op[3])) return bad();
      while (el.childNodes.length > op[3]) el.lastChild.remove();
      return true;
    }
    if (kind === "d") {
      // the first n children go (a list whose window moved on: the log), and every handler
      // key below them is written again for its new place (keys are places, as in dom.py)
      const el = resolve(box, path);
      if (el === LOST || (el !== null && el.nodeType !== 1)) return lost();
      if (el === null || placeholders.has(el) || !isIndex(op[3])) return bad();
      if (el.childNodes.length < op[3]) return lost();
      for (let i = 0; i < op[3]; i++) el.firstChild.remove();
      Array.from(el.childNodes).forEach((child, i) => rekey(child, cid, `${key}.${i}`));
      return true;
    }
    if (path.length === 0) return bad(); // the container itself is the page's, not the host's
    if (kind === "r") {
      const parent = resolve(box, path.slice(0, -1));
      if (parent === LOST) return lost();
      if (parent === null || placeholders.has(parent)) return bad();
      if (parent.nodeType !== 1) return lost();
      const i = path[path.length - 1];
      const n = parent.childNodes.length;
      if (i > n) return lost();
      const node = build(op[3], ctx, key, path.length);
      if (i === n) parent.appendChild(node);
      else parent.childNodes[i].replaceWith(node);
      return true;
    }
    const target = resolve(box, path);
    if (target === LOST) return lost();
    if (target === null || placeholders.has(target)) return bad();
    if (kind === "s") {
      if (target.nodeType !== 3) return lost();
      if (typeof op[3] !== "string") return bad();
      if (op[3].length > MAX_CHARS) drop();
      const text = cut(op[3], MAX_CHARS);
      if (target.data !== text) target.data = text;
      return true;
    }
    if (target.nodeType !== 1) return lost();
    if (kind === "a") {
      if (!isObj(op[3]) || !Array.isArray(op[4])) return bad();
      const svg = target.namespaceURI === SVG_NS;
      setExact(target, wanted(op[3], op[4], target.localName, svg, cid, key));
      return true;
    }
    if (kind === "m") {
      // some attributes changed (null: taken off), the handlers stayed: a row's position
      // in a moving list, a button's state
      if (!isObj(op[3])) return bad();
      const svg = target.namespaceURI === SVG_NS;
      const set = {};
      for (const name of Object.keys(op[3])) {
        if (op[3][name] === null) {
          if (name !== "open" && !name.startsWith("data-on-")) target.removeAttribute(name);
        } else set[name] = op[3][name];
      }
      for (const [name, v] of wanted(set, [], target.localName, svg, cid, key)) {
        if (name !== "open" && target.getAttribute(name) !== v) setAttr(target, name, v);
      }
      return true;
    }
    if (kind === "p") {
      if (!isObj(op[3])) return bad();
      setProps(target, op[3]);
      return true;
    }
    return bad();
  }
  /** Handler keys of `node`'s subtree for its place `key` under container `cid`. */
  function rekey(node, cid, key) {
    if (node.nodeType !== 1) return;
    for (const a of Array.from(node.attributes)) {
      if (a.name.startsWith("data-on-")) node.setAttribute(a.name, `${cid}/${key}/${a.name.slice(8)}`);
    }
    Array.from(node.childNodes).forEach((child, i) => rekey(child, cid, `${key}.${i}`));
  }
  function bad() {
    drop();
    return true;
  }
  function lost() {
    drop();
    return false;
  }

  // -- build-time elements: the map ------------------------------------------------------------
  function paint(id, spec) {
    const el = byId(id);
    if (el === null || !isObj(spec)) return drop();
    const { class: cls, style, attrs } = spec;
    if (cls !== undefined) toggles(el, cls);
    if (isObj(style)) {
      for (const prop of Object.keys(style)) {
        const v = style[prop];
        if (!/^(--)?[a-z][a-z0-9-]{0,80}$/i.test(prop)) drop();
        else if (v === null) el.style.removeProperty(prop);
        else if (typeof v === "string" && v.length <= MAX_CHARS && styleOk(v)) el.style.setProperty(prop, v);
        else drop();
      }
    } else if (style !== undefined) drop();
    if (isObj(attrs)) {
      const svg = el.namespaceURI === SVG_NS;
      const tag = el.localName;
      for (const name of Object.keys(attrs)) {
        const v = attrs[name];
        if (!nameOk(name, tag, svg)) drop();
        else if (v === null) el.removeAttribute(name);
        else {
          const ok = cleanValue(name, v, tag, svg);
          if (ok === null) drop();
          else setAttr(el, name, ok);
        }
      }
    } else if (attrs !== undefined) drop();
  }

  function toggles(el, cls) {
    if (!isObj(cls)) return drop();
    for (const name of Object.keys(cls)) {
      if (typeof cls[name] !== "boolean" || !/^[^\s]{1,200}$/.test(name)) drop();
      else el.classList.toggle(name, cls[name]);
    }
  }

  // -- focus and scrolling ------------------------------------------------------------------------
  /** The focus was on an element this message removed: it goes to the page's home (its panel
   * of controls), as browser_render.Renderer.keep_focus does, not to the page's start. */
  function focusHome(id) {
    const el = byId(id);
    if (el === null) return;
    if (!el.hasAttribute("tabindex") && !el.matches("button, a, input, select, textarea")) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: true });
  }

  function reveal(id) {
    const el = byId(id);
    if (el === null) return drop();
    const sheet = el.closest(".play-sheet");
    if (sheet && sheet.scrollHeight > sheet.clientHeight + 1) {
      // a phone's play screen: only the sheet under the map scrolls, the map stays in sight
      el.scrollIntoView({ block: "nearest" });
      return;
    }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > win.innerHeight) el.scrollIntoView({ block: "center" });
  }

  /** How far to scroll so the next decision and the newest result (`data-now`, issue 41) are
   * in the room top..bottom: both when they fit, else the next decision wins with as much of
   * the result as fits beside it. The same rule as shell.now_scroll (tested there). */
  function nowScroll(next, result, top, bottom) {
    const room = bottom - top;
    const contain = ([t, b]) => (b - t > room ? t - top : t < top ? t - top : b > bottom ? b - bottom : 0);
    const boxes = [next, result].filter((x) => x !== null);
    if (boxes.length === 0) return 0;
    const u = [Math.min(...boxes.map((x) => x[0])), Math.max(...boxes.map((x) => x[1]))];
    if (u[1] - u[0] <= room || next === null) return next !== null ? contain(u) : contain(boxes[0]);
    if (result !== null && result[0] < next[0] && next[1] - next[0] <= room) return next[1] - bottom;
    return next[0] - top;
  }

  /** After the person's tap or a peer's step (the host says `now`), what it did and what to do
   * next into the screen without a swipe, as browser_now.bring_now does on the host: on a
   * phone's play screen the page scrolls to the sheet under the map, the sheet to the marks. */
  function bringNow() {
    const seen = (el) => el.getClientRects().length > 0 && win.getComputedStyle(el).visibility !== "hidden";
    const mark = (kind) => [...doc.querySelectorAll(`[data-now="${kind}"]`)].find(seen) || null;
    const marks = [mark("next"), mark("result")];
    if (marks.every((m) => m === null)) return;
    const sheetOf = (el) => {
      const s = closest(el, ".play-sheet");
      return s && s.scrollHeight > s.clientHeight + 1 ? s : null;
    };
    const sheets = marks.map((m) => (m === null ? null : sheetOf(m)));
    const span = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; };
    const bar = doc.getElementById("shell-top");
    const inBar = marks.some((m) => m !== null && bar !== null && bar.contains(m));
    const roomTop = bar && !inBar && win.getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height : 0;
    const height = win.innerHeight;
    // a next decision taller than the screen: the control focused in it stands for it
    const active = doc.activeElement;
    if (marks[0] && active && active !== marks[0] && marks[0].contains(active) && active.getClientRects().length) {
      const [t, b] = span(marks[0]);
      if (b - t > (sheets[0] ? sheets[0].clientHeight : height - roomTop)) marks[0] = active;
    }
    let dy = nowScroll(...marks.map((m, i) => (m === null ? null : span(sheets[i] || m))), roomTop, height);
    const sheet = sheets[0] || sheets[1];
    let ds = 0;
    if (sheet) {
      const st = sheet.getBoundingClientRect().top + sheet.clientTop - dy;
      const inner = marks.map((m, i) => (m !== null && sheets[i] === sheet ? span(m).map((y) => y - dy) : null));
      ds = nowScroll(inner[0], inner[1], Math.max(st, roomTop), Math.min(st + sheet.clientHeight, height));
    }
    const behavior = win.matchMedia && win.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
    // to a place, not by a distance: a smooth scroll still running would add its rest to it
    // whole pixels away from zero, as browser_now.whole_px: a fraction over is brought in
    const whole = (d) => (Math.abs(d) < 0.1 ? 0 : d > 0 ? Math.ceil(d) : Math.floor(d));
    dy = whole(dy);
    ds = whole(ds);
    if (dy) win.scrollTo({ top: win.scrollY + dy, behavior });
    if (sheet && ds) sheet.scrollTo({ top: sheet.scrollTop + ds, behavior });
  }

  /** The shell's message in the flow under the status bar once a game shows (issue 41: a
   * toast over the board covered the square it spoke of), above the set-up before that. */
  function dockToast() {
    const toast = doc.getElementById("shell-toast");
    const top = doc.getElementById("shell-top");
    const game = doc.getElementById("shell-game");
    const setup = doc.getElementById("shell-setup");
    if (!toast || !top || !game || !setup) return;
    const docked = top.contains(toast);
    if (!game.hidden && !docked) top.append(toast);
    else if (game.hidden && docked) setup.before(toast);
  }

  /** The log's box and one row's height (every row is as tall: style.css), or null. */
  function logGeometry() {
    const box = doc.getElementById("shell-log-scroll");
    const row = box && box.querySelector("li[data-step]");
    const height = row ? row.getBoundingClientRect().height : 0;
    return height > 0 ? { box, row: height } : null;
  }

  function placeLog(log) {
    const geo = logGeometry();
    if (geo === null) return;
    const { box, row } = geo;
    if (typeof log.reveal === "number" && Number.isFinite(log.reveal)) {
      const y = (log.reveal - 1) * row;
      const height = box.clientHeight;
      if (!(box.scrollTop <= y && y <= box.scrollTop + height - row)) box.scrollTop = Math.max(0, y - height / 2 + row / 2);
    } else if (log.end === true) box.scrollTop = box.scrollHeight;
  }

  // -- a message --------------------------------------------------------------------------------
  function applyMessage(msg) {
    const prev = doc.activeElement;
    const ctx = { cid: "", left: MAX_NODES };
    let drift = false;
    if (msg.c !== undefined) {
      if (!isObj(msg.c)) drop();
      else {
        for (const cid of Object.keys(msg.c)) {
          const box = container(cid);
          const kids = msg.c[cid];
          if (box === null || !Array.isArray(kids)) {
            drop();
            continue;
          }
          ctx.cid = cid;
          try {
            patchChildren(box, kids, ctx, "", 1);
          } catch {
            drop(); // a DOM call refused (e.g. a name that hides a form's method): the rest goes on
          }
        }
      }
    }
    if (msg.ops !== undefined) {
      if (!Array.isArray(msg.ops)) drop();
      else {
        for (const op of msg.ops) {
          try {
            if (!applyOp(op, ctx)) drift = true;
          } catch {
            drop();
          }
        }
      }
    }
    each(msg.paint, (id, spec) => paint(id, spec));
    each(msg.hide, (id, v) => {
      const el = byId(id);
      if (el === null || typeof v !== "boolean") return drop();
      el.hidden = v;
    });
    each(msg.cls, (id, cls) => {
      const el = byId(id);
      if (el === null) return drop();
      toggles(el, cls);
    });
    guard(dockToast);
    if (msg.open !== undefined) {
      const box = doc.getElementById("live-panel-box");
      if (typeof msg.open !== "boolean" || box === null) drop();
      else if (box.open !== msg.open) box.open = msg.open;
    }
    if (msg.announce !== undefined && msg.announce !== null) {
      const box = doc.getElementById("shell-announce");
      if (typeof msg.announce !== "string" || box === null) drop();
      else box.textContent = cut(msg.announce, MAX_CHARS);
    }
    guard(() => {
      if (prev && prev !== doc.body && !prev.isConnected && msg.home != null) focusHome(msg.home);
    });
    guard(() => {
      if (msg.focus == null) return;
      const el = byId(msg.focus);
      if (el === null) drop();
      else el.focus({ preventScroll: false });
    });
    guard(() => {
      if (msg.reveal != null) reveal(msg.reveal);
    });
    guard(() => {
      if (msg.log == null) return;
      if (!isObj(msg.log)) drop();
      else placeLog(msg.log);
    });
    guard(() => {
      if (msg.now === true) bringNow();
    });
    return drift;
  }

  /** `fn(key, value)` for each entry of an optional object, each guarded. */
  function each(obj, fn) {
    if (obj === undefined || obj === null) return;
    if (!isObj(obj)) return drop();
    for (const k of Object.keys(obj)) guard(() => fn(k, obj[k]));
  }
  function guard(fn) {
    try {
      fn();
    } catch {
      drop();
    }
  }

  function apply(msg) {
    try {
      if (!isObj(msg) || msg.t !== "ui" || !Number.isSafeInteger(msg.n)) {
        drop();
        return { applied: false, resync: false };
      }
      const hasBase = msg.base !== undefined && msg.base !== null;
      if (hasBase && msg.base !== lastN) return { applied: false, resync: true };
      // patches without a base apply on nothing known: the host is asked for the whole page
      if (!hasBase && msg.full !== true && msg.ops !== undefined) return { applied: false, resync: true };
      const drift = applyMessage(msg);
      lastN = msg.n;
      return { applied: true, resync: drift };
    } catch {
      drop();
      return { applied: false, resync: true };
    }
  }

  // -- the person's input, to the host -------------------------------------------------------------
  const pendingInput = new Map(); // handler key -> {timer, msg}: input is sent once typing pauses
  let pendingMove = null; // the last pointermove of this frame
  let moveFrame = 0;
  let scrollFrame = 0;

  /** Through Element's own method: a form's control named "closest" hides the form's. */
  const closest = (el, sel) => (el instanceof win.Element ? win.Element.prototype.closest.call(el, sel) : null);

  function mods(ev) {
    return (ev.ctrlKey ? "c" : "") + (ev.shiftKey ? "s" : "") + (ev.altKey ? "a" : "") + (ev.metaKey ? "m" : "");
  }

  /** data-* of an element (names as attributes, without "data-"; never data-on-*). */
  function dataset(el) {
    const out = {};
    let n = 0;
    for (const a of Array.from(el.attributes)) {
      if (!a.name.startsWith("data-") || a.name.startsWith("data-on-")) continue;
      if (n++ >= MAX_DATA) break;
      out[a.name.slice(5)] = cut(a.value, MAX_DATA_CHARS);
    }
    return out;
  }

  /** What was waiting (typed text, a move) goes before any other event, so the host sees
   * them in the order the person made them. */
  function flush() {
    for (const { timer, msg } of pendingInput.values()) {
      clearTimeout(timer);
      send(msg);
    }
    pendingInput.clear();
    if (pendingMove !== null) {
      const msg = pendingMove;
      pendingMove = null;
      send(msg);
    }
  }

  function dispatch(ev) {
    const kind = KIND_OF[ev.type] || ev.type;
    if (kind === "submit") ev.preventDefault(); // a guest page never leaves by a form
    const attr = `data-on-${kind}`;
    const t = ev.target;
    const node = closest(t, `[${attr}]`);
    if (node === null) return;
    const key = win.Element.prototype.getAttribute.call(node, attr);
    if (kind === "keydown" && NAV_KEYS.has(ev.key)) ev.preventDefault();
    const raw = node.value;
    const x = Number.isFinite(ev.clientX) ? ev.clientX : 0;
    const y = Number.isFinite(ev.clientY) ? ev.clientY : 0;
    const msg = {
      t: "ev", k: key, type: kind,
      v: raw === undefined || raw === null ? "" : cut(String(raw), MAX_VALUE),
      c: Boolean(node.checked),
      key: typeof ev.key === "string" ? cut(ev.key, MAX_KEY_CHARS) : "",
      f: {}, d: dataset(node), u: {}, x, y, m: mods(ev),
    };
    if (kind === "submit") {
      const form = node instanceof win.HTMLFormElement ? node : closest(t, "form");
      if (form) {
        for (const [name, value] of new win.FormData(form)) {
          if (typeof value !== "string") continue; // a file: never sent
          if (!(name in msg.f) && Object.keys(msg.f).length >= MAX_FIELDS) continue;
          msg.f[cut(name, 80)] = cut(value, MAX_VALUE);
        }
      }
    }
    if (POINTER(kind)) {
      const hit = doc.elementFromPoint(x, y);
      const under = closest(hit, "[data-sq], [data-index], [data-key]");
      if (under) msg.u = dataset(under);
    }
    if (kind === "input") {
      const was = pendingInput.get(key);
      if (was) clearTimeout(was.timer);
      pendingInput.delete(key); // re-added last: kept in the order of the last keystrokes
      const timer = setTimeout(() => {
        pendingInput.delete(key);
        send(msg);
      }, INPUT_DELAY_MS);
      pendingInput.set(key, { timer, msg });
      return;
    }
    if (kind === "pointermove") {
      pendingMove = msg;
      if (!moveFrame) {
        moveFrame = win.requestAnimationFrame(() => {
          moveFrame = 0;
          if (pendingMove !== null) {
            const m = pendingMove;
            pendingMove = null;
            send(m);
          }
        });
      }
      return;
    }
    // hover and keys come often and do not end typing (Enter does); the rest ends it
    if ((kind !== "pointerover" && kind !== "pointerout" && kind !== "keydown") || ev.key === "Enter") flush();
    else if (pendingMove !== null) {
      const m = pendingMove;
      pendingMove = null;
      send(m);
    }
    send(msg);
  }

  const listen = (type, fn, opts) => doc.addEventListener(type, (ev) => {
    try {
      fn(ev);
    } catch (err) {
      win.console.warn("guest page:", err);
    }
  }, opts);

  for (const kind of KINDS) listen(DOM_KIND[kind] || kind, dispatch);

  // the map's pick (static/mapboard.js): its detail is the territory's data-index
  listen("game-pick", (ev) => {
    const d = ev.detail;
    const i = typeof d === "number" ? d : typeof d === "string" && /^\d{1,9}$/.test(d) ? Number(d) : NaN;
    if (!Number.isSafeInteger(i) || i < 0) return;
    flush();
    send({ t: "pick", i });
  });

  // shortcuts: a key anywhere but in a field or on a control that handles keys itself
  listen("keydown", (ev) => {
    const t = ev.target;
    const tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "select" || tag === "textarea" || ev.defaultPrevented) return;
    if (closest(t, "[data-on-keydown]") !== null || typeof ev.key !== "string") return;
    flush();
    send({ t: "key", key: cut(ev.key, MAX_KEY_CHARS), m: mods(ev) });
  });

  // the log is drawn as it is scrolled (issue 20, item 10): element scrolls do not bubble,
  // so one capturing listener hears the log's box; one message a frame
  listen("scroll", (ev) => {
    const t = ev.target;
    if (!t || t.id !== "shell-log-scroll" || scrollFrame) return;
    scrollFrame = win.requestAnimationFrame(() => {
      scrollFrame = 0;
      const geo = logGeometry();
      if (geo === null) return;
      const { box, row } = geo;
      const top = box.scrollTop;
      send({ t: "scroll", top: Math.max(0, Math.floor(top / row)), end: top + box.clientHeight >= box.scrollHeight - 2 });
    });
  }, { capture: true, passive: true });

  // copy buttons copy on the device itself: nothing to tell the host
  listen("click", (ev) => {
    const t = ev.target;
    const b = closest(t, "[data-copy]");
    if (b === null || !win.navigator.clipboard) return;
    win.navigator.clipboard.writeText(b.getAttribute("data-copy") || "").catch(() => {});
  });

  function reset() {
    lastN = null;
    for (const { timer } of pendingInput.values()) clearTimeout(timer);
    pendingInput.clear();
    pendingMove = null;
    if (moveFrame) win.cancelAnimationFrame(moveFrame);
    if (scrollFrame) win.cancelAnimationFrame(scrollFrame);
    moveFrame = scrollFrame = 0;
  }

  return {
    apply,
    reset,
    get dropped() {
      return dropped;
    },
    get lastN() {
      return lastN;
    },
  };
}
