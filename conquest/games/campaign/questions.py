"""Short Campaign's questions: the bundled bank, hosts' question packs, and the pool a game draws from.

Why one module: the engine, the bots, the page and the tests all ask the same things of a
question (its kind, the text people see, the range a guess may take, whether an answer is
right), whatever its origin. Rulings: S3/S5/S7 use the questions, S8 says where they come
from and that every answer is timed.

- **The bank** (``conquest/data/campaign_questions.json``) ships with the site, so the game
  works offline. ``tools/questions.py`` generates it from open data; its answers are stored
  plainly (the page only ever shows :meth:`Question.public`, which leaves them out).
- **A pack** is a host's own JSON file (format in this package's README.md). It travels in
  the game's options, because replaying a link needs every question. So that a link does
  not show the answers in readable form, :func:`seal_pack` reorders each question's options
  and stores each answer XOR-ed with a key derived from the question text. That is
  **obfuscation, not secrecy**: the key is in this file, and anyone who wants to can undo it.
- **The pool** (:class:`Pool`) is what one game draws from: the chosen bank categories and
  pack categories. No question is drawn twice in a game; if a pool runs dry (a pack is
  small) the draw falls back to the rest of the bank, and only if that is exhausted too do
  questions come round again.
- **Earlier editions** (``conquest/data/legacy/campaign_questions.json``, made by
  ``tools/questions_legacy.py``): every question a rebuild of the bank retired, kept exactly
  as it was asked. Saves, links and files name questions by id, and a game must replay as it
  was played whatever the site's current bank (S8: what was asked stays asked), so an id
  the bank lacks is looked up there (:func:`legacy_question`). Never drawn for a new game:
  the pool's draws come from the bank and the pack only. The file is read only when a save
  needs it (the page fetches it then: it is not in ``app.zip``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from conquest.catalog import DATA_DIR, LAZY_DIR, read_lazy
from conquest.core import InvalidOptions, excerpt
from conquest.games.campaign.pictures import Picture, picture_from_json

if TYPE_CHECKING:
    from conquest.games.campaign.state import Used

__all__ = [
    "BANK_FILE",
    "Bank",
    "PackError",
    "Pool",
    "Question",
    "legacy_question",
    "load_bank",
    "load_legacy",
    "load_pack",
    "make_pool",
    "normalize_pack",
    "seal_pack",
    "unseal_pack",
]

BANK_FILE = DATA_DIR / "campaign_questions.json"
LEGACY_FILE = LAZY_DIR / "campaign_questions.json"
#: what a bank id looks like (6 characters of base 36); pack questions are ``p1``, ``p2``...
BANK_ID = re.compile(r"[0-9a-z]{6}")

CHOICE = "choice"
GUESS = "guess"
KINDS = (CHOICE, GUESS)
#: option letters as players see them and as action texts write them
LETTERS = "ABCD"

# -- limits of a pack (S8): bounded because the pack travels in every link of the game ----
PACK_MAX_QUESTIONS = 500
PACK_MAX_CATEGORIES = 30
PACK_MAX_BYTES = 100_000
PACK_MAX_TITLE = 80
PACK_MAX_SOURCE = 200
PACK_MIN_TEXT, PACK_MAX_TEXT = 5, 300
PACK_MAX_OPTION = 100
PACK_MAX_CATEGORY = 40
PACK_MAX_UNIT = 20
#: the largest number a guess (or its range) may be; also the default upper bound
GUESS_MAX = 10**12
#: at least this many questions of each kind in the chosen pool (S8), so a game does not
#: fall back to the rest of the bank after a couple of rounds
MIN_EACH = 5

_SEAL_LEN = 16
_SEAL_KEY = b"conquest/campaign/pack/v1"
_B64 = re.compile(r"[A-Za-z0-9_-]{22}")


@dataclass(frozen=True)
class Question:
    """One question. ``answer`` is the option index (choice) or the number (guess)."""

    id: str
    kind: str
    category: str
    text: str
    answer: int
    options: tuple[str, ...] = ()
    unit: str = ""
    lo: int = 0
    hi: int = 0
    #: where the fact comes from, for people ("GeoNames (CC BY 4.0), 2018")
    source: str = ""
    #: "" for the current bank; for a question of an earlier edition of the bank, that
    #: edition's id (an ISO date, so editions sort in time)
    edition: str = ""
    #: issue 40: what a multiple-choice question shows above its options (a flag, an emoji,
    #: an element's tile), checked when the bank was read (:mod:`.pictures`); None: text only
    picture: Picture | None = None

    def public(self, category_name: str | None = None) -> dict[str, Any]:
        """What players may see before answering: never the answer."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "category": category_name or self.category,
            "text": self.text,
        }
        if self.kind == CHOICE:
            out["options"] = [{"letter": LETTERS[i], "text": o} for i, o in enumerate(self.options)]
        else:
            out.update(unit=self.unit, min=self.lo, max=self.hi)
        if self.source:
            out["source"] = self.source
        if self.edition:
            out["edition"] = self.edition
        if self.picture is not None:
            out["picture"] = self.picture.public()
        return out

    def answer_text(self) -> str:
        """The right answer in words, for the reveal (after everyone has answered)."""
        if self.kind == CHOICE:
            return f"{LETTERS[self.answer]}: {self.options[self.answer]}"
        return f"{self.answer:,} {unit_for(self.answer, self.unit)}".strip()


