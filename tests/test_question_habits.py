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
