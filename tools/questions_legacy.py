"""Keep the questions of earlier editions of Short Campaign's bank, so old games replay (S8).

Why: a saved game, a link or an exported file names its questions by id (``Qk3f9a2`` in the
log). When ``tools/questions.py`` rebuilds the bank, ids of questions it changes or drops
disappear from ``conquest/data/campaign_questions.json``; without them every game saved
before the rebuild would be refused at its first question (``S8.unknown-question``). The
rules say what was asked stays asked, and nobody may lose a game to a site update, so each
question a rebuild retires is kept, exactly as it was asked (words, options, answer,
source), in ``conquest/data/legacy/campaign_questions.json``.

That file is data, committed as it is (never rebuilt from git history, which a fresh clone
or a release archive may not hold), with its provenance inside it: one ``editions`` entry
per retired bank (where it came from, its SHA-256, when it was retired, how many questions
it gave). The engine reads it only when a save names an id the current bank lacks, and
never draws from it for a new game (``conquest/games/campaign/questions.py``); the site
serves it beside ``app.zip`` and a page fetches it only when it needs it.

Editions so far:

- ``2026-11-22``: the bank of the Short Campaign engine (commit bc0a23a, unchanged up to
  cf13780, 9,016 questions), replaced by issue 24's bank whose ids hash a question's whole
  content. Made with::

      git show cf13780:conquest/data/campaign_questions.json > old_bank.json
      python tools/questions_legacy.py old_bank.json --edition 2026-11-22 \\
          --origin "conquest/data/campaign_questions.json at commit cf13780 (first made at bc0a23a)"

- ``2026-11-28``: issue 24's bank (commit 15e1e2b), replaced by issue 40's, whose wrong
  options are chosen against guessers and whose facts carry the dated overrides; retired
  by ``tools/questions.py`` itself (3,460 questions).

``tools/questions.py`` calls :func:`retire` by itself before it writes a new bank over an
old one, so later rebuilds add their retired questions without a manual step.

Deterministic: the same inputs give the same bytes (rows in the retired bank's order).
Layout (the bank's own, see ``tools/questions.py``, plus the editions)::

    {"format": 1, "about": ..., "editions": [{id, origin, sha256, questions}],
     "sources": [{... as in the bank, "edition": edition index}],
     "categories": [{id, name}],
     "choice": [[id, category index, source index, text, [4 options], right option index], ...],
     "guess":  [[id, category index, source index, text, unit, min, max, answer], ...]}
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BANK = ROOT / "conquest" / "data" / "campaign_questions.json"
LEGACY = ROOT / "conquest" / "data" / "legacy" / "campaign_questions.json"

ABOUT = (
    "Questions of earlier editions of Short Campaign's question bank (ruling S8), kept exactly as they "
    "were asked so that games saved, linked or exported with them replay as they were played. Never drawn "
    "for a new game. Made by tools/questions_legacy.py (see its docstring for each edition's origin); do "
    "not edit by hand."
)


def empty() -> dict[str, Any]:
    return {"format": 1, "about": ABOUT, "editions": [], "sources": [], "categories": [], "choice": [], "guess": []}


def retire(
    old_bank: Mapping[str, Any],
    new_bank: Mapping[str, Any],
    legacy: Mapping[str, Any] | None,
    edition: str,
    origin: str,
    sha256: str,
) -> dict[str, Any]:
    """``legacy`` plus every question of ``old_bank`` whose id is neither in ``new_bank``
    nor already kept, as one new edition (none when nothing is retired)."""
    out = json.loads(json.dumps(legacy)) if legacy else empty()
    keep_ids = {q[0] for q in (*new_bank["choice"], *new_bank["guess"])}
    keep_ids |= {q[0] for q in (*out["choice"], *out["guess"])}
    choice = [q for q in old_bank["choice"] if q[0] not in keep_ids]
    guess = [q for q in old_bank["guess"] if q[0] not in keep_ids]
    if not choice and not guess:
        return out
    taken = {e["id"] for e in out["editions"]}
    base, n = edition, 1
    while edition in taken:  # a second rebuild on the same day: "2026-11-25-2" sorts after it
        n += 1
        edition = f"{base}-{n}"
    ed = len(out["editions"])
    out["editions"].append({"id": edition, "origin": origin, "sha256": sha256, "questions": len(choice) + len(guess)})
    src_base = len(out["sources"])
    out["sources"] += [{**s, "edition": ed} for s in old_bank["sources"]]
    cat_index = {c["id"]: i for i, c in enumerate(out["categories"])}
    old_cats = [c["id"] for c in old_bank["categories"]]
    for c in old_bank["categories"]:
        if c["id"] not in cat_index:
            cat_index[c["id"]] = len(out["categories"])
            out["categories"].append({"id": c["id"], "name": c["name"]})
    for qid, cat, src, *rest in choice:
        out["choice"].append([qid, cat_index[old_cats[cat]], src_base + src, *rest])
    for qid, cat, src, *rest in guess:
        out["guess"].append([qid, cat_index[old_cats[cat]], src_base + src, *rest])
    return out


def dumps(legacy: Mapping[str, Any]) -> bytes:
    """Compact JSON with one question per line, as the bank itself."""

    def enc(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))

    head = ",".join(f"{enc(k)}:{enc(legacy[k])}" for k in ("format", "about", "editions", "sources", "categories"))
    return (
        "{" + head
        + ',"choice":[\n' + ",\n".join(enc(q) for q in legacy["choice"]) + "\n]"
        + ',"guess":[\n' + ",\n".join(enc(q) for q in legacy["guess"]) + "\n]}\n"
    ).encode("utf-8")


def retire_file(old_bytes: bytes, new_bank: Mapping[str, Any], edition: str, origin: str, out: Path = LEGACY) -> int:
    """Retire what ``old_bytes`` (a bank file) holds and ``new_bank`` lacks into ``out``;
    returns how many questions were added."""
    old = json.loads(old_bytes)
    legacy = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else None
    before = 0 if legacy is None else len(legacy["choice"]) + len(legacy["guess"])
    made = retire(old, new_bank, legacy, edition, origin, hashlib.sha256(old_bytes).hexdigest())
    added = len(made["choice"]) + len(made["guess"]) - before
    if added:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(dumps(made))
    return added


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old_bank", type=Path, help="a bank file the current bank replaced")
    ap.add_argument("--edition", required=True, help="the edition's id: the date that bank was first made")
    ap.add_argument("--origin", required=True, help="where that bank came from, in words (path and commit)")
    ap.add_argument("--out", type=Path, default=LEGACY)
    args = ap.parse_args(argv)
    new = json.loads(BANK.read_text(encoding="utf-8"))
    added = retire_file(args.old_bank.read_bytes(), new, args.edition, args.origin, args.out)
    print(f"{args.out}: {added:,} questions of edition {args.edition} kept", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
