"""The status bar (whose turn, what to do, who has chosen, Undo beside it) and the pass screen
(hot-seat: the device goes to the next person, who presses Ready).

Why parts of their own (issue 42): each is a part of the page with its own controls and
handlers: the bar's Undo (with its question when several people share the device) and the
pass screen's Ready. While a pass screen stands nothing else reacts (``Shell.pending``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from session import and_list, tap_word_lower
from shell_log import HIDDEN_CODE
from ui import Node, h

from conquest.core import ConquestError

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["PassScreen", "StatusBar"]


class StatusBar:
    """The sticky bar of the game open in ``shell`` (``Shell.bar``) and its Undo."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def chosen_words(self) -> str:
        """Who has already chosen at an open secret step ("Bob has chosen; waiting for Ann"),
        the same words on every device of a live table and at a hot-seat device (issue 22):
        names only, never a choice. "" when no secret step is open, nobody has chosen yet,
        or an earlier step is on screen."""
        s = self.shell.session
        if s is None or s.viewing is not None:
            return ""
        secret = self.shell.game.simultaneous(s.match.state)
        done = s.chosen_seats()
        if not secret or not done:
            return ""
        names = [s.seat_name(x) for x in done]
        left = [s.seat_name(x) for x in secret if x not in done]
        words = f"{and_list(names)} {'has' if len(names) == 1 else 'have'} chosen"
        if left:
            words += f"; waiting for {and_list(left)}"
        return words

    def render(self, prompt: str) -> Node:
        """The sticky bar: whose turn, what to do, and Undo beside it (a finished game's next
        steps are right under it, ``Results.render_over_row``)."""
        s = self.shell.session
        assert s is not None
        over = bool(self.shell.result.words()) and s.viewing is None
        seat = s.acting_seat()
        seats = s.seats()
        swatch = None
        if seat is not None and seat < len(seats):
            swatch = h("span", cls="swatch", style=f"background:{seats[seat].colour}", aria_hidden="true")
        step = f"Step {s.step()} of {len(s.match.log)}" if s.viewing is not None else f"Step {len(s.match.log)}"
        chosen = self.chosen_words()
        undo = None
        if s.mode == "host" and not over:
            undo = h(
                "button", "Undo", type="button", id="shell-undo", cls="secondary small",
                disabled=s.locked() or not s.match.log or self.shell.pending() is not None,
                on_click=lambda ev: self.undo(),
                aria_label="Undo the last step",
            )
        thinking = None
        if s.bot is not None or s.bot_to_act() is not None:
            who = s.seat_name(s.bot.seat if s.bot else s.bot_to_act())
            progress = s.bot.progress() if s.bot is not None else None
            thinking = h(
                "span",
                h("span", f"{who} (computer) is thinking…", cls="shell-thinking-text"),
                h("progress", max="100", value=str(int(progress * 100)), id="shell-bot-progress",
                  aria_label="How far the computer has thought") if progress is not None else None,
                h("button", "Stop", type="button", id="shell-bot-stop", cls="small secondary",
                  on_click=lambda ev: self.shell.bots.stop()),
                id="shell-thinking", cls="shell-thinking", role="status",
            )
        elif s.bots_paused and any(x.is_bot for x in seats) and not s.locked():
            thinking = h("button", "Let the computer play", type="button", id="shell-bot-go", cls="small",
                         on_click=lambda ev: self.shell.bots.resume())
        return h(
            "div",
            swatch,
            h("p", h("span", f"{step} · ", cls="shell-stepno"), h("span", prompt, id="shell-prompt"),
              h("span", f" · {chosen}", id="shell-chosen", cls="shell-chosen") if chosen else None),
            thinking,
            undo,
            id="shell-bar-inner",
            cls="shell-bar-inner" + (" is-past" if s.viewing is not None else ""),
        )

    def undo(self) -> None:
        """Take back the last step (and the computer's steps after the last person's).

        Several people at one device: asked first, naming the step and whose it is, since
        it may be another person's; if it is, the device goes to that person and a pass
        screen comes before anything private is drawn (``Session.follow_device``)."""
        s = self.shell.session
        if s is None:
            return
        try:
            self.shell.refuse_if_pending()
            if not self.undo_confirmed():
                return
            removed = s.undo()
            # against the computer, back to the last person's move (else it would play again)
            steps = 1 if removed else 0
            while removed and s.humans() and s.match.log and (seat := s.acting_seat()) is not None \
                    and s.seats()[seat].is_bot:
                s.undo()
                steps += 1
        except ConquestError as exc:
            self.shell.say(exc.message, "error")
            return
        s.result_from = None  # the undo's own message says what happened
        if removed:
            n = len(s.match.log)
            # as the log's list shows them: a card's kind only to whoever may see it (issue 42)
            shown = [self.shell.log.taken_back(at, x) for at, texts in s.match.undone if at >= n for x in texts]
            taken = [words if code == HIDDEN_CODE else code for words, code in shown]
            what = "the last step" if steps == 1 else f"the last {steps} steps, back to your move"
            self.shell.say(
                f"Took back {what}."
                + (f" Chance results stay on record as taken back ({', '.join(taken)})." if taken else ""),
                "notice",
            )
        self.shell.after_change(keep_message=True)

    def undo_confirmed(self) -> bool:
        """With several people at this device and something private on either side of the
        step (a hand, a secret choice), ask before taking it back: it may be another
        person's, whose things then go behind a pass screen. Where nothing is private on
        either side (the Metagame, The Game of Conquests, World Conquest's set-up), Undo
        stays one tap (issue 21's Undo of a pick)."""
        s = self.shell.session
        if s is None or s.mode != "host" or s.locked() or s.at_device() is not None or len(s.humans()) < 2:
            return True
        last = s.last_step()
        if last is None:
            return True
        k, mover = last
        if not (s.private_anywhere(s.match.state) or s.private_anywhere(s.match.states[k])):
            return True
        who = f"{s.seat_name(mover)}'s" if mover is not None else "the"
        words = self.shell.log.lines(k, k + 1)[0]["words"]
        if self.shell.host.confirm(
            f"Take back step {k + 1}, {who} move ({words})? Everyone at this device should agree."
            + (f" The device then goes back to {s.seat_name(mover)}." if mover is not None and mover != s.device
               else "")
        ):
            return True
        self.shell.say("Nothing was taken back.")
        return False


