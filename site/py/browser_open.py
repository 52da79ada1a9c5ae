"""Opening a game in the page: from a link's fragment, a saved slot or an imported file,
replayed in slices with the page answering between them (issue 20, item 10), and a copy
that plays for one seat (``?as=N``, issue 14).

Why a part of its own (issue 42): opening has its own state (the game being opened, the
seat a link asked for) and its own answers to whatever a link or a slot holds.
"""
from __future__ import annotations

import gc
import json
from typing import TYPE_CHECKING, Any

import frame
import js  # type: ignore[import-not-found]
from shell import Opening

from conquest.core import importing_games
from conquest.savecode import SaveCodeError, load_json, parse_fragment
from conquest.store import StorageError, link_name

if TYPE_CHECKING:
    from shell_browser import Runner

__all__ = ["OPEN_SLICE_MS", "SEAT_LOCKS_KEY", "Opener"]

#: a long game opens in slices this long, each its own task (issue 20, item 10)
OPEN_SLICE_MS = 40.0
#: slot id -> the seat a copy plays for (a link made for one player)
SEAT_LOCKS_KEY = "conquest:seat-locks"


class Opener:
    """The opening of ``runner``'s game (``Runner.opener``): replayed in slices, the page
    answering between them (item 10)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.shell, self.host, self.page, self.game = runner.shell, runner.host, runner.page, runner.game
        #: the game being opened in slices (``begin_open``)
        self.opening: Opening | None = None
        #: the seat a link made for one player asks for (``?as=N``), until the game is open
        self.as_seat = ""

    def begin_open(self, save: Any, done: Any, failed: Any) -> None:
        """Replay ``save`` (:class:`shell.Opening`) a slice of ``OPEN_SLICE_MS`` at a time,
        each slice its own task, with its progress in the message; then ``done(match)``, or
        ``failed(exc)`` at the first refusal. A newer opening (another link) drops this one."""
        warm = importing_games() if self.page.needs_all_games else None
        opening = Opening(save, warm, freeze=True)  # the states it keeps, out of the collector's way
        self.opening = opening
        t0 = self.host.clock()

        def next_slice() -> None:
            if self.opening is not opening:
                return
            try:
                match = opening.advance(OPEN_SLICE_MS, self.host.clock)
            except Exception as exc:  # noqa: BLE001 - whatever a save holds, the page stays up
                self.opening = None
                self.shell.clear_message()
                failed(exc)
                self.runner.finish_boot()
                return
            if match is None:
                self.shell.say(opening.progress())
                self.runner.mount("shell-toast", self.shell.render_message())
                # waiting for a data file (lazy_data): the page answers meanwhile, and the
                # opening goes on once the fetch has settled
                opening.when_ready(lambda: self.host.later(0, next_slice))
                return
            self.opening = None
            self.shell.perf.update(replay=self.host.clock() - t0, replay_steps=len(match.log),
                                   replay_slices=opening.slices)
            if self.shell.message is not None and self.shell.message[1].startswith("Opening the game"):
                self.shell.clear_message()
            self.host.later(0, lambda: finish(lambda: keep(match)))

        def keep(match: Any) -> Any:
            """The game's states are kept as long as it is open (a past step is a lookup):
            moved out of the cyclic collector's way, since each of its full passes walked them
            all, 140-180 ms under Pyodide for an 80,000-step game, in whatever task it fell
            (issue 20, item 10). They are still freed when dropped (reference counts). The
            replay froze each slice's (``Opening``'s ``freeze``); this is what came after."""
            gc.freeze()
            return lambda: done(match)

        def finish(part: Any) -> None:
            """What follows the replay, each part its own task: storing a long game and
            drawing it each take a while (``done`` may return the part that draws it)."""
            try:
                rest = part()
            except Exception as exc:  # noqa: BLE001 - said in words; the page boots all the same
                js.console.error(f"{type(exc).__name__}: {exc}")
                self.shell.refuse(exc)
                rest = None
            if callable(rest):
                self.host.later(0, lambda: finish(rest))
                return
            # the opened game's first render draws the board; what lies below it (the log, the
            # links, the chart) follows in a task of its own (a first render of all of it was
            # 150-290 ms under Pyodide), and the page says "ready" after that
            self.runner.renderer.split_below = True
            self.runner.render()
            self.host.later(0, lambda: self.runner.finish_boot(render=False))

        self.shell.say(opening.progress())
        self.host.later(0, next_slice)

    def open_fragment(self, render: bool = True) -> bool:
        """A game in the address's fragment: checked, stored in a new slot, opened.

        The fragment leaves the address bar before anything reads it (issue 20, item 2): a
        link that stops the engine itself must not stay there, or "Reload to try again" would
        only stop it again. It goes back only when the game is good and storage refused it
        (full or disabled): then the address is where the game is kept.
        """
        frag = str(js.location.hash or "")
        if len(frag) <= 1 or frame.names_a_place(frag):
            return False
        if self.page.open_fragment(frag):
            frame.drop_fragment()
            if render:
                self.runner.render()
            return True
        frame.drop_fragment()

        def failed(exc: BaseException) -> None:
            if getattr(exc, "code", "") == "data":
                # the link may be good: only a data file it needs could not be fetched (offline,
                # a 404), so the address keeps it and a reload tries again (nothing is lost)
                frame.restore_fragment(frag)
                self.shell.say(f"That link could not be opened yet: {frame.why(exc)} The link stays in the address "
                               "bar: reload the page to try again.", "error")
                return
            self.shell.say(f"That link could not be opened: {frame.why(exc)} Games already in this browser are "
                           "unchanged.", "error")

        try:
            mode, save = parse_fragment(frag)
            if save["game"] != self.game.id:
                raise SaveCodeError(
                    "game", "That link holds a game of another kind; open it from the home page."
                )
        except Exception as exc:  # noqa: BLE001 - whatever a link holds, the page stays up
            failed(exc)
            if render:
                self.runner.render()
            return False
        self.begin_open(save, lambda match: self.opened_link(match, save, mode, frag), failed)
        if render:
            self.runner.render()
        return True

    def opened_link(self, match: Any, save: Any, mode: str, frag: str) -> Any:
        """A link's game is replayed: stored in a new slot (or kept in the address); then, in
        a task of its own (returned), opened."""
        slot = None
        try:
            name = link_name(self.shell.slot_name(save, mode), self.host.now())
            slot, created = self.host.store.add_from_link(save, mode, name, self.host.now())
            if not created:
                self.shell.say(f"This game is already in your saved games as “{slot.name}”; opened it.")
            address = f"?slot={slot.id}"
        except StorageError as exc:
            address = frag  # the link is the game: a reload keeps it
            self.shell.say(f"{exc} The game stays in the address bar: copy the link before closing.", "error")

        def show() -> None:
            self.host.go(address)  # with the game on screen, in one task
            self.shell.open(match, slot, mode)
            if slot is None and self.shell.session is not None:
                self.shell.session.unsaved = True  # each step retries, and keeps the address up to date
            self.lock_seat(slot, from_link=True)

        return show

    def open_slot(self, slot_id: str, then: Any = None) -> None:
        """A stored game, replayed in slices (``begin_open``); ``then()`` once it is open."""

        def failed(exc: BaseException) -> None:
            msg = getattr(exc, "message", None) or f"This saved game cannot be opened ({type(exc).__name__})."
            listed = False
            try:
                listed = any(sl.id == slot_id for sl in self.host.store.list(self.game.id))
            except Exception:  # noqa: BLE001
                pass
            if listed and getattr(exc, "code", "") == "data":
                msg += " The game stays in your saved games as it is."  # not damaged: data it needs was not fetched
            elif listed:
                self.shell.saved.damaged[slot_id] = msg
                msg += " It is listed below with your saved games: delete it, or export it as stored."
            self.shell.say(f"{msg} Start a new game or resume another.", "error")

        def done(match: Any) -> None:
            self.shell.open(match, slot, slot.mode)
            self.lock_seat(slot, from_link=False)
            if then is not None:
                then()

        try:
            slot = self.host.store.get(slot_id)
            save = self.host.store.open(slot_id)
        except Exception as exc:  # noqa: BLE001 - whatever is stored, the page starts
            failed(exc)
            return
        self.begin_open(save, done, failed)

    def lock_seat(self, slot: Any, from_link: bool) -> None:
        """A copy that plays for one seat (``?as=N`` in a link made for one player, issue 14).

        Kept per slot in this browser (``conquest:seat-locks``), so a reload keeps it; the
        address is the person's to edit, so this prevents mistakes, not cheating.
        """
        s = self.shell.session
        if s is None:
            return
        try:
            locks = load_json(self.host.load_pref(SEAT_LOCKS_KEY) or "{}", "preference")  # bounded (issue 20)
        except ValueError:
            locks = {}
        locks = {str(k): v for k, v in locks.items() if isinstance(v, int)} if isinstance(locks, dict) else {}
        sid = slot.id if slot is not None else None
        asked = getattr(self, "as_seat", "") if from_link else ""
        self.as_seat = ""
        seat: int | None = None
        if asked.isdigit() and int(asked) < len(s.seats()):
            seat = int(asked)
            if sid is not None:
                locks[sid] = seat
                self.host.save_pref(SEAT_LOCKS_KEY, json.dumps(dict(list(locks.items())[-100:])))
        elif sid is not None and sid in locks and 0 <= locks[sid] < len(s.seats()):
            seat = locks[sid]
        s.only_seat = seat
