"""world42: the classic 42-territory world board, drawn from Natural Earth countries.

The board's graph is the classic one and is written down here by hand (CLASSIC_EDGES); the
geometry only illustrates it. Territories are groups of whole countries, and the big
countries (Russia, Canada, USA, China's neighbours, Kazakhstan, Australia) are cut along
meridians and parallels chosen so that the pieces touch where the classic board has borders.
Borders of the classic graph whose territories do not touch on the map are drawn as dashed
sea links between their nearest points; Alaska-Kamchatka wraps around the map edge.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import MultiPolygon, Polygon, box

from .common import (
    clean,
    label_point,
    miller,
    naturalearth_lowres,
    place_labels,
    polygons_of,
    project,
    read_shapes,
    slug,
    svg_path,
)

WIDTH = 1000.0
LON_WEST = -169.0  # the map is cut in the Bering Strait, between Alaska and Chukotka
LAT_NORTH, LAT_SOUTH = 84.0, -57.0
GRID = 0.1
LABEL_SIZE = 7.5

CONTINENTS = [
    (
        "north-america",
        "North America",
        5,
        [
            "Alaska",
            "Northwest Territory",
            "Greenland",
            "Alberta",
            "Ontario",
            "Quebec",
            "Western United States",
            "Eastern United States",
            "Central America",
        ],
    ),
    ("south-america", "South America", 2, ["Venezuela", "Peru", "Brazil", "Argentina"]),
    (
        "europe",
        "Europe",
        5,
        [
            "Iceland",
            "Scandinavia",
            "Ukraine",
            "Great Britain",
            "Northern Europe",
            "Western Europe",
            "Southern Europe",
        ],
    ),
    ("africa", "Africa", 3, ["North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar"]),
    (
        "asia",
        "Asia",
        7,
        [
            "Ural",
            "Siberia",
            "Yakutsk",
            "Kamchatka",
            "Irkutsk",
            "Mongolia",
            "Japan",
            "Afghanistan",
            "China",
            "Middle East",
            "India",
            "Siam",
        ],
    ),
    ("australia", "Australia", 2, ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]),
]

# The classic board's 83 borders, by hand (not derived from the geometry).
CLASSIC_EDGES = [
    ("Alaska", "Northwest Territory"),
    ("Alaska", "Alberta"),
    ("Alaska", "Kamchatka"),
    ("Northwest Territory", "Alberta"),
    ("Northwest Territory", "Ontario"),
    ("Northwest Territory", "Greenland"),
    ("Greenland", "Ontario"),
    ("Greenland", "Quebec"),
    ("Greenland", "Iceland"),
    ("Alberta", "Ontario"),
    ("Alberta", "Western United States"),
    ("Ontario", "Western United States"),
    ("Ontario", "Eastern United States"),
    ("Ontario", "Quebec"),
    ("Quebec", "Eastern United States"),
    ("Western United States", "Eastern United States"),
    ("Western United States", "Central America"),
    ("Eastern United States", "Central America"),
    ("Central America", "Venezuela"),
    ("Venezuela", "Peru"),
    ("Venezuela", "Brazil"),
    ("Peru", "Brazil"),
    ("Peru", "Argentina"),
    ("Brazil", "Argentina"),
    ("Brazil", "North Africa"),
    ("Iceland", "Great Britain"),
    ("Iceland", "Scandinavia"),
    ("Scandinavia", "Great Britain"),
    ("Scandinavia", "Northern Europe"),
    ("Scandinavia", "Ukraine"),
    ("Great Britain", "Northern Europe"),
    ("Great Britain", "Western Europe"),
    ("Northern Europe", "Ukraine"),
    ("Northern Europe", "Southern Europe"),
    ("Northern Europe", "Western Europe"),
    ("Western Europe", "Southern Europe"),
    ("Western Europe", "North Africa"),
    ("Southern Europe", "Ukraine"),
    ("Southern Europe", "Middle East"),
    ("Southern Europe", "Egypt"),
    ("Southern Europe", "North Africa"),
    ("Ukraine", "Ural"),
    ("Ukraine", "Afghanistan"),
    ("Ukraine", "Middle East"),
    ("North Africa", "Egypt"),
    ("North Africa", "East Africa"),
    ("North Africa", "Congo"),
    ("Egypt", "East Africa"),
    ("Egypt", "Middle East"),
    ("East Africa", "Congo"),
    ("East Africa", "South Africa"),
    ("East Africa", "Madagascar"),
    ("East Africa", "Middle East"),
    ("Congo", "South Africa"),
    ("South Africa", "Madagascar"),
    ("Ural", "Siberia"),
    ("Ural", "China"),
    ("Ural", "Afghanistan"),
    ("Siberia", "Yakutsk"),
    ("Siberia", "Irkutsk"),
    ("Siberia", "Mongolia"),
    ("Siberia", "China"),
    ("Yakutsk", "Irkutsk"),
    ("Yakutsk", "Kamchatka"),
    ("Kamchatka", "Irkutsk"),
    ("Kamchatka", "Mongolia"),
    ("Kamchatka", "Japan"),
    ("Irkutsk", "Mongolia"),
    ("Mongolia", "China"),
    ("Mongolia", "Japan"),
    ("Afghanistan", "China"),
    ("Afghanistan", "India"),
    ("Afghanistan", "Middle East"),
    ("China", "India"),
    ("China", "Siam"),
    ("Middle East", "India"),
    ("India", "Siam"),
    ("Siam", "Indonesia"),
    ("Indonesia", "New Guinea"),
    ("Indonesia", "Western Australia"),
    ("New Guinea", "Western Australia"),
    ("New Guinea", "Eastern Australia"),
    ("Western Australia", "Eastern Australia"),
]

# Whole countries (Natural Earth names).
COUNTRIES = {
    "Greenland": ["Greenland"],
    "Central America": [
        "Mexico",
        "Guatemala",
        "Belize",
        "Honduras",
        "El Salvador",
        "Nicaragua",
        "Costa Rica",
        "Panama",
        "Cuba",
        "Haiti",
        "Dominican Rep.",
        "Jamaica",
        "Puerto Rico",
        "Bahamas",
    ],
    "Venezuela": ["Venezuela", "Colombia", "Guyana", "Suriname", "Trinidad and Tobago"],
    "Peru": ["Peru", "Ecuador", "Bolivia"],
    "Brazil": ["Brazil", "Paraguay", "Uruguay"],
    "Argentina": ["Argentina", "Chile", "Falkland Is."],
    "Iceland": ["Iceland"],
    "Scandinavia": ["Norway", "Sweden", "Finland", "Denmark"],
    "Great Britain": ["United Kingdom", "Ireland"],
    "Northern Europe": [
        "Germany",
        "Poland",
        "Netherlands",
        "Belgium",
        "Luxembourg",
        "Czechia",
        "Slovakia",
        "Austria",
        "Switzerland",
    ],
    "Western Europe": ["Spain", "Portugal"],
    "Southern Europe": [
        "Italy",
        "Slovenia",
        "Croatia",
        "Bosnia and Herz.",
        "Serbia",
        "Montenegro",
        "Kosovo",
        "Albania",
        "North Macedonia",
        "Greece",
        "Bulgaria",
        "Romania",
        "Hungary",
    ],
    "Ukraine": ["Ukraine", "Belarus", "Estonia", "Latvia", "Lithuania", "Moldova"],
    "North Africa": [
        "Morocco",
        "W. Sahara",
        "Algeria",
        "Tunisia",
        "Mauritania",
        "Mali",
        "Niger",
        "Chad",
        "Senegal",
        "Gambia",
        "Guinea-Bissau",
        "Guinea",
        "Sierra Leone",
        "Liberia",
        "Côte d'Ivoire",
        "Burkina Faso",
        "Ghana",
        "Togo",
        "Benin",
        "Nigeria",
    ],
    "Egypt": ["Egypt", "Libya"],
    "East Africa": [
        "Sudan",
        "S. Sudan",
        "Ethiopia",
        "Eritrea",
        "Djibouti",
        "Somalia",
        "Somaliland",
        "Kenya",
        "Uganda",
        "Tanzania",
        "Rwanda",
        "Burundi",
    ],
    "Congo": ["Dem. Rep. Congo", "Congo", "Central African Rep.", "Cameroon", "Gabon", "Eq. Guinea"],
    "South Africa": [
        "South Africa",
        "Namibia",
        "Botswana",
        "Zimbabwe",
        "Mozambique",
        "Zambia",
        "Malawi",
        "Lesotho",
        "eSwatini",
        "Angola",
    ],
    "Madagascar": ["Madagascar"],
    "Middle East": [
        "Turkey",
        "Cyprus",
        "N. Cyprus",
        "Syria",
        "Lebanon",
        "Israel",
        "Palestine",
        "Jordan",
        "Iraq",
        "Iran",
        "Saudi Arabia",
        "Yemen",
        "Oman",
        "United Arab Emirates",
        "Qatar",
        "Kuwait",
        "Georgia",
        "Armenia",
        "Azerbaijan",
    ],
    "Afghanistan": ["Afghanistan", "Turkmenistan", "Uzbekistan", "Tajikistan", "Kyrgyzstan"],
    "Mongolia": ["Mongolia"],
    "China": ["China", "Taiwan", "North Korea", "South Korea"],
    "Japan": ["Japan"],
    "India": ["India", "Pakistan", "Nepal", "Bhutan", "Bangladesh", "Sri Lanka"],
    "Siam": ["Myanmar", "Thailand", "Laos", "Cambodia", "Vietnam"],
    "Indonesia": ["Philippines", "Brunei", "Timor-Leste"],
    "New Guinea": ["Papua New Guinea"],
}

# Countries cut into pieces: (territory, region in lon/lat), first match wins, per polygon part
# when `parts` says so (islands go whole to the territory their centre falls in).
BIG = 1000.0
SPLITS = {
    "Canada": [
        ("Alberta", box(-141.5, 40, -110, 60)),
        ("Ontario", box(-110, 40, -79.5, 60)),
        ("Quebec", box(-79.5, 40, -50, 62.7)),
        ("Northwest Territory", box(-141.5, 40, -50, 90)),
    ],
    "United States of America": [
        ("Alaska", box(-170, 51, -129, 72)),
        ("Western United States", box(-130, 20, -100, 50)),
        ("Eastern United States", box(-100, 20, -60, 50)),
    ],
    "France": [("Venezuela", box(-60, 0, -50, 10)), ("Western Europe", box(-10, 35, 15, 55))],
    "Russia": [
        ("Northern Europe", box(19, 54, 23, 56)),  # Kaliningrad
        ("Ukraine", box(20, 40, 58, 90)),
        ("Ural", box(58, 40, 82, 90)),
        ("Siberia", box(82, 40, 105, 90)),
        ("Kamchatka", box(145, 40, 200, 90)),
        ("Kamchatka", box(135, 55, 145, 90)),
        ("Mongolia", box(127, 40, 145, 55)),
        ("Yakutsk", box(105, 60, 135, 90)),
        ("Irkutsk", box(105, 40, 135, 60)),
    ],
    "Kazakhstan": [
        ("Afghanistan", box(40, 35, 58, 60)),
        ("Ural", box(58, 48, 90, 60)),
        ("Afghanistan", box(58, 35, 90, 48)),
    ],
    "Malaysia": [("Siam", box(99, 0, 105, 8)), ("Indonesia", box(105, 0, 120, 8))],
    "Indonesia": [("New Guinea", box(134, -12, 142, 2)), ("Indonesia", box(90, -12, 134, 8))],
    "Australia": [
        ("Western Australia", box(110, -40, 135, -10)),
        ("Eastern Australia", box(135, -45, 155, -9)),
    ],
}
LEFTOVER_NAMES = {"United States of America": "Hawaii"}  # pieces in no territory, drawn grey
PART_WISE = {"Canada", "United States of America", "France", "Malaysia", "Indonesia"}

# Hand-placed labels (lon, lat) where the pole of inaccessibility is crowded or odd.
LABELS = {
    "Great Britain": (-2.5, 53.6),
    "Iceland": (-18.7, 64.9),
    "Western Europe": (-3.8, 40.2),
    "Northern Europe": (16.5, 52.0),
    "Southern Europe": (21.0, 43.2),
    "Scandinavia": (16.0, 63.8),
    "Ukraine": (38.0, 55.0),
    "Japan": (138.5, 37.2),
    "Central America": (-100.5, 21.0),
    "Eastern United States": (-87.0, 37.5),
    "Western United States": (-113.0, 40.5),
    "Indonesia": (114.5, -1.0),
    "New Guinea": (143.0, -5.8),
    "Madagascar": (46.7, -19.5),
    "Middle East": (45.0, 27.0),
    "Egypt": (23.0, 26.5),
    "Kamchatka": (162.0, 65.0),
}


# Sea links drawn along a route (lon, lat) instead of the straight nearest-points line, where
# the straight line would cross a third territory: Ontario reaches Greenland through Hudson
# Bay and Hudson Strait.
ROUTES = {
    ("Greenland", "Ontario"): [
        (-49.5, 63.2),
        (-56.0, 62.3),
        (-64.0, 61.6),
        (-71.0, 61.6),
        (-78.0, 60.6),
        (-84.0, 57.5),
        (-86.5, 55.2),
    ],
}


def _shift(lon: float) -> float:
    return lon + 360.0 if lon < LON_WEST else lon


class Frame:
    def __init__(self) -> None:
        x0, y0 = miller(LON_WEST, LAT_NORTH)
        x1, y1 = miller(LON_WEST + 360.0, LAT_SOUTH)
        self.x0, self.y0 = x0, y0
        self.scale = WIDTH / (x1 - x0)
        self.width = WIDTH
        self.height = round((y1 - y0) * self.scale, 1)

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        lat = max(min(lat, 89.0), -89.0)
        x, y = miller(lon, lat)
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale


def _shifted(geom):
    """Move parts lying west of the cut (Chukotka, far Aleutians) to the east edge."""
    parts = []
    for p in polygons_of(geom):
        if p.bounds[2] <= LON_WEST + 1e-9:
            parts.append(shapely.affinity.translate(p, xoff=360.0))
        elif p.bounds[0] < LON_WEST:
            parts.append(p.intersection(box(LON_WEST, -90, 180, 90)))
            parts.append(shapely.affinity.translate(p.intersection(box(-180, -90, LON_WEST, 90)), xoff=360.0))
        else:
            parts.append(p)
    return shapely.union_all([q for q in parts if not q.is_empty])


def build(verbose: bool = True) -> dict:
    import shapely.affinity  # noqa: F401  (used by _shifted)

    frame = Frame()
    country_of = {}
    for terr, names in COUNTRIES.items():
        for n in names:
            country_of[n] = terr
    pieces: dict[str, list] = {name: [] for _, _, _, names in CONTINENTS for name in names}
    context = []
    seen = set()
    for rec, geom in read_shapes(naturalearth_lowres()):
        name = rec["name"]
        seen.add(name)
        geom = _shifted(geom)
        if name in country_of:
            pieces[country_of[name]].append(geom)
        elif name in SPLITS:
            rest = geom
            for p in polygons_of(geom) if name in PART_WISE else [geom]:
                c = p.representative_point()
                for terr, region in SPLITS[name]:
                    if name in PART_WISE and region.contains(c) and not _is_mainland(name, p):
                        pieces[terr].append(p)
                        rest = rest.difference(p)
                        break
            for terr, region in SPLITS[name]:
                part = rest.intersection(region)
                if not part.is_empty:
                    pieces[terr].append(part)
                    rest = rest.difference(region)
            if verbose and rest.area > 0.5:
                print(f"world42: {name}: {rest.area:.1f} deg^2 left over (context)")
            if not rest.is_empty and rest.area > 0.5 and name != "Antarctica":
                context.append((LEFTOVER_NAMES.get(name, name), rest))
        elif name != "Antarctica":
            context.append((name, geom))
    missing = set(country_of) - seen
    assert not missing, f"countries not in Natural Earth: {missing}"

    geoms = {}
    for terr, plist in pieces.items():
        g = shapely.union_all([shapely.make_valid(p) for p in plist])
        g = project(g, frame)
        g = clean(g, GRID)
        polys = sorted(polygons_of(g), key=lambda p: -p.area)
        keep = [p for p in polys if p.area >= 1.0] or polys[:1]
        geoms[terr] = keep[0] if len(keep) == 1 else MultiPolygon(keep)
    names = [n for _, _, _, ns in CONTINENTS for n in ns]
    ids = {n: slug(n) for n in names}
    start = {}
    for n in names:
        if n in LABELS:
            lx, ly = frame(*LABELS[n])
            start[ids[n]] = (round(lx, 1), round(ly, 1))
        else:
            start[ids[n]] = label_point(geoms[n], 0.2)
    placed, clashes = place_labels(
        {ids[n]: geoms[n] for n in names},
        {ids[n]: n for n in names},
        start,
        LABEL_SIZE,
        fixed=frozenset(ids[n] for n in LABELS),
    )
    if verbose:
        print(f"world42: label collisions left: {clashes}")
    territories = []
    for cid, _, _, ns in CONTINENTS:
        for n in ns:
            territories.append(
                {
                    "id": ids[n],
                    "name": n,
                    "group": cid,
                    "label": list(placed[ids[n]]),
                    "path": svg_path(geoms[n]),
                }
            )
    edges = sorted({tuple(sorted((ids[a], ids[b]))) for a, b in CLASSIC_EDGES})
    assert len(edges) == 83, len(edges)
    by_id = {ids[n]: geoms[n] for n in names}
    sea_lines = []
    for a, b in edges:
        ga, gb = by_id[a], by_id[b]
        if (
            ga.distance(gb) < 0.8
            and ga.intersection(gb).length > 0.5
            or ga.buffer(0.3).intersection(gb.buffer(0.3)).area > 2.0
        ):
            continue  # they share a real border on the map
        if {a, b} == {"alaska", "kamchatka"}:
            xa = min(p[0] for p in polygons_of(ga)[0].exterior.coords)
            pa = min(polygons_of(ga)[0].exterior.coords, key=lambda p: p[0])
            kb = max((pt for p in polygons_of(gb) for pt in p.exterior.coords), key=lambda p: p[0])
            y = round((pa[1] + kb[1]) / 2, 1)
            sea_lines.append(
                {
                    "a": a,
                    "b": b,
                    "wrap": True,
                    "lines": [
                        [[round(xa + 12, 1), round(pa[1], 1)], [0.0, y]],
                        [[round(kb[0] - 12, 1), round(kb[1], 1)], [frame.width, y]],
                    ],
                }
            )
            continue
        names_ab = (next(n for n in names if ids[n] == a), next(n for n in names if ids[n] == b))
        if names_ab in ROUTES:
            pts = [frame(lon, lat) for lon, lat in ROUTES[names_ab]]
            sea_lines.append({"a": a, "b": b, "line": [[round(x, 1), round(y, 1)] for x, y in pts]})
            continue
        line = shapely.shortest_line(ga, gb)
        (x1, y1), (x2, y2) = line.coords
        sea_lines.append({"a": a, "b": b, "line": [_ext(x1, y1, x2, y2, 2.5), _ext(x2, y2, x1, y1, 2.5)]})
    ctx = []
    for name, g in sorted(context, key=lambda c: c[0]):
        g = clean(project(shapely.make_valid(g), frame), GRID)
        g = MultiPolygon([p for p in polygons_of(g) if p.area >= 1.0]) if len(polygons_of(g)) > 1 else g
        if g.is_empty or g.area < 1.0:
            continue
        ctx.append({"kind": "land", "name": name, "path": svg_path(g)})
    obj = {
        "id": "world42",
        "title": "The World (42 territories)",
        "width": frame.width,
        "height": frame.height,
        "label_size": LABEL_SIZE,
        "territories": territories,
        "edges": [list(e) for e in edges],
        "sea_links": sorted([s["a"], s["b"]] for s in sea_lines),
        "sea_lines": sorted(sea_lines, key=lambda s: (s["a"], s["b"])),
        "groups": [
            {"id": cid, "name": cname, "bonus": bonus, "territories": [ids[n] for n in ns]}
            for cid, cname, bonus, ns in CONTINENTS
        ],
        "context": ctx,
        "credits": CREDITS,
    }
    if verbose:
        print(f"world42: {len(sea_lines)} sea links: {[(s['a'], s['b']) for s in sea_lines]}")
    return obj


def _is_mainland(country: str, part: Polygon) -> bool:
    """The largest landmasses are cut by regions; smaller parts go whole to one territory."""
    return part.area > 100.0 or (country == "Australia")


def _ext(x1: float, y1: float, x2: float, y2: float, by: float) -> list[float]:
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    return [round(x1 - (x2 - x1) / d * by, 1), round(y1 - (y2 - y1) / d * by, 1)]


CREDITS = [
    {
        "what": "Country outlines (Admin 0 countries 1:110m)",
        "source": "Natural Earth, via the geopandas 0.14 package",
        "license": "Public domain",
        "url": "https://www.naturalearthdata.com/",
    },
    {
        "what": "Territories and borders of the classic 42-territory world board",
        "source": "the classic world board's layout, written down by hand; geometry drawn by this project",
        "license": "MIT (this project's code and data)",
        "url": "",
    },
]
