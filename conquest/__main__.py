"""Command line: ``python -m conquest verify <link or save file>`` and ``python -m conquest games``.

Why: anyone handed a link (a disputed campaign, a bug report) can check it without a
browser. ``verify`` replays the save step by step with the game's own engine, checks every
step (including that chance results sit where the game waited for a draw), and prints the
final standings, or the first refused step and why. It works for every registered game.

Exit codes: 0 the save replays; 1 a step is refused; 2 the input is not a readable save.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conquest.core import GameError, get_game
from conquest.session import Match

__all__ = ["main", "load_save_text"]


class InputError(Exception):
    """The input is not a save we can read."""


def _decode_link(text: str) -> dict[str, Any]:
    """A full URL, a fragment (``h=c1.…``), or a bare code (``c1.…``)."""
    from conquest import savecode

    decode_link = getattr(savecode, "decode_link", None)
    if decode_link is not None:
        return dict(decode_link(text))
    frag = text.strip()
    if "#" in frag:
        frag = frag.rsplit("#", 1)[1]
    if frag[:2] in ("h=", "v="):
        return savecode.parse_fragment(frag)[1]
    return savecode.decode_save(frag)


def load_save_text(text: str) -> dict[str, Any]:
    """A save dict from save JSON or a link; raises InputError with a message for people."""
    try:
        from conquest import savecode
    except ImportError:  # pragma: no cover - savecode ships with the package
        savecode = None  # type: ignore[assignment]
    stripped = text.strip()
    try:
        if stripped.startswith("{"):
            if savecode is not None:
                return savecode.parse_save_json(stripped)
            return dict(json.loads(stripped))
        if savecode is None:
            raise InputError("links need conquest.savecode, which is missing")
        return _decode_link(stripped)
    except ValueError as exc:  # SaveCodeError and JSON errors are ValueErrors
        raise InputError(str(exc)) from None


def _read_input(arg: str) -> dict[str, Any]:
    if arg == "-":
        return load_save_text(sys.stdin.read())
    path = Path(arg)
    looks_like_path = len(arg) < 4096 and not arg.lstrip().startswith(("{", "http", "#", "c1.", "h=", "v="))
    if looks_like_path and path.is_file():
        try:
            return load_save_text(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            raise InputError(f"{arg} is not a text file") from None
    if looks_like_path and ("/" in arg or arg.endswith(".json")):
        raise InputError(f"no such file: {arg}")
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


def verify(arg: str, verbose: bool = False, out: Any = None) -> int:
    out = out or sys.stdout
    try:
        save = _read_input(arg)
    except InputError as exc:
        print(f"error: {exc}", file=out)
        return 2
    try:
        game = get_game(save["game"])
    except KeyError:
        print(f"error: unknown game {save.get('game')!r}", file=out)
        return 2
    log = list(save.get("log", []))
    try:
        match = Match(game, save.get("options", {}))
    except GameError as exc:
        print(f"error: the save's options are refused: {exc.message} [{exc.code}]", file=out)
        return 1
    print(f"{game.title} ({game.id}), {len(log)} steps", file=out)
    for index, text in enumerate(log):
        state = match.state
        spec = game.chance(state)
        try:
            action = game.parse_action(text)
            if spec is not None:
                expected = game.chance_action(state, [0] * len(spec.sizes))
                if type(action) is not type(expected):
                    print(
                        f"REFUSED step {index + 1}: {text!r}: the game waited for a draw ({spec.kind}) here",
                        file=out,
                    )
                    return 1
            line = game.describe_action(state, action)
            match._push(text)
        except GameError as exc:
            print(f"REFUSED step {index + 1}: {text!r}: {exc.message} [{exc.code}]", file=out)
            return 1
        if verbose:
            print(f"{index + 1:5d}. {text:<24} {line}", file=out)
    state = match.state
    outcome = game.outcome(state)
    pending = game.chance(state)
    if outcome is not None:
        print(
            f"OK: the game is over ({outcome.reason}); winners: {_names(game, state, outcome.winners)}",
            file=out,
        )
    elif pending is not None:
        print(f"OK: the game goes on, waiting for a draw ({pending.kind})", file=out)
    else:
        seat = game.to_move(state)
        who = "" if seat is None else f"; {_names(game, state, (seat,))} to move"
        print(f"OK: the game goes on{who}", file=out)
    for line in _standings(game, state):
        print(line, file=out)
    return 0


def _names(game: Any, state: Any, seats: Sequence[int]) -> str:
    try:
        players = game.view(state, None).get("players", [])
        return ", ".join(str(players[s]["name"]) for s in seats)
    except Exception:
        return ", ".join(f"seat {s}" for s in seats)


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
