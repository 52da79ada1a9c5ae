// The Maps page: pan and zoom each map (its +, − and reset buttons). A file of its own, not
// an inline script, so the site's Content-Security-Policy allows same-origin scripts only.
import { attachMapView } from "./mapview.js";

for (const section of document.querySelectorAll(".maps-page .map-section")) {
  const svg = section.querySelector("svg.cq-map");
  if (!svg) continue;
  const view = attachMapView(svg, { info: section.querySelector(".map-info") });
  for (const button of section.querySelectorAll(".map-tools button")) {
    button.addEventListener("click", () => {
      const action = button.dataset.action;
      if (action === "in") view.zoomIn();
      else if (action === "out") view.zoomOut();
      else view.reset();
    });
  }
}
