"""The metagame engine's structure (issue 10, A): one phase table, no import loop, games read
from the registry and the catalog, titles wherever people see a game."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

import conquest.catalog as catalog_mod
import conquest.core as core
from conquest.catalog import GameFacts
from conquest.core import Game, IllegalAction, games
from conquest.games.metagame import GAME, PHASE_RULES, Phase, duels
from conquest.games.metagame.actions import parse_action
from conquest.games.metagame.phases import PROMPT_FIELDS, Seat
from conquest.games.metagame.state import PHASES
from conquest.games.metagame.view import counted, prompt_values
from conquest.rng import Rng
from conquest.session import Match

PACKAGE = Path(__file__).resolve().parent.parent / "conquest" / "games" / "metagame"
SAVED_PHASES = [
    "capital", "turn", "sacrifice", "block", "slices_a", "slices_d", "spin", "spinning",
    "respin_a", "respin_d", "duel", "gift", "over",
]  # fmt: skip


# ------------------------------------------------------------------------------------------
# A1: phases as a str enum, one table
# ------------------------------------------------------------------------------------------
def test_phases_are_a_str_enum_with_the_saved_strings() -> None:
    assert issubclass(Phase, StrEnum) and [p.value for p in Phase] == SAVED_PHASES
    assert list(PHASES) == SAVED_PHASES
    m = Match(GAME, {"seed": 1})
    assert m.state.phase is Phase.CAPITAL
    obj = GAME.state_to_json(m.state)
    assert obj["phase"] == "capital" and type(obj["phase"]) is str
    assert json.dumps(GAME.view(m.state, None)["phase"]) == '"capital"'
    again = GAME.state_from_json(json.loads(json.dumps(obj)))
    assert again.phase is Phase.CAPITAL and again == m.state


def test_the_table_covers_every_phase_and_its_prompts_use_known_fields() -> None:
    assert set(PHASE_RULES) == set(Phase)
    fields = set(PROMPT_FIELDS)
    for phase, rule in PHASE_RULES.items():
        for template in (rule.prompt, rule.alt_prompt):
            used = set(re.findall(r"{(\w+)}", template))
            assert used <= fields, (phase, used - fields)
        assert (rule.chance is not None) == (phase is Phase.SPINNING)
        assert (rule.seat is Seat.NOBODY) == (phase in (Phase.SPINNING, Phase.OVER))


def _campaign_states(seed: int, steps: int = 400) -> Iterator[Any]:
    """States of a seeded campaign on a small grid, invasion-heavy so every phase is met."""
    from test_metagame import grid_map

    rng = Rng(seed)
    m = Match(GAME, {"players": 3, "map_data": grid_map(5, 5), "seed": seed, "token_pool": None}, rng=rng)
    for i in range(steps):
        yield m.state
        if GAME.outcome(m.state) is not None:
            return
        acts = GAME.legal_actions(m.state)
        invasions = [a for a in acts if str(a).startswith("i")]
        if i % 17 == 5:  # host corrections now and then give tokens, so blocks and re-spins happen
            try:
                m.play(f"!t{m.state.current}{'br'[i % 2]}=2")
                continue
            except IllegalAction:
                pass
        m.play(invasions[0] if invasions and rng.below(3) else acts[rng.below(len(acts))])


def test_the_table_decides_what_each_phase_allows_offers_and_asks() -> None:
    met: set[Phase] = set()
    probes = [parse_action(t) for t in ("p", "c3", "i3", "s-", "b-", "w1,1,1", "spin", "r0 1", "x-", "da", "g3",
                                         "k3", "!o3=0", "!end")]  # fmt: skip
    for seed in (1, 2, 3):
        for state in _campaign_states(seed):
            rule = PHASE_RULES[state.phase]
            met.add(state.phase)
            assert {type(a) for a in GAME.legal_actions(state)} <= set(rule.moves)
            seat = GAME.to_move(state)
            expected = {
                Seat.CURRENT: state.current,
                Seat.ATTACKER: state.inv.attacker if state.inv else None,
                Seat.DEFENDER: state.inv.defender if state.inv else None,
                Seat.NOBODY: None,
            }[rule.seat]
            assert seat == expected
            view = GAME.view(state, None)
            template = rule.alt_prompt if view["eligible"] and view["eligible"]["kind"] == "capital_override" else rule.prompt
            assert view["prompt"] == template.format(**counted(prompt_values(state, view["eligible"])))
            for action in probes:  # anything the table does not allow is refused
                if type(action) not in rule.allows:
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, action)
    # the wheel is drawn inside ``play``, so no state at rest is ever at the draw
    assert met == set(Phase) - {Phase.SPINNING}, set(Phase) - met


def test_no_phase_decisions_over_bare_strings() -> None:
    """The ``if ph == "..."`` chains are gone from the engine, the view and the bot: no
    comparison anywhere in them involves a phase's saved string."""
    bot = PACKAGE.parent.parent / "bots" / "metagame_greedy.py"
    for path in (PACKAGE / "engine.py", PACKAGE / "view.py", PACKAGE / "game.py", bot):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        compared = {
            sub.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Compare)
            for sub in ast.walk(node)
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str)
        }
        assert not compared & set(SAVED_PHASES), (path.name, compared & set(SAVED_PHASES))