def unit_for(n: int, unit: str) -> str:
    """The unit for ``n`` of it: one country, one person, 2 countries (issue 21, item 4: the
    reveal said "1 countries"). Units are plural words or symbols (km, km²); a symbol, or a
    word this does not know how to make singular, is left as it is."""
    if n != 1 or not unit.isalpha() or len(unit) < 4:
        return unit
    if unit == "people":
        return "person"
    if unit.endswith("ies"):
        return unit[:-3] + "y"
    if unit.endswith("s") and not unit.endswith("ss"):
        return unit[:-1]
    return unit


@dataclass(frozen=True)
class Bank:
    """The bundled bank: questions by id (file order), categories and sources."""

    questions: dict[str, Question]
    categories: dict[str, str]
    sources: tuple[dict[str, Any], ...]
    by_kind: dict[str, tuple[str, ...]] = field(default_factory=dict)
    by_category: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)


class PackError(InvalidOptions):
    """A question pack that cannot be used; ``problems`` lists every fault found (S8)."""

    def __init__(self, problems: Sequence[str]) -> None:
        shown = list(problems[:12])
        more = len(problems) - len(shown)
        text = "S8: the question pack cannot be used: " + "; ".join(shown)
        if more > 0:
            text += f"; and {more} more problem{'s' if more != 1 else ''}"
        super().__init__("S8.pack", text)
        self.problems = tuple(problems)


# ------------------------------------------------------------------------------------------
# The bank
# ------------------------------------------------------------------------------------------
def _source_label(src: Mapping[str, Any]) -> str:
    """"GeoNames ..., checked against phonenumbers ... (CC BY 4.0; Apache-2.0), 2026": both
    sources a fact was confirmed by, their licenses in the same order, and the year."""
    year = src.get("year")
    check = f", checked against {src['check']}" if src.get("check") else ""
    return f"{src['source']}{check} ({src['license']}){f', {year}' if year else ''}"


@lru_cache(maxsize=1)
def load_bank() -> Bank:
    """Read the bank once per process (about a megabyte of JSON; Pyodide reads it in well
    under a second). The file is generated and committed; the tests check every question."""
    try:
        raw = json.loads(BANK_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"conquest/data/campaign_questions.json cannot be read: {exc}") from None
    return bank_from_json(raw)


