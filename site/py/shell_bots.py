"""The computer players: a bot's decision thought about in slices, so the page keeps
answering, and played through the shell like a person's; Stop and "Let the computer play".

Why a part of its own (issue 42): the bot runner is one of the shell's jobs with its own
controls (in the status bar) that needs nothing of the other parts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from session import BotTurn, tap_word

from conquest.bots import levels as bot_levels
from conquest.rng import Rng

if TYPE_CHECKING:
    from shell import Shell

__all__ = ["BotRunner"]


class BotRunner:
    """The bots of the game open in ``shell`` (``Shell.bots``); the turn is ``Session.bot``."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def turn(self) -> BotTurn | None:
        """The bot decision to think about now (started if needed), or None."""
        s = self.shell.session
        if s is None:
            return None
        seat = s.bot_to_act()
        if seat is None:
            s.bot = None
            return None
        secret = bool(self.shell.game.simultaneous(s.match.state))
        key = (len(s.match.log), seat, secret)
        if s.bot is not None and s.bot.key == key:
            return s.bot
        bot = self.shell.page.make_bot(s.seats()[seat].who, Rng(None)) if self.shell.page else None
        if bot is None:
            levels = bot_levels(self.shell.game)
            bot = (levels.get(s.seats()[seat].who) or next(iter(levels.values())))(Rng(None))
        state = s.match.state
        thinking = bot.think_secret(self.shell.game, state, seat) if secret else bot.think(self.shell.game, state)
        s.bot = BotTurn(seat, thinking, key, bot=bot, secret=secret)
        return s.bot

    def step(self, budget_ms: float) -> bool:
        """Advance the bot one slice; True when it played (the page re-renders)."""
        s = self.shell.session
        turn = self.turn()
        if s is None or turn is None:
            return False
        done, choice = turn.advance(budget_ms, self.shell.host.clock)
        if not done:
            return False
        if s.bot is not turn:  # the position changed while it thought
            return False
        s.bot = None
        if turn.secret:
            return self.shell.give_secret(turn.seat, choice)
        return self.shell.play(choice)

    def stop(self) -> None:
        """The bar's Stop: no computer player moves until "Let the computer play"."""
        if self.shell.session is not None:
            self.shell.session.bots_paused = True
            self.shell.session.bot = None
            self.shell.say(f"The computer players are paused. {tap_word(self.shell.host)} “Let the computer play” to go on.")

    def resume(self) -> None:
        """The bar's "Let the computer play"."""
        if self.shell.session is not None:
            self.shell.session.bots_paused = False
            self.shell.clear_message()
