"""Data files kept out of ``app.zip`` (``conquest.catalog.LAZY_DIR``), fetched without
blocking the page (issue 42).

Why: the rules engine replays synchronously and never awaits, so the page once fetched such
a file with a synchronous ``XMLHttpRequest``: the page froze for as long as the network
took (seconds on a slow line, up to the browser's timeout offline), and browsers deprecate
synchronous requests on the main thread. Now the engine's read
(:func:`conquest.catalog.read_lazy`, through :meth:`LazyData.read`) answers at once: the
bytes when this page has them; otherwise it starts the fetch and raises
:class:`LazyLoading`, an ``OSError``, so the engine refuses as it would without the file.
Whoever asked (``session.Opening``, opening a game) sees :meth:`LazyData.busy`, shows that
the data is loading, and asks again once the fetch has settled (:meth:`LazyData.when_settled`):
then it has the bytes, or the reason they could not be fetched (offline and never
fetched, a 404), said once in the engine's own refusal.

Pure Python, no ``js``: the page gives the fetch (``frame._start_lazy_fetch``, an
asynchronous ``fetch``); the tests give one that answers at once or when told.
"""
from __future__ import annotations

from collections.abc import Callable

__all__ = ["WORDS", "LazyData", "LazyLoading", "current", "install", "words_for"]

#: what a file holds, for people ("Opening the game: loading <words>…")
WORDS = {"campaign_questions.json": "the questions of earlier editions of the question bank"}

#: ``start(rel, done, failed)``: begin fetching ``rel``; later call ``done(bytes)`` or
#: ``failed(why)`` (at once is fine too)
Start = Callable[[str, Callable[[bytes], None], Callable[[str], None]], None]


class LazyLoading(OSError):
    """A data file is being fetched: the need is met once it arrives (ask again then)."""


def words_for(rel: str) -> str:
    return WORDS.get(rel, f"the data file {rel}")


class LazyData:
    """The data files of one page: kept once fetched, each fetched by one request at a time."""

    def __init__(self, start: Start) -> None:
        self.start = start
        #: files this page has, by name under ``LAZY_DIR``
        self.kept: dict[str, bytes] = {}
        #: files being fetched
        self.loading: set[str] = set()
        #: why the last fetch of a file failed; said by the next read only (a failure is not
        #: kept: the need after that fetches again, the page may be online by then)
        self.failed: dict[str, str] = {}
        #: why the last fetch of a file failed, until one succeeds (for the opener's words)
        self.errors: dict[str, str] = {}
        self._waiters: list[Callable[[], None]] = []

    def read(self, rel: str) -> bytes:
        """The file's bytes, for :func:`conquest.catalog.read_lazy`; never waits. OSError with
        the reason when its last fetch failed; :class:`LazyLoading` while it is on its way."""
        if rel not in self.kept and rel not in self.failed and rel not in self.loading:
            self.loading.add(rel)
            try:
                self.start(rel, lambda data: self._arrived(rel, data), lambda why: self._failed(rel, why))
            except Exception as exc:  # noqa: BLE001 - a fetch that cannot even start is a failed one
                self._failed(rel, f"{rel} could not be fetched ({type(exc).__name__}: {exc})")
        if rel in self.kept:
            return self.kept[rel]
        if rel in self.failed:
            raise OSError(self.failed.pop(rel))
        raise LazyLoading(f"{rel} is still being fetched from the site")

    def busy(self) -> bool:
        """Whether a fetch is on its way (a refusal meanwhile may be for want of its file)."""
        return bool(self.loading)

    def what(self) -> str:
        """The files on their way, in words."""
        return " and ".join(words_for(rel) for rel in sorted(self.loading)) or "data the game needs"

    def failure_in(self, refusal: str) -> tuple[str, str] | None:
        """``(the files in words, why)`` of the failed fetches an engine's refusal names
        (``load_legacy`` puts the reason in its words), or None: a refusal for another
        reason is not blamed on the network."""
        found = sorted((rel, why) for rel, why in self.errors.items() if why[:60] in refusal)
        if not found:
            return None
        return " and ".join(words_for(rel) for rel, _ in found), "; ".join(why for _, why in found)

    def when_settled(self, fn: Callable[[], None]) -> None:
        """Call ``fn()`` once no fetch is on its way (at once when none is)."""
        if not self.loading:
            fn()
        else:
            self._waiters.append(fn)

    def _arrived(self, rel: str, data: bytes) -> None:
        self.kept[rel] = data
        self.errors.pop(rel, None)
        self._settle(rel)

    def _failed(self, rel: str, why: str) -> None:
        self.failed[rel] = self.errors[rel] = why
        self._settle(rel)

    def _settle(self, rel: str) -> None:
        self.loading.discard(rel)
        if self.loading:
            return
        waiters, self._waiters = self._waiters, []
        first: Exception | None = None
        for fn in waiters:  # each one, whatever another one raised
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 - raised once all have run
                first = first or exc
        if first is not None:
            raise first


#: the page's data files (:func:`install`); None where nothing fetches (CPython reads
#: ``LAZY_DIR`` from disk, an offline copy from itself)
current: LazyData | None = None


def install(start: Start) -> LazyData:
    """Make ``start`` the page's way to fetch a data file the engine asks for."""
    global current
    from conquest.catalog import set_lazy_fetch

    current = LazyData(start)
    set_lazy_fetch(current.read)
    return current
