"""Render a validated map (conquest.maps.MapData) to inline SVG markup at build time.

The SVG is static and complete (the page shows the map before Python starts); styling is
done with classes and one CSS custom property per territory (``--fill``, the group colour),
so a game page can recolour territories by owner with CSS (``--owner-fill``) or classes
without touching the geometry. All text is escaped.
"""

from __future__ import annotations

from html import escape

from conquest.maps import MapData

# Paul Tol's "light" scheme (its grey swapped for tan and lavender, which read as land, not as
# the grey context): colour-blind safe, muted, dark text stays readable on it.
PALETTE = ["#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99", "#BBCC33", "#DDAA77", "#BBAADD"]
# Continents get fixed colours so the classic board always looks the same.
FIXED = {
    "north-america": "#EEDD88",
    "south-america": "#EE8866",
    "europe": "#77AADD",
    "africa": "#BBCC33",
    "asia": "#44BB99",
    "australia": "#FFAABB",
}

STYLE = """
.cq-map{background:#dfeaf2;display:block;width:100%;height:auto;touch-action:none;user-select:none}
.cq-map .ocean{fill:#dfeaf2}
.cq-map .context-land{fill:#e6e6e3;stroke:#c9c9c4;stroke-width:.5;vector-effect:non-scaling-stroke}
.cq-map .context-water{fill:#dfeaf2;stroke:#b9cfdf;stroke-width:.4;vector-effect:non-scaling-stroke}
.cq-map .territory{fill:var(--owner-fill,var(--fill,#ddd));fill-rule:evenodd;stroke:#fff;
 stroke-width:.7;stroke-linejoin:round;cursor:pointer;transition:fill .15s;vector-effect:non-scaling-stroke}
.cq-map .territory:hover,.cq-map .territory.is-hover{stroke:#333;stroke-width:1.4}
.cq-map .territory:focus{outline:none}
.cq-map .territory:focus-visible,.cq-map .territory.is-selected{stroke:#111;stroke-width:2.4}
.cq-map .territory.is-neighbour{stroke:#444;stroke-width:1.4;stroke-dasharray:3 2}
.cq-map .sea-link{fill:none;stroke:#3d5a73;stroke-width:1.3;stroke-dasharray:4 3;stroke-linecap:round;
 vector-effect:non-scaling-stroke;pointer-events:none}
.cq-map.is-panning{cursor:grabbing}
.cq-map.is-panning .territory{cursor:grabbing}
.cq-map .label{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-weight:600;
 fill:#1d1d1d;stroke:#fff;stroke-opacity:.85;stroke-linejoin:round;paint-order:stroke;
 text-anchor:middle;dominant-baseline:central;pointer-events:none}
.cq-map .legend-box{fill:#fff;fill-opacity:.9;stroke:#bbb;stroke-width:.5}
.cq-map .legend text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:#222}
.cq-map .legend .swatch{stroke:#777;stroke-width:.4}
"""


def group_colours(m: MapData) -> dict[str, str]:
    """Group id -> fill colour (fixed for continents, else the palette in group order)."""
    out = {}
    for i, g in enumerate(m.groups):
        out[g.id] = FIXED.get(g.id, PALETTE[i % len(PALETTE)])
    return out


def label_font_size(m: MapData) -> float:
    """Label font size: the generator's (collision-checked) choice, else from territory size."""
    if m.label_size:
        return m.label_size
    # label size scales with the map; world42 has fewer, larger territories
    per = (m.width * m.height / max(len(m.territories), 1)) ** 0.5
    return round(min(max(per / 8.5, 6.0), 11.0), 1)


def label_box(name: str, x: float, y: float, fs: float) -> tuple[float, float, float, float]:
    """Approximate extent (x0, y0, x1, y1) of a rendered label, for collision checks."""
    lines = label_lines(name)
    w = max(len(line) for line in lines) * fs * 0.6 + fs * 0.3
    h = len(lines) * fs * 1.1 + fs * 0.2
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def label_lines(name: str) -> list[str]:
    """Break a long name into two lines at the space nearest its middle."""
    if len(name) <= 10 or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut].rstrip(), name[cut + 1 :]]


