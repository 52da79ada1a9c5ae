"""Command line: ``python -m conquest verify <link or save file>`` and ``python -m conquest games``.

Why: anyone handed a link (a disputed campaign, a bug report) can check it without a
browser. ``verify`` replays the save step by step with the game's own engine, checks every
step (including that chance results sit where the game waited for a draw), and prints the
final standings, or the first refused step and why. It works for every registered game.

It replays through :func:`conquest.session.replay_steps`, the very loop the pages use to
open a link, so verify and the pages never disagree on a log. Everything it prints that
came from the input is escaped (no control characters reach the terminal) and quoted
short, and it never prints a traceback: an unexpected failure is one line and exit code 3.

Draws (issue 26): a save with a draw record (``draws``: the host's seals and each draw's
contribution, :mod:`conquest.draws`) has every spin, roll, shuffle and deal recomputed by
the published rule; verify names the first draw that does not match (an edited result,
contribution or revealed link; a host that changed its secret after sealing). A save
from before then keeps opening, its draws marked "not checkable": each result is checked
to be possible where it stands, not that it was drawn.

Exit codes: 0 the save replays (and its draws recompute); 1 a step is refused or a draw
does not match; 2 the input is not a readable save;
3 verify itself failed (a bug: please report the input).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from conquest.core import ConquestError, GameError, get_game
from conquest.draws import check_draws
from conquest.session import Match, ReplayError, excerpt, replay_steps

__all__ = ["main", "verify", "run_verify", "load_save_text", "printable"]

#: the most bytes read from a file or stdin (a save is never larger; see savecode)
_MAX_INPUT_BYTES = 4_000_000
#: the most characters of one printed line (a refusal quoting a long message is cut)
_MAX_LINE = 2_000
#: what a save starts with when it is given inline rather than as a file name
_INLINE_STARTS = ("{", "http:", "https:", "#", "c1.", "h=", "v=")


class InputError(ConquestError):
    """The input is not a save we can read."""

    def __init__(self, message: str, code: str = "input") -> None:
        super().__init__(code, message)


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (``\\x1b``, ``\\u202e``), newlines too.

    Why: verify prints names, action texts and messages that came from a link; a raw escape
    sequence or a bidirectional override in them must not reach the terminal or the page.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _say(out: TextIO, line: str) -> None:
    line = printable(line)
    if len(line) > _MAX_LINE:
        line = line[:_MAX_LINE] + "…"
    print(line, file=out)


def _decode_link(text: str) -> dict[str, Any]:
    """A full URL, a fragment (``h=c1.…``), or a bare code (``c1.…``): the pages' own reader."""
    from conquest.savecode import decode_link

    return decode_link(text)[1]


def load_save_text(text: str) -> dict[str, Any]:
    """A save dict from save JSON or a link; raises InputError with a message for people."""
    from conquest import savecode

    stripped = text.strip()
    try:
        if stripped.startswith("{"):
            return savecode.parse_save_json(stripped)
        return _decode_link(stripped)
    except ValueError as exc:  # SaveCodeError and JSON errors are ValueErrors
        raise InputError(str(exc)) from None


def _read_bytes(stream: Any) -> bytes:
    data = stream.read(_MAX_INPUT_BYTES + 1)
    if len(data) > _MAX_INPUT_BYTES:
        raise InputError(f"the input is larger than {_MAX_INPUT_BYTES:,} bytes; no saved game is that large")
    return data


