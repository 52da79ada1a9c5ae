"""Rules pages: markdown to HTML, with the tables and diagrams each game gives from its data.

Why apart from build.py: the markers (``[[table:<game>:<name>]]``) and their renderers are
the rules pages' own business; build.py only asks for a page's HTML.
"""
from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from buildlib.errors import BuildError

ROOT = Path(__file__).resolve().parent.parent

def markdown_to_html(text: str, source: Path, replacements: dict[str, Callable[[], str]]) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": True}).enable("table")
    out: list[str] = []
    chunk: list[str] = []
    for line in text.splitlines():
        marker = re.fullmatch(r"\s*\[\[([a-z]+:[a-z0-9-]+(?::[a-z0-9-]+)?)\]\]\s*", line)
        if marker:
            out.append(md.render("\n".join(chunk)))
            chunk = []
            key = marker.group(1)
            if key not in replacements:
                raise BuildError(source, f"unknown marker [[{key}]]")
            out.append(replacements[key]())
        else:
            chunk.append(line)
    out.append(md.render("\n".join(chunk)))
    body = "".join(out)
    # the page's <h1> comes from the markdown; demote nothing, but mark reconstructed parts
    body = body.replace("<blockquote>\n<p><strong>Reconstructed:</strong>", '<blockquote class="reconstructed">\n<p><strong>Reconstructed:</strong>')
    return body


def world_card_table(data: dict[str, Any], source: Path) -> str:
    """W5's trade values, from the game's data file conquest/data/world.json."""
    values = data["trade_values"]
    step = data["trade_step_after"]
    rows = "".join(f"<tr><td>{i + 1}</td><td>{v}</td></tr>" for i, v in enumerate(values))
    n = len(values)
    more = "".join(
        f"<tr><td>{n + k}</td><td>{values[-1] + step * k}</td></tr>" for k in range(1, 3)
    )
    return (
        '<table class="data"><caption>Card trade values, counted over the whole game (W5)</caption>'
        "<thead><tr><th>Trade</th><th>Troops</th></tr></thead><tbody>"
        f"{rows}{more}<tr><td>then</td><td>+{step} each trade</td></tr></tbody></table>"
    )


def world_continent_table(maps: list[Any], source: Path) -> str:
    """W1's continents and bonuses: the groups of the world42 map."""
    world = next((m for m in maps if m.id == "world42"), None)
    if world is None:
        raise BuildError(ROOT / "conquest" / "data" / "maps" / "world42.json", "needed for [[table:world-continents]]")
    rows = "".join(
        f"<tr><td>{html.escape(g.name)}</td><td>{len(g.territories)}</td><td>+{g.bonus}</td></tr>"
        for g in world.groups
    )
    return (
        '<table class="data"><caption>Continents and their bonuses (W1, W4)</caption>'
        "<thead><tr><th>Continent</th><th>Territories</th><th>Bonus</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def data_table(table: dict[str, Any], source: Path) -> str:
    """One table a game gives its rules page (``Game.rules_tables``), escaped here."""
    try:
        caption, head, rows = table["caption"], table["head"], table["rows"]
    except (KeyError, TypeError):
        raise BuildError(source, "a rules table needs caption, head and rows") from None
    cell = lambda v: html.escape(str(v))  # noqa: E731
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return (
        f'<div class="table-scroll"><table class="data"><caption>{cell(caption)}</caption>'
        "<thead><tr>" + "".join(f"<th>{cell(h)}</th>" for h in head) + "</tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
    )


def conquests_diagrams(data: dict[str, Any], source: Path) -> str:
    try:
        from buildlib.conquests_diagrams import render_move_diagrams
    except ImportError as exc:
        raise BuildError(ROOT / "buildlib" / "conquests_diagrams.py", f"cannot import: {exc}") from None
    figures = []
    for d in render_move_diagrams(data):
        figures.append(
            f'<figure class="move-diagram">{d["svg"]}<figcaption>{html.escape(d["caption"])}</figcaption></figure>'
        )
    return '<div class="move-diagrams">' + "".join(figures) + "</div>"