def uncrowded(m: MapData, fs: float) -> list[int]:
    """Indexes of the territories whose labels, at font size ``fs`` (map units) and broken as
    :func:`label_lines` breaks them, overlap no other label of the list (issue 21, item 8).

    A page that wants labels larger than the map's collision-checked ``label_size`` shows
    these at that size while the map is small, and all labels at ``label_size`` once zoomed
    in far enough to read them. Greedy: labels that clash with the fewest others first
    (ties in map order), each kept when it clashes with none already kept."""
    boxes = [label_box(t.name, t.label[0], t.label[1], fs) for t in m.territories]

    def clash(a: int, b: int) -> bool:
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
        return min(ax1, bx1) > max(ax0, bx0) and min(ay1, by1) > max(ay0, by0)

    n = len(boxes)
    degree = [sum(1 for j in range(n) if j != i and clash(i, j)) for i in range(n)]
    kept: list[int] = []
    for i in sorted(range(n), key=lambda i: (degree[i], i)):
        if not any(clash(i, k) for k in kept):
            kept.append(i)
    return sorted(kept)


def label_tiers(
    m: MapData, sizes: list[float], mark: tuple[float, float] | None = None
) -> list[tuple[float, list[tuple[int, float, float]]]]:
    """Labels at the whole map in tiers of decreasing font size (map units): ``[(size,
    [(index, x, y), ...]), ...]`` (issue 21, left item 4: World's whole map at 1280 px drew
    its names at 5.6 px, so they were hidden; a page draws each tier while it is at least
    9 px on screen).

    Each tier takes, greedily as :func:`uncrowded` does, the names not yet placed that
    overlap no label already placed, at this size or a larger one. ``mark`` = (dy, r): the
    page draws a round mark of radius ``r`` at ``dy`` below each label point (World's troop
    badges); then a label sits just above its own mark and overlaps no territory's mark."""
    pts = [(t.label[0], t.label[1]) for t in m.territories]
    obstacles = [] if mark is None else [(x - mark[1], y + mark[0] - mark[1], x + mark[1], y + mark[0] + mark[1])
                                         for x, y in pts]

    def clash(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])

    placed: list[tuple[float, float, float, float]] = []
    done: set[int] = set()
    out: list[tuple[float, list[tuple[int, float, float]]]] = []
    for fs in sizes:
        at: dict[int, tuple[float, float]] = {}
        boxes: dict[int, tuple[float, float, float, float]] = {}
        for i, t in enumerate(m.territories):
            if i in done:
                continue
            x, y = pts[i]
            if mark is not None:
                x0, y0, x1, y1 = label_box(t.name, x, 0.0, fs)
                y = y + mark[0] - mark[1] - (y1 - y0) / 2 - 0.5
            box = label_box(t.name, x, y, fs)
            if any(clash(box, o) for o in obstacles) or any(clash(box, o) for o in placed):
                continue
            at[i], boxes[i] = (x, y), box
        degree = {i: sum(1 for j in boxes if j != i and clash(boxes[i], boxes[j])) for i in boxes}
        kept: list[int] = []
        for i in sorted(boxes, key=lambda i: (degree[i], i)):
            if not any(clash(boxes[i], boxes[k]) for k in kept):
                kept.append(i)
        placed += [boxes[i] for i in kept]
        done.update(kept)
        out.append((fs, [(i, round(at[i][0], 1), round(at[i][1], 1)) for i in sorted(kept)]))
    return out


def _a(value: object) -> str:
    return escape(str(value), quote=True)


