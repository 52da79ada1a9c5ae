"""Choose each question's wrong options against guessers (issue 40).

Why: options drawn only for plausibility gave their answer away to a player who knows
nothing of the subject: the middle UTC offset, the most populous country among a city's,
English before French, "Euro" offered only where it was right. Every habit of
``tools/question_habits.py`` is a rule of thumb that names an option from the options
alone; a bank is fair when none of them finds the answer much more often than chance.

The generator hands each multiple-choice question a list of distractor *candidates*, best
first, every one of them ruled out by the sources. Here, per category, the questions are
visited in a fixed pseudo-random order and each takes the three candidates that keep every
habit's running score closest to chance so far, preferring (a little) the candidates the
generator put first, and (much) an option that is the answer of more questions than it has
been offered as a wrong option: so no option text is the answer in more than half of the
questions offering it, where the candidates allow it.

Deterministic: the same questions give the same choices (no ``random``, no dict order).
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

if __package__:
    from .question_habits import HABITS, Habit
else:  # run as tools/questions.py: tools/ is on the path
    from question_habits import HABITS, Habit  # type: ignore[no-redef]

#: the first candidates every choice is made among (the generator's best-looking ones)
PREFERRED = 6
#: candidates further down the list considered when they are owed an appearance
OWED_EXTRA = 4
#: per-category habits that are the question's own subject, not a guess: "which has the
#: most people?" is answered by knowing populations
SUBJECT_HABITS: Mapping[str, frozenset[str]] = {
    "people": frozenset({"most populous country"}),
    "area": frozenset({"largest country"}),
}
FREQUENT = "most frequent option"


@dataclass
class Pending:
    """One multiple-choice question whose wrong options are not chosen yet."""

    cat: str
    src: str
    text: str
    right: str
    #: distractor candidates, best first (distinct, none alike the answer)
    candidates: list[str]
    #: one fixed order of options (the text names them), else empty
    ordered: tuple[str, ...] = ()
    picture: Mapping[str, str] | None = None
    #: filled in by :func:`balance`
    options: tuple[str, ...] = field(default=())


def _key(*parts: object) -> bytes:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()


def _order(text: str, options: Sequence[str]) -> tuple[str, ...]:
    """The displayed order: a fixed shuffle by the question's words (never the answer first)."""
    return tuple(sorted(options, key=lambda o: _key("order", text, o)))


class _Tally:
    """Running habit scores of one category's chosen questions."""

    def __init__(self, habits: Mapping[str, Habit], answers: Counter[str]) -> None:
        self.habits = habits
        self.score = dict.fromkeys(habits, 0.0)
        self.expected = 0.0
        self.answers = answers  # how often each option text is the answer (fixed)
        self.wrong: Counter[str] = Counter()  # how often offered as a wrong option so far

    def scores(self, text: str, options: Sequence[str], right: int) -> dict[str, float]:
        out = {}
        for name, habit in self.habits.items():
            if name == FREQUENT:
                seen = [float(self.answers[o] + self.wrong[o]) for o in options]
                top = max(seen)
                pick = seen.index(top) if seen.count(top) == 1 else None
            else:
                pick = habit(text, options)
            out[name] = 1 / len(options) if pick is None else float(pick == right)
        return out

    def cost(self, s: Mapping[str, float], chance: float) -> float:
        """How far the habits' totals would stray from chance with these scores added."""
        return sum((self.score[h] + s[h] - self.expected - chance) ** 2 for h in self.habits)

    def owed(self, option: str) -> float:
        """How much an option is owed appearances as a wrong one (0: none)."""
        a = self.answers[option]
        return max(0.0, (a - self.wrong[option]) / a) if a else 0.0

    def add(self, s: Mapping[str, float], chance: float, wrong: Sequence[str]) -> None:
        for h in self.habits:
            self.score[h] += s[h]
        self.expected += chance
        self.wrong.update(wrong)


def _sets(q: Pending, tally: _Tally) -> list[tuple[str, ...]]:
    """The wrong-option triples a question may take: any three of its preferred candidates,
    and triples with up to two owed ones from further down its list."""
    first = q.candidates[:PREFERRED]
    owed = sorted((c for c in q.candidates[PREFERRED:] if tally.owed(c) > 0), key=lambda c: -tally.owed(c))[:OWED_EXTRA]
    out = list(itertools.combinations(first, 3))
    for e in owed:
        out += [(e, *pair) for pair in itertools.combinations(first, 2)]
    for e, f in itertools.combinations(owed, 2):
        out += [(e, f, x) for x in first]
    return out


def balance(
    pending: Sequence[Pending], fair: Callable[[str, Sequence[str], str], bool], drop: Callable[[str, str], None]
) -> list[Pending]:
    """Choose every pending question's options; returns the questions kept, in the given
    order. ``fair(text, options, right)`` is the generator's own check of a set of options
    (four different ones, the answer not standing out by its form); a question no set of
    which passes is dropped, ``drop(cat, reason)`` saying why."""
    by_cat: dict[str, list[Pending]] = {}
    for q in pending:
        by_cat.setdefault(q.cat, []).append(q)
    kept: set[int] = set()
    for cat, qs in by_cat.items():
        habits = {h: f for h, f in HABITS.items() if h not in SUBJECT_HABITS.get(cat, frozenset())}
        habits[FREQUENT] = lambda text, options: None  # scored in _Tally.scores
        tally = _Tally(habits, Counter(q.right for q in qs))
        done: list[Pending] = []
        for q in sorted(qs, key=lambda q: _key("balance", q.text)):
            chance = 0.25
            if q.ordered:
                options = q.ordered if fair(q.text, q.ordered, q.right) else ()
                best = (options, tally.scores(q.text, options, options.index(q.right)) if options else {})
            else:
                best, best_cost = ((), {}), float("inf")
                for rank_, triple in enumerate(_sets(q, tally)):
                    options = _order(q.text, (q.right, *triple))
                    if not fair(q.text, options, q.right):
                        continue
                    s = tally.scores(q.text, options, options.index(q.right))
                    c = tally.cost(s, chance) - 2.0 * sum(tally.owed(o) for o in triple) + 0.002 * rank_
                    if c < best_cost:
                        best, best_cost = (options, s), c
            options, s = best
            if not options:
                drop(cat, "the answer stands out by its form")
                continue
            q.options = options
            tally.add(s, chance, [o for o in options if o != q.right])
            done.append(q)
        for q in _untold(done, cat, drop):
            kept.add(id(q))
    return [q for q in pending if id(q) in kept]


def _untold(done: list[Pending], cat: str, drop: Callable[[str, str], None]) -> list[Pending]:
    """The questions less those whose answer would still be the answer in more than half
    of the questions offering it (an option offered only where it is right: "UTC+5:45"
    for Kathmandu alone), the last visited dropped first until none is."""
    done = list(done)
    while True:
        answers = Counter(q.right for q in done)
        offered = Counter(o for q in done for o in q.options)
        telling = {o for o, a in answers.items() if 2 * a > offered[o]}
        if not telling:
            return done
        victim = next(q for q in reversed(done) if q.right in telling)
        done.remove(victim)
        drop(cat, "its answer is the answer in more than half the questions offering it")
