"""The pictures of Short Campaign's questions (issue 40), copied from ``node_modules``.

Why only the referenced files: flag-icons holds about 270 flags and @twemoji/svg about
3,700 emoji; the site ships (and the service worker caches, so a game plays offline) only
the few the banks name. Why a missing file fails the build: a picture the page cannot load
would show its alt text in place of a flag in the middle of a question, on every device,
and nobody would notice until a game drew it. The banks' picture keys are already checked
(:mod:`conquest.games.campaign.pictures`), so a key can only name one file in one folder.

Sources (pinned in package.json; credits in ``site/credits.json``):

- ``flag``: ``flag-icons/flags/4x3/<key>.svg`` (MIT);
- ``emoji``: ``@twemoji/svg/<key>.svg`` (graphics CC-BY 4.0 by Twitter/X and contributors,
  package MIT); its files lie at the package's top level.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from buildlib.errors import BuildError
from conquest.games.campaign.questions import Bank

__all__ = ["PICTURE_SOURCES", "picture_files"]

#: kind -> (npm package, the file's path inside it); ``symbol`` has no file (the page draws it)
PICTURE_SOURCES: dict[str, tuple[str, str]] = {
    "flag": ("flag-icons", "flags/4x3/{key}.svg"),
    "emoji": ("@twemoji/svg", "{key}.svg"),
}


def picture_files(banks: Iterable[Bank], node: Path) -> dict[str, bytes]:
    """``{site path: bytes}`` for every picture file the banks' questions name (each once),
    read from ``node`` (the ``node_modules`` folder); BuildError for a missing one."""
    out: dict[str, bytes] = {}
    for bank in banks:
        for q in bank.questions.values():
            pic = q.picture
            site_path = None if pic is None else pic.path()
            if pic is None or site_path is None or site_path in out:
                continue
            package, inside = PICTURE_SOURCES[pic.kind]
            src = node / package / inside.format(key=pic.key)
            if not src.is_file():
                raise BuildError(
                    src,
                    f"missing: the picture of question {q.id} ({pic.kind} {pic.key!r}); "
                    f"run `npm ci`, or the key names no file of {package}",
                )
            data = src.read_bytes()
            if not data.lstrip().startswith(b"<svg"):
                raise BuildError(src, f"the picture of question {q.id} is not an SVG file")
            out[site_path] = data
    return out
