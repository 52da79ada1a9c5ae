"""A multiple-choice question's picture (issue 40): a flag, an emoji, or an element's tile.

Why a module of its own: the engine checks a picture when it reads a bank, the page draws
it, and the build copies its file into the site; all three must agree on what a picture
is and where its file lives, and none of them may trust the bank blindly (it is generated,
and an earlier edition's file is fetched at run time). So the shape is strict here, once:

- ``kind`` is one of :data:`PICTURE_KINDS`;
- ``key`` matches its kind's pattern (:data:`KEY_PATTERNS`), so it can only ever name one
  file in one folder of the site (no dots, no slashes, nothing to escape);
- ``alt`` is the text alternative for screen readers, at most :data:`ALT_MAX` characters,
  written by the generator so that it never gives the answer away.

A bank row carries the picture as a 7th element, ``{"kind", "key", "alt"}``. A ``flag`` is
``pictures/flag/<key>.svg`` (the npm package flag-icons), an ``emoji`` is
``pictures/emoji/<key>.svg`` (@twemoji/svg); a ``symbol`` has no file: the page draws the
element's symbol as a tile. Question packs stay text-only: a pack's picture could name a
file the build never copied, and a pack travels in every link (so the page could not show
it offline, or at all), which is why :func:`conquest.games.campaign.questions.seal_pack`
refuses any field it does not know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ALT_MAX", "KEY_PATTERNS", "PICTURE_KINDS", "Picture", "PictureError", "picture_from_json"]

FLAG, EMOJI, SYMBOL = "flag", "emoji", "symbol"
PICTURE_KINDS = (FLAG, EMOJI, SYMBOL)
#: what a key may be, by kind: an ISO 3166-1 alpha-2 code in lower case; a Twemoji file stem
#: (code points in lower-case hex joined by "-", at most 10 as in the package); an element's
#: symbol ("Fe")
KEY_PATTERNS: dict[str, re.Pattern[str]] = {
    FLAG: re.compile(r"[a-z]{2}"),
    EMOJI: re.compile(r"[0-9a-f]{2,6}(?:-[0-9a-f]{2,6}){0,9}"),
    SYMBOL: re.compile(r"[A-Z][a-z]?"),
}
ALT_MAX = 200
#: control characters and lone surrogates: never in text people are read aloud
_BAD_ALT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class PictureError(ValueError):
    """A picture in a bank that is not one (the tests read every bank, so the generator's
    mistake stops there and never reaches a page)."""


@dataclass(frozen=True)
class Picture:
    """One question's picture; built only through :func:`picture_from_json` (checked)."""

    kind: str
    key: str
    alt: str

    def public(self) -> dict[str, str]:
        """What the page gets: the three fields, nothing derived (the page makes the path)."""
        return {"kind": self.kind, "key": self.key, "alt": self.alt}

    def path(self) -> str | None:
        """The file's path from the site's root (``pictures/flag/fr.svg``), or None for a
        kind the page draws itself (``symbol``)."""
        return None if self.kind == SYMBOL else f"pictures/{self.kind}/{self.key}.svg"


def picture_from_json(raw: Any, where: str = "a question") -> Picture:
    """A bank row's 7th element as a :class:`Picture`; :class:`PictureError` naming
    ``where`` (the question's id) and the fault when it is not exactly a valid picture."""
    if not isinstance(raw, Mapping) or set(raw) != {"kind", "key", "alt"}:
        raise PictureError(f'{where}: a picture must be an object with exactly "kind", "key" and "alt"')
    kind, key, alt = raw["kind"], raw["key"], raw["alt"]
    if kind not in PICTURE_KINDS:
        raise PictureError(f'{where}: a picture\'s "kind" must be one of {", ".join(PICTURE_KINDS)}')
    if not isinstance(key, str) or not KEY_PATTERNS[kind].fullmatch(key):
        raise PictureError(f"{where}: {key!r:.40} is not a {kind} picture's key")
    if not isinstance(alt, str) or not alt.strip() or len(alt) > ALT_MAX or _BAD_ALT.search(alt):
        raise PictureError(f'{where}: a picture\'s "alt" must be 1 to {ALT_MAX} characters of plain text')
    return Picture(kind, key, alt)
