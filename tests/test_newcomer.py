"""Issue 9 item 14 in CPython: a game stored from a link is named with the time it was
opened, so two copies of one game can be told apart by more than their step counts."""

from __future__ import annotations

import time

from conquest.store import MAX_NAME, clean_name, link_name


def test_a_link_game_is_named_with_when_it_was_opened() -> None:
    now = 1_795_000_000_000.0
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(now / 1000))
    assert link_name("Conquest Metagame", now) == f"Conquest Metagame, opened {stamp}"
    assert link_name("Conquest Metagame (view)", now + 60_000) != link_name("Conquest Metagame (view)", now)
    assert link_name("Friday", 0) == "Friday"  # no clock: the name alone
    assert len(clean_name(link_name("x" * 40, now))) <= MAX_NAME and stamp in clean_name(link_name("x" * 40, now))
