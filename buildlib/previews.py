"""The landing page's pictures of each game (issue 21, item 11), drawn at build time from
the game's own data: people choose a game by its look.

Why from the engines and not from image files: a picture that is drawn from the rules data
and from a game the engine itself plays (fixed seeds, so every build draws the same) cannot
drift from what the game page shows. Each picture is a small static SVG, ``role="img"`` with
a text alternative; every piece of text in it is escaped.

- World Conquest and Short Campaign: their maps, territories coloured by owner in the seat
  colours, as dealt (World) or as the first round left them (Short Campaign, its bases);
- To Reign Supreme: a territory card with its Influenced and Controlled faces;
- The Game of Conquests: the 6x6 board in its starting position;
- Conquest Metagame: the wheel of a first invasion, weighted as its players set it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from conquest.core import get_game
from conquest.maps import MapData, load_map
from conquest.rng import Rng
from conquest.seats import PALETTE, WHEEL_COLOURS
from conquest.session import Match

__all__ = ["PREVIEWS", "preview", "world_owners", "campaign_owners", "metagame_wheel"]

#: the seed of the games played for the pictures (any fixed number: the same picture per build)
SEED = 7
NAMES = ("Ann", "Bob", "Cy")
UNOWNED = "#f4f1ea"


def _a(value: object) -> str:
    return escape(str(value), quote=True)


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _svg(view_box: str, label: str, body: Sequence[str], cls: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}" class="preview {cls}" role="img" '
            f'aria-label="{_a(label)}" focusable="false" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"><title>{escape(label)}</title>{"".join(body)}</svg>')


def _think(game: Any, bot: Any, state: Any) -> Any:
    gen = bot.think(game, state)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def map_picture(m: MapData, fills: Sequence[str], label: str, cls: str) -> str:
    """The map's territories only (no labels: a thumbnail), each filled as given by index."""
    body = [f'<rect width="{_num(m.width)}" height="{_num(m.height)}" fill="#dfeaf2"/>']
    for c in m.context:
        if c.get("kind") != "water":
            body.append(f'<path d="{_a(c.get("path", ""))}" fill="#e6e6e3" fill-rule="evenodd"/>')
    for t, fill in zip(m.territories, fills, strict=True):
        body.append(f'<path d="{_a(t.path)}" fill="{_a(fill)}" fill-rule="evenodd" stroke="#fff" '
                    f'stroke-width="{_num(max(m.width, m.height) / 600)}" data-territory="{_a(t.id)}"/>')
    return _svg(f"0 0 {_num(m.width)} {_num(m.height)}", label, body, cls)


def world_owners() -> list[int]:
    """Owners of the 42 territories, dealt at random by the engine (W3) for three players."""
    seats = [{"name": n, "colour": c} for n, c in zip(NAMES, PALETTE, strict=False)]
    m = Match(get_game("world"), {"seats": seats, "order": "fixed", "deal": True}, rng=Rng(SEED))
    m.resolve_chance()
    return list(m.state.owner)


def world_picture() -> str:
    game = get_game("world")
    m = load_map("world42")
    names = game.rules.names if hasattr(game, "rules") else None
    if names is not None and [t.name for t in m.territories] != list(names):
        raise ValueError("world42's territories are not in the engine's order")
    owners = world_owners()
    return map_picture(m, [PALETTE[o] for o in owners], "World Conquest: the world map, its 42 territories dealt "
                       "to three players", "is-world")


def campaign_owners() -> tuple[str, list[int]]:
    """(map id, owners) of a Short Campaign after its set-up: three bases drawn (S1)."""
    game = get_game("campaign")
    m = Match(game, {}, rng=Rng(SEED))
    m.resolve_chance()
    view = game.view(m.state, None)
    return str(view["map"]), [int(t["owner"]) for t in view["territories"]]


def campaign_picture() -> str:
    map_id, owners = campaign_owners()
    m = load_map(map_id)
    fills = [PALETTE[o] if o >= 0 else UNOWNED for o in owners]
    return map_picture(m, fills, "Short Campaign: its map of 15 territories with the three players' bases", "is-campaign")


