"""Short Campaign games saved before the question bank was rebuilt still open and replay (S8).

``tests/data/campaign_save_2026-11-22.json`` was made by the engine and bank of commit
cf13780 (run from ``git archive cf13780 conquest`` in a temporary folder: three bots,
Easy/Medium/Hard, ``play_match`` with ``Rng(424242)``, bots ``Rng(7000 + seat)``). That
engine ended it with Cleo (seat 2) winning, points 0 / 2,600 / 4,500. None of its question
ids is in the rebuilt bank; they are in ``conquest/data/legacy/campaign_questions.json``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conquest import catalog
from conquest.core import IllegalAction
from conquest.games.campaign import GAME, questions
from conquest.games.campaign.actions import Draw
from conquest.rng import Rng
from conquest.session import Match, ReplayError, replay

ROOT = Path(__file__).resolve().parent.parent
OLD_SAVE = ROOT / "tests" / "data" / "campaign_save_2026-11-22.json"


def old_save() -> dict:
    return json.loads(OLD_SAVE.read_text(encoding="utf-8"))


def draws(log: list[str]) -> list[str]:
    return [t[1:] for t in log if t.startswith("Q")]


def test_an_old_save_replays_exactly_as_the_old_engine_played_it() -> None:
    save = old_save()
    bank = questions.load_bank()
    asked = draws(save["log"])
    assert asked and not any(q in bank.questions for q in asked)  # the rebuilt bank lacks every one
    m = replay(save)
    out = GAME.outcome(m.state)
    assert out is not None and out.winners == (2,) and out.scores == (0.0, 2600.0, 4500.0)
    # the questions as they were asked: words, options and answer of the old bank
    q = GAME.question(m.state, "nlndg6")
    assert q is not None and q.edition == "2026-11-22"
    assert q.text == "How far is it from Lahore (Pakistan) to Shenyang (China) as the crow flies?"
    assert (q.answer, q.unit, q.lo, q.hi) == (4459, "km", 0, 20100)
    view = GAME.view(m.state, None)
    assert view["questions"]["earlier_edition"] == len(asked) == view["questions"]["asked"]
    assert view["reveal"]["question"]["edition"] == "2026-11-22"
    assert "earlier" not in json.dumps(view["reveal"]["question"]["answer"])
    assert "from the 2026-11-22 edition of the question bank" in view["reveal"]["question"]["source"]
    # the log says so in words
    i = save["log"].index("Q" + asked[0])
    line = GAME.describe_action(m.states[i], GAME.parse_action(save["log"][i]))
    assert "2026-11-22 edition of the question bank" in line


def test_verify_accepts_the_old_save() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "conquest", "verify", str(OLD_SAVE)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK: the game is over" in run.stdout and "Cleo" in run.stdout


def test_an_unknown_id_is_still_refused() -> None:
    save = old_save()
    first = next(i for i, t in enumerate(save["log"]) if t.startswith("Q"))
    assert questions.legacy_question("zzzzz9") is None and "zzzzz9" not in questions.load_bank().questions
    save["log"][first] = "Qzzzzz9"
    with pytest.raises(ReplayError) as err:
        replay(save)
    assert err.value.code == "replay.S8.unknown-question" and "'zzzzz9'" in err.value.message


def test_new_games_never_draw_an_earlier_edition_question() -> None:
    legacy = questions.load_legacy()
    bank = questions.load_bank()
    assert legacy is not None and not set(legacy.questions) & set(bank.questions)
    for opts in ({}, {"categories": ["capitals", "area"]}):
        m = Match(GAME, opts, rng=Rng(5))
        pool = GAME.setup(m.state).pool
        every = {q for ids in (*pool.eligible.values(), *pool.fallback.values()) for q in ids}
        assert every <= set(bank.questions) and not every & set(legacy.questions)
    levels = GAME.bot_levels()
    from conquest.bots import play_match

    m = play_match(GAME, {}, [levels["Hard"](Rng(i)) for i in range(3)], Rng(11))
    assert GAME.outcome(m.state) is not None
    assert all(q in bank.questions for q in m.state.used)
    assert GAME.view(m.state, None)["questions"]["earlier_edition"] == 0


def test_a_new_game_does_not_read_the_earlier_editions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(questions, "_legacy", None)
    reads: list[str] = []
    real = catalog.read_lazy
    monkeypatch.setattr(questions, "read_lazy", lambda rel: reads.append(rel) or real(rel))
    m = Match(GAME, {}, rng=Rng(3))
    m.resolve_chance()
    for _ in range(6):
        m.play(GAME.legal_actions(m.state)[0])
    GAME.view(m.state, None)
    assert reads == []
    replay(old_save())
    assert reads == ["campaign_questions.json"]


def test_an_old_game_goes_on_with_questions_of_the_current_bank() -> None:
    save = old_save()
    cut = next(i for i, t in enumerate(save["log"]) if t.startswith("Q") and i > 20)  # a draw is due here
    m = Match(GAME, save["options"], save["log"][:cut], rng=Rng(9))
    assert m.state.phase == "draw"
    m.resolve_chance()
    new = m.state.question
    assert new in questions.load_bank().questions
    # once a current question was asked, an earlier edition's cannot follow (S8.edition)
    state = m.state
    for _ in range(200):
        if state.phase == "draw":
            break
        spec = GAME.chance(state)
        step = GAME.chance_action(state, [0] * len(spec.sizes)) if spec else GAME.legal_actions(state)[0]
        state = GAME.apply(state, step)
    assert state.phase == "draw"
    kind = GAME.question_kind(state)
    legacy = questions.load_legacy()
    assert legacy is not None
    old = next(q for q in legacy.by_kind[kind] if q not in state.used)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, Draw(old))
    assert err.value.code == "S8.edition"
    # an old question asked twice is refused too
    log = list(save["log"])
    second = [i for i, t in enumerate(log) if t.startswith("Q")][1]
    log[second] = log[next(i for i, t in enumerate(log) if t.startswith("Q"))]  # both expansion guesses
    with pytest.raises(ReplayError) as err2:
        replay({**save, "log": log})
    assert err2.value.code == "replay.S8.repeat"


def test_earlier_editions_out_of_reach_are_named_in_the_refusal(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """The page offline, never having fetched them: a clear refusal, and a retry later."""
    monkeypatch.setattr(questions, "_legacy", None)
    monkeypatch.setattr(catalog, "LAZY_DIR", tmp_path)

    def offline(rel: str) -> bytes:
        raise OSError(f"{rel} could not be fetched; are you offline?")

    monkeypatch.setattr(catalog, "_lazy_fetch", offline)
    with pytest.raises(ReplayError) as err:
        replay(old_save())
    assert err.value.code == "replay.S8.unknown-question"
    assert "earlier editions of the bank could not be read" in err.value.message and "offline" in err.value.message
    # back online: fetched once, kept on the page's disk
    src = (ROOT / "conquest" / "data" / "legacy" / "campaign_questions.json").read_bytes()
    monkeypatch.setattr(catalog, "_lazy_fetch", lambda rel: src)
    assert GAME.outcome(replay(old_save()).state) is not None
    assert (tmp_path / "campaign_questions.json").read_bytes() == src


def test_the_legacy_file_holds_the_old_bank_as_it_was() -> None:
    """Provenance inside the file; every question of the old bank kept, row for row."""
    raw = json.loads((ROOT / "conquest" / "data" / "legacy" / "campaign_questions.json").read_text(encoding="utf-8"))
    first, second = raw["editions"]
    assert first["id"] == "2026-11-22" and "cf13780" in first["origin"] and first["questions"] == 9016
    # issue 40's bank retired 3,460 questions of issue 24's (options chosen against guessers)
    assert second["id"] == "2026-11-28" and "15e1e2b" in second["origin"] and second["questions"] == 3460
    assert len(raw["choice"]) + len(raw["guess"]) == 9016 + 3460
    sys.path.insert(0, str(ROOT / "tools"))
    import questions_legacy

    # retiring the same bank again adds nothing; the file is what the tool writes
    bank = json.loads(questions.BANK_FILE.read_text(encoding="utf-8"))
    same = questions_legacy.retire(raw, bank, raw, "2099-01-01", "test", "0")
    assert questions_legacy.dumps(same) == (ROOT / "conquest" / "data" / "legacy" / "campaign_questions.json").read_bytes()


def test_app_zip_leaves_the_earlier_editions_out_and_the_site_serves_them() -> None:
    import zipfile
    from io import BytesIO

    from buildlib import runtime

    names = zipfile.ZipFile(BytesIO(runtime.app_zip())).namelist()
    assert "conquest/data/campaign_questions.json" in names
    assert not any("legacy" in n for n in names)
    assert set(runtime.lazy_files()) == {"py/lazy/campaign_questions.json"}


# -- the page's fetch of the earlier editions: asynchronous (issue 42) -------------------------
class HeldFetch:
    """A page's fetch of a data file that answers when the test says (``lazy_data.Start``)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.pending: list[tuple[str, object, object]] = []

    def __call__(self, rel: str, done, failed) -> None:  # noqa: ANN001 - lazy_data.Start
        self.asked.append(rel)
        self.pending.append((rel, done, failed))

    def answer(self) -> None:
        src = (ROOT / "conquest" / "data" / "legacy" / "campaign_questions.json").read_bytes()
        for _rel, done, _failed in self.pending:
            done(src)
        self.pending.clear()

    def fail(self, why: str) -> None:
        for _rel, _done, failed in self.pending:
            failed(why)
        self.pending.clear()