def bank_from_json(raw: Mapping[str, Any]) -> Bank:
    """Build a :class:`Bank` from the file's JSON (see ``tools/questions.py`` for the layout;
    the earlier editions' file has the same layout, each source naming its edition). A
    choice row may carry a 7th element, its picture (:mod:`.pictures`, issue 40)."""
    cats = {c["id"]: c["name"] for c in raw["categories"]}
    cat_ids = [c["id"] for c in raw["categories"]]
    sources = tuple(raw["sources"])
    editions = [e["id"] for e in raw.get("editions", ())]
    labels = [_source_label(s) for s in sources]
    eds = [editions[s["edition"]] if "edition" in s else "" for s in sources]
    labels = [
        f"{label} · from the {ed} edition of the question bank" if ed else label
        for label, ed in zip(labels, eds, strict=True)
    ]
    questions: dict[str, Question] = {}
    kinds: dict[str, list[str]] = {CHOICE: [], GUESS: []}
    per_cat: dict[str, dict[str, list[str]]] = {c: {CHOICE: [], GUESS: []} for c in cats}
    for row in raw["choice"]:
        # 6 fields, or 7 with a picture (issue 40); a bad picture stops the read (PictureError,
        # a ValueError: an earlier editions' file with one is "cannot be read", as if damaged)
        if len(row) not in (6, 7):
            raise ValueError(f"a choice row has {len(row)} fields, not 6 or 7: {str(row)[:60]}")
        qid, cat, src, text, options, answer = row[:6]
        pic = picture_from_json(row[6], f"question {qid}") if len(row) == 7 else None
        q = Question(qid, CHOICE, cat_ids[cat], text, answer, tuple(options), source=labels[src], edition=eds[src],
                     picture=pic)
        questions[qid] = q
        kinds[CHOICE].append(qid)
        per_cat[q.category][CHOICE].append(qid)
    for qid, cat, src, text, unit, lo, hi, answer in raw["guess"]:
        q = Question(
            qid, GUESS, cat_ids[cat], text, answer, unit=unit, lo=lo, hi=hi, source=labels[src], edition=eds[src]
        )
        questions[qid] = q
        kinds[GUESS].append(qid)
        per_cat[q.category][GUESS].append(qid)
    return Bank(
        questions=questions,
        categories=cats,
        sources=sources,
        by_kind={k: tuple(v) for k, v in kinds.items()},
        by_category={c: {k: tuple(v) for k, v in d.items()} for c, d in per_cat.items()},
    )


_legacy: Bank | None = None
#: why the earlier editions could not be read the last time (retried at the next need)
legacy_error = ""


def load_legacy() -> Bank | None:
    """The questions of earlier editions of the bank, read on first need and kept; None
    when they cannot be read now (the page is offline and never fetched them), with the
    reason in :data:`legacy_error`. A failure is not kept: the next need tries again."""
    global _legacy, legacy_error
    if _legacy is None:
        try:
            _legacy = bank_from_json(json.loads(read_lazy(LEGACY_FILE.name)))
            legacy_error = ""
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            legacy_error = f"{type(exc).__name__}: {exc}"[:200]
            return None
    return _legacy


@lru_cache(maxsize=8)
def legacy_later_than(edition: str) -> frozenset[str]:
    """Ids of the earlier editions' questions from an edition later than ``edition`` (one
    object per edition, so ``Used.count_in`` keeps running counts)."""
    legacy = load_legacy()
    if legacy is None:
        return frozenset()
    return frozenset(qid for qid, q in legacy.questions.items() if q.edition > edition)


def legacy_question(qid: str) -> Question | None:
    """The question of an earlier edition of the bank with this id, or None.

    Consulted only for an id the bank and the game's pack lack (a save from before the bank
    was rebuilt); ids that cannot be bank ids never cause a read."""
    if not isinstance(qid, str) or not BANK_ID.fullmatch(qid):
        return None
    legacy = load_legacy()
    return None if legacy is None else legacy.questions.get(qid)


# ------------------------------------------------------------------------------------------
# Packs: validation, sealing (obfuscation of the answers in links)
# ------------------------------------------------------------------------------------------
def _clean(text: str) -> str:
    return " ".join(text.split())


#: control characters (C0, DEL, C1) and lone surrogates: never part of a question's text
_BAD_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _bad(text: Any) -> bool:
    """Text a pack may not hold once spaces are tidied: it could not be shown or saved."""
    return isinstance(text, str) and bool(_BAD_TEXT.search(_clean(text)))


def _keystream(kind: str, text: str) -> bytes:
    return hashlib.sha256(_SEAL_KEY + b"\x00" + kind.encode() + b"\x00" + text.encode("utf-8")).digest()[
        :_SEAL_LEN
    ]