# ------------------------------------------------------------------------------------------
# A2: no import loop
# ------------------------------------------------------------------------------------------
def _imports(module: str) -> set[str]:
    """Sibling modules of the metagame package that ``module`` imports (anywhere in it)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            name = node.module
            if name.startswith("conquest.games.metagame."):
                found.add(name.rsplit(".", 1)[1])
            elif node.level and name:
                found.add(name)
        elif isinstance(node, ast.Import):
            found |= {a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith("conquest.games.metagame.")}
    return found


def test_view_imports_engine_and_never_the_reverse() -> None:
    modules = [p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"]
    graph = {m: _imports(m) & set(modules) for m in modules}
    assert "engine" in graph["view"] and "view" not in graph["engine"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start])

    for m in modules:
        assert not reaches(m, m, set()), f"import loop through {m}"
    assert not reaches("engine", "view", set())


# ------------------------------------------------------------------------------------------
# A3: the games of the wheel from the registry and the catalog
# ------------------------------------------------------------------------------------------
def test_known_builtins_are_gone() -> None:
    from conquest.games.metagame import engine, view

    assert not hasattr(engine, "KNOWN_BUILTINS") and not hasattr(view, "KNOWN_BUILTINS")
    expected = {
        gid: catalog_mod.catalog()[gid].title
        for gid, g in games().items()
        if gid != "metagame" and g.min_players <= 2 <= g.max_players
    }
    assert duels.builtin_games() == expected


class _FakeDuel(Game[int, str]):
    """A two-player game registered on the fly: it must join the metagame with no change there."""

    id = "zzduel"

    def new_game(self, options: Any, seed: int) -> int:
        return 0

    def legal_actions(self, state: int) -> list[str]:
        return []

    def apply(self, state: int, action: str) -> int:
        return state

    def outcome(self, state: int) -> None:
        return None

    def to_move(self, state: int) -> None:
        return None

    def view(self, state: int, player: int | None) -> dict[str, Any]:
        return {}

    def parse_action(self, text: str) -> str:
        return text

    def state_to_json(self, state: int) -> dict[str, Any]:
        return {}

    def state_from_json(self, obj: Any) -> int:
        return 0


def _facts(gid: str, title: str, seats: tuple[int, int]) -> GameFacts:
    return GameFacts(gid, title, seats[0], seats[1], "2 seats", "", "Z", 99, "test")


@pytest.fixture
def fake_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A later two-player game with an engine (zzduel), one whose engine is not written yet
    (zzghost), and a later three-player one (zztrio)."""
    catalog_mod.catalog()
    games()
    monkeypatch.setitem(catalog_mod._CATALOG, "zzduel", _facts("zzduel", "Duel Later", (2, 2)))
    monkeypatch.setitem(catalog_mod._CATALOG, "zzghost", _facts("zzghost", "Ghost Duel", (1, 2)))
    monkeypatch.setitem(catalog_mod._CATALOG, "zztrio", _facts("zztrio", "Trio", (3, 4)))
    monkeypatch.setitem(core._REGISTRY, "zzduel", _FakeDuel())
    duels.clear_caches()
    yield
    duels.clear_caches()


def test_a_later_two_player_game_joins_with_no_change(fake_games: None) -> None:
    assert duels.builtin_games()["zzduel"] == "Duel Later"
    assert "zzghost" not in duels.builtin_games() and "zztrio" not in duels.builtin_games()
    assert {"zzduel", "zzghost"} <= set(duels.default_games()) and "zztrio" not in duels.default_games()
    assert GAME.normalize_options({})["games"] == list(duels.default_games())
    m = Match(GAME, {"seed": 1, "games": ["zzduel", "zzghost", "Chess"]})
    entries = GAME.view(m.state, None)["games"]
    assert [(g["name"], g["title"], g["id"], g["builtin"]) for g in entries] == [
        ("zzduel", "Duel Later", "zzduel", True),
        ("zzghost", "Ghost Duel", "zzghost", False),  # a rules page but no engine yet: title, not built in
        ("Chess", "Chess", None, False),
    ]


# ------------------------------------------------------------------------------------------
# titles wherever people see a game
# ------------------------------------------------------------------------------------------
def _texts(obj: Any, key: str = "") -> Iterator[str]:
    """Every string of a view people read (not the entries' keys: name, id, game, map)."""
    if isinstance(obj, str):
        if key not in {"name", "id", "game", "map", "phase", "legal", "kind", "ids", "target_id", "capital_id"}:
            yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _texts(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from _texts(v, key)


def test_people_see_titles_never_ids() -> None:
    seen_duel = False
    for seed in (1, 2, 3):
        for state in _campaign_states(seed, 250):
            ids = [g for g in state.games if g in catalog_mod.catalog()]
            assert ids == ["conquests", "reign"]
            view = GAME.view(state, None)
            if state.phase is Phase.DUEL:
                seen_duel = True
                assert view["invasion"]["chosen_game"]["title"] in view["prompt"]
            for entry in view["games"] + (view["invasion"] or {}).get("wheel", []):
                assert entry["title"] == duels.game_title(entry["name"])
            for text in _texts(view):
                assert not any(re.search(rf"\b{gid}\b", text) for gid in ids), text
    assert seen_duel
    from test_metagame import REST, ROWS01, position

    m = position({0: ROWS01, 1: REST})
    m.play("i10")
    m.play("s-")
    line = GAME.describe_action(m.state, parse_action("w5,5"))
    assert line.endswith("The Game of Conquests 5, To Reign Supreme 5")
    assert "game 4 (not on the list of 3)" in GAME.describe_action(m.state, parse_action("w,,,1"))
    m.play("w5,5")
    m.play("w7,7,1")
    m.play("spin")
    drawn = GAME.describe_action(m.states[-2], parse_action(m.log[-1]))
    assert "The Game of Conquests 12, To Reign Supreme 12, Chess 1" in drawn
    assert not re.search(r"\b(conquests|reign)\b", drawn)
