"""Redaction for live play (issue 22): what a device receives is enough to play its seat
and holds nothing another seat may keep from it.

Seeded random playouts over every registered game check ``Game.redact`` against the
protocol: for every seat (and the spectator) the view and JSON round trip are the same on
the redacted state, the seat's own legal actions and secret choices are unchanged, and
redacting twice changes nothing. World Conquest (W5, the only game whose state holds
another seat's secret) is also checked the other way round: changing another seat's hand
or the deck's make-up changes nothing a seat receives, and no card drawn by another seat
is named in the log it receives.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from conquest.core import games, get_game
from conquest.rng import Rng
from conquest.session import Match

MAX_STEPS = 200
SEEDS = [4, 5]


def _playout(game_id: str, seed: int, steps: int = MAX_STEPS):
    game = games()[game_id]
    rng = Rng(seed)
    match = Match(game, game.default_options(), rng=rng)
    match.resolve_chance()
    for _ in range(steps):
        yield match
        state = match.state
        secret = game.simultaneous(state)
        if game.outcome(state) is not None:
            return
        if secret:
            parts = {s: (c := game.secret_choices(state, s))[rng.below(len(c))] for s in secret}
            match.play(game.join_secret(state, parts))
            continue
        actions = game.legal_actions(state)
        match.play(actions[rng.below(len(actions))])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", sorted(games()))
def test_redaction_keeps_what_the_seat_plays_with(game_id: str, seed: int) -> None:
    game = games()[game_id]
    for match in _playout(game_id, seed):
        state = match.state
        n = len(game.view(state, None).get("players", [])) or game.max_players
        for seat in [None, *range(min(n, game.max_players))]:
            red = game.redact(state, seat)
            # it travels as JSON, and comes back the same
            wire = json.loads(json.dumps(game.state_to_json(red)))
            assert game.state_from_json(wire) == red
            assert game.redact(red, seat) == red, "redacting twice must change nothing"
            assert game.view(red, seat) == game.view(state, seat), (game_id, seat, len(match.log))
            assert game.to_move(red) == game.to_move(state)
            assert game.simultaneous(red) == game.simultaneous(state)
            assert game.outcome(red) == game.outcome(state)
            if seat is not None and game.to_move(state) == seat:
                assert game.legal_actions(red) == game.legal_actions(state), (game_id, seat, len(match.log))
            if seat is not None and seat in game.simultaneous(state):
                assert game.secret_choices(red, seat) == game.secret_choices(state, seat)


def _hands_permuted(state, seat: int):
    """The same World state with every other hand's kinds changed (sizes kept) and the
    deck's make-up changed: what ``seat`` may not know."""
    hands = list(state.hands)
    for s in range(state.n):
        if s != seat and sum(hands[s]):
            k = sum(hands[s])
            hands[s] = (0, 0, k) if hands[s] != (0, 0, k) else (k, 0, 0)
    deck = state.deck
    if sum(deck) >= 2:
        deck = (sum(deck) - 1, 1, 0) if deck != (sum(deck) - 1, 1, 0) else (1, sum(deck) - 1, 0)
    return replace(state, hands=tuple(hands), deck=deck)


@pytest.mark.parametrize("seed", SEEDS)
def test_world_redaction_depends_on_nothing_private_of_another_seat(seed: int) -> None:
    game = get_game("world")
    checked = 0
    for match in _playout("world", seed, 400):
        state = match.state
        for seat in [None, *range(state.n)]:
            red = game.redact(state, seat)
            other = _hands_permuted(state, -1 if seat is None else seat)
            assert game.redact(other, seat) == red, (seat, len(match.log))
            if seat is not None:
                assert red.hands[seat] == state.hands[seat]
            checked += any(sum(h) for h in state.hands)
    assert checked, "the playout must reach hands with cards in them"


def test_world_log_names_a_drawn_card_to_its_drawer_only() -> None:
    game = get_game("world")
    draws = 0
    match = None
    for match in _playout("world", 6, 600):  # noqa: B007 - the last one is the whole game
        pass
    assert match is not None
    for i, text in enumerate(match.log):
        before = match.states[i]
        if not text.startswith("C"):
            for seat in [None, *range(before.n)]:
                assert game.redact_text(before, text, seat) == text
            continue
        draws += 1
        for seat in [None, *range(before.n)]:
            got = game.redact_text(before, text, seat)
            assert got == (text if seat == before.current else "C?")
    assert draws, "the playout must draw cards"