def reign_picture() -> str:
    """A territory card of the rules data: its name, and the Influenced and Controlled faces."""
    rules = get_game("reign").rules
    t = rules.territories[0]
    body = ['<rect x="1" y="1" width="158" height="118" rx="8" fill="#fffdf6" stroke="#6f6a60" stroke-width="1.5"/>',
            f'<text x="80" y="20" text-anchor="middle" font-size="13" font-weight="700" fill="#1d1d1d">{escape(t.name)}</text>']
    for row, (face, side, fill) in enumerate((("Influenced", t.influenced, "#eef4fb"), ("Controlled", t.controlled, "#fdf1dc"))):
        y = 32 + row * 42
        body.append(f'<rect x="10" y="{y}" width="140" height="36" rx="5" fill="{fill}" stroke="#c9c2b4"/>')
        body.append(f'<text x="16" y="{y + 14}" font-size="10" fill="#5b5750">{face}</text>')
        vals = [("coins", side.coins.value, "#b8860b"), ("swords", side.swords.value, "#555")]
        if side.damage.value:
            vals.append(("damage", side.damage.value, "#a4262c"))
        if side.heart.value:
            vals.append(("defence", side.heart.value, "#2e7d32"))
        for i, (word, v, colour) in enumerate(vals):
            x = 16 + i * 34
            body.append(f'<circle cx="{x + 7}" cy="{y + 26}" r="6" fill="{colour}"/>')
            body.append(f'<text x="{x + 16}" y="{y + 30}" font-size="11" font-weight="700" fill="#1d1d1d">{v:+d}'
                        f'<title>{word}</title></text>' if word in ("damage", "defence") else
                        f'<text x="{x + 16}" y="{y + 30}" font-size="11" font-weight="700" fill="#1d1d1d">{v}'
                        f'<title>{word}</title></text>')
    return _svg("0 0 160 120", f"To Reign Supreme: the territory card {t.name}, its Influenced and Controlled faces",
                body, "is-reign")


def conquests_picture() -> str:
    """The 6x6 board in the game's own starting position (white below, as the page draws it)."""
    from conquest.games.conquests import rules as r

    state = Match(get_game("conquests"), {}).state
    size = r.SIZE
    cell = 20
    body = []
    for sq in range(size * size):
        col, row = sq % size, sq // size
        x, y = col * cell, (size - 1 - row) * cell
        body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{"#e9dcc0" if (col + row) % 2 else "#b58863"}"/>')
        p = state.board[sq]
        if p:
            white = r.owner_of(p) == r.WHITE
            body.append(f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="7.5" fill="{"#fff" if white else "#222"}" '
                        'stroke="#222" stroke-width="1"/>')
            body.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 3.5}" text-anchor="middle" font-size="9" '
                        f'font-weight="700" fill="{"#222" if white else "#fff"}">{escape(r.KINDS[r.kind_of(p)])}</text>')
    return _svg(f"0 0 {size * cell} {size * cell}", "The Game of Conquests: the 6x6 board in its starting position",
                body, "is-conquests")


def metagame_wheel() -> list[dict[str, Any]]:
    """The wheel of a first invasion in a campaign of three played by the engine's bots."""
    from conquest.bots import levels

    game = get_game("metagame")
    m = Match(game, {"players": [{"name": n} for n in NAMES], "seed": 0}, rng=Rng(SEED))
    bot = next(iter(levels(game).values()))(Rng(SEED))
    for _ in range(2000):
        view = game.view(m.state, None)
        if view["phase"] == "spin":
            return list(view["invasion"]["wheel"])
        m.resolve_chance()
        m.play(_think(game, bot, m.state))
    raise ValueError("the Metagame's bots reached no spin")


def metagame_picture() -> str:
    wheel = metagame_wheel()
    x = sum(int(seg["count"]) for seg in wheel)
    step = 360.0 / x
    body = []
    k = 0
    for seg in wheel:
        colour = WHEEL_COLOURS[int(seg["game"]) % len(WHEEL_COLOURS)]
        for _ in range(int(seg["count"])):
            a0, a1 = math.radians(k * step), math.radians((k + 1) * step)
            p0 = (60 + 56 * math.sin(a0), 62 - 56 * math.cos(a0))
            p1 = (60 + 56 * math.sin(a1), 62 - 56 * math.cos(a1))
            body.append(f'<path d="M60,62 L{_num(p0[0])},{_num(p0[1])} A56,56 0 0 1 {_num(p1[0])},{_num(p1[1])} Z" '
                        f'fill="{colour}" stroke="#fff" stroke-width=".8" data-game="{_a(seg["title"])}"/>')
            k += 1
    body.append('<polygon points="60,10 55,0 65,0" fill="#111"/>')
    shares = ", ".join(f"{seg['title']} {seg['count']} of {x}" for seg in wheel)
    return _svg("0 0 120 120", f"Conquest Metagame: the wheel of an invasion ({shares} slices)", body, "is-metagame")


PREVIEWS: dict[str, Callable[[], str]] = {
    "world": world_picture,
    "campaign": campaign_picture,
    "reign": reign_picture,
    "conquests": conquests_picture,
    "metagame": metagame_picture,
}


def preview(gid: str) -> str:
    """The picture of game ``gid`` as SVG markup ("" for a game without one)."""
    make = PREVIEWS.get(gid)
    return make() if make is not None else ""
