"""The guessing habits of the question bench (issue 40, ``tools/question_habits.py``): each
picks what a guesser would, and scores chance where it has no opinion."""
from __future__ import annotations

from tools.question_habits import HABITS, habit_rates, number_of


def test_numbers_are_read_from_the_forms_the_bank_writes() -> None:
    assert number_of("UTC+05:30") == 5.5 and number_of("UTC−03:30") == -3.5
    assert number_of("1,234 km") == 1234 and number_of("Chess") is None and number_of("1 to 2") is None


def test_each_habit_picks_what_a_guesser_would() -> None:
    offsets = ["UTC+1", "UTC+3", "UTC+2", "UTC+4"]
    assert HABITS["middle (2nd smallest)"]("Which offset?", offsets) == 2
    assert HABITS["largest"]("Which offset?", offsets) == 3
    assert HABITS["most widespread language"]("Official language of Mali?", ["Bambara", "French", "English", "Fula"]) == 2
    assert HABITS["shares letters with the question"]("Which is the currency code of Japan?",
                                                       ["KRW", "CNY", "JPY", "INR"]) == 2
    assert HABITS["code starts with the country's ISO code"](
        "Which currency does the United Arab Emirates use?", ["Kwanza (AOA)", "Dirham (AED)", "Manat (AZN)", "Dram (AMD)"]
    ) == 1
    assert HABITS["odd one out by length"]("?", ["Ab", "Cd", "Ef", "Ghijklmn"]) == 3
    # no opinion: a tie, or options the habit cannot read
    assert HABITS["middle (2nd smallest)"]("?", ["Chess", "Go", "Checkers", "Shogi"]) is None
    assert HABITS["most widespread language"]("?", ["Bambara", "Fula", "Wolof", "Soninke"]) is None


def test_rates_per_category_score_chance_without_an_opinion_and_name_telling_options() -> None:
    cats = [{"id": "zones", "name": "Time zones"}, {"id": "langs", "name": "Languages"}]
    zones = [[f"z{i}", 0, 0, "Offset?", ["UTC+1", "UTC+2", "UTC+3", "UTC+4"], 1] for i in range(8)]
    langs = [[f"l{i}", 1, 0, "Language?", ["Wolof", "Fula", "Bambara", "Soninke"], i % 4] for i in range(8)]
    rates = habit_rates(zones + langs, cats)
    assert rates["zones"]["rates"]["middle (2nd smallest)"] == 1.0  # always the answer: it tells
    assert rates["zones"]["telling"] == {"UTC+2": (8, 8)}
    assert rates["langs"]["rates"]["most widespread language"] == 0.25  # no opinion: chance
    assert rates["langs"]["telling"] == {} and rates["langs"]["chance"] == 0.25


# ------------------------------------------------------------------------------------------
# The committed bank (issue 40)
# ------------------------------------------------------------------------------------------
#: categories whose questions are not about countries (six at least, of 150 or more each)
NOT_COUNTRIES = ("maps", "elements", "units", "emoji", "sky", "words")


def _bank() -> dict:
    import json

    from conquest.games.campaign.questions import BANK_FILE

    return json.loads(BANK_FILE.read_text(encoding="utf-8"))


def test_no_guessing_habit_beats_chance_by_more_than_ten_points_in_any_category() -> None:
    """Every habit over the whole bank, per category (printed with ``-s``); a habit that is
    the question's own subject ("the most populous" for "which has the most people?") is
    knowledge, not a guess, and is left out (``tools/question_balance.SUBJECT_HABITS``)."""
    from tools.question_balance import SUBJECT_HABITS

    bank = _bank()
    rates = habit_rates(bank["choice"], bank["categories"])
    worst = []
    for cat, r in rates.items():
        fair = {h: x for h, x in r["rates"].items() if h not in SUBJECT_HABITS.get(cat, ())}
        habit, rate = max(fair.items(), key=lambda kv: kv[1])
        print(f"{cat:10} {r['size']:4} best habit {habit}: {rate:.1%} (chance {r['chance']:.0%})")
        worst.append((rate - r["chance"], cat, habit))
    assert max(worst)[0] <= 0.10, max(worst)


def test_no_option_is_the_answer_in_more_than_half_the_questions_offering_it() -> None:
    from collections import Counter

    bank = _bank()
    offered: Counter[tuple[int, str]] = Counter()
    answer: Counter[tuple[int, str]] = Counter()
    for row in bank["choice"]:
        offered.update((row[1], o) for o in row[4])
        answer[(row[1], row[4][row[5]])] += 1
    telling = {k: (a, offered[k]) for k, a in answer.items() if 2 * a > offered[k]}
    assert not telling, sorted(telling.items())[:10]


def test_six_categories_beyond_countries_and_three_hundred_pictures() -> None:
    from collections import Counter

    bank = _bank()
    ids = [c["id"] for c in bank["categories"]]
    size = Counter(ids[row[1]] for row in bank["choice"] + bank["guess"])
    assert all(size[c] >= 150 for c in NOT_COUNTRIES), {c: size[c] for c in NOT_COUNTRIES}
    pictures = [row[6] for row in bank["choice"] if len(row) > 6]
    assert len(pictures) >= 300 and {p["kind"] for p in pictures} == {"flag", "emoji", "symbol"}
