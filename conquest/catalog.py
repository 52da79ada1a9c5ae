"""Each game's facts, declared once: id, title, seats, blurb, ruling prefix, site order.

Why here and not in the engine or in build.py: the site lists the rules of games whose
engine does not exist yet, the engines need their titles for messages, and the pages
need seats and titles for set-up. So the facts live in the game's own data file,
``conquest/data/<id>.json``, under the key ``"facts"``, and this module is the one
reader that build.py, the engines (``Game.title`` etc.) and the pages share.

A game's data file is therefore the place to add a game to the site: one engine package,
one data file, one template.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "DATA_DIR",
    "LAZY_DIR",
    "CatalogError",
    "GameFacts",
    "catalog",
    "facts",
    "load_data",
    "read_lazy",
    "set_lazy_fetch",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
#: data only some saves need (questions of earlier editions of a bank): kept out of the
#: page's ``app.zip``, which every first visit downloads, and served beside it (build.py);
#: read with :func:`read_lazy`, only when needed
LAZY_DIR = DATA_DIR / "legacy"

_lazy_fetch: Callable[[str], bytes] | None = None


def set_lazy_fetch(fetch: Callable[[str], bytes] | None) -> None:
    """Where :func:`read_lazy` gets a file that is not on disk: the page sets a fetch from the
    site (``fetch(relative path under LAZY_DIR) -> bytes``, raising OSError when it fails)."""
    global _lazy_fetch
    _lazy_fetch = fetch


def read_lazy(rel: str) -> bytes:
    """A file under :data:`LAZY_DIR` (``rel`` like ``"campaign_questions.json"``): from disk
    (CPython, or a page that fetched it before), else through the page's fetch, then kept on
    the page's disk so it is fetched at most once. OSError when neither has it."""
    path = LAZY_DIR / rel
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if _lazy_fetch is None:
            raise
    data = _lazy_fetch(rel)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError:
        pass  # kept in memory by the caller anyway
    return data


class CatalogError(ValueError):
    """A data file whose facts are missing or malformed; names the file."""


@dataclass(frozen=True)
class GameFacts:
    """What every part of the site says of one game."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    #: one line for people: "3–6 seats, hot-seat or bots"
    players: str
    blurb: str
    #: prefix of this game's rulings in shared/spec/rulings.md ("M", "W", ...)
    ruling_prefix: str
    #: position on the landing page
    order: int
    #: the data file the facts come from, for error messages
    source: str

    @property
    def play_path(self) -> str:
        """The play page's path under the site root (the contract build.py writes)."""
        return f"play/{self.id}/"

    @property
    def rules_path(self) -> str:
        return f"rules/{self.id}/"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "players": self.players,
            "blurb": self.blurb,
            "ruling_prefix": self.ruling_prefix,
        }


def load_data(game_id: str) -> dict[str, Any]:
    """A game's whole data file (tunable numbers and its facts)."""
    path = DATA_DIR / f"{game_id}.json"
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(f"conquest/data/{game_id}.json: cannot read: {exc}") from None
    if not isinstance(obj, dict):
        raise CatalogError(f"conquest/data/{game_id}.json: expected an object")
    return obj


def _parse_facts(game_id: str, raw: Any) -> GameFacts:
    source = f"conquest/data/{game_id}.json"
    if not isinstance(raw, dict):
        raise CatalogError(f"{source}: 'facts' must be an object")
    need = {"title": str, "seats": list, "players": str, "blurb": str, "ruling_prefix": str, "order": int}
    for key, kind in need.items():
        if not isinstance(raw.get(key), kind):
            raise CatalogError(f"{source}: facts.{key} must be a {kind.__name__}")
    seats = raw["seats"]
    if (
        len(seats) != 2
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in seats)
        or not 1 <= seats[0] <= seats[1] <= 8
    ):
        raise CatalogError(f"{source}: facts.seats must be [min, max] with 1 <= min <= max <= 8")
    return GameFacts(
        id=game_id,
        title=raw["title"],
        min_seats=seats[0],
        max_seats=seats[1],
        players=raw["players"],
        blurb=raw["blurb"],
        ruling_prefix=raw["ruling_prefix"],
        order=raw["order"],
        source=source,
    )


_CATALOG: dict[str, GameFacts] | None = None


def catalog() -> dict[str, GameFacts]:
    """Every game with facts, in site order (the data files that have a ``facts`` key)."""
    global _CATALOG
    if _CATALOG is None:
        found = []
        for path in sorted(DATA_DIR.glob("*.json")):
            obj = load_data(path.stem)
            if "facts" in obj:
                found.append(_parse_facts(path.stem, obj["facts"]))
        found.sort(key=lambda f: (f.order, f.id))
        _CATALOG = {f.id: f for f in found}
    return _CATALOG


def facts(game_id: str) -> GameFacts:
    """One game's facts; reads only that game's data file when the catalog is not built."""
    if _CATALOG is not None:
        try:
            return _CATALOG[game_id]
        except KeyError:
            raise KeyError(f"no facts for game {game_id!r}") from None
    obj = load_data(game_id)
    if "facts" not in obj:
        raise CatalogError(f"conquest/data/{game_id}.json: no 'facts'")
    return _parse_facts(game_id, obj["facts"])
