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
    # the rules texts' own tables scroll sideways inside the page on a phone, as the data
    # tables do, instead of widening the page (issue 9 item 14)
    body = body.replace("<table>", '<div class="table-scroll"><table class="data">').replace(
        "</table>\n", "</table></div>\n"
    )
    # the page's <h1> comes from the markdown; demote nothing, but mark reconstructed parts
    body = body.replace("<blockquote>\n<p><strong>Reconstructed:</strong>", '<blockquote class="reconstructed">\n<p><strong>Reconstructed:</strong>')
    return body


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


