"""The landing page (issue 41), in CPython: each game once with its picture, name, one line,
Play and Rules; the few most recent games to continue, first."""
from __future__ import annotations

import importlib
import re
import sys
import types

import build
from conquest.store import Slot


def index_html() -> str:
    inp = build.load_inputs()
    pages = build.render_pages(inp, [p for p in build.plan_pages(inp) if p.path == "index.html"], "test")
    return pages["index.html"].decode()


def test_each_game_once_with_its_picture_play_and_rules() -> None:
    html = index_html()
    from conquest.core import games

    cards = re.findall(r'<li class="card" data-game="([a-z]+)">(.*?)</li>', html, re.S)
    assert sorted(g for g, _ in cards) == sorted(games())
    for gid, body in cards:
        assert body.count("<h3>") == 1 and f'src="previews/{gid}.svg"' in body
        assert f'href="play/{gid}/">Play</a>' in body and f'href="rules/{gid}/"' in body
    assert html.count("<h3>") == len(games())  # no second list of the games
    assert "Read the rules" not in html
    # the continue list comes before the games
    assert html.index('id="continue"') < html.index('class="cards"')


def home_module():  # noqa: ANN201
    """site/py/pages/home.py with a stand-in for the browser's ``frame``."""
    fake = types.ModuleType("frame")
    fake.document = None
    for name in ("append", "clear", "el", "on"):
        setattr(fake, name, lambda *a, **k: None)
    had = sys.modules.get("frame")
    sys.modules["frame"] = fake
    sys.path.insert(0, str(build.ROOT / "site" / "py" / "pages"))
    try:
        return importlib.import_module("home")
    finally:  # nothing of it stays for the other tests
        sys.path.pop(0)
        sys.modules.pop("home", None)
        if had is None:
            sys.modules.pop("frame", None)
        else:
            sys.modules["frame"] = had


def test_the_most_recent_games_to_continue() -> None:
    home = home_module()
    old = Slot("a1", "world", "Old", "host", 1.0, 10.0, 5)
    done = Slot("b2", "reign", "Done", "host", 1.0, 30.0, 40, result="Ann won")
    view = Slot("c3", "world", "Seen", "view", 1.0, 40.0, 9)
    gone = Slot("d4", "retired", "Gone", "host", 1.0, 50.0, 3)
    now = Slot("e5", "world", "World night", "host", 1.0, 20.0, 212)
    mid = Slot("f6", "reign", "Cards", "host", 1.0, 15.0, 7)
    older = Slot("g7", "campaign", "Quiz", "host", 1.0, 5.0, 7)
    got = home.to_continue([old, done, view, gone, now, mid, older], {"world", "reign", "campaign"})
    assert [s.id for s in got] == ["e5", "f6", "a1"]  # three at most, most recent first
    assert home.to_continue([done, view], {"world", "reign"}) == []
