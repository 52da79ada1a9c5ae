"""The README's skeleton page plays every registered game: the shell needs nothing more.

The skeleton is taken from README.md itself, so the example people copy is the one tested.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from page_host import make_page, render_all
from ui import find_all

from conquest.core import games
from conquest.rng import Rng
from conquest.session import Match

README = Path(__file__).resolve().parent.parent / "README.md"


def skeleton_class(game_id: str) -> type:
    code = re.search(r"```python\n(from __future__.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    scope: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 - our own README's example
    cls = scope["SkeletonPage"]
    return type(f"Skeleton_{game_id}", (cls,), {"game_id": game_id})


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_readme_skeleton_plays_every_game(game_id: str) -> None:
    shell, page, host = make_page(skeleton_class(game_id))
    game = games()[game_id]
    shell.open(Match(game, game.default_options(), rng=Rng(7)), None)
    rng = Rng(11)
    for _ in range(25):
        s = shell.session
        if game.outcome(s.match.state) is not None:
            break
        secret = game.simultaneous(s.match.state)
        if secret:  # secret parts go through the shell, one seat at a time
            for seat in secret:
                if shell.pending() is not None:  # a pass screen: that person presses Ready
                    shell.handover.ready(shell.pending())
                parts = game.secret_choices(s.match.state, seat)
                assert shell.give_secret(seat, parts[rng.below(len(parts))]), shell.message
            continue
        if shell.pending() is not None:
            shell.handover.ready(shell.pending())
        buttons = find_all(render_all(shell)["game-controls"], "button")
        assert buttons, f"{game_id}: no action offered at step {len(s.match.log)}"
        before = len(s.match.log)
        buttons[rng.below(len(buttons))].on["click"](None)
        assert len(s.match.log) > before, shell.message