def _num(v: float) -> str:
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def render_map_svg(m: MapData, *, id_prefix: str = "", interactive: bool = True) -> str:
    """Inline SVG for a map: territories, context, sea links, labels and a legend."""
    colours = group_colours(m)
    fs = label_font_size(m)
    names = {t.id: t.name for t in m.territories}
    w, h = _num(m.width), _num(m.height)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cq-map map-{_a(m.id)}" viewBox="0 0 {w} {h}" '
        f'role="group" aria-label="{_a(m.title)}" data-map="{_a(m.id)}" '
        f'preserveAspectRatio="xMidYMid meet">',
        f"<title>{escape(m.title)}</title>",
        f"<style>{STYLE.strip()}</style>",
        '<g class="viewport">',
        f'<rect class="ocean" x="0" y="0" width="{w}" height="{h}"/>',
        '<g class="context">',
    ]
    for c in m.context:
        kind = "water" if c.get("kind") == "water" else "land"
        out.append(
            f'<path class="context-{kind}" d="{_a(c.get("path", ""))}" fill-rule="evenodd">'
            f"<title>{escape(str(c.get('name', '')))}</title></path>"
        )
    out.append("</g>")
    out.append('<g class="territories">')
    for t in m.territories:
        nb = m.neighbours(t.id)
        attrs = [
            f'id="{_a(id_prefix)}t-{_a(t.id)}"',
            f'class="territory group-{_a(t.group)}"',
            f'd="{_a(t.path)}"',
            'fill-rule="evenodd"',
            f'style="--fill:{colours.get(t.group, "#ddd")}"',
            f'data-id="{_a(t.id)}"',
            f'data-name="{_a(t.name)}"',
            f'data-group="{_a(t.group)}"',
            f'data-neighbours="{_a(" ".join(nb))}"',
            f'aria-label="{_a(t.name)}"',
        ]
        if interactive:
            attrs += ['tabindex="0"', 'role="button"']
        nbnames = ", ".join(names[n] for n in nb)
        out.append(
            f"<path {' '.join(attrs)}><title>{escape(t.name)} (borders: {escape(nbnames)})</title></path>"
        )
    out.append("</g>")
    out.append('<g class="sea-links" aria-hidden="true">')
    drawn = set()
    for s in m.sea_lines:
        lines = s.get("lines") or ([s["line"]] if "line" in s else [])
        for ln in lines:
            ends = f'data-a="{_a(s.get("a", ""))}" data-b="{_a(s.get("b", ""))}"'
            if len(ln) == 2:
                (x1, y1), (x2, y2) = ln
                out.append(
                    f'<line class="sea-link" {ends} x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}"/>'
                )
            else:  # a route around land
                pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in ln)
                out.append(f'<polyline class="sea-link" {ends} points="{pts}"/>')
        drawn.add((s.get("a"), s.get("b")))
    for a, b in m.sea_links:  # links without a drawing: label to label
        if (a, b) not in drawn:
            (x1, y1), (x2, y2) = m.territory(a).label, m.territory(b).label
            out.append(
                f'<line class="sea-link" data-a="{_a(a)}" data-b="{_a(b)}" x1="{_num(x1)}" y1="{_num(y1)}" '
                f'x2="{_num(x2)}" y2="{_num(y2)}"/>'
            )
    out.append("</g>")
    out.append(f'<g class="labels" aria-hidden="true" font-size="{_num(fs)}" stroke-width="{_num(fs / 3)}">')
    for t in m.territories:
        lines = label_lines(t.name)
        x, y = t.label
        if len(lines) == 1:
            out.append(
                f'<text class="label" id="{_a(id_prefix)}l-{_a(t.id)}" x="{_num(x)}" y="{_num(y)}">'
                f"{escape(lines[0])}</text>"
            )
        else:
            y0 = y - fs * 0.55
            spans = "".join(
                f'<tspan x="{_num(x)}" y="{_num(y0 + i * fs * 1.1)}">{escape(line)}</tspan>'
                for i, line in enumerate(lines)
            )
            out.append(f'<text class="label" id="{_a(id_prefix)}l-{_a(t.id)}">{spans}</text>')
    out.append("</g>")
    out.append("</g>")  # viewport
    out.append(_legend(m, colours, fs))
    out.append("</svg>")
    return "".join(out)


def _legend(m: MapData, colours: dict[str, str], fs: float) -> str:
    """Group legend in the bottom-left corner (continent bonuses when there are any)."""
    show_bonus = any(g.bonus for g in m.groups)
    lfs = max(fs * 0.95, 7.0)
    rows = [
        (g, f"{g.name} (+{g.bonus})" if show_bonus else f"{g.name} ({len(g.territories)})") for g in m.groups
    ]
    line_h = lfs * 1.45
    width = max(len(txt) for _, txt in rows) * lfs * 0.56 + lfs * 2.6
    height = line_h * len(rows) + lfs * 1.0 + line_h
    x0 = lfs * 0.6
    y0 = m.height - height - lfs * 0.6
    out = [f'<g class="legend" font-size="{_num(lfs)}" aria-hidden="true">']
    out.append(
        f'<rect class="legend-box" x="{_num(x0)}" y="{_num(y0)}" width="{_num(width)}" '
        f'height="{_num(height)}" rx="{_num(lfs * 0.4)}"/>'
    )
    title = "Continents (bonus)" if show_bonus else "Regions (territories)"
    out.append(
        f'<text x="{_num(x0 + lfs * 0.6)}" y="{_num(y0 + line_h)}" font-weight="700">{escape(title)}</text>'
    )
    for i, (g, txt) in enumerate(rows):
        y = y0 + line_h * (i + 2)
        out.append(f'<g class="legend-row" data-group="{_a(g.id)}" data-name="{_a(g.name)}">')
        out.append(
            f'<rect class="swatch" x="{_num(x0 + lfs * 0.6)}" y="{_num(y - lfs * 0.8)}" '
            f'width="{_num(lfs)}" height="{_num(lfs)}" fill="{colours[g.id]}"/>'
        )
        out.append(f'<text x="{_num(x0 + lfs * 2.0)}" y="{_num(y)}">{escape(txt)}</text></g>')
    out.append("</g>")
    return "".join(out)
