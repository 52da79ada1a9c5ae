"""The rules-page move diagrams of The Game of Conquests (drawn from the data file)."""
from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import svgwrite  # noqa: F401,E402  (the build extra; installed by ./dev test)

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # buildlib is a folder of the repository, not an installed package
    sys.path.insert(0, str(ROOT))

from buildlib.conquests_diagrams import describe_moves, direction_name, render_move_diagrams  # noqa: E402

DATA = json.loads((ROOT / "conquest" / "data" / "conquests.json").read_text(encoding="utf-8"))
SVG = "{http://www.w3.org/2000/svg}"


def test_one_diagram_per_fighter_and_level():
    out = render_move_diagrams(DATA)
    assert [(d["fighter"], d["level"]) for d in out] == [
        ("Soldier", 1), ("Soldier", 2),
        ("Archer", 1), ("Archer", 2), ("Archer", 3),
        ("Lancer", 1), ("Lancer", 2), ("Lancer", 3),
        ("Champion", 1), ("Champion", 2), ("Champion", 3),
        ("General", 1),
    ]


def test_diagrams_are_accessible_svg():
    for d in render_move_diagrams(DATA):
        root = ET.fromstring(d["svg"])
        assert root.get("role") == "img"
        label = root.get("aria-label")
        assert label and label.startswith(f"{d['fighter']}, level {d['level']}:")
        title = root.find(f"{SVG}title")
        assert title is not None and title.text == label
        assert d["caption"].startswith(f"{d['fighter']}, level {d['level']}:")
        assert "id=" not in d["svg"]  # many diagrams share one page


def test_dots_for_steps_and_arrows_for_slides():
    by_key = {(d["fighter"], d["level"]): ET.fromstring(d["svg"]) for d in render_move_diagrams(DATA)}

    def count(root, tag):
        moves = [g for g in root.iter(f"{SVG}g") if g.get("class") == "moves"][0]
        return len(list(moves.iter(f"{SVG}{tag}")))

    assert count(by_key[("Soldier", 1)], "circle") == 3 and count(by_key[("Soldier", 1)], "polygon") == 0
    assert count(by_key[("General", 1)], "circle") == 8
    assert count(by_key[("Champion", 1)], "polygon") == 8 and count(by_key[("Champion", 1)], "circle") == 0
    assert count(by_key[("Archer", 2)], "polygon") == 2 and count(by_key[("Archer", 2)], "circle") == 2


def test_moves_in_words():
    assert direction_name([0, 1]) == "forward" and direction_name([1, -1]) == "diagonally back-right"
    lancer2 = DATA["fighters"]["L"]["levels"]["2"]
    assert describe_moves(lancer2) == (
        "slides forward, any distance; steps one square sideways (left or right) or back"
    )
    limited = [{"kind": "slide", "range": 2, "vectors": [[0, 1]]}]
    assert describe_moves(limited) == "slides forward, up to 2 squares"
    data = {"kinds": ["L"], "fighters": {"L": {"name": "Lancer", "levels": {"1": limited}}}}
    svg = render_move_diagrams(data)
    assert ">2</text>" in svg[0]["svg"]  # the range is written at the arrow's tip


def test_text_is_escaped():
    data = {"fighters": {"X": {"name": "<b>&", "levels": {"1": []}}}}
    svg = render_move_diagrams(data)[0]["svg"]
    ET.fromstring(svg)
    assert "<b>" not in svg
