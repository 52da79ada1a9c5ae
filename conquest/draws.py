"""Draws nobody can rig (issue 26): the host's sealed chain, the players' words, one rule.

Why a protocol: a draw made by the host's browser and written into the log proves nothing;
``verify`` could only check that a result was possible (any in-range rewrite passed). Here
every result is *derived*, by a published rule, from two things no single person controls:

- **the seal**: before any draw, the host's page picks a secret ``s0`` (128 random bits, as
  32 hex digits) and builds a hash chain ``s(i+1) = sha256(s(i))[:32]`` (the hash of the hex
  text, its first 32 hex digits) of :data:`CHAIN_LENGTH` links. It publishes the last link,
  the *commitment*, and reveals the chain backwards, one link per draw. Each revealed link
  hashes to the one revealed before it (the first to the commitment), so the host cannot
  change its secret after sealing without the chain breaking, and nobody can compute a
  link before it is revealed (that would invert SHA-256);
- **a contribution per draw**, made after the seal and before the draw's link is revealed:
  a word or number a named player says aloud (``"<seat>:<word>"``), every live device's
  share, or, in solo and hot-seat play, the page's own fresh randomness (``"~<4 hex>"``,
  marked *automatic*: it proves the draws follow the seal, not that the device owner could
  not choose them).

The rule (by hand: see ``site/rules/draws.md``): draw number ``n`` (1 for the first draw of
the game, counting draws later taken back) reads the SHA-256 blocks of the texts
``"<link> <n> <j> <contribution>"`` for ``j = 0, 1, ...``; each block is eight 32-bit
numbers (8 hex digits each, in order). A value below ``size`` takes the next number ``w``:
if ``w < 2**32 - 2**32 % size`` the value is ``w % size``, else that number is skipped
(rejection sampling: every value exactly equally likely, no modulo bias).

The record (``save["draws"]``, :class:`DrawRecord`): ``seals``: ``[[first draw, commitment,
deepest revealed link], ...]`` (a new seal when the page starts afresh or a chain runs
out); ``c``: one contribution per draw in the order drawn; ``u``: for each group of results
taken back by an undo (``save["undone"]``, same order) its first draw and the step played
before it; ``x``: draws made on a line of play a branch left out. Only the deepest revealed
link of each seal is kept: the earlier ones are its hashes, so a revealed value costs
nothing per draw. The draws of the log are the rest, in order.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conquest.core import ConquestError, excerpt

__all__ = [
    "CHAIN_LENGTH",
    "DrawRecord",
    "DrawError",
    "Seal",
    "Chain",
    "next_link",
    "draw_values",
    "auto_contribution",
    "said_contribution",
    "describe_contribution",
    "describe_said",
    "MAX_WORD_CHARS",
]

#: links per sealed chain; a game drawing more seals again (one more commitment in the save)
CHAIN_LENGTH = 1024
#: characters of a link, a commitment and a secret (128 bits in hex)
LINK_CHARS = 32
#: the most characters a said-aloud word may have (a word or a number, said on a call)
MAX_WORD_CHARS = 40
#: the most characters of one recorded contribution (a word with its seat, or live shares)
MAX_CONTRIBUTION_CHARS = 400
_HEX = re.compile(r"[0-9a-f]{32}")
_AUTO = re.compile(r"~[0-9a-f]{4}")
_SAID = re.compile(r"(\d{1,2}):(.+)", re.S)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_WORDS = 2**32


class DrawError(ConquestError, ValueError):
    """A draw record that is malformed, or a word that cannot be a contribution."""


def next_link(link: str) -> str:
    """The link after ``link`` in a chain (towards the commitment): sha256 of its hex text."""
    return hashlib.sha256(link.encode("ascii")).hexdigest()[:LINK_CHARS]


def draw_values(link: str, number: int, contribution: str, sizes: Sequence[int]) -> tuple[int, ...]:
    """The published rule: one value per size, uniform, by rejection sampling (see the module).

    ``number`` is the draw's number counted from 1; ``link`` the chain link it revealed.
    """
    out: list[int] = []
    block = 0
    words: list[int] = []
    for size in sizes:
        if size < 1:
            raise ValueError(f"cannot draw below {size}")
        limit = _WORDS - _WORDS % size
        while True:
            if not words:
                digest = hashlib.sha256(f"{link} {number} {block} {contribution}".encode()).digest()
                words = [int.from_bytes(digest[i : i + 4], "big") for i in range(28, -1, -4)]
                block += 1
            w = words.pop()
            if w < limit:
                out.append(w % size)
                break
    return tuple(out)


def auto_contribution(below: Any) -> str:
    """The page's own contribution (solo, hot-seat): ``"~"`` and 16 fresh bits in hex.

    Why so few: it proves nothing against the device that also seals (see the module), and
    with the secret in the page's memory only, 1 in 65,536 already keeps anyone at the
    table from foreseeing a draw; each digit costs a link about two-thirds of a character
    (the 100-turn Metagame link, bench/metagame.py).

    ``below(n)`` draws an integer in ``range(n)`` (an :class:`conquest.rng.Rng`'s ``below``:
    the operating system's generator in play, a seeded one in tests).
    """
    return f"~{below(1 << 16):04x}"


def said_contribution(seat: int, word: str) -> str:
    """The contribution of a word or number ``seat`` said aloud and the host typed.

    Why the seat: the log names who gave it. Spaces at the ends are dropped and a run of
    spaces becomes one (what a person hears has no spacing); nothing else is changed, and
    the audience sees the very text hashed. Raises :class:`DrawError` for an empty
    or overlong word or one with control characters.
    """
    text = " ".join(str(word).split()) if isinstance(word, str) else ""
    if not text:
        raise DrawError("draws.word-empty", "Type the word or number the player said (it cannot be empty).")
    if len(text) > MAX_WORD_CHARS:
        raise DrawError("draws.word-long", f"A said word is at most {MAX_WORD_CHARS} characters; this one has {len(text)}.")
    if _CONTROL.search(text):
        raise DrawError("draws.word-text", "A said word is plain text: it may not hold control characters.")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 100:
        raise DrawError("draws.word-seat", "A said word names the seat of the player who said it.")
    return f"{seat}:{text}"


def describe_contribution(contribution: str, names: Sequence[str] = (), short: bool = False) -> str:
    """A contribution in words for the log and the check: who gave what (``short``: for a
    log line, an automatic one without its digits)."""
    if _AUTO.fullmatch(contribution):
        return "automatic" if short else f"automatic ({contribution[1:]}, this device's own randomness)"
    said = describe_said(contribution, names)
    if said is not None:
        return f"said by {said[0]}: “{said[1]}”"
    if contribution.startswith("@"):
        who = []
        for part in contribution[1:].split():
            key = part.split("=", 1)[0]
            if key.isdigit():
                seat = int(key)
                who.append(names[seat] if seat < len(names) else f"seat {seat + 1}")
            elif key != "h":
                who.append("a watcher")
        return f"live: shares of the host's device and {', '.join(who) or 'no other device'}"
    return f"“{contribution}”"


def describe_said(contribution: str, names: Sequence[str] = ()) -> tuple[str, str] | None:
    """``(who, word)`` of a said-aloud contribution; None for any other kind."""
    said = _SAID.fullmatch(contribution)
    if said is None or _AUTO.fullmatch(contribution):
        return None
    seat = int(said.group(1))
    return (names[seat] if seat < len(names) else f"seat {seat + 1}"), said.group(2)


def contribution_kind(contribution: str) -> str:
    """``"automatic"``, ``"said"`` or ``"live"``: how a draw's contribution was made."""
    if _AUTO.fullmatch(contribution):
        return "automatic"
    if contribution.startswith("@"):
        return "live"
    return "said"


@dataclass
class Seal:
    """One sealed chain in the record: its first draw, commitment and deepest revealed link."""

    first: int
    commitment: str
    revealed: str = ""  # "" until its first draw

    def to_json(self) -> list[Any]:
        return [self.first, self.commitment, self.revealed]


@dataclass
class DrawRecord:
    """What a save keeps of its draws (see the module docstring); plain data, checked on read."""

    seals: list[Seal] = field(default_factory=list)
    contributions: list[str] = field(default_factory=list)
    #: per undone group (parallel to the save's ``undone``): [first draw, the step before it]
    undone: list[tuple[int, str]] = field(default_factory=list)
    #: ranges of draws made on a line of play a branch left out: [first, count]
    dropped: list[tuple[int, int]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.contributions)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seals": [s.to_json() for s in self.seals], "c": list(self.contributions)}
        if self.undone:
            out["u"] = [[first, text] for first, text in self.undone]
        if self.dropped:
            out["x"] = [[first, n] for first, n in self.dropped]
        return out

    def copy(self) -> DrawRecord:
        return DrawRecord.from_json(self.to_json())

    @classmethod
    def from_json(cls, obj: Any, max_draws: int = 200_000) -> DrawRecord:
        """Read a record from a link, file or peer: shape and bounds only (raises DrawError).

        Whether the draws recompute is :func:`check_draws`'s question.
        """
        def bad(what: str) -> DrawError:
            return DrawError("draws.schema", f"The draw record is damaged: {what}.")

        if not isinstance(obj, Mapping) or set(obj) - {"seals", "c", "u", "x"}:
            raise bad("it is not an object of seals, contributions and taken-back draws")
        seals_raw, contribs = obj.get("seals"), obj.get("c")
        if not isinstance(contribs, list) or len(contribs) > max_draws:
            raise bad(f"its contributions are not a list of at most {max_draws:,}")
        for i, c in enumerate(contribs):
            if not isinstance(c, str) or not 0 < len(c) <= MAX_CONTRIBUTION_CHARS or _CONTROL.search(c):
                raise bad(f"contribution {i + 1} is not short plain text")
        if not isinstance(seals_raw, list) or len(seals_raw) > max_draws + 1:
            raise bad("its seals are not a list")
        seals: list[Seal] = []
        for i, s in enumerate(seals_raw):
            ok = (
                isinstance(s, list) and len(s) == 3 and _is_count(s[0]) and s[0] <= len(contribs)
                and isinstance(s[1], str) and _HEX.fullmatch(s[1]) is not None
                and isinstance(s[2], str) and (s[2] == "" or _HEX.fullmatch(s[2]) is not None)
            )
            if not ok:
                raise bad(f"seal {i + 1} is not [first draw, commitment, revealed link] (32 hex digits each)")
            if seals and s[0] < seals[-1].first:
                raise bad(f"seal {i + 1} starts before the seal it follows")
            seals.append(Seal(s[0], s[1], s[2]))
        if contribs and (not seals or seals[0].first != 0):
            raise bad("its first draw has no seal")
        undone_raw, dropped_raw = obj.get("u", []), obj.get("x", [])
        if not isinstance(undone_raw, list) or not isinstance(dropped_raw, list):
            raise bad("its taken-back or left-out draws are not lists")
        if len(undone_raw) > max_draws or len(dropped_raw) > max_draws:
            raise bad("it lists more groups than draws")
        undone: list[tuple[int, str]] = []
        for i, u in enumerate(undone_raw):
            if not (isinstance(u, list) and len(u) == 2 and _is_count(u[0]) and isinstance(u[1], str)
                    and len(u[1]) <= 2_000 and not _CONTROL.search(u[1])):
                raise bad(f"taken-back group {i + 1} is not [first draw, step text]")
            undone.append((u[0], u[1]))
        dropped: list[tuple[int, int]] = []
        for i, x in enumerate(dropped_raw):
            if not (isinstance(x, list) and len(x) == 2 and _is_count(x[0]) and _is_count(x[1]) and x[1] > 0):
                raise bad(f"left-out range {i + 1} is not [first draw, count]")
            dropped.append((x[0], x[1]))
        return cls(seals, list(contribs), undone, dropped)

    # -- which draw is which --------------------------------------------------------------
    def seal_of(self, number: int) -> tuple[int, Seal]:
        """``(index, seal)`` that draw ``number`` (0-based) was made under."""
        k = len(self.seals) - 1
        while k > 0 and self.seals[k].first > number:
            k -= 1
        return k, self.seals[k]

    def kept_draws(self, undone_sizes: Sequence[int]) -> list[int]:
        """The draws of the log, in order: every draw not taken back (``undone_sizes``: the
        results of each undone group) nor left out by a branch. Raises DrawError if the
        groups overlap or reach past the record."""
        taken: set[int] = set()
        if len(self.undone) != len(undone_sizes):
            raise DrawError(
                "draws.groups", f"The draw record is damaged: it lists {len(self.undone)} groups of results "
                f"taken back, the game {len(undone_sizes)}."
            )
        spans = [(first, n, "taken back") for (first, _), n in zip(self.undone, undone_sizes, strict=True)]
        spans += [(first, n, "left out") for first, n in self.dropped]
        for first, n, what in spans:
            span = set(range(first, min(first + n, self.count)))  # bounded before it is built
            if first + n > self.count or span & taken:
                raise DrawError(
                    "draws.groups", f"The draw record is damaged: draws {first + 1}–{first + n} ({what}) "
                    "overlap others or were never drawn."
                )
            taken |= span
        return [d for d in range(self.count) if d not in taken]


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


class Chain:
    """The host's secret chain: in the page's memory only, never in a save, link or file.

    Why never saved: a copy of the secret would let whoever holds it compute each draw's
    link before it is revealed, and pick a word that gives the result they want. A page
    opened again seals a new chain (one more commitment in the save, shown in the log).
    """

    def __init__(self, below: Any = None, length: int = CHAIN_LENGTH) -> None:
        below = below or secrets.randbelow
        self.secret = "".join(f"{below(1 << 32):08x}" for _ in range(LINK_CHARS // 8))
        links = [self.secret]
        for _ in range(length):
            links.append(next_link(links[-1]))
        #: links[length] is the commitment; draw p of this chain reveals links[length - 1 - p]
        self._links = links
        self.length = length

    @property
    def commitment(self) -> str:
        return self._links[self.length]

    def link(self, p: int) -> str:
        """The link draw ``p`` (0-based, within this chain) reveals."""
        if not 0 <= p < self.length:
            raise IndexError(f"the chain has {self.length} links")
        return self._links[self.length - 1 - p]


# ------------------------------------------------------------------------------------------
# checking: recompute every draw of a save and name the first that does not match
# ------------------------------------------------------------------------------------------
@dataclass
class DrawCheck:
    """The verdict on a game's draws: what ``verify`` prints and "Check the draws" shows."""

    #: "checked" (every draw recomputes), "mismatch", "not-checkable" (a save from before
    #: issue 26) or "none" (nothing drawn yet)
    status: str
    draws: int = 0
    #: how the contributions were made: {"automatic": n, "said": n, "live": n}
    kinds: dict[str, int] = field(default_factory=dict)
    seals: int = 0
    #: the first problem, in words, and the draw it is at (1-based), when status is "mismatch"
    problem: str = ""
    at_draw: int | None = None
    #: draws taken back or left out whose step is not in the save (chain checked only)
    unreplayed: int = 0
    #: seals nothing was drawn under: the host's page sealed again before a draw
    unused_seals: int = 0
    #: the log index of the mismatching draw, when it is a step of the log (a page hides
    #: the problem's words when that draw is a card in a hand)
    at_step: int | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("checked", "none")

    def summary(self) -> str:
        """One paragraph for people."""
        if self.status == "none":
            return "Nothing has been drawn yet."
        if self.status == "not-checkable":
            return (
                "Draws not checkable: this game was saved before draws were sealed (issue 26); its "
                "results are as the host's browser recorded them."
            )
        if self.status == "mismatch":
            return f"Draw {self.at_draw} does not match: {self.problem}"
        how = ", ".join(f"{n} {k}" for k, n in sorted(self.kinds.items()) if n)
        more = f"; {self.unreplayed} taken back on a step not in this save (chain checked)" if self.unreplayed else ""
        if self.unused_seals:
            more += (f"; {self.unused_seals} more seal{'s' if self.unused_seals != 1 else ''} never used "
                     "(the host's page sealed again before drawing)")
        return (
            f"All {self.draws} draw{'s' if self.draws != 1 else ''} recompute from the host's sealed chain "
            f"({self.seals} seal{'s' if self.seals != 1 else ''}) and the contributions ({how}){more}."
        )


def check_draws(
    game: Any,
    states: Sequence[Any],
    log: Sequence[str],
    undone: Sequence[tuple[int, Sequence[str]]],
    record: DrawRecord | Mapping[str, Any] | None,
) -> DrawCheck:
    """Recompute every draw of a replayed game (``states``: the state before each step and the last).

    Checks, draw by draw in the order drawn: that each seal's deepest revealed link hashes
    back, link by link, to its commitment (a host that changed its secret after sealing, or
    an edited link, breaks this); that each result in the log, and each taken back by an
    undo, is what the rule gives for its link, number and contribution (an edited result or
    contribution breaks this); and that the record has exactly one draw per chance step.
    """
    from conquest.core import GameError
    from conquest.session import advance

    chance_steps = [i for i in range(len(log)) if game.chance(states[i]) is not None]
    if record is None:
        return DrawCheck("not-checkable" if chance_steps or undone else "none")
    try:
        rec = record if isinstance(record, DrawRecord) else DrawRecord.from_json(record)
        kept = rec.kept_draws([len(texts) for _, texts in undone])
    except DrawError as exc:
        return DrawCheck("mismatch", problem=exc.message, at_draw=1)
    report = DrawCheck("checked", draws=rec.count, seals=sum(1 for s in rec.seals if s.revealed),
                       unused_seals=sum(1 for s in rec.seals if not s.revealed))
    problems: list[tuple[int, str]] = []
    step_of = dict(zip(kept, chance_steps, strict=False))
    if len(kept) != len(chance_steps):
        problems.append((
            kept[len(chance_steps)] if len(kept) > len(chance_steps) else rec.count,
            f"the log has {len(chance_steps)} draws but the record {len(kept)}: a draw was added or removed",
        ))
    # 1. the chains: each seal's links, from its deepest revealed one back to its commitment
    links: dict[int, str] = {}
    for k, seal in enumerate(rec.seals):
        end = rec.seals[k + 1].first if k + 1 < len(rec.seals) else rec.count
        if end == seal.first:
            if seal.revealed:
                problems.append((seal.first, f"seal {k + 1} reveals a link but no draw was made under it"))
            continue
        if not seal.revealed:
            problems.append((seal.first, f"seal {k + 1} has draws but reveals no link"))
            continue
        link = seal.revealed
        chain = {end - 1: link}
        for d in range(end - 2, seal.first - 1, -1):
            link = next_link(link)
            chain[d] = link
        if next_link(link) != seal.commitment:
            problems.append((
                seal.first,
                f"the links revealed for draws {seal.first + 1}–{end} do not hash back to the commitment "
                f"{seal.commitment[:8]}… sealed before draw {seal.first + 1}: the host's secret was changed "
                "after sealing, or a revealed value was edited",
            ))
            continue
        links.update(chain)
    # 2. every result, in the log and taken back, recomputed
    def recompute(d: int, state: Any, text: str, where: str) -> None:
        if d not in links:
            return  # its chain failed: said above
        spec = game.chance(state)
        if spec is None:
            problems.append((d, f"{where} ({excerpt(text)}) stands where the game waits for no draw"))
            return
        values = draw_values(links[d], d + 1, rec.contributions[d], spec.sizes)
        try:
            expected = game.format_action(game.chance_action(state, values))
        except GameError as exc:
            problems.append((d, f"the rule's values do not make a result here ({exc.message})"))
            return
        if expected != text:
            problems.append((
                d,
                f"{where} is {excerpt(text)}, but its link, number and contribution "
                f"({describe_contribution(rec.contributions[d])}) give {excerpt(expected)}",
            ))

    for i, d in zip(chance_steps, kept, strict=False):
        recompute(d, states[i], log[i], f"step {i + 1} of the log")
    for (first, before), (at, texts) in zip(rec.undone, undone, strict=True):
        if not 0 <= at < len(states):
            report.unreplayed += len(texts)
            continue
        state = states[at]
        try:
            if before:
                _, state, _ = advance(game, state, before)
            for j, text in enumerate(texts):
                recompute(first + j, state, text, f"the result taken back after step {at}")
                _, state, _ = advance(game, state, text)
        except GameError as exc:
            problems.append((first, f"the draws taken back after step {at} do not replay ({exc.message})"))
    report.unreplayed += sum(n for _, n in rec.dropped)
    for c in rec.contributions:
        kind = contribution_kind(c)
        report.kinds[kind] = report.kinds.get(kind, 0) + 1
    if problems:
        d, why = min(problems, key=lambda p: p[0])
        report.status, report.at_draw, report.problem = "mismatch", d + 1, why
        report.at_step = step_of.get(d)
    elif rec.count == 0:
        report.status = "none"
    return report
