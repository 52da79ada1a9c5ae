// A game board drawn as a map (svg[data-pick-board]): pan and zoom (mapview.js), the map as
// one Tab stop with arrow keys and letters between territories (roving focus; the page's
// Python focuses the <svg> to put the focus on the step's choice), and a pick
// (a click without a drag, or Enter/Space on a focused territory) becomes a bubbling
// "game-pick" event whose detail is the territory's data-index; the page's Python (the shell)
// turns it into the page's pick. Works before Python starts; loaded as a file (no inline
// script), so the pages need no 'unsafe-inline'.
//
// On a touch screen a tap picks only a territory drawn at least 44x44 px and named; a tap on
// a smaller one zooms in on it first (mapview.js minTarget), and the hint beside the zoom
// buttons says so. On a phone (<= 600 px wide) the game opens with its play screen (the
// status bar, the map and the step's controls, site/static/style.css) filling the viewport.
import { attachMapView } from "./mapview.js";

if (new URLSearchParams(location.search).has("audience")) document.documentElement.classList.add("shell-audience");

/** The CSS px a tap target needs (issue 21; WCAG 2.5.5). */
const MIN_TARGET = 44;

for (const svg of document.querySelectorAll("svg[data-pick-board]")) {
  const box = svg.parentElement;
  const hint = box && box.querySelector(".maptools-hint");
  const hintText = hint ? [...hint.childNodes].map((n) => n.cloneNode(true)) : [];
  const view = attachMapView(svg, {
    roving: true,
    minTarget: MIN_TARGET,
    onSelect: (id, el) => {
      if (!el) return;
      if (hint) hint.replaceChildren(...hintText.map((n) => n.cloneNode(true)));
      svg.dispatchEvent(new CustomEvent("game-pick", { detail: el.dataset.index, bubbles: true }));
      el.classList.remove("is-selected");
      el.removeAttribute("aria-pressed");
    },
  });
  const tools = box && box.querySelectorAll("button[data-zoom]");  // not the <svg> (its data-zoom is the scale)
  for (const b of tools || []) {
    b.addEventListener("click", () => {
      if (b.dataset.zoom === "in") view.zoomIn();
      else if (b.dataset.zoom === "out") view.zoomOut();
      else view.reset();
    });
  }
  if (hint) {
    svg.addEventListener("map-zoomed", (ev) => {
      hint.textContent = `Zoomed in on ${ev.detail}: tap it again to choose it.`;
    });
  }
  // the page's Choose list (select[data-map="<the map's id>"]) follows the territory zoomed in
  // on or focused on the map, when it is one of the list's choices (issue 41: the list kept
  // "Afghanistan" while the map was zoomed in on Alaska)
  const follow = (el) => {
    const list = svg.id && document.querySelector(`select[data-map="${svg.id}"]`);
    if (!list || !el || el.dataset.index === undefined) return;
    if ([...list.options].some((o) => o.value === el.dataset.index)) list.value = el.dataset.index;
  };
  svg.addEventListener("map-zoomed", (ev) => {
    follow([...svg.querySelectorAll(".territory")].find((t) => (t.dataset.name || t.dataset.id) === ev.detail));
  });
  svg.addEventListener("focusin", (ev) => {
    if (ev.target.classList && ev.target.classList.contains("territory")) follow(ev.target);
  });
}

// a phone: when the game shows, its play screen (status bar, map, controls) fills the view
const game = document.getElementById("shell-game");
const phone = window.matchMedia("(max-width: 600px)");
if (game) {
  let shown = !game.hidden;
  const toPlay = () => {
    const bar = document.getElementById("shell-bar");
    if (!phone.matches || !bar || document.documentElement.classList.contains("shell-audience")) return;
    bar.scrollIntoView({ block: "start" });
    // the first renders may still change what is above the bar: again, unless the person scrolled
    let at = window.scrollY;
    for (const ms of [150, 500, 1200]) {
      setTimeout(() => {
        if (Math.abs(window.scrollY - at) > 1 || game.hidden) return;
        bar.scrollIntoView({ block: "start" });
        at = window.scrollY;
      }, ms);
    }
  };
  new MutationObserver(() => {
    if (!game.hidden && !shown) toPlay();
    shown = !game.hidden;
  }).observe(game, { attributes: true, attributeFilter: ["hidden"] });
  if (shown) toPlay();
}
