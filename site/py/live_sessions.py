"""The sessions of a live table (issue 22): the guest's mirror of the host's match, and the
host's session while a table is open.

Why apart: both are :class:`shell.Session` as hot-seat play has it, with only who may act
changed (a guest plays its one seat by sending intents; the host's own clicks never play
for a seat on another device), so the shell's pages draw them unchanged.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from live_wire import LiveError, part_to_json
from shell import Session, ShellError

from conquest.core import Game, GameError
from conquest.rng import Rng


# -- the guest's mirror of the host's match ----------------------------------------------------
class MirrorMatch:
    """What a guest's page holds of the match: the log and states as its seat may know them.

    The host sends them (redacted per seat); nothing is replayed or drawn here, and there is
    no save to write: a guest's page never stores the game (the host is the one source).
    """

    def __init__(self, game: Game[Any, Any], options: Mapping[str, Any]) -> None:
        self.game = game
        self.options: dict[str, Any] = dict(options)
        self.log: list[str] = []
        self.states: list[Any] = []
        self.undone: list[tuple[int, tuple[str, ...]]] = []
        self.rng = Rng(None)

    @property
    def state(self) -> Any:
        return self.states[-1]

    def legal_actions(self) -> list[Any]:
        return self.game.legal_actions(self.state)

    def outcome(self) -> Any:
        return self.game.outcome(self.state)

    def save(self) -> Any:
        raise LiveError("live.guest", "This page plays at a live table: the game is saved on the host's device.")

    def play(self, action: Any) -> Any:
        raise LiveError("live.guest", "At a live table the host's page plays every step.")

    def undo(self) -> bool:
        raise LiveError("live.guest", "Only the host can take back a step at a live table.")

    def resolve_chance(self) -> int:
        return 0

    def truncate(self, length: int) -> None:
        del self.log[length:]
        del self.states[length + 1 :]


@dataclass
class GuestSession(Session):
    """A guest's session: plays its one seat by sending intents to the host.

    ``only_seat`` is the seat (None: a spectator), so the shell's own refusal ("this copy
    plays for …") answers a tap for another seat before anything is sent.
    """

    send_intent: Callable[[dict[str, Any]], None] | None = None
    #: seats whose secret part the host has (never the part itself)
    chosen: tuple[int, ...] = ()
    spectator: bool = False
    #: an intent is on its way to the host: not sent twice
    pending: int | None = None
    #: seats whose choice made ahead the host holds (``Game.ahead``; never the choice)
    held: tuple[int, ...] = ()
    #: the host's newest commitment and the number of the draw it seals next (issue 26)
    seal: tuple[str, int] | None = None

    def locked(self) -> bool:
        """Nothing to play here: a spectator, an earlier step, another seat's move (the
        page then shows the waiting state, as for a computer's move), or the host's step
        (``Game.host_step``: the Metagame's spin)."""
        seat = self.acting_seat()
        return (self.spectator or self.viewing is not None or (seat is not None and seat != self.only_seat)
                or self.game.host_step(self.match.state) is not None)

    def choosing_ahead(self) -> bool:
        """This seat may choose its next step now, while another seat's is awaited, and has
        not yet (``Game.ahead``)."""
        seat = self.only_seat
        return (seat is not None and seat not in self.held and seat in self.game.ahead(self.match.state)
                and self.game.outcome(self.match.state) is None)

    def viewer(self) -> int | None:
        return self.only_seat

    def needs_handover(self) -> int | None:
        return None  # every person has their own device

    def bot_to_act(self) -> int | None:
        return None  # the host's page runs the bots

    def acting_seat(self) -> int | None:
        state = self.match.state
        secret = self.game.simultaneous(state)
        if secret:
            done = set(self.chosen) | set(self.secret_parts)
            if self.only_seat in secret and self.only_seat not in done:
                return self.only_seat
            return next((s for s in secret if s not in done), None)
        if self.game.outcome(state) is not None:
            return None
        if self.choosing_ahead():
            return self.only_seat
        return self.game.to_move(state)

    def chosen_seats(self) -> list[int]:
        """Who has chosen: as the host last said (``chosen`` in its meta), and this device's
        own part on its way."""
        secret = self.game.simultaneous(self.match.state)
        done = set(self.chosen) | set(self.secret_parts)
        return [s for s in secret if s in done]

    def _guard(self, check_seat: bool = True) -> None:
        if self.viewing is not None:
            raise ShellError("shell.viewing", "You are looking at an earlier step: choose “Back to the present” to play.")
        seat = self.acting_seat()
        if check_seat and self.only_seat is not None and seat is not None and seat != self.only_seat:
            raise ShellError(
                "shell.not-your-seat",
                f"You play {self.seat_name(self.only_seat)} at this live table; it is {self.seat_name(seat)}'s move"
                + cite(self.game) + ".",
            )

    def _intent_guard(self) -> None:
        if self.spectator:
            raise LiveError("live.spectator", "You are watching this table: spectators cannot play.")
        ruling = self.game.host_step(self.match.state)
        if ruling is not None:
            raise LiveError("live.host-step", f"{ruling}: your device waits for the host.")
        self._guard()

    def play(self, action: Any) -> None:
        self._intent_guard()
        text = action if isinstance(action, str) else self.game.format_action(action)
        n = len(self.match.log)
        if self.pending == n:
            return
        self.pending = n
        if self.send_intent is not None:
            self.send_intent({"t": "act", "step": n, "action": text})

    def give_secret(self, seat: int, part: Any) -> bool:
        self._intent_guard()
        if seat != self.only_seat or seat not in self.game.simultaneous(self.match.state):
            raise LiveError("live.not-secret", "That choice is not asked of you now.")
        self.secret_parts[seat] = part
        if self.send_intent is not None:
            self.send_intent({"t": "secret", "step": len(self.match.log), "part": part_to_json(part)})
        return False

    def undo(self) -> list[str]:
        raise LiveError("live.guest", "Only the host can take back a step at a live table.")


@dataclass
class TableSession(Session):
    """The host's session while a table is open: seats played on other devices are
    ``remote``; the host's own clicks never play for them, and no hand-over screen is
    shown for them (their person has their own device)."""

    remote: frozenset[int] = frozenset()
    #: set while a guest's intent is applied (the host's authority, not its person)
    by_remote: bool = False
    #: a referee host (``Game.host_is_referee``, M3) makes this remote seat's present
    #: choice from its own page ("Choose for Bob here"); cleared by the next step
    override: int | None = None
    #: choices made ahead by remote seats (``Game.ahead``): seat -> (log length when made,
    #: the action), played by :meth:`play` once that seat's step comes
    held: dict[int, tuple[int, Any]] = field(default_factory=dict)
    #: set while the host plays one of its own actions (``Game.host_only``: a correction, M17),
    #: which no seat's device waits for
    hosting: bool = False

    def local_humans(self) -> list[int]:
        return [i for i in self.humans() if i not in self.remote]

    def acting_seat(self) -> int | None:
        """At a secret step: this device's people first, then bots, then other devices,
        so bots and guests choose at the same time as the host's people."""
        state = self.match.state
        secret = self.game.simultaneous(state)
        if not secret:
            return super().acting_seat()
        left = [s for s in secret if s not in self.secret_parts]
        if not left:
            return None
        seats = self.seats()
        rank = {s: (2 if s in self.remote else (1 if s < len(seats) and seats[s].is_bot else 0)) for s in left}
        return min(left, key=lambda s: (rank[s], secret.index(s)))

    def waits_for_device(self) -> int | None:
        """The remote seat whose own device the present step waits for (its choice is not
        the host's to make unless it takes it over, ``override``); None otherwise."""
        seat = self.acting_seat()
        if (self.by_remote or self.hosting or seat is None or seat not in self.remote or self.override == seat
                or self.game.host_step(self.match.state) is not None):
            return None
        return seat

    def locked(self) -> bool:
        return super().locked() or self.waits_for_device() is not None

    def viewer(self) -> int | None:
        if self.mode != "host" or not self.game.hidden_information:
            return None
        local = self.local_humans()
        if not local:
            return None
        if len(local) == 1:
            return local[0]
        return self.shown_seat if self.shown_seat in local else None

    def needs_handover(self) -> int | None:
        seat = self.acting_seat()
        if seat is not None and seat in self.remote:
            return None
        if len(self.local_humans()) < 2:
            return None
        return super().needs_handover()

    def bot_to_act(self) -> int | None:
        seat = self.acting_seat()
        if seat is not None and seat in self.remote:
            return None
        return super().bot_to_act()

    def _guard(self, check_seat: bool = True) -> None:
        super()._guard(check_seat)
        seat = self.waits_for_device()
        if check_seat and seat is not None:
            if self.game.host_is_referee:
                name = self.seat_name(seat)
                raise LiveError("live.remote-seat", f"It is {name}'s choice, on their own device. To make it for "
                                f"them, use “Choose for {name} here” first (M3).")
            raise LiveError("live.remote-seat", f"It is {self.seat_name(seat)}'s move, on their own device.")

    def take_over(self, seat: int) -> None:
        """The referee host makes ``seat``'s present choice here (M3); logged as the host's."""
        if not self.game.host_is_referee or seat != self.acting_seat() or seat not in self.remote:
            raise LiveError("live.take-over", "That seat's choice is not awaited now.")
        self.override = seat

    def play(self, action: Any, contribution: str | None = None) -> None:
        """As the shell's, and at a referee's table (M3) each seat's choice is marked with who
        made it: the seat's own device, or the host for a seat played on another device.
        A choice held ahead (``Game.ahead``) is played as soon as its step comes."""
        game = self.game
        if isinstance(action, str):
            action = game.parse_action(action)
        seat = self.acting_seat()
        if game.host_is_referee and seat is not None and seat in self.remote:
            action = game.made_by(action, "p" if self.by_remote else "h")
        self.hosting = not self.by_remote and game.host_only(action) is not None
        try:
            super().play(action, contribution)
        finally:
            self.hosting = False
        self.override = None
        self._play_held()

    def _play_held(self) -> None:
        n = len(self.match.log)
        for seat, (made_at, action) in list(self.held.items()):
            state = self.match.state
            if n > made_at + 1 or self.game.outcome(state) is not None:
                del self.held[seat]  # the step it was made for went another way (an undo, a correction)
            elif n == made_at + 1 and self.game.to_move(state) == seat and not self.game.ahead(state):
                del self.held[seat]
                self.by_remote = True
                try:
                    self.play(self.game.made_by(action, "p"))
                except GameError:
                    pass  # refused now: the seat is asked again, as at its own step
                finally:
                    self.by_remote = False

    def undo(self) -> list[str]:
        self.held.clear()  # a choice made ahead was made for the step the undo takes away
        self.override = None
        return super().undo()

    def give_secret(self, seat: int, part: Any) -> bool:
        if seat in self.remote and not self.by_remote:
            raise LiveError("live.remote-seat", f"{self.seat_name(seat)} chooses on their own device.")
        return super().give_secret(seat, part)


def cite(game: Game[Any, Any]) -> str:
    """" (M3)": the game's ruling on who acts at a live table, for a refusal; or nothing."""
    return f" ({game.live_ruling})" if game.live_ruling else ""


def adopt(session: Session, cls: type[Session], **extra: Any) -> Session:
    """The same session as another class (all its fields kept): a table opened or closed."""
    from dataclasses import fields

    base = {f.name: getattr(session, f.name) for f in fields(Session)}
    return cls(**base, **extra)


def show_only(session: Session) -> None:
    """A second tab of a table (issue 36) plays nothing and saves nothing: its session is
    an audience's (``Session.locked``: no step, no computer's move; ``Shell.saved.autosave``
    writes only a host's session), so the tab that runs the table keeps the one history."""
    session.mode = "audience"
    session.bot = None
    session.viewing = None
