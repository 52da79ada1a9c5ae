"""Short Campaign's questions (S8): the bundled bank, its generator, and hosts' packs."""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conquest.core import InvalidOptions
from conquest.games.campaign import GAME
from conquest.games.campaign.questions import (
    BANK_FILE,
    GUESS_MAX,
    PACK_MAX_BYTES,
    PackError,
    load_bank,
    load_pack,
    make_pool,
    normalize_pack,
    pack_questions,
    seal_pack,
    unseal_pack,
)

ROOT = Path(__file__).resolve().parent.parent
PACK_TEXT = (Path(__file__).parent / "data" / "campaign_pack.json").read_text(encoding="utf-8")
PACK = json.loads(PACK_TEXT)


def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if c.isalnum()).casefold()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(BANK_FILE.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------
# The bank
# ------------------------------------------------------------------------------------------
def test_bank_is_large_small_enough_and_documents_its_sources(raw: dict[str, Any]) -> None:
    size = BANK_FILE.stat().st_size
    assert size < 1_500_000
    assert len(raw["choice"]) >= 4000 and len(raw["guess"]) >= 3000
    for src in raw["sources"]:
        assert src["source"] and src["license"] and src["what"]
        # no year where the figures are of several (populations: issue 40)
        assert src["year"] is None or (isinstance(src["year"], int) and 1900 < src["year"] <= 2100)
        # issue 24: two sources per fact (the site's own maps are their own facts), a license each
        assert src["check"] or src["id"] == "conquest-maps", src["id"]
        assert len(src["license"].split("; ")) == 1 + len(src["check"].split("; ")) * bool(src["check"]), src["id"]
    ids = [c["id"] for c in raw["categories"]]
    assert len(ids) == len(set(ids)) == 18  # issue 40: flags, emoji, the night sky, English words
    # saved games and links name the first ten in their options: they never change
    assert ids[:10] == ["capitals", "borders", "regions", "codes", "people", "area", "cities", "us", "distances", "maps"]


def test_bank_questions_are_well_formed(raw: dict[str, Any]) -> None:
    n_cat, n_src = len(raw["categories"]), len(raw["sources"])
    for qid, cat, src, text, options, answer, *_picture in raw["choice"]:
        assert re.fullmatch(r"[a-z0-9]{6}", qid), qid
        assert 0 <= cat < n_cat and 0 <= src < n_src
        assert text.endswith("?") and text == " ".join(text.split()), text
        assert len(options) == 4, text
        signed = [o.replace("+", " plus ").replace("−", " minus ") for o in options]  # UTC+1 is not UTC−1
        assert len({fold(o) for o in signed}) == 4, f"options not distinct: {text} {options}"
        assert all(o == " ".join(o.split()) and o for o in options), text
        assert isinstance(answer, int) and 0 <= answer < 4
    for qid, cat, src, text, unit, lo, hi, answer in raw["guess"]:
        assert re.fullmatch(r"[a-z0-9]{6}", qid), qid
        assert 0 <= cat < n_cat and 0 <= src < n_src
        assert text.endswith("?") and unit
        assert isinstance(answer, int) and not isinstance(answer, bool) and answer >= 1, text
        assert 0 <= lo <= answer <= hi <= GUESS_MAX, text


def test_bank_has_no_duplicates(raw: dict[str, Any]) -> None:
    ids = [q[0] for q in raw["choice"] + raw["guess"]]
    assert len(ids) == len(set(ids))
    # a picture question's words may repeat ("Which country or territory has this flag?")
    texts = Counter((q[3], str(q[6]) if len(q) > 6 else "") for q in raw["choice"] + raw["guess"])
    assert [t for t, n in texts.items() if n > 1] == []
    shapes = Counter((q[3], tuple(sorted(q[4])), str(q[6]) if len(q) > 6 else "") for q in raw["choice"])
    assert max(shapes.values()) == 1


def test_guess_ranges_do_not_give_answers_away(raw: dict[str, Any]) -> None:
    """A range is fixed per kind of question, never made from the answer."""
    ranges = Counter((q[5], q[6]) for q in raw["guess"])
    assert len(ranges) <= 8
    assert all(n >= 6 for n in ranges.values()), ranges


def test_every_category_has_questions_and_right_answers_are_spread(raw: dict[str, Any]) -> None:
    bank = load_bank()
    for cat, kinds in bank.by_category.items():
        assert len(kinds["choice"]) + len(kinds["guess"]) >= 100, cat
    where = Counter(q[5] for q in raw["choice"])
    assert all(abs(where[i] / len(raw["choice"]) - 0.25) < 0.03 for i in range(4))


def test_the_set_up_page_can_list_categories() -> None:
    cats = GAME.question_categories()
    assert [c["id"] for c in cats] == list(load_bank().categories)
    assert sum(c["choice"] + c["guess"] for c in cats) == len(load_bank().questions)
    assert GAME.normalize_options({"categories": ["capitals", "units"]})["categories"] == ["capitals", "units"]


def test_bank_questions_load_and_show_no_answer() -> None:
    bank = load_bank()
    assert len(bank.questions) == len(bank.by_kind["choice"]) + len(bank.by_kind["guess"])
    for q in list(bank.questions.values())[::97]:
        public = q.public()
        assert "answer" not in public and q.source and q.category in bank.categories
        if q.kind == "choice":
            assert [o["letter"] for o in public["options"]] == ["A", "B", "C", "D"]
        else:
            assert public["min"] <= q.answer <= public["max"]


def test_generator_is_deterministic_and_made_the_committed_bank() -> None:
    """Fails, never skips, without the pinned data packages: ``./dev test`` installs the
    ``questions`` extra, so the committed bank is always checked against its generator."""
    import tools.questions as gen

    assert not gen.versions_ok(), "not the pinned data packages: " + ", ".join(gen.versions_ok())
    made = gen.dumps(gen.build())
    assert made == BANK_FILE.read_bytes()
    assert gen.dumps(json.loads(made)) == made  # the layout is a function of the data alone


# ------------------------------------------------------------------------------------------
# Packs
# ------------------------------------------------------------------------------------------
def test_a_pack_seals_its_answers_and_unseals_them_again() -> None:
    sealed = load_pack(PACK_TEXT)
    assert sealed["title"] == "Test pack" and sealed["cats"] == ["Arithmetic", "Colours", "Numbers"]
    text = json.dumps(sealed)
    assert '"answer"' not in text
    for q in PACK["questions"]:
        if q["type"] == "guess":
            assert not re.search(rf"[^0-9]{q['answer']}[^0-9]", text)
    back = unseal_pack(sealed)
    for mine, theirs in zip(back["questions"], PACK["questions"], strict=True):
        assert mine["answer"] == theirs["answer"] and mine["text"] == theirs["text"]
        if mine["type"] == "choice":
            assert sorted(mine["options"]) == sorted(theirs["options"])
    assert normalize_pack(sealed) == sealed == normalize_pack(PACK)
    assert load_pack(PACK_TEXT.encode("utf-8-sig")) == sealed
    qs = pack_questions(sealed)
    assert [q.id for q in qs] == [f"p{i}" for i in range(1, 17)]
    four = next(q for q in qs if q.text == "What is 2 + 2?")
    assert four.options[four.answer] == "4"


def test_options_order_does_not_follow_the_author() -> None:
    """Authors often write the right option first; the sealed order must not show it."""
    qs = [
        {"type": "choice", "text": f"Question number {i}?", "options": [f"right {i}", "b", "c", "d"], "answer": f"right {i}"}
        for i in range(40)
    ]
    sealed = seal_pack({"title": "First", "questions": qs})
    firsts = sum(1 for row in sealed["q"] if row[3][0].startswith("right"))
    assert firsts < 20


def pack_with(**changes: Any) -> dict[str, Any]:
    p = copy.deepcopy(PACK)
    q = p["questions"]
    for key, value in changes.items():
        index, field = key.split("__")
        if value is None:
            q[int(index[1:])].pop(field)
        else:
            q[int(index[1:])][field] = value
    return p


@pytest.mark.parametrize(
    ("pack", "needle"),
    [
        ([], "JSON object"),
        ({"questions": PACK["questions"]}, '"title"'),
        ({"title": "x", "questions": []}, "1 to 500 questions"),
        ({"title": "x", "questions": [PACK["questions"][0]] * 501}, "1 to 500 questions"),
        ({**PACK, "colour": "red"}, "unknown field 'colour'"),
        (pack_with(q0__type="quiz"), '"type" must be "choice" or "guess"'),
        (pack_with(q0__text="2+2"), '"text" must be 5 to 300'),
        (pack_with(q0__text="x" * 301), '"text" must be 5 to 300'),
        (pack_with(q0__options=["3", "4", "5"]), "exactly 4 answers"),
        (pack_with(q0__options=["3", "4", "4", "22"]), "must all be different"),
        (pack_with(q0__options=["3", "4", "x" * 101, "22"]), "1 to 100 characters"),
        (pack_with(q0__answer="four"), "exactly one option must be the answer"),
        (pack_with(q0__anwser="4"), "unknown field 'anwser'"),
        (pack_with(q8__answer=366.5), "whole number from 1"),
        (pack_with(q8__answer=0), "whole number from 1"),
        (pack_with(q8__answer="366"), "whole number from 1"),
        (pack_with(q8__min=500, q8__max=100), '"min" and "max"'),
        (pack_with(q8__max=300), "outside"),
        (pack_with(q8__unit="x" * 21), '"unit"'),
        (pack_with(q1__text="What is 2 + 2?"), "have the same text"),
        (pack_with(q0__category=""), '"category" must be 1 to 40'),
        (pack_with(q0__text="What is \x00 2 + 2?"), "control character"),
        (pack_with(q0__options=["3", "4\ud800", "5", "22"]), "control character"),
        ({**PACK, "title": "Quiz\x1b[31m"}, "control characters"),
    ],
)
def test_pack_errors_are_clear(pack: Any, needle: str) -> None:
    with pytest.raises(PackError) as info:
        seal_pack(pack)
    assert needle in info.value.message, info.value.message
    assert info.value.code == "S8.pack" and info.value.message.startswith("S8:")
    assert isinstance(info.value, InvalidOptions)


def test_pack_errors_list_every_problem_and_name_the_question() -> None:
    bad = pack_with(q0__options=["3", "4", "4", "22"], q9__answer=-5)
    with pytest.raises(PackError) as info:
        seal_pack(bad)
    assert len(info.value.problems) == 2
    assert info.value.problems[0].startswith("question 1 ('What is 2 + 2?')")
    assert info.value.problems[1].startswith("question 10")


def test_pack_limits_on_categories_and_size() -> None:
    many = [
        {"type": "guess", "category": f"Cat {i}", "text": f"How many things number {i}?", "answer": 3}
        for i in range(31)
    ]
    with pytest.raises(PackError) as info:
        seal_pack({"title": "Many", "questions": many})
    assert "at most 30 categories" in info.value.message
    big = [
        {"type": "choice", "text": f"{i} " + "w" * 290 + "?", "options": ["a" * 90, "b" * 90, "c" * 90, "d" * 90], "answer": "a" * 90}
        for i in range(200)
    ]
    with pytest.raises(PackError) as info:
        seal_pack({"title": "Big", "questions": big})
    assert f"{PACK_MAX_BYTES:,}" in info.value.message


@pytest.mark.parametrize(
    "text", ["not json", "{", '{"title": "x", "questions": [1]}', "[]"],
)
def test_pack_files_that_are_not_packs(text: str) -> None:
    with pytest.raises(PackError):
        load_pack(text)
    with pytest.raises(PackError):
        load_pack(b"\xff\xfe")


def test_a_damaged_sealed_pack_in_a_link_is_refused() -> None:
    sealed = load_pack(PACK_TEXT)
    broken = copy.deepcopy(sealed)
    broken["q"][8][6] = "A" * 22  # a seal that does not decode to a number
    with pytest.raises(PackError) as info:
        GAME.normalize_options({"pack": broken})
    assert "damaged" in info.value.message
    broken = copy.deepcopy(sealed)
    broken["q"][0] = ["c", 0, "What is 2 + 2?"]
    with pytest.raises(PackError):
        normalize_pack(broken)
    with pytest.raises(PackError):
        normalize_pack({**sealed, "extra": 1})


def test_pack_categories_choose_questions() -> None:
    with pytest.raises(InvalidOptions) as info:  # 4 multiple-choice questions are too few
        GAME.normalize_options({"pack": PACK, "pack_categories": ["Arithmetic", "Numbers"]})
    assert info.value.code == "options.questions" and "4 multiple-choice" in info.value.message
    opts = GAME.normalize_options({"pack": PACK, "pack_categories": ["Numbers", "Arithmetic"], "categories": ["us"]})
    assert opts["pack_categories"] == ["Arithmetic", "Numbers"] and opts["categories"] == ["us"]
    pool = make_pool(opts["categories"], opts["pack"], opts["pack_categories"])
    assert [q for q in pool.eligible["choice"] if q.startswith("p") and len(q) < 6] == ["p1", "p2", "p3", "p7"]
    assert all(pool.get(q).category in ("us", "Arithmetic") for q in pool.eligible["choice"])  # type: ignore[union-attr]
    assert len([q for q in pool.eligible["guess"] if len(q) < 6]) == 8
    both = GAME.normalize_options({"pack": PACK, "categories": ["capitals"]})
    pool = make_pool(both["categories"], both["pack"], both["pack"]["cats"])
    assert len(pool.eligible["choice"]) > 100 and "p1" in pool.eligible["choice"]
    with pytest.raises(InvalidOptions) as info:
        GAME.normalize_options({"pack": PACK, "pack_categories": ["Sport"]})
    assert "Sport" in info.value.message
