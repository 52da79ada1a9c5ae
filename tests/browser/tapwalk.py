"""What a person sees after each tap (issue 41): the newest result and the next decision.

Every page marks, in its ``ui`` tree, the newest result of the last action (a roll, a battle,
a reveal, a refusal) with ``data-now="result"`` and the control or panel to act on next with
``data-now="next"``; the shell brings them into view after every render that follows a tap
or a peer's message (``shell_browser.py``, ``guest-dom.js``). :func:`out_of_view` measures it
the way a person would: each marked element's box against the viewport (and against the
scrolling sheet it sits in, on a phone's play screen), not only its presence.
"""

from __future__ import annotations

from typing import Any

#: returns one line per marked element that is not on the screen (empty: all in view)
_OUT_OF_VIEW = """() => {
    const out = [];
    for (const el of document.querySelectorAll('[data-now]')) {
        if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
        const b = el.getBoundingClientRect();
        // the sheet under a phone's map, when it is the box that scrolls (on a wide screen
        // a sheet may be laid out as no box at all: display: contents)
        const sheet = el.closest('.play-sheet');
        const scrolls = sheet && sheet.getBoundingClientRect().height > 0 && sheet.scrollHeight > sheet.clientHeight + 1;
        const s = scrolls ? sheet.getBoundingClientRect() : null;
        const top = Math.max(0, s ? s.top : 0), bottom = Math.min(innerHeight, s ? s.bottom : innerHeight);
        // an element taller than the room it has must start on screen; else all of it is on screen
        const room = bottom - top;
        const ok = b.height > room + 0.5
            ? b.top >= top - 0.5 && b.top < bottom
            : b.top >= top - 0.5 && b.bottom <= bottom + 0.5;
        const sideways = b.left < -0.5 || b.right > innerWidth + 0.5;
        if (!ok || sideways) {
            out.push(`${el.dataset.now} ${el.tagName.toLowerCase()}#${el.id} "${el.textContent.trim().slice(0, 60)}" ` +
                     `at ${b.top.toFixed(0)}..${b.bottom.toFixed(0)} px (room ${top.toFixed(0)}..${bottom.toFixed(0)})`);
        }
    }
    return out;
}"""


def out_of_view(page: Any) -> list[str]:
    """The marked elements (``data-now``) that are not inside the screen, in words."""
    return list(page.evaluate(_OUT_OF_VIEW))


def marked(page: Any) -> dict[str, int]:
    """How many elements carry each mark (a page that marks nothing is not checked by
    :func:`out_of_view`: a walk asserts the marks are there)."""
    return dict(page.evaluate(
        "() => { const n = {}; for (const el of document.querySelectorAll('[data-now]')) "
        "n[el.dataset.now] = (n[el.dataset.now] || 0) + 1; return n; }"
    ))


def settle(page: Any) -> None:
    """Wait for the page's own smooth scrolling to come to rest (two frames without motion)."""
    page.evaluate(
        """() => new Promise((done) => {
            let last = -1, still = 0, frames = 0;
            const tick = () => {
                const y = scrollY + [...document.querySelectorAll('.play-sheet')].reduce((a, s) => a + s.scrollTop, 0);
                still = y === last ? still + 1 : 0; last = y;
                if (still >= 2 || ++frames > 120) done(); else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
        })"""
    )