def _seal(kind: str, text: str, answer: int) -> str:
    """The answer XOR-ed with a key derived from the question (obfuscation, not secrecy)."""
    plain = str(answer).encode("ascii").ljust(_SEAL_LEN, b" ")
    mixed = bytes(a ^ b for a, b in zip(plain, _keystream(kind, text), strict=True))
    return base64.urlsafe_b64encode(mixed).rstrip(b"=").decode("ascii")


def _unseal(kind: str, text: str, sealed: str) -> int | None:
    if not isinstance(sealed, str) or not _B64.fullmatch(sealed):
        return None
    mixed = base64.urlsafe_b64decode(sealed + "==")
    plain = bytes(a ^ b for a, b in zip(mixed, _keystream(kind, text), strict=True)).decode("latin-1")
    digits = plain.rstrip(" ")
    if not re.fullmatch(r"0|[1-9][0-9]{0,12}", digits):
        return None
    return int(digits)


def _option_order(text: str, options: Sequence[str]) -> list[str]:
    """A fixed order derived from the question, so an author's habit of writing the right
    option first does not show in the link."""
    return sorted(options, key=lambda o: hashlib.sha256(f"{text}\x00{o}".encode()).digest())


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_RAW_KEYS = {"title", "source", "questions", "format"}
_Q_KEYS = {
    CHOICE: {"type", "category", "text", "options", "answer"},
    GUESS: {"type", "category", "text", "answer", "unit", "min", "max"},
}


def _check_raw_question(i: int, q: Any, problems: list[str]) -> dict[str, Any] | None:
    """One question of a pack file; appends plain-words problems, returns the clean question."""
    where = f"question {i + 1}"
    if not isinstance(q, Mapping):
        problems.append(f"{where} is not an object")
        return None
    strings = [v for v in q.values() if isinstance(v, str)]
    strings += [o for o in q.get("options", []) if isinstance(o, str)] if isinstance(q.get("options"), list) else []
    if any(_bad(v) for v in strings):
        problems.append(f"{where} holds a control character or a broken character")
        return None
    kind = q.get("type")
    if kind not in KINDS:
        problems.append(f'{where}: "type" must be "choice" or "guess"')
        return None
    extra = sorted(set(q) - _Q_KEYS[kind])
    if extra:
        problems.append(f"{where}: unknown field{'s' if len(extra) > 1 else ''} {', '.join(excerpt(x, 30) for x in extra[:5])}")
    bad = len(problems)
    text = q.get("text")
    if not isinstance(text, str) or not PACK_MIN_TEXT <= len(_clean(text)) <= PACK_MAX_TEXT:
        problems.append(f'{where}: "text" must be {PACK_MIN_TEXT} to {PACK_MAX_TEXT} characters')
        text = ""
    text = _clean(text)
    if text:
        where = f"{where} ({text!r})" if len(text) <= 40 else f"{where} ({text[:37].rstrip()!r}...)"
    cat = q.get("category", "General")
    if not isinstance(cat, str) or not 1 <= len(_clean(cat)) <= PACK_MAX_CATEGORY:
        problems.append(f'{where}: "category" must be 1 to {PACK_MAX_CATEGORY} characters')
        cat = "General"
    out: dict[str, Any] = {"type": kind, "category": _clean(cat), "text": text}
    if kind == CHOICE:
        opts = q.get("options")
        if not isinstance(opts, list) or len(opts) != 4:
            problems.append(f'{where}: "options" must be a list of exactly 4 answers')
            return None
        clean = []
        for o in opts:
            if not isinstance(o, str | int) or isinstance(o, bool) or not 1 <= len(_clean(str(o))) <= PACK_MAX_OPTION:
                problems.append(f"{where}: every option must be 1 to {PACK_MAX_OPTION} characters")
                return None
            clean.append(_clean(str(o)))
        if len({o.casefold() for o in clean}) != 4:
            problems.append(f"{where}: the 4 options must all be different")
            return None
        answer = q.get("answer")
        if not isinstance(answer, str | int) or isinstance(answer, bool):
            problems.append(f'{where}: "answer" must be the text of the right option')
            return None
        hits = [o for o in clean if o.casefold() == _clean(str(answer)).casefold()]
        if len(hits) != 1:
            problems.append(f'{where}: exactly one option must be the answer; "answer" matches none of the options')
            return None
        out.update(options=clean, answer=hits[0])
    else:
        answer = q.get("answer")
        lo = q.get("min", 0)
        hi = q.get("max", GUESS_MAX)
        if not _is_int(answer) or not 1 <= answer <= GUESS_MAX:
            problems.append(f'{where}: "answer" must be a whole number from 1 to {GUESS_MAX:,}')
            return None
        if not _is_int(lo) or not _is_int(hi) or not 0 <= lo < hi <= GUESS_MAX:
            problems.append(f'{where}: "min" and "max" must be whole numbers with 0 <= min < max <= {GUESS_MAX:,}')
            return None
        if not lo <= answer <= hi:
            problems.append(f'{where}: the answer {answer:,} lies outside "min" {lo:,} to "max" {hi:,}')
        unit = q.get("unit", "")
        if not isinstance(unit, str) or len(_clean(unit)) > PACK_MAX_UNIT:
            problems.append(f'{where}: "unit" must be text of at most {PACK_MAX_UNIT} characters')
            unit = ""
        out.update(answer=answer, unit=_clean(unit), min=lo, max=hi)
    return out if len(problems) == bad else None