def _decode_bytes(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text") from None


def _is_file(arg: str) -> bool:
    """Whether ``arg`` names a file; False for anything the file system cannot even look up.

    Why the guard: a 300-character link asked of the file system fails with ENAMETOOLONG
    (and a NUL byte with ValueError) instead of answering "no such file".
    """
    try:
        return Path(arg).is_file()
    except (OSError, ValueError):
        return False


def _read_input(arg: str) -> dict[str, Any]:
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream (tests, embedded interpreters)
            text = sys.stdin.read(_MAX_INPUT_BYTES + 1)
            if len(text) > _MAX_INPUT_BYTES:
                raise InputError(f"the input is larger than {_MAX_INPUT_BYTES:,} characters")
            return load_save_text(text)
        return load_save_text(_decode_bytes(_read_bytes(stream), "the input"))
    stripped = arg.strip()
    if stripped.startswith(_INLINE_STARTS):  # a save or a link: never a file name
        return load_save_text(stripped)
    if _is_file(arg):
        try:
            with open(arg, "rb") as fh:
                data = _read_bytes(fh)
        except OSError as exc:
            raise InputError(f"cannot read {excerpt(arg)}: {exc.strerror or 'error'}") from None
        return load_save_text(_decode_bytes(data, excerpt(arg)))
    if len(arg) < 1_000 and ("/" in arg or "\\" in arg or arg.endswith(".json")) and "#" not in arg:
        raise InputError(f"no such file: {excerpt(arg)}")
    return load_save_text(arg)


def _standings(game: Any, state: Any) -> list[str]:
    lines: list[str] = []
    try:
        view = game.view(state, None)
    except Exception:  # a view problem must not hide the replay's verdict
        view = {}
    rows = view.get("standings") if isinstance(view, dict) else None
    if isinstance(rows, list) and rows:
        for rank, row in enumerate(rows, 1):
            if isinstance(row, dict):
                score = row.get("territories", row.get("score", ""))
                lines.append(f"  {rank}. {row.get('name', row.get('seat', '?'))}: {score}")
    return lines


def _names(game: Any, state: Any, seats: Sequence[int]) -> str:
    try:
        players = game.view(state, None).get("players", [])
        return ", ".join(str(players[s]["name"]) for s in seats)
    except Exception:
        return ", ".join(f"seat {s}" for s in seats)


def _chance_note(kinds: Sequence[str]) -> str:
    """The plain statement of what verify cannot check about chance (for any game)."""
    what = " and ".join(kinds)
    return (
        f"Draws not checkable (a save from before draws were sealed): {what} results are as recorded "
        "by the host's browser; verify checks that each is possible, not that it was drawn."
    )


def run_verify(arg: str, verbose: bool = False, out: TextIO | None = None) -> int:
    """Verify one input and print the verdict; only the project's refusals are handled here.

    The code path :func:`verify` runs, without its last-resort guard, so the fuzz tests see
    any unexpected exception.
    """
    out = out or sys.stdout
    try:
        save = _read_input(arg)
    except InputError as exc:
        _say(out, f"error: {exc.message}")
        return 2
    try:
        game = get_game(save["game"])
    except KeyError:
        _say(out, f"error: unknown game {excerpt(save.get('game'))}")
        return 2
    log = list(save.get("log", []))
    try:
        match = Match(game, save.get("options", {}))
    except GameError as exc:
        _say(out, f"error: the save's options are refused: {exc.message} [{exc.code}]")
        return 1
    _say(out, f"{game.title} ({game.id}), {len(log)} steps")
    state = match.state
    states = [state]
    kinds: list[str] = []
    try:
        for step in replay_steps(game, state, log):
            if step.chance is not None and step.chance.kind not in kinds:
                kinds.append(step.chance.kind)
            if verbose:
                # unguarded on purpose: the fuzz tests run this path and must see any bug
                line = game.describe_action(step.before, step.action)
                _say(out, f"{step.index + 1:5d}. {step.text:<24} {line}")
            note = getattr(game, "verify_note", None)  # e.g. the metagame's duels (M12)
            if note is not None and (said := note(step.before, step.action)):
                _say(out, f"step {step.index + 1}: {said}")
            state = step.after
            states.append(state)
    except ReplayError as exc:
        _say(out, f"REFUSED step {exc.index + 1}: {excerpt(exc.text)}: {exc.cause.message} [{exc.cause.code}]")
        if kinds and save.get("draws") is None:
            _say(out, _chance_note(kinds))
        return 1
    undone = [(int(at), list(texts)) for at, texts in save.get("undone", [])]
    draws = check_draws(game, states, log, undone, save.get("draws"))
    if draws.status == "mismatch":
        _say(out, f"DRAW MISMATCH: {draws.summary()}")
        return 1
    outcome = game.outcome(state)
    pending = game.chance(state)
    if outcome is not None:
        _say(out, f"OK: the game is over ({outcome.reason}); winners: {_names(game, state, outcome.winners)}")
    elif pending is not None:
        _say(out, f"OK: the game goes on, waiting for a draw ({pending.kind})")
    else:
        seat = game.to_move(state)
        who = "" if seat is None else f"; {_names(game, state, (seat,))} to move"
        _say(out, f"OK: the game goes on{who}")
    if draws.status == "not-checkable":
        _say(out, _chance_note(kinds or ["chance"]))
    elif draws.status == "checked":
        _say(out, f"Draws: {draws.summary()}")
    for at, texts in save.get("undone", []):
        _say(out, f"Taken back by an undo after step {at}: {', '.join(excerpt(x) for x in texts)} "
                  "(drawn, then undone; they do not replay)")
    for line in _standings(game, state):
        _say(out, line)
    return 0


def verify(arg: str, verbose: bool = False, out: TextIO | None = None) -> int:
    """``python -m conquest verify``: 0 replays, 1 refused, 2 unreadable, 3 verify failed.

    Never raises and never prints a traceback (the home page calls it too).
    """
    out = out or sys.stdout
    try:
        return run_verify(arg, verbose=verbose, out=out)
    except Exception as exc:  # last resort: one line, never a traceback
        _say(out, f"error: verify failed unexpectedly ({type(exc).__name__}); please report this input")
        return 3


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conquest", description=__doc__.split("\n\n")[1])
    sub = parser.add_subparsers(dest="command", required=True)
    p_verify = sub.add_parser("verify", help="replay a link or save file and check every step")
    p_verify.add_argument(
        "save", help="a link (URL, #h=… fragment or c1.… code), a save .json file, or - for stdin"
    )
    p_verify.add_argument("-v", "--verbose", action="store_true", help="print every step in words")
    sub.add_parser("games", help="list the registered games")
    args = parser.parse_args(argv)
    if args.command == "games":
        from conquest.core import games

        for gid, game in games().items():
            print(f"{gid}\t{game.title}")
        return 0
    return verify(args.save, verbose=args.verbose)


if __name__ == "__main__":
    sys.exit(main())
