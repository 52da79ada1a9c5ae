"""Draws on the pages (issue 26), in CPython with the fake host: the shell's "Check the
draws" in every game, the log saying how each draw was made, and the Metagame console's
spin with a word said aloud (seal shown first, the word shown as it is used)."""
from __future__ import annotations

import json

import pytest
from page_host import FakeHost, make_page, render_all
from test_page_metagame import at_spin, started
from ui import find, find_all, fire, text

from conquest.core import games
from conquest.session import Match


def test_a_spin_with_a_word_said_aloud() -> None:
    shell, page, host = started()
    s = shell.session
    at_spin(shell, page)
    side = render_all(shell)["mg-side"]
    # sealed before anyone is asked: the commitment is saved and shown
    seal = text(find(side, "#mg-seal"))
    commitment = s.match.commitment
    assert commitment and commitment[:8] in seal
    stored = json.loads(host.backend.get(next(k for k in host.backend.keys() if s.slot_id in k and "index" not in k)))
    assert stored["draws"]["seals"][-1][1] == commitment
    who = find(side, "#mg-word-who")
    assert [text(o) for o in find_all(who, "option")] == ["Ann", "Bob", "<i>Cy</i>"]
    # a word that cannot be used: a message, nothing drawn
    n = len(s.match.log)
    fire(side, "#mg-word-form", "submit", fields={"who": "1", "word": "   "})
    assert len(s.match.log) == n and shell.message[0] == "error" and "cannot be empty" in shell.message[1]
    fire(side, "#mg-word-form", "submit", fields={"who": "1", "word": "  blue  whale "})
    assert len(s.match.log) == n + 2 and s.match.log[-1].startswith("r")
    assert s.match.draws.contributions[-1] == "1:blue whale"
    render_all(shell)  # the wheel starts turning
    host.run_timers()  # and stops
    tree = render_all(shell)
    assert "with Bob's word “blue whale”" in text(find(tree["mg-side"], "#mg-word-used"))
    assert "said by Bob: “blue whale”" in text(find(tree["mg-side"], "#mg-how"))
    assert "said by Bob: “blue whale”" in text(tree["shell-log-box"])
    # Check the draws recomputes it, and the same save checks with verify's code
    fire(tree["shell-log-box"], "#shell-check-draws")
    verdict = find(render_all(shell)["shell-log-box"], "#shell-draw-verdict")
    assert verdict.attrs["data-status"] == "checked" and "1 said" in text(verdict)


def test_automatic_draws_are_marked_in_the_log() -> None:
    shell, page, host = started()
    at_spin(shell, page)
    fire(render_all(shell)["mg-side"], "#mg-spin")
    log = text(render_all(shell)["shell-log-box"])
    assert "(draw 1, automatic)" in log


@pytest.mark.parametrize("game_id", sorted(games()))
def test_check_the_draws_in_every_game(game_id: str) -> None:
    """The shell's button, on each game: a game played here checks; the same game with one
    result rewritten names the draw; a save from before issue 26 says not checkable."""
    from shell import GamePage

    class Bare(GamePage):
        pass

    Bare.game_id = game_id
    from conquest.bots import RandomBot
    from conquest.rng import Rng

    game = games()[game_id]
    m = Match(game, None)
    m.resolve_chance()
    bot = RandomBot(Rng(5))
    while game.outcome(m.state) is None and len(m.log) < 120:
        m.play(bot.choose(game, m.state))
    save = m.save().to_json()
    shell, page, host = make_page(Bare, FakeHost())
    shell.open(Match(game, save["options"], save["log"], undone=save.get("undone", ()), draws=save.get("draws")), None)
    box = shell.log.render()
    fire(box, "#shell-check-draws")
    verdict = find(shell.log.render(), "#shell-draw-verdict")
    steps = [i for i in range(len(m.log)) if game.chance(m.states[i]) is not None]
    if not steps:  # The Game of Conquests draws nothing
        assert verdict.attrs["data-status"] == "none" and "Nothing has been drawn" in text(verdict)
        return
    assert verdict.attrs["data-status"] == "checked", text(verdict)
    i = steps[-1]
    spec = game.chance(m.states[i])
    for values in ([0] * len(spec.sizes), [s - 1 for s in spec.sizes]):
        other = game.format_action(game.chance_action(m.states[i], values))
        if other != m.log[i]:
            break
    forged = {**save, "log": [*save["log"][:i], other]}
    shell.open(Match(game, forged["options"], forged["log"], undone=save.get("undone", ()), draws=save["draws"]), None)
    fire(shell.log.render(), "#shell-check-draws")
    verdict = find(shell.log.render(), "#shell-draw-verdict")
    assert verdict.attrs["data-status"] == "mismatch" and shell.message[0] == "error"
    assert f"Draw {m.kept_draws()[-1] + 1} does not match" in text(verdict)
    old = {k: v for k, v in save.items() if k != "draws"}
    shell.open(Match(game, old["options"], old["log"], undone=old.get("undone", ())), None)
    fire(shell.log.render(), "#shell-check-draws")
    assert "not checkable" in text(find(shell.log.render(), "#shell-draw-verdict"))


def test_a_mismatch_on_a_hidden_card_does_not_show_the_card() -> None:
    """World Conquest's card draws are private (issue 19): a rewritten one is named by its
    step, and the verdict quotes neither the card recorded nor the one the rule gives."""
    from shell import GamePage

    from conquest.bots import RandomBot
    from conquest.rng import Rng

    class Bare(GamePage):
        game_id = "world"

    game = games()["world"]
    m = Match(game, None, rng=Rng(11), checkable=True)
    m.resolve_chance()
    bot = RandomBot(Rng(12))
    steps: list[int] = []
    while not steps and len(m.log) < 3000:
        m.play(bot.choose(game, m.state))
        steps = [i for i in range(len(m.log)) if (sp := game.chance(m.states[i])) is not None and sp.kind == "card"]
    assert steps, "no card was drawn"
    i = steps[0]
    spec = game.chance(m.states[i])
    other = next(t for v in range(spec.sizes[0])
                 if (t := game.format_action(game.chance_action(m.states[i], [v]))) != m.log[i])
    save = m.save().to_json()
    shell, page, host = make_page(Bare, FakeHost())
    shell.open(Match(game, save["options"], [*save["log"][:i], other], draws=save["draws"]), None, "view")
    assert shell.draws.hidden(i)
    fire(shell.log.render(), "#shell-check-draws")
    verdict = text(find(shell.log.render(), "#shell-draw-verdict"))
    assert "does not match" in verdict and "not shown here" in verdict
    assert other not in verdict and m.log[i] not in verdict