def seal_pack(raw: Any) -> dict[str, Any]:
    """Validate a pack as a host writes it (README.md) and return its form for the options.

    Raises :class:`PackError` listing every problem found. The result is compact:
    ``{"title", "source"?, "cats": [names], "q": [question rows]}``, a choice row being
    ``["c", category index, text, [4 options in a fixed order], sealed answer]`` and a guess
    row ``["g", category index, text, unit, min, max, sealed answer]``.
    """
    problems: list[str] = []
    if not isinstance(raw, Mapping):
        raise PackError(["the pack must be a JSON object with a title and a list of questions"])
    extra = sorted(set(raw) - _RAW_KEYS)
    if extra:
        problems.append(f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(excerpt(x, 30) for x in extra[:5])}")
    if _bad(raw.get("title")) or _bad(raw.get("source")):
        problems.append('"title" and "source" may not hold control characters or broken characters')
    title = raw.get("title")
    if not isinstance(title, str) or not 1 <= len(_clean(title)) <= PACK_MAX_TITLE:
        problems.append(f'"title" must be 1 to {PACK_MAX_TITLE} characters')
        title = ""
    source = raw.get("source", "")
    if not isinstance(source, str) or len(_clean(source)) > PACK_MAX_SOURCE:
        problems.append(f'"source" must be text of at most {PACK_MAX_SOURCE} characters')
        source = ""
    qs = raw.get("questions")
    if not isinstance(qs, list) or not 1 <= len(qs) <= PACK_MAX_QUESTIONS:
        problems.append(f'"questions" must be a list of 1 to {PACK_MAX_QUESTIONS} questions')
        raise PackError(problems)
    clean = [_check_raw_question(i, q, problems) for i, q in enumerate(qs)]
    seen: dict[str, int] = {}
    for i, q in enumerate(clean):
        if q is None:
            continue
        key = q["text"].casefold()
        if key in seen:
            problems.append(f"questions {seen[key] + 1} and {i + 1} have the same text")
        seen.setdefault(key, i)
    cats: list[str] = []
    for q in clean:
        if q is not None and q["category"] not in cats:
            cats.append(q["category"])
    if len(cats) > PACK_MAX_CATEGORIES:
        problems.append(f"at most {PACK_MAX_CATEGORIES} categories; the pack has {len(cats)}")
    if problems:
        raise PackError(problems)
    rows: list[list[Any]] = []
    for q in clean:
        assert q is not None
        c = cats.index(q["category"])
        if q["type"] == CHOICE:
            opts = _option_order(q["text"], q["options"])
            rows.append(["c", c, q["text"], opts, _seal(CHOICE, q["text"], opts.index(q["answer"]))])
        else:
            rows.append(["g", c, q["text"], q["unit"], q["min"], q["max"], _seal(GUESS, q["text"], q["answer"])])
    out: dict[str, Any] = {"title": _clean(title), "cats": cats, "q": rows}
    if _clean(source):
        out["source"] = _clean(source)
    size = len(json.dumps(out, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    if size > PACK_MAX_BYTES:
        raise PackError([f"the pack is {size:,} bytes once packed; at most {PACK_MAX_BYTES:,} (it travels in every link)"])
    return out


def unseal_pack(sealed: Any) -> dict[str, Any]:
    """The pack file form of a sealed pack (answers readable again); PackError if damaged."""
    if not isinstance(sealed, Mapping) or not isinstance(sealed.get("q"), list) or not isinstance(sealed.get("cats"), list):
        raise PackError(["the pack in the options is damaged (expected title, cats and q)"])
    extra = sorted(set(sealed) - {"title", "source", "cats", "q"})
    if extra:
        raise PackError([f"the pack in the options has unknown fields {', '.join(excerpt(x, 30) for x in extra[:5])}"])
    cats = sealed["cats"]
    if not all(isinstance(c, str) for c in cats):
        raise PackError(["the pack's categories must be names"])
    questions: list[dict[str, Any]] = []
    for i, row in enumerate(sealed["q"]):
        where = f"question {i + 1} of the pack in the options"
        if not isinstance(row, list) or not row or row[0] not in ("c", "g"):
            raise PackError([f"{where} is damaged"])
        if row[0] == "c":
            if len(row) != 5 or not isinstance(row[2], str) or not isinstance(row[3], list):
                raise PackError([f"{where} is damaged"])
            _, c, text, opts, seal = row
            answer = _unseal(CHOICE, text, seal)
            if answer is None or not _is_int(c) or not 0 <= c < len(cats) or len(opts) != 4 or answer > 3:
                raise PackError([f"{where} is damaged (its answer does not decode)"])
            questions.append(
                {"type": CHOICE, "category": cats[c], "text": text, "options": list(opts), "answer": opts[answer]}
            )
        else:
            if len(row) != 7 or not isinstance(row[2], str):
                raise PackError([f"{where} is damaged"])
            _, c, text, unit, lo, hi, seal = row
            answer = _unseal(GUESS, text, seal)
            if answer is None or not _is_int(c) or not 0 <= c < len(cats):
                raise PackError([f"{where} is damaged (its answer does not decode)"])
            questions.append(
                {"type": GUESS, "category": cats[c], "text": text, "unit": unit, "min": lo, "max": hi, "answer": answer}
            )
    out: dict[str, Any] = {"title": sealed.get("title"), "questions": questions}
    if "source" in sealed:
        out["source"] = sealed["source"]
    return out


def normalize_pack(pack: Any) -> dict[str, Any]:
    """Either form in, the canonical sealed form out (idempotent): a pack file as a host
    wrote it (has ``questions``), or a sealed pack from a link (has ``q``), which is checked
    by unsealing it and sealing it again."""
    if isinstance(pack, Mapping) and "q" in pack and "questions" not in pack:
        pack = unseal_pack(pack)
    return seal_pack(pack)


def load_pack(text: str | bytes) -> dict[str, Any]:
    """A pack file's text (what the page reads from a file) to its sealed form; PackError."""
    if isinstance(text, bytes):
        if len(text) > 4 * PACK_MAX_BYTES:
            raise PackError([f"the file is larger than {4 * PACK_MAX_BYTES:,} bytes"])
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise PackError(["the file is not UTF-8 text"]) from None
    if len(text) > 4 * PACK_MAX_BYTES:
        raise PackError([f"the file is larger than {4 * PACK_MAX_BYTES:,} characters"])
    from conquest.savecode import SaveCodeError, load_json

    try:  # the one bounded parser (issue 20, item 2): a pack nested 100,000 deep never recurses
        raw = load_json(text, "question pack")
    except SaveCodeError as exc:
        reason = "its brackets nest too deeply or do not match" if exc.code == "json-depth" else "it is not valid JSON"
        raise PackError([f"the file is not a question pack: {reason}"]) from None
    return seal_pack(raw)


def pack_questions(sealed: Mapping[str, Any]) -> list[Question]:
    """The questions of a sealed pack, with ids ``p1``, ``p2``, ... in pack order."""
    src = f"Question pack “{sealed['title']}”" + (f": {sealed['source']}" if sealed.get("source") else "")
    out = []
    cats = sealed["cats"]
    for i, row in enumerate(sealed["q"]):
        qid = f"p{i + 1}"
        if row[0] == "c":
            _, c, text, opts, seal = row
            answer = _unseal(CHOICE, text, seal)
            assert answer is not None
            out.append(Question(qid, CHOICE, cats[c], text, answer, tuple(opts), source=src))
        else:
            _, c, text, unit, lo, hi, seal = row
            answer = _unseal(GUESS, text, seal)
            assert answer is not None
            out.append(Question(qid, GUESS, cats[c], text, answer, unit=unit, lo=lo, hi=hi, source=src))
    return out


# ------------------------------------------------------------------------------------------
# The pool of one game
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Pool:
    """What one game draws from: eligible ids per kind (stable order) and every question by id.

    ``eligible`` are the chosen categories; ``fallback`` the whole bank (used only once the
    eligible questions of a kind are all used up).
    """

    questions: dict[str, Question]
    eligible: dict[str, tuple[str, ...]]
    fallback: dict[str, tuple[str, ...]]
    category_names: dict[str, str]
    #: issue 40: draw a varied game (``Mix``); None: as games set up before it were drawn
    mix: Mix | None = None

    # -- a varied draw (issue 40) ---------------------------------------------------------
    @cached_property
    def _by_category(self) -> dict[tuple[str, str], frozenset[str]]:
        """Eligible ids by (kind, category), and ("", category) for every kind together."""
        out: dict[tuple[str, str], set[str]] = {}
        for kind, ids in self.eligible.items():
            for qid in ids:
                cat = self.questions[qid].category
                out.setdefault((kind, cat), set()).add(qid)
                out.setdefault(("", cat), set()).add(qid)
        return {k: frozenset(v) for k, v in out.items()}

    def _mixed(self, kind: str, used: Used | frozenset[str] | set[str]) -> tuple[frozenset[str], int] | None:
        """A varied draw of ``kind`` now: the categories it leaves out and how many fresh
        eligible questions the others hold; None when the draw is as before (no ``mix``, no
        category full, or nothing fresh left outside the full ones)."""
        mix = self.mix
        if mix is None:
            return None

        def count(ids: frozenset[str]) -> int:
            return len(ids & used) if isinstance(used, (set, frozenset)) else used.count_in(ids)

        asked = sum(count(self._sets["eligible", k]) for k in self.eligible)
        cap = max(1, (asked + 1) // mix.share)
        full = {cat for (k, cat), ids in self._by_category.items() if k == "" and count(ids) + 1 > cap}
        if kind == GUESS:
            guesses = count(self._sets["eligible", GUESS])
            ids = self._by_category.get((GUESS, mix.guess_category))
            if ids is not None and count(ids) + 1 > max(1, (guesses + 1) // mix.share):
                full.add(mix.guess_category)
        if not full:
            return None
        fresh = sum(len(ids) - count(ids) for (k, cat), ids in self._by_category.items() if k == kind and cat not in full)
        return (frozenset(full), fresh) if fresh > 0 else None

    def candidates(self, kind: str, used: Used | frozenset[str] | set[str]) -> list[str]:
        """The ids a draw chooses among now: unused eligible (in a varied game, of the
        categories not full, ``_mixed``), else unused bank, else all eligible again (a
        repeat, only when every question has been asked)."""
        mixed = self._mixed(kind, used)
        if not isinstance(used, (set, frozenset)):
            used = used.as_set()
        if mixed is not None:
            full = mixed[0]
            return [q for q in self.eligible[kind] if q not in used and self.questions[q].category not in full]
        fresh = [q for q in self.eligible[kind] if q not in used]
        if fresh:
            return fresh
        fresh = [q for q in self.fallback[kind] if q not in used]
        return fresh or list(self.eligible[kind] or self.fallback[kind])

    @cached_property
    def _sets(self) -> dict[tuple[str, str], frozenset[str]]:
        return {
            (which, kind): frozenset(ids)
            for which, by_kind in (("eligible", self.eligible), ("fallback", self.fallback))
            for kind, ids in by_kind.items()
        }

    def _tier(self, kind: str, used: Used) -> tuple[str, int]:
        """Which list :meth:`candidates` draws from now, and its length, without building it.

        Why: replay checks every logged draw, and a scan of the whole pool per draw made a
        long game cost seconds (issue 20, item 4); the asked ids keep running counts."""
        for which in ("eligible", "fallback"):
            ids = getattr(self, which)[kind]
            fresh = len(ids) - used.count_in(self._sets[which, kind])
            if fresh > 0:
                return which, fresh
        which = "eligible" if self.eligible[kind] else "fallback"
        return which + "-again", len(getattr(self, which)[kind])

    def count(self, kind: str, used: Used) -> int:
        """``len(self.candidates(kind, used))``, in amortised constant time."""
        mixed = self._mixed(kind, used)
        if mixed is not None:
            return mixed[1]
        return self._tier(kind, used)[1]

    def may_draw(self, kind: str, used: Used, qid: str) -> bool:
        """``qid in self.candidates(kind, used)``, in amortised constant time."""
        mixed = self._mixed(kind, used)
        if mixed is not None:
            q = self.questions.get(qid)
            return (q is not None and qid in self._sets["eligible", kind] and qid not in used
                    and q.category not in mixed[0])
        which, _ = self._tier(kind, used)
        if which.endswith("-again"):
            return qid in self._sets[which[: -len("-again")], kind]
        return qid in self._sets[which, kind] and qid not in used

    @cached_property
    def all_ids(self) -> frozenset[str]:
        """Every id of the game's bank and pack (one object, so ``Used.count_in`` keeps counts)."""
        return frozenset(self.questions)

    def get(self, qid: str) -> Question | None:
        """The game's question with this id; an id neither the bank nor the pack holds is
        looked up among the earlier editions' questions (an old save's, never drawn anew)."""
        q = self.questions.get(qid)
        return q if q is not None else legacy_question(qid)

    def category_name(self, q: Question) -> str:
        return self.category_names.get(q.category, q.category)


@dataclass(frozen=True)
class Mix:
    """Issue 40: how a varied game draws (``campaign.json``'s ``mix``): no category above
    1/``share`` of the questions asked, nor ``guess_category`` above 1/``share`` of the guess
    questions, as long as another category has a question left."""

    share: int
    guess_category: str


def _pool_key(categories: Sequence[str], pack: Mapping[str, Any] | None, pack_categories: Sequence[str],
              mix: Mix | None = None) -> str:
    m = None if mix is None else [mix.share, mix.guess_category]
    return json.dumps([list(categories), pack, list(pack_categories), m], sort_keys=True, ensure_ascii=False)


@lru_cache(maxsize=16)
def _pool_from_key(key: str) -> Pool:
    categories, pack, pack_categories, m = json.loads(key)
    bank = load_bank()
    questions = dict(bank.questions)
    eligible: dict[str, list[str]] = {CHOICE: [], GUESS: []}
    chosen = set(categories)
    for qid, q in bank.questions.items():
        if q.category in chosen:
            eligible[q.kind].append(qid)
    names = dict(bank.categories)
    if pack is not None:
        wanted = set(pack_categories)
        for q in pack_questions(pack):
            questions[q.id] = q
            if q.category in wanted:
                eligible[q.kind].append(q.id)
    return Pool(
        questions=questions,
        eligible={k: tuple(v) for k, v in eligible.items()},
        fallback=dict(bank.by_kind),
        category_names=names,
        mix=None if m is None else Mix(int(m[0]), str(m[1])),
    )


def make_pool(
    categories: Sequence[str], pack: Mapping[str, Any] | None = None, pack_categories: Sequence[str] = (),
    mix: Mix | None = None,
) -> Pool:
    """The pool for normalized options (cached: every state of a game shares one)."""
    return _pool_from_key(_pool_key(categories, pack, pack_categories, mix))
