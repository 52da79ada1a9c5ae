"""campaign15: 15 US regions for the Short Campaign, made by merging usa100 territories.

The usa100 territory graph is clustered into 15 contiguous regions of balanced area with
the same region-growing method as usa100 (several seeds, lowest largest/smallest area ratio
wins); each region is named after its most populous city. Borders are those of usa100
between different regions, so shared edges stay identical and corner touches never count.
"""

from __future__ import annotations

from collections import defaultdict

import shapely

from .common import clean, label_point, place_labels, polygons_of, slug, sorted_pair, svg_path
from .usa import Graph, cluster

LABEL_SIZE = 11.0
N_REGIONS = 15
SEEDS = (1, 2, 3, 4, 5, 6, 7, 8)
CENSUS_REGION = {  # Census Bureau regions, by state
    **dict.fromkeys(["WA", "OR", "CA", "NV", "ID", "MT", "WY", "UT", "CO", "AZ", "NM"], "west"),
    **dict.fromkeys(["ND", "SD", "NE", "KS", "MN", "IA", "MO", "WI", "IL", "MI", "IN", "OH"], "midwest"),
    **dict.fromkeys(
        [
            "OK",
            "TX",
            "AR",
            "LA",
            "MS",
            "AL",
            "TN",
            "KY",
            "WV",
            "VA",
            "NC",
            "SC",
            "GA",
            "FL",
            "MD",
            "DE",
            "DC",
        ],
        "south",
    ),
    **dict.fromkeys(["NY", "PA", "NJ", "CT", "RI", "MA", "VT", "NH", "ME"], "northeast"),
}
GROUPS = [("west", "West"), ("midwest", "Midwest"), ("south", "South"), ("northeast", "Northeast")]


def build(usa: dict, info: dict, verbose: bool = True) -> dict:
    tids = [t["id"] for t in usa["territories"]]
    index = {t: i for i, t in enumerate(tids)}
    geoms = info["geoms"]
    adjl: list[list[int]] = [[] for _ in tids]
    for a, b in usa["edges"]:
        adjl[index[a]].append(index[b])
        adjl[index[b]].append(index[a])
    shared: dict[str, float] = defaultdict(float)
    for a, b in usa["edges"]:
        length = geoms[a].intersection(geoms[b]).length
        shared[a] += length
        shared[b] += length
    graph = Graph(
        [geoms[t].area for t in tids],
        [(geoms[t].centroid.x, geoms[t].centroid.y) for t in tids],
        [sorted(x) for x in adjl],
        [geoms[t].boundary.length - shared[t] > 0.5 for t in tids],
    )
    best = None
    for seed in SEEDS:
        assign, r = cluster(graph, N_REGIONS, seed)
        if best is None or r < best[1] - 1e-9:
            best = (assign, r, seed)
    assert best is not None
    assign, r, used_seed = best
    if verbose:
        print(f"campaign15: seed {used_seed}, area ratio {r:.3f}")
    # each region is named after the most populous city among its usa100 territories
    city = info["city"]
    members: dict[int, list[str]] = defaultdict(list)
    for i, k in enumerate(assign):
        members[k].append(tids[i])
    head = {k: max(ms, key=lambda t: (int(city[t]["population"]), t)) for k, ms in members.items()}
    region = {}
    for k, ms in members.items():
        for t in ms:
            region[t] = usa_name(usa, head[k])
    census = {usa_name(usa, head[k]): CENSUS_REGION[city[head[k]]["admin1code"]] for k in members}
    names = sorted(set(region.values()))
    ids = {n: slug(n) for n in names}
    rgeom = {}
    for n in names:
        g = clean(shapely.union_all([geoms[t] for t in tids if region[t] == n]), 0.1)
        parts = sorted(polygons_of(g), key=lambda p: -p.area)
        rgeom[n] = parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)
    edges = set()
    sea = set()
    land_pairs = set()
    for a, b in usa["edges"]:
        ra, rb = region[a], region[b]
        if ra != rb:
            pair = sorted_pair(ids[ra], ids[rb])
            edges.add(pair)
            if [a, b] not in usa["sea_links"]:
                land_pairs.add(pair)
    sea_lines = []
    for s in usa["sea_lines"]:
        ra, rb = region[s["a"]], region[s["b"]]
        pair = sorted_pair(ids[ra], ids[rb])
        if ra != rb and pair not in land_pairs:
            sea.add(pair)
            line = s["line"] if ids[ra] == pair[0] else list(reversed(s["line"]))
            sea_lines.append({"a": pair[0], "b": pair[1], "line": line})
    start = {ids[n]: label_point(rgeom[n]) for n in names}
    placed, clashes = place_labels(
        {ids[n]: rgeom[n] for n in names}, {ids[n]: n for n in names}, start, LABEL_SIZE
    )
    if verbose:
        print(f"campaign15: label collisions left: {clashes}")
    territories = [
        {
            "id": ids[n],
            "name": n,
            "group": census[n],
            "label": list(placed[ids[n]]),
            "path": svg_path(rgeom[n]),
        }
        for n in names
    ]
    groups = [
        {"id": gid, "name": gname, "bonus": 0, "territories": [ids[n] for n in names if census[n] == gid]}
        for gid, gname in GROUPS
    ]
    areas = [rgeom[n].area for n in names]
    return {
        "id": "campaign15",
        "title": "Short Campaign: 15 American regions",
        "width": usa["width"],
        "height": usa["height"],
        "label_size": LABEL_SIZE,
        "territories": territories,
        "edges": sorted([list(e) for e in edges]),
        "sea_links": sorted([list(e) for e in sea]),
        "sea_lines": sorted(sea_lines, key=lambda s: (s["a"], s["b"])),
        "groups": groups,
        "context": usa["context"],
        "credits": usa["credits"],
        "generator": {
            "from": "usa100",
            "members": {ids[n]: sorted(t for t in tids if region[t] == n) for n in names},
            "seed": used_seed,
            "area_ratio": round(max(areas) / min(areas), 3),
        },
    }


def usa_name(usa: dict, tid: str) -> str:
    return next(t["name"] for t in usa["territories"] if t["id"] == tid)


def _components(members: set[str], adj: dict[str, set[str]]) -> list[set[str]]:
    seen: set[str] = set()
    out = []
    for s in sorted(members):
        if s in seen:
            continue
        comp = {s}
        stack = [s]
        while stack:
            u = stack.pop()
            for v in adj[u]:
                if v in members and v not in comp:
                    comp.add(v)
                    stack.append(v)
        seen |= comp
        out.append(comp)
    return out
