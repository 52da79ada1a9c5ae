"""A drawn chance result is never erased: undo keeps it on record (design.md).

The Metagame's spin is the case players watch most: spin, undo, spin again must leave the
first draw in the save, in every link made from it, in a replay and in ``verify``.
"""
from __future__ import annotations

import io

import pytest

from conquest.__main__ import verify
from conquest.games.metagame import GAME
from conquest.rng import Rng
from conquest.savecode import SaveCodeError, decode_save, encode_save, make_fragment, validate_save
from conquest.session import Match, replay


def at_spin() -> Match:
    m = Match(GAME, {"players": ["Ann", "Bob", "Cy"], "seed": 0}, rng=Rng(5))
    for _ in range(3):
        m.play(GAME.legal_actions(m.state)[0])
    target = m.state.board.adj[m.state.capital[0]][0]
    m.play(f"!o{target}=1")
    m.play(f"i{target}")
    while m.state.phase != "spin":
        m.play(GAME.legal_actions(m.state)[0])
    return m


def test_undo_past_a_spin_keeps_the_draw_in_the_save_links_replay_and_verify() -> None:
    m = at_spin()
    m.play("spin")
    first = m.log[-1]
    assert first.startswith("r")
    m.undo()
    assert m.log[-1] != first and m.undone == [(len(m.log), (first,))]
    m.play("spin")
    save = m.save().to_json()
    assert save["undone"] == [[len(m.log) - 2, [first]]]
    again = replay(decode_save(encode_save(save)))
    assert again.undone == m.undone and again.log == m.log
    out = io.StringIO()
    assert verify("#" + make_fragment(save, "v"), out=out) == 0
    assert f"Taken back by an undo after step {len(m.log) - 2}: '{first}'" in out.getvalue()


def test_saves_without_undos_are_unchanged_and_bad_records_are_refused() -> None:
    m = at_spin()
    assert "undone" not in m.save().to_json()
    base = m.save().to_json()
    for bad in ([[1]], [["x", ["r1 2,3"]]], [[1, []]], [[1, [3]]], "r1", [[10**9, ["r1"]]]):
        with pytest.raises(SaveCodeError):
            validate_save({**base, "undone": bad})


# -- a card drawn and taken back keeps its kind to itself (W5, issue 42) ----------------------
KINDS = ("infantry", "cavalry", "artillery")


class _Drawn(Exception):
    pass


def world_after_a_card_draw(bots: bool = False) -> Match:
    """A World game just after a card was drawn at the end of a turn (W5): the engine's
    Rule-based bot picks every move; the seats are people (a device they share) unless
    ``bots``, then only the drawer is a person."""
    from conquest.bots import play_match
    from conquest.games.world import GAME as WORLD
    from conquest.games.world.bots import RuleBot

    def stop(m: Match) -> None:
        m.resolve_chance()
        if m.log[-1].startswith("C"):
            raise _Drawn(m)

    seats = [{"name": n} for n in ("Ann", "Bob", "Cy")]
    try:
        play_match(WORLD, {"seats": seats, "deal": True}, lambda seat: RuleBot(Rng(seat)), Rng(4), on_step=stop)
    except _Drawn as found:
        m = found.args[0]
    else:
        raise AssertionError("no card was drawn")
    if bots:
        drawer = m.states[-2].current
        m.options["seats"] = [s if i == drawer else {**s, "bot": "Rule-based"} for i, s in enumerate(seats)]
    return m


def open_world(m: Match, only_seat: int | None = None, mode: str = "host"):  # noqa: ANN201 - (shell, host)
    from page_host import make_page
    from world import WorldPage

    shell, _page, host = make_page(WorldPage)
    shell.open(m, None, mode)
    shell.session.only_seat = only_seat
    return shell, host


def undo_past_the_draw(shell, host) -> tuple[str, str]:  # noqa: ANN001
    """Undo the step whose end drew the card: ``(the toast's words, the taken-back list's)``."""
    from page_host import render_all
    from ui import find, text

    s = shell.session
    seat = s.needs_handover()
    if seat is not None:
        shell.handover.ready(seat)  # the next person has the device: Undo asks first (private hands)
    host.confirms.append(True)
    n = len(s.match.log)
    shell.bar.undo()
    assert len(s.match.log) < n and s.match.undone, shell.message
    trees = render_all(shell)
    return text(trees["shell-toast"]), text(find(trees["shell-log-box"], ".shell-taken"))


def test_a_card_taken_back_at_a_shared_device_is_a_card_never_its_kind() -> None:
    """The draw stays on record as taken back (a drawn result is never erased), but the list
    of results taken back and the undo's message say "a card" at a device people share:
    its kind was the drawer's alone (W5)."""
    m = world_after_a_card_draw()
    drawn = m.log[-1]
    shell, host = open_world(m)
    said, listed = undo_past_the_draw(shell, host)
    at, texts = shell.session.match.undone[-1]
    assert drawn in texts  # on record, in the save and every link as before
    assert "Chance results stay on record as taken back (" in said and "a card" in said
    assert "Taken back after step" in listed and "a card" in listed and "(secret)" in listed
    for words in (said, listed):
        assert drawn not in words and not any(k in words for k in KINDS), words
    assert shell.session.save()["undone"][-1] == [at, list(texts)]
    # a read-only copy and an audience tab see no more
    for mode in ("view", "audience"):
        viewer, _ = open_world(shell.session.match, mode=mode)
        assert viewer.log.taken_back(at, drawn) == ("a card", "(secret)")


def test_the_drawer_alone_at_a_device_reads_the_card_taken_back_and_no_one_else() -> None:
    """A device with the drawer alone on it (a copy for the drawer's seat, ``?as=N``; the
    drawer playing bots) may read the kind: the drawer saw it drawn. A copy for another seat
    may not; nor anyone once the state it was drawn in is itself undone (whose it was cannot
    be told any more). A live device gets it masked (``C?``) and says "a card" too."""
    from live_sync import _mask_undone

    from conquest.games.world import GAME as WORLD

    m = world_after_a_card_draw()
    drawn, drawer = m.log[-1], m.states[-2].current
    shell, host = open_world(m, only_seat=drawer)
    said, listed = undo_past_the_draw(shell, host)
    assert f"taken back ({drawn})" in said and drawn in listed and "(secret)" not in listed
    at = shell.session.match.undone[-1][0]
    other = (drawer + 1) % 3
    shell.session.only_seat = other
    assert shell.log.taken_back(at, drawn) == ("a card", "(secret)")
    # a live device: the host masks it for other seats; the device's page says "a card"
    masked = _mask_undone(WORLD, shell.session.match, at, drawn, other)
    assert masked == "C?" and shell.log.taken_back(at, masked) == ("a card", "(secret)")
    assert _mask_undone(WORLD, shell.session.match, at, drawn, drawer) == drawn
    # undone further back: the state it was drawn in is gone, so nobody reads it any more
    shell.session.only_seat = drawer
    while len(shell.session.match.states) > at:
        shell.session.match.undo()
    assert shell.log.taken_back(at, drawn) == ("a card", "(secret)")
    assert _mask_undone(WORLD, shell.session.match, at, drawn, drawer) == "C?"
    # the drawer playing bots: theirs to read
    m2 = world_after_a_card_draw(bots=True)
    shell2, host2 = open_world(m2)
    said2, listed2 = undo_past_the_draw(shell2, host2)
    assert m2.log != [] and shell2.session.at_device() is not None
    assert m2.undone and any(t.startswith("C") and t in listed2 for _, ts in m2.undone for t in ts)