class PassScreen:
    """The hand-over screen of ``shell`` (``Shell.handover``): "Pass to Ann", and Ready."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def render(self) -> Node:
        """The pass screen while the device goes to the next person (``Session.needs_handover``)."""
        s = self.shell.session
        seat = None if s is None else s.needs_handover()
        if seat is None:
            return h("div", id="shell-handover-inner", hidden=True)
        name = s.seat_name(seat) if s else ""
        return h(
            "div",
            h("h2", f"Pass to {name}"),
            h("p", f"{name}: {tap_word_lower(self.shell.host)} Ready when nobody else can see the screen. "
                   "Until then nothing private is shown and only this button works."),
            h("button", f"Ready ({name})", type="button", id="shell-ready", on_click=lambda ev: self.ready(seat)),
            id="shell-handover-inner",
            cls="shell-handover",
            role="dialog",
            aria_modal="true",
            aria_label=f"Pass the device to {name}",
        )

    def ready(self, seat: int) -> None:
        """The person of ``seat`` has the device: their view may be drawn, their clock runs
        (``Session.ready_at``: a timed answer counts from here)."""
        s = self.shell.session
        if s is not None and 0 <= seat < len(s.seats()) and not s.seats()[seat].is_bot:
            s.device = s.shown_seat = seat
            s.ready_at = self.shell.host.clock()
