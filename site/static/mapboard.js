// A game board drawn as a map (svg[data-pick-board]): pan and zoom (mapview.js), the map as
// one Tab stop with arrow keys and letters between territories (roving focus; the page's
// Python focuses the <svg> to put the focus on the step's choice), and a pick
// (a click without a drag, or Enter/Space on a focused territory) becomes a bubbling
// "game-pick" event whose detail is the territory's data-index; the page's Python (the shell)
// turns it into the page's pick. Works before Python starts; loaded as a file (no inline
// script), so the pages need no 'unsafe-inline'.
import { attachMapView } from "./mapview.js";

if (new URLSearchParams(location.search).has("audience")) document.documentElement.classList.add("shell-audience");

for (const svg of document.querySelectorAll("svg[data-pick-board]")) {
  const view = attachMapView(svg, {
    roving: true,
    onSelect: (id, el) => {
      if (!el) return;
      svg.dispatchEvent(new CustomEvent("game-pick", { detail: el.dataset.index, bubbles: true }));
      el.classList.remove("is-selected");
      el.removeAttribute("aria-pressed");
    },
  });
  const tools = svg.parentElement && svg.parentElement.querySelectorAll("[data-zoom]");
  for (const b of tools || []) {
    b.addEventListener("click", () => {
      if (b.dataset.zoom === "in") view.zoomIn();
      else if (b.dataset.zoom === "out") view.zoomOut();
      else view.reset();
    });
  }
}
