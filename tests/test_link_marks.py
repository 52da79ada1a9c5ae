"""Issue 42's two loose ends of a long game in the page, counted, never timed.

1. With storage refused the address holds the game after every step, written in the step's
   own task so a reload at once keeps it: a long game's code there starts from the last
   code's mark (``SaveEncoder``: the compressor's state a few kilobytes before the log's
   end), so a step compresses only the log's end again, and the code is exactly the one
   the whole save gives.
2. Opening the world's worst accepted link (80,000 steps) blocked the page 1.2 s: the
   cyclic collector's full passes walked every state the replay kept, and one fell in a
   slice now and then. The page's opening (``Opening(freeze=True)``) moves each slice's
   objects out of its way, so what a pass can walk is bounded by a slice's work, not by
   the log (bench/hostile_page.py worst prints the times).
"""
from __future__ import annotations

import gc
import math

import page_host  # noqa: F401  (site/py on sys.path)
from page_host import FakeHost, make_page

from conquest.savecode import SaveEncoder, decode_save, encode_save
from conquest.session import Match
from conquest.store import DisabledBackend, SlotStore
from tools.hostile import long_match


def whole(enc: SaveEncoder) -> str:
    code = enc.advance(math.inf, lambda: 0.0)
    assert code is not None
    return code


def test_a_steps_code_starts_from_the_last_codes_mark_and_is_the_same_code() -> None:
    match = long_match("world", 3200)
    first = SaveEncoder(match.save().to_json())
    assert whole(first) == encode_save(match.save().to_json()) and first.resumed_at == 0
    assert first.mark is not None and len(first.raw or b"") - first.mark_at < 2 * SaveEncoder.MARK_BEFORE_LOG_END
    last = first
    for _ in range(3):  # each step: from the mark, the log's last kilobytes and what follows
        match.play(match.legal_actions()[0])
        enc = SaveEncoder(match.save().to_json(), after=last)
        code = whole(enc)
        assert code == encode_save(match.save().to_json())
        assert decode_save(code)["log"] == match.log
        assert enc.resumed_at == last.mark_at > 0
        assert len(enc.raw or b"") - enc.resumed_at < 2 * SaveEncoder.MARK_BEFORE_LOG_END
        last = enc
    match.undo()  # an undo: the log's end differs, its start does not
    enc = SaveEncoder(match.save().to_json(), after=last)
    assert whole(enc) == encode_save(match.save().to_json()) and enc.resumed_at == last.mark_at
    assert enc.mark is not None  # and the next step starts from a mark too
    save = match.save().to_json()  # a save whose JSON differs earlier: from the beginning
    far = SaveEncoder({**save, "log": ["p9", *save["log"][1:]]}, after=enc)
    assert whole(far) == encode_save(far.save) and far.resumed_at == 0


def test_a_long_game_storage_refused_writes_each_steps_address_from_the_mark() -> None:
    import world as world_page
    from shell import LINKS_AT_ONCE

    from conquest.savecode import parse_fragment

    long = long_match("world", LINKS_AT_ONCE + 200)
    host = FakeHost()
    host.backend = DisabledBackend()
    host.store = SlotStore(host.backend)
    shell, _, _ = make_page(world_page.WorldPage, host)
    shell.open(Match(long.game, long.options, long.log), None)
    shell.session.unsaved = True  # as the page does when the link's game could not be stored
    if (seat := shell.pending()) is not None:
        shell.handover.ready(seat)
    for i in range(3):
        shell.play(shell.session.match.legal_actions()[0])
        _, save = parse_fragment(host.query)  # in the step's own task, no timer run
        assert save["log"] == shell.session.match.log
        enc = shell.links._last
        assert enc is not None and (enc.resumed_at > 0) == (i > 0)  # the first: whole, once
    assert "Preparing the links" not in str(shell.links.render("http://x/"))  # the code is made


def test_a_long_game_opens_in_slices_whose_objects_leave_the_collectors_way() -> None:
    from shell import Opening

    match = long_match("world", 6000)
    ticks = [0.0]

    def clock() -> float:  # each look at the clock is a millisecond later
        ticks[0] += 1.0
        return ticks[0]

    gc.collect()
    gc.freeze()  # the test process's own objects: out of the count
    before = gc.get_freeze_count()
    try:
        opening = Opening(match.save().to_json(), freeze=True)
        walked = []
        done = None
        while done is None:
            done = opening.advance(10.0, clock)
            walked.append(len(gc.get_objects()))  # what a full pass would walk now
        assert done.log == match.log and opening.slices > 10
        kept = gc.get_freeze_count() - before
        # what the replay kept is out of the collector's way, slice by slice: a pass after any
        # slice walks a bounded few (without: 13,505 objects at the end of these 6,000 steps)
        assert max(walked) < 1_000 and kept > 10_000
    finally:
        gc.unfreeze()