@pytest.fixture
def page_fetch(monkeypatch: pytest.MonkeyPatch, tmp_path):  # noqa: ANN201 - (HeldFetch, lazy_data module)
    """The page as it boots: the earlier editions not on its disk, fetched through ``lazy_data``."""
    import lazy_data

    monkeypatch.setattr(questions, "_legacy", None)
    monkeypatch.setattr(questions, "legacy_error", "")
    monkeypatch.setattr(catalog, "LAZY_DIR", tmp_path)
    monkeypatch.setattr(catalog, "_lazy_fetch", None)
    monkeypatch.setattr(lazy_data, "current", None)
    held = HeldFetch()
    lazy_data.install(held)
    return held, lazy_data


def test_an_old_game_opens_after_its_questions_arrive_and_says_they_load_meanwhile(page_fetch) -> None:
    """The engine never waits on the network: its read refuses while the file is on its way,
    the opening says so ("loading …") and replays again once it is in."""
    from page_host import make_page
    from shell import Opening, check_save
    from ui import text

    from conquest.savecode import SaveCodeError

    held, lazy_data = page_fetch
    opening = Opening(old_save())
    assert opening.advance(1e9, lambda: 0.0) is None
    assert opening.waiting and held.asked == ["campaign_questions.json"]
    assert opening.progress() == ("Opening the game: loading the questions of earlier editions of the question "
                                  "bank from the site…")
    # the page's toast says it meanwhile (browser_open.Opener shows the progress there)
    import campaign

    shell, _page, _host = make_page(campaign.CampaignPage)
    shell.say(opening.progress())
    assert "loading the questions of earlier editions" in text(shell.render_message())
    # a check that cannot wait (another tab's game, a file) says it is loading; one request only
    with pytest.raises(SaveCodeError) as err:
        check_save(old_save())
    assert err.value.code == "loading" and "still loading" in err.value.message
    assert held.asked == ["campaign_questions.json"]
    resumed: list[bool] = []
    opening.when_ready(lambda: resumed.append(True))
    assert resumed == [] and opening.advance(1e9, lambda: 0.0) is None  # nothing to do while it waits
    held.answer()
    assert resumed == [True] and not opening.waiting
    match = None
    while match is None:
        match = opening.advance(1e9, lambda: 0.0)
    out = GAME.outcome(match.state)
    assert out is not None and out.winners == (2,)
    assert check_save(old_save()) is not None and held.asked == ["campaign_questions.json"]  # kept, not fetched again


