"""A build-time territory map's shapes as a page draws over them: label points and outlines.

Why a shared part (issue 42): the map is in the page's HTML from the build, and a page draws
a layer above it (values, troop badges, the outlines of the choices and of a target). Both
the Short Campaign and World Conquest read the same map data for that layer, once, when it
is first needed, and outline a territory the same way; only the class prefix of the outline
differs (``cp-``, ``wc-``), so the page's CSS keeps its own names.
"""
from __future__ import annotations

from ui import Node, svg

from conquest.maps import load_map


class MapShapes:
    """The label point and the outline path of each territory of one map, read on first use."""

    def __init__(self, map_id: str, prefix: str) -> None:
        self.map_id = map_id
        self.prefix = prefix  # the outline's class prefix: "cp" draws "cp-outline"
        self._labels: dict[int, tuple[float, float]] = {}
        self._paths: dict[int, str] = {}

    def _load(self) -> None:
        if not self._labels:
            m = load_map(self.map_id)
            self._labels = {tr.index: (float(tr.label[0]), float(tr.label[1])) for tr in m.territories}
            self._paths = {tr.index: tr.path for tr in m.territories}

    @property
    def labels(self) -> dict[int, tuple[float, float]]:
        """Each territory's label point (where its name is drawn), by territory index."""
        self._load()
        return self._labels

    def label_at(self, t: int) -> tuple[float, float] | None:
        return self.labels.get(t)

    def outline(self, t: int, kind: str) -> list[Node]:
        """A territory's outline above every territory (a build-time path's own stroke is
        half hidden under its neighbours): white underneath, so it shows on any colour."""
        self._load()
        d = self._paths.get(t)
        if d is None:
            return []
        p = self.prefix
        return [svg("path", d=d, cls=f"{p}-outline-under is-{kind}"), svg("path", d=d, cls=f"{p}-outline is-{kind}")]