@pytest.mark.parametrize("why", [
    "campaign_questions.json could not be fetched from the site (HTTP 404: the site does not have it)",
    "campaign_questions.json could not be fetched from the site (TypeError: Failed to fetch); is this device offline?",
], ids=["404", "offline"])
def test_an_old_game_whose_questions_cannot_be_fetched_says_why(page_fetch, why: str) -> None:
    """Offline and never fetched, or a 404: a clear message, code ``data`` (the page keeps the
    link in the address bar and does not call the slot damaged); the next need fetches again."""
    from shell import Opening

    from conquest.savecode import SaveCodeError

    held, _lazy_data = page_fetch
    opening = Opening(old_save())
    assert opening.advance(1e9, lambda: 0.0) is None and opening.waiting
    opening.when_ready(lambda: None)
    held.fail(why)
    with pytest.raises(SaveCodeError) as err:
        opening.advance(1e9, lambda: 0.0)
    assert err.value.code == "data"
    assert err.value.message.startswith("This game needs the questions of earlier editions of the question bank, "
                                        "which could not be loaded: ")
    assert why.rstrip(".") in err.value.message and "Nothing was changed" in err.value.message
    # a failure is not kept: opening it again fetches again, and then it opens
    again = Opening(old_save())
    assert again.advance(1e9, lambda: 0.0) is None and held.asked == ["campaign_questions.json"] * 2
    held.answer()
    match = None
    while match is None:
        match = again.advance(1e9, lambda: 0.0)
    assert GAME.outcome(match.state) is not None


def test_a_fetch_that_answers_at_once_opens_without_waiting(page_fetch) -> None:
    """The immediate path (an offline copy reads its own files, a test its disk): no wait."""
    from shell import Opening

    held, lazy_data = page_fetch
    src = (ROOT / "conquest" / "data" / "legacy" / "campaign_questions.json").read_bytes()
    lazy_data.install(lambda rel, done, failed: done(src))
    opening = Opening(old_save())
    match = opening.advance(1e9, lambda: 0.0)
    assert match is not None and not opening.waiting and opening.waits == 0
    assert GAME.outcome(match.state) is not None and held.asked == []


def test_the_page_makes_no_synchronous_request_for_data() -> None:
    """The page's fetch is ``fetch`` awaited in a task of its own, never a synchronous
    ``XMLHttpRequest`` (issue 42; the browser test watches the real page too)."""
    src = (ROOT / "site" / "py" / "frame.py").read_text(encoding="utf-8")
    assert "XMLHttpRequest" not in src
    assert "async def fetch_lazy_data" in src and "await js.fetch(url)" in src
