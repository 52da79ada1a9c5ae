"""The Short Campaign rules (rulings S1-S8), as a :class:`conquest.core.Game`.

Why the engine decides everything, down to who was closest and who was faster: the game is
played on one page by people and bots together, and replayed from a link; the only inputs
are the chance draws and the answers (each with its time), so replay is exact and every
number on the page has one owner.

Choices where the rulings are silent are documented where they are made and collected in
this package's README.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import product
from typing import Any

from conquest.catalog import load_data
from conquest.core import ChanceSpec, Game, IllegalAction, InvalidAction, InvalidOptions, Outcome, excerpt
from conquest.games.campaign import questions
from conquest.games.campaign.actions import (
    Action,
    Answers,
    Attack,
    Bases,
    Draw,
    Order,
    Part,
    Pick,
    format_part,
    parse_action,
)
from conquest.games.campaign.questions import (
    CHOICE,
    GUESS,
    LETTERS,
    MIN_EACH,
    Mix,
    Pool,
    Question,
    load_bank,
    make_pool,
    normalize_pack,
)
from conquest.games.campaign.state import FREE, Reveal, State, Used
from conquest.rng import apply_shuffle

__all__ = ["CampaignGame", "Rules", "Setup", "rules", "SEATS"]

SEATS = 3
MAX_NAME = 40
_OPTION_KEYS = {"players", "seats", "seconds", "map", "categories", "pack", "pack_categories", "mix"}
_SEAT_KEYS = {"name", "colour", "bot"}
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_GUESS_PURPOSES = ("expand", "tiebreak", "final")


# ------------------------------------------------------------------------------------------
# The numbers (conquest/data/campaign.json) and one game's set-up
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """The game's numbers, read from its data file so the rules page shows the same ones."""

    map_id: str
    base_value: int
    towers: int
    picks: tuple[int, ...]
    pick_value: int
    rounds: int
    win: int
    conquered_value: int
    defence_bonus: int
    demolished_value: int
    elimination_bonus: int
    seconds: int
    seconds_min: int
    seconds_max: int
    bots: dict[str, dict[str, Any]]
    mix: Mix


@lru_cache(maxsize=1)
def rules() -> Rules:
    d = load_data("campaign")
    b = d["battle"]
    s = d["answer_seconds"]
    return Rules(
        map_id=d["map"],
        base_value=d["base"]["value"],
        towers=d["base"]["towers"],
        picks=tuple(d["expansion"]["picks"]),
        pick_value=d["expansion"]["value"],
        rounds=b["rounds"],
        win=b["win"],
        conquered_value=b["conquered_value"],
        defence_bonus=b["defence_bonus"],
        demolished_value=b["demolished_value"],
        elimination_bonus=b["elimination_bonus"],
        seconds=s["default"],
        seconds_min=s["min"],
        seconds_max=s["max"],
        bots=d["bots"],
        mix=Mix(int(d["mix"]["share"]), str(d["mix"]["guess_category"])),
    )


@dataclass(frozen=True, eq=False)
class Board:
    """The map as the engine needs it: names and neighbours by index."""

    map_id: str
    title: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    adj: tuple[frozenset[int], ...]

    def __len__(self) -> int:
        return len(self.ids)


@lru_cache(maxsize=8)
def board(map_id: str) -> Board:
    from conquest.maps import load_map

    m = load_map(map_id)
    index = {t.id: t.index for t in m.territories}
    return Board(
        map_id=map_id,
        title=m.title,
        ids=tuple(t.id for t in m.territories),
        names=tuple(t.name for t in m.territories),
        adj=tuple(frozenset(index[u] for u in m.neighbours(t.id)) for t in m.territories),
    )


@lru_cache(maxsize=8)
def base_triples(map_id: str) -> tuple[tuple[int, int, int], ...]:
    """S1: every ordered triple of pairwise non-adjacent territories (seat 0's, 1's, 2's
    Base), in lexicographic order: the Base draw is one uniform choice among them."""
    b = board(map_id)
    n = len(b)
    return tuple(
        (x, y, z)
        for x in range(n)
        for y in range(n)
        if y != x and y not in b.adj[x]
        for z in range(n)
        if z not in (x, y) and z not in b.adj[x] and z not in b.adj[y]
    )


@dataclass(frozen=True, eq=False)
class Setup:
    """One game's options, decoded once (cached by the canonical options text)."""

    names: tuple[str, ...]
    seconds: int
    map_id: str
    categories: tuple[str, ...]
    pack: dict[str, Any] | None
    pack_categories: tuple[str, ...]
    #: issue 40: a varied draw (games set up since; older games replay as they were drawn)
    mix: bool = False

    @property
    def limit_ms(self) -> int:
        return self.seconds * 1000

    @property
    def board(self) -> Board:
        return board(self.map_id)

    @cached_property
    def pool(self) -> Pool:
        return make_pool(self.categories, self.pack, self.pack_categories, rules().mix if self.mix else None)


@lru_cache(maxsize=32)
def setup_of(opts: str) -> Setup:
    o = json.loads(opts)
    r = rules()
    bank = load_bank()
    pack = o.get("pack")
    return Setup(
        names=tuple(
            o.get("players")
            or [seat["name"] for seat in o.get("seats", ())]
            or (f"Player {i + 1}" for i in range(SEATS))
        ),
        seconds=o.get("seconds", r.seconds),
        map_id=o.get("map", r.map_id),
        categories=tuple(o.get("categories", [] if pack else list(bank.categories))),
        pack=pack,
        pack_categories=tuple(o.get("pack_categories", pack["cats"] if pack else [])),
        mix=bool(o.get("mix")),
    )


def _canonical(options: Mapping[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _illegal(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


# ------------------------------------------------------------------------------------------
# Options
# ------------------------------------------------------------------------------------------
def _clean_names(raw: list[Any], code: str) -> list[str]:
    """Three different names without control characters (S2), spaces tidied."""
    names: list[str] = []
    for i, p in enumerate(raw):
        if isinstance(p, Mapping):
            p = p.get("name")
        if not isinstance(p, str) or not p.strip():
            raise InvalidOptions(code, f"S2: player {i + 1} needs a name")
        name = " ".join(p.split())
        if re.search("[\x00-\x1f\x7f-\x9f\ud800-\udfff]", name):
            raise InvalidOptions(code, f"player {i + 1}'s name holds a control character")
        if len(name) > MAX_NAME:
            raise InvalidOptions(code, f"player {i + 1}'s name is longer than {MAX_NAME}")
        if name.casefold() in {n.casefold() for n in names}:
            raise InvalidOptions(code, f"two players are called {excerpt(name)}")
        names.append(name)
    return names


def _norm_players(raw: Any) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != SEATS:
        raise InvalidOptions("options.players", f"S2: exactly {SEATS} players, as a list of names")
    names = _clean_names(raw, "options.players")
    # default names are left out of links
    return None if names == [f"Player {i + 1}" for i in range(SEATS)] else names


def _norm_seats(raw: Any) -> list[dict[str, str]] | None:
    """S2: the seats as the play page sets them up: a name, a colour and, for a computer
    player, its level. The page reads them back from a link or a slot (the shell's
    ``Session.seats``), so a game reopens with the same bots and colours. Colours must be
    ``#rrggbb`` (they reach the page's styles) and levels must be the data file's."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != SEATS:
        raise InvalidOptions("options.seats", f"S2: exactly {SEATS} seats, each {{name, colour, bot}}")
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or set(item) - _SEAT_KEYS:
            raise InvalidOptions("options.seats", f"S2: seat {i + 1} must be {{name, colour, bot}}")
    names = _clean_names(raw, "options.seats")
    levels = rules().bots
    seats: list[dict[str, str]] = []
    for i, (item, name) in enumerate(zip(raw, names, strict=True)):
        seat = {"name": name}
        colour = item.get("colour")
        if colour is not None:
            if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
                raise InvalidOptions("options.seats", f"seat {i + 1}'s colour must look like #56b4e9")
            seat["colour"] = colour.lower()
        bot = item.get("bot")
        if bot is not None:
            if bot not in levels:
                raise InvalidOptions(
                    "options.seats", f"S2: seat {i + 1}'s computer level must be one of {', '.join(levels)}"
                )
            seat["bot"] = bot
        seats.append(seat)
    if seats == [{"name": f"Player {i + 1}"} for i in range(SEATS)]:  # the defaults stay out of links
        return None
    return seats


def _norm_map(raw: Any) -> str:
    from conquest.maps import MapError, available_maps

    r = rules()
    if raw is None:
        return r.map_id
    if not isinstance(raw, str) or raw not in available_maps():
        raise InvalidOptions("options.map", f"S1: the map must be one of {', '.join(available_maps())}")
    try:
        triples = base_triples(raw)
    except MapError as exc:
        raise InvalidOptions("options.map", str(exc)) from None
    if not triples:
        raise InvalidOptions("options.map", f"S1: the map {excerpt(raw)} has no three territories that do not border")
    if len(board(raw)) > 200:
        raise InvalidOptions("options.map", "S1: the map is too large for a short campaign (200 territories at most)")
    return raw


# ------------------------------------------------------------------------------------------
# The game
# ------------------------------------------------------------------------------------------
class CampaignGame(Game[State, Action]):
    """Short Campaign: three players expand with guess questions and battle with quiz questions.

    Besides the protocol of :class:`conquest.core.Game`, it offers :meth:`answer_key` to
    computer players only (a bot plays a person who may know the answer), and a few
    queries the page and the bots share (:meth:`pickable`, :meth:`targets`,
    :meth:`question`, :meth:`setup`).
    """

    id = "campaign"

    # -- set-up -----------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check the options and leave out every default, so links stay short."""
        o = dict(options or {})
        unknown = sorted(set(o) - _OPTION_KEYS)
        if unknown:
            raise InvalidOptions("options.unknown", f"unknown Short Campaign options: {', '.join(excerpt(k, 30) for k in unknown[:5])}")
        r = rules()
        out: dict[str, Any] = {}
        if o.get("players") is not None and o.get("seats") is not None:
            raise InvalidOptions("options.seats", "S2: give the players either as seats or as names, not both")
        names = _norm_players(o.get("players"))
        if names is not None:
            out["players"] = names
        seats = _norm_seats(o.get("seats"))
        if seats is not None:
            out["seats"] = seats
        seconds = o.get("seconds", r.seconds)
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not r.seconds_min <= seconds <= r.seconds_max:
            raise InvalidOptions(
                "options.seconds",
                f"S8: the time to answer is a whole number of seconds from {r.seconds_min} to {r.seconds_max}",
            )
        if seconds != r.seconds:
            out["seconds"] = seconds
        map_id = _norm_map(o.get("map"))
        if map_id != r.map_id:
            out["map"] = map_id
        pack = None
        if o.get("pack") is not None:
            pack = normalize_pack(o["pack"])  # PackError lists every problem (S8)
            out["pack"] = pack
        bank = load_bank()
        default_cats = [] if pack else list(bank.categories)
        cats = o.get("categories", default_cats)
        if not isinstance(cats, list) or not all(isinstance(c, str) for c in cats):
            raise InvalidOptions("options.categories", "S8: categories must be a list of category ids")
        unknown_cats = [c for c in cats if c not in bank.categories]
        if unknown_cats:
            raise InvalidOptions(
                "options.categories",
                f"S8: unknown question categories {', '.join(excerpt(c, 30) for c in list(dict.fromkeys(unknown_cats))[:5])}; "
                f"the bank has {', '.join(bank.categories)}",
            )
        cats = [c for c in bank.categories if c in set(cats)]  # bank order, no repeats
        if cats != default_cats:
            out["categories"] = cats
        if o.get("mix"):  # issue 40: a varied draw; absent in older games, which replay as drawn
            out["mix"] = True
        pcats = o.get("pack_categories")
        if pcats is not None:
            if pack is None:
                raise InvalidOptions("options.pack_categories", "S8: pack categories need a question pack")
            if not isinstance(pcats, list) or not all(isinstance(c, str) for c in pcats):
                raise InvalidOptions("options.pack_categories", "S8: pack categories must be a list of names")
            missing = [c for c in pcats if c not in pack["cats"]]
            if missing:
                raise InvalidOptions(
                    "options.pack_categories",
                    f"S8: the pack has no category {', '.join(excerpt(c, 30) for c in missing[:5])}",
                )
            pcats = [c for c in pack["cats"] if c in set(pcats)]
            if pcats != pack["cats"]:
                out["pack_categories"] = pcats
        setup = setup_of(_canonical(out))
        pool = setup.pool
        for kind, word in ((GUESS, "guess"), (CHOICE, "multiple-choice")):
            if len(pool.eligible[kind]) < MIN_EACH:
                raise InvalidOptions(
                    "options.questions",
                    f"S8: the chosen questions hold {len(pool.eligible[kind])} {word} questions; "
                    f"a game needs at least {MIN_EACH} (choose more categories or add to the pack)",
                )
        return out

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        """Nothing is drawn from the seed: the Bases, the orders and the questions are all
        chance steps in the log (S1, S4, S8)."""
        opts = self.normalize_options(options)
        n = len(setup_of(_canonical(opts)).board)
        return State(
            opts=_canonical(opts),
            phase="bases",
            owner=(FREE,) * n,
            value=(0,) * n,
            points=(0,) * SEATS,
            base=(FREE,) * SEATS,
            towers=(0,) * SEATS,
            alive=(True,) * SEATS,
        )

    # -- shared queries (page, bots, tests) ------------------------------------------
    @staticmethod
    def setup(state: State) -> Setup:
        return setup_of(state.opts)

    def question(self, state: State, qid: str | None = None) -> Question | None:
        """The question with this id (default: the one being asked), answer included: for
        the engine, the reveal and the tests. The page shows ``Question.public()`` only."""
        qid = state.question if qid is None else qid
        return self.setup(state).pool.get(qid) if qid else None

    def answer_key(self, state: State) -> int | str | None:
        """For computer players only: the right answer of the question being asked now (a
        number, or the right option's letter); None when no question is open.

        Why this exists apart from :meth:`view`: a bot stands for a person who knows the
        answer with some probability, so it must be able to know it; the page never calls
        this for people, and :meth:`view` never contains it.
        """
        if state.phase != "answer":
            return None
        q = self.question(state)
        if q is None:
            return None
        return LETTERS[q.answer] if q.kind == CHOICE else q.answer

    def pickable(self, state: State, seat: int) -> list[int]:
        """S3: free territories bordering the seat's empire, or every free one if none does."""
        adj = self.setup(state).board.adj
        free = [t for t, o in enumerate(state.owner) if o == FREE]
        near = [t for t in free if any(state.owner[u] == seat for u in adj[t])]
        return near or free

    def targets(self, state: State, seat: int) -> list[int]:
        """S4: rivals' territories bordering the attacker's empire."""
        adj = self.setup(state).board.adj
        return [
            t
            for t, o in enumerate(state.owner)
            if o not in (FREE, seat) and state.alive[o] and any(state.owner[u] == seat for u in adj[t])
        ]

    def is_standing_base(self, state: State, t: int) -> bool:
        """A Base with towers still standing (S6)."""
        return any(b == t and state.towers[s] > 0 for s, b in enumerate(state.base))

    def is_demolished_base(self, state: State, t: int) -> bool:
        """A Base whose last tower fell: worth 1000 to whoever takes it (S6)."""
        return any(b == t and state.towers[s] == 0 for s, b in enumerate(state.base))

    @staticmethod
    def question_categories() -> list[dict[str, Any]]:
        """The bank's categories for the set-up page: id, name and how many questions of
        each kind (the ``categories`` option takes the ids)."""
        bank = load_bank()
        return [
            {"id": c, "name": name, "choice": len(bank.by_category[c][CHOICE]), "guess": len(bank.by_category[c][GUESS])}
            for c, name in bank.categories.items()
        ]

    def question_kind(self, state: State) -> str:
        return GUESS if state.purpose in _GUESS_PURPOSES else CHOICE

    # -- turn order -------------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        """The seat to pick or attack; None at chance steps, at the simultaneous answer step
        (see :meth:`simultaneous`) and at the end."""
        if state.phase == "pick":
            return state.picks[0]
        if state.phase == "attack":
            return state.attacker
        return None

    def simultaneous(self, state: State) -> tuple[int, ...]:
        """The seats answering the open question, each in secret and against the clock."""
        return state.asked if state.phase == "answer" else ()

    def chance(self, state: State) -> ChanceSpec | None:
        ph = state.phase
        if ph == "bases":
            return ChanceSpec("bases", (len(base_triples(self.setup(state).map_id)),))
        if ph == "draw":
            return ChanceSpec("question", (self.setup(state).pool.count(self.question_kind(state), state.used),))
        if ph == "order":
            n = sum(state.alive)
            return ChanceSpec("order", tuple(range(n, 1, -1)) or (1,))
        return None

    def chance_result_type(self, state: State, spec: ChanceSpec) -> type | None:
        """A question's draw is a :class:`Draw`, said without listing the candidates (a
        scan of the pool per replayed draw, issue 20 item 4)."""
        if state.phase == "draw":
            return Draw
        return super().chance_result_type(state, spec)

    def chance_action(self, state: State, values: Sequence[int]) -> Action:
        ph = state.phase
        if ph == "bases":
            (k,) = values
            return Bases(base_triples(self.setup(state).map_id)[k])
        if ph == "draw":
            (k,) = values
            return Draw(self._candidates(state)[k])
        if ph == "order":
            seats = [s for s in range(SEATS) if state.alive[s]]
            draws = tuple(values) if len(seats) > 1 else ()
            return Order(self._round_order(state, apply_shuffle(seats, draws)))
        raise _illegal("chance.none", f"nothing is drawn now: the game is at the {ph} step")

    def _round_order(self, state: State, shuffled: Sequence[int]) -> tuple[int, ...]:
        """S4: rounds 1-3 keep the random order; the last round sorts it by points, most
        first. Sorting the drawn order (a stable sort) leaves players tied on points in
        random order: the rulings are silent on ties, and chance is fairer than seat order."""
        if state.battle_round < rules().rounds:
            return tuple(shuffled)
        return tuple(sorted(shuffled, key=lambda s: -state.points[s]))

    def _candidates(self, state: State) -> list[str]:
        return self.setup(state).pool.candidates(self.question_kind(state), state.used)

    def earlier_edition_questions(self, state: State) -> int:
        """How many of the questions asked so far come from an earlier edition of the bank
        (a game saved before the bank was rebuilt; the page says so). Only views ask this."""
        pool = self.setup(state).pool
        return sum(1 for u in state.used if u not in pool.questions)

    def outcome(self, state: State) -> Outcome | None:
        """S7: the most points wins; a tie was settled by a guess question before the end."""
        if state.phase != "over":
            return None
        scores = tuple(float(p) for p in state.points)
        tied = [s for s in range(SEATS) if state.points[s] == max(state.points)]
        reason = (
            "S7: most points"
            if len(tied) == 1
            else f"S7: tied on {max(state.points):,} points, decided by a guess question"
        )
        return Outcome(winners=(state.winner,), reason=reason, scores=scores)

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        """Stable order. At the answer step answers are open-ended (any guess in range, any
        time up to the limit), so this lists a representative set of joint answers:
        every combination of each asked seat's :meth:`secret_choices`; ``apply`` accepts
        any valid answers."""
        ph = state.phase
        if ph == "pick":
            return [Pick(t) for t in self.pickable(state, state.picks[0])]
        if ph == "attack":
            return [Attack(t) for t in self.targets(state, state.attacker)]
        if ph == "answer":
            per_seat = [self.secret_choices(state, s) for s in state.asked]
            return [Answers(tuple(combo)) for combo in product(*per_seat)]
        return []

    def secret_choices(self, state: State, seat: int) -> list[Part]:
        """A representative list of one seat's answers (the page's controls allow any):
        each option letter, or three guesses spread over the question's range, at a
        seat-specific time; and no answer. Built from the range only, never the answer."""
        if state.phase != "answer" or seat not in state.asked:
            return []
        q = self.question(state)
        assert q is not None
        i = state.asked.index(seat)
        ms = min(self.setup(state).limit_ms, 1500 + 1000 * ((i + len(state.used)) % len(state.asked)))
        parts: list[Part]
        if q.kind == CHOICE:
            parts = [(letter, ms) for letter in LETTERS[: len(q.options)]]
        else:
            mid = round(math.sqrt(max(q.lo, 1) * q.hi))
            parts = [(v, ms) for v in sorted({q.lo, min(max(mid, q.lo), q.hi), q.hi})]
        return [*parts, None]

    def join_secret(self, state: State, parts: Mapping[int, Any]) -> Answers:
        """One reveal from every asked seat's part: ``(answer, milliseconds)`` or None for
        no answer; a multiple-choice answer may be the letter or the option index 0-3."""
        if state.phase != "answer":
            raise _illegal("S8.no-question", "S8: no question is waiting for answers")
        q = self.question(state)
        assert q is not None
        missing = [s for s in state.asked if s not in parts]
        if missing:
            raise _illegal(
                "S8.missing-answer",
                f"S8: every asked seat must answer or time out; no part for seat {', '.join(map(str, missing))}",
            )
        out: list[Part] = []
        for s in state.asked:
            p = parts[s]
            if p is None:
                out.append(None)
                continue
            if not isinstance(p, list | tuple) or len(p) != 2:
                raise _illegal("S8.answer", f"S8: seat {s}'s answer must be (answer, milliseconds)")
            answer, ms = p
            if q.kind == CHOICE and isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < 4:
                answer = LETTERS[answer]
            out.append((answer, ms))
        action = Answers(tuple(out))
        self._check_answers(state, q, action)
        return action

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> State:
        if isinstance(action, str):
            action = parse_action(action)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise InvalidAction("action.type", f"{excerpt(action)} is not a Short Campaign action")
        return handler(self, state, action)

    def _phase(self, state: State, action: Action, *phases: str) -> None:
        if state.phase not in phases:
            if state.phase == "over":
                raise _illegal("S7.over", f"S7: the game is over; {action} cannot be played")
            raise _illegal("phase", f"{action} is not possible now: the game is at the {_PHASE_TEXT[state.phase]}")

    def _territory(self, state: State, t: int, what: str) -> None:
        if not 0 <= t < len(state.owner):
            raise _illegal("S1.no-territory", f"S1: there is no territory {t} on this map ({what})")

    # S1
    def _bases(self, state: State, a: Bases) -> State:
        self._phase(state, a, "bases")
        if len(a.ts) != SEATS or len(set(a.ts)) != SEATS:
            raise _illegal("S1.bases", f"S1: {a} must name {SEATS} different territories, one per seat")
        for t in a.ts:
            self._territory(state, t, str(a))
        adj = self.setup(state).board.adj
        if any(a.ts[j] in adj[a.ts[i]] for i in range(SEATS) for j in range(SEATS) if i != j):
            raise _illegal("S1.adjacent", f"S1: no two Bases may border each other ({a})")
        r = rules()
        owner, value = list(state.owner), list(state.value)
        for s, t in enumerate(a.ts):
            owner[t], value[t] = s, r.base_value
        st = replace(
            state,
            owner=tuple(owner),
            value=tuple(value),
            base=tuple(a.ts),
            towers=(r.towers,) * SEATS,
            points=(r.base_value,) * SEATS,
        )
        return self._after_expansion_step(st)

    def _draw(self, state: State, a: Draw) -> State:
        self._phase(state, a, "draw")
        q = self.question(state, a.qid)
        kind = self.question_kind(state)
        if q is None:
            why = questions.legacy_error
            raise _illegal(
                "S8.unknown-question",
                f"S8: there is no question {excerpt(a.qid)} in this game's questions"
                + (f" (the questions of earlier editions of the bank could not be read: {why})" if why else ""),
            )
        if q.kind != kind:
            raise _illegal("S8.question-kind", f"S8: a {kind} question is needed now; {excerpt(a.qid)} is a {q.kind} question")
        if q.edition:
            self._check_earlier_edition(state, q)
        elif not self.setup(state).pool.may_draw(kind, state.used, a.qid):
            raise _illegal("S8.repeat", f"S8: question {excerpt(a.qid)} was already asked in this game")
        return replace(state, phase="answer", question=a.qid, used=state.used.plus(a.qid))

    def _check_earlier_edition(self, state: State, q: Question) -> None:
        """S8: a question of an earlier edition of the bank (one a rebuild retired) is never
        drawn anew, so only a game played before that rebuild names one: it is accepted
        once per game, and only before any question of a later edition or of the current
        bank (a game's questions come from the editions in the order the site had them)."""
        if q.id in state.used:
            raise _illegal("S8.repeat", f"S8: question {q.id!r} was already asked in this game")
        pool = self.setup(state).pool
        # running counts (state.Used), so a long log costs no scan per draw
        if state.used.count_in(pool.all_ids) or state.used.count_in(questions.legacy_later_than(q.edition)):
            raise _illegal(
                "S8.edition",
                f"S8: question {q.id!r} is from the {q.edition} edition of the question bank, which no game "
                "draws from after asking a question of a later edition or of the current bank",
            )

    def _check_answers(self, state: State, q: Question, a: Answers) -> None:
        if len(a.parts) != len(state.asked):
            raise _illegal(
                "S8.answer-count",
                f"S8: {len(state.asked)} seats answer this question; {a} has {len(a.parts)} parts",
            )
        limit = self.setup(state).limit_ms
        for s, p in zip(state.asked, a.parts, strict=True):
            if p is None:
                continue
            answer, ms = p
            if not isinstance(ms, int) or isinstance(ms, bool) or not 0 <= ms <= limit:
                raise _illegal(
                    "S8.time", f"S8: answers are timed: seat {s}'s time must be 0 to {limit} milliseconds, not {excerpt(ms)}"
                )
            if q.kind == CHOICE:
                if not isinstance(answer, str) or answer not in LETTERS[: len(q.options)]:
                    raise _illegal("S5.option", f"S5: seat {s} must answer with an option letter A-D, not {excerpt(answer)}")
            elif isinstance(answer, bool) or not isinstance(answer, int) or not q.lo <= answer <= q.hi:
                raise _illegal(
                    "S3.guess-range", f"S3: seat {s}'s guess must be a whole number from {q.lo:,} to {q.hi:,}"
                )

    def _answers(self, state: State, a: Answers) -> State:
        self._phase(state, a, "answer")
        q = self.question(state)
        assert q is not None
        self._check_answers(state, q, a)
        handler = {
            "expand": self._resolve_expand,
            "battle": self._resolve_battle,
            "tiebreak": self._resolve_tiebreak,
            "final": self._resolve_final,
        }[state.purpose]
        return handler(state, q, a)

    @staticmethod
    def guess_ranking(q: Question, asked: Sequence[int], parts: Sequence[Part]) -> list[tuple[int, int, int]]:
        """Answered seats as (distance, milliseconds, seat), best first: closest, then fastest
        (S3). Seat order after that only sorts exact ties; callers decide those."""
        rows = []
        for s, p in zip(asked, parts, strict=True):
            if p is not None:
                rows.append((abs(int(p[0]) - q.answer), p[1], s))
        return sorted(rows)

    @staticmethod
    def _choice_ranking(q: Question, asked: Sequence[int], parts: Sequence[Part]) -> tuple[int, ...]:
        right = sorted((p[1], s) for s, p in zip(asked, parts, strict=True) if p and p[0] == LETTERS[q.answer])
        wrong = sorted((p[1], s) for s, p in zip(asked, parts, strict=True) if p and p[0] != LETTERS[q.answer])
        return tuple(s for _, s in right + wrong)

    def _reveal(self, state: State, a: Answers, ranking: Sequence[int], result: str) -> Reveal:
        return Reveal(state.question, state.purpose, state.asked, a.parts, tuple(ranking), result)

    # S3
    def _resolve_expand(self, state: State, q: Question, a: Answers) -> State:
        """S3: closest wins, then fastest; a seat that did not answer places nowhere. An exact
        tie in distance and time goes to the lower seat number (silent rulings)."""
        ranked = [s for _, _, s in self.guess_ranking(q, state.asked, a.parts)]
        r = rules()
        picks: list[int] = []
        for place, count in enumerate(r.picks):
            if place < len(ranked):
                picks += [ranked[place]] * count
        free = sum(1 for o in state.owner if o == FREE)
        picks = picks[:free]
        reveal = self._reveal(state, a, ranked, "expand" if picks else "none")
        st = replace(state, reveal=reveal, question="", asked=(), picks=tuple(picks))
        if not picks:
            return self._ask(st, "expand", self._alive(st))  # nobody answered: another question
        return replace(st, phase="pick")

    def _pick(self, state: State, a: Pick) -> State:
        self._phase(state, a, "pick")
        self._territory(state, a.t, str(a))
        seat = state.picks[0]
        name = self._tname(state, a.t)
        if state.owner[a.t] != FREE:
            raise _illegal("S3.not-free", f"S3: only a free territory can be taken; {name} is held")
        if a.t not in self.pickable(state, seat):
            raise _illegal(
                "S3.border",
                f"S3: a pick must border {self._pname(state, seat)}'s empire while any free territory "
                f"does; {name} does not",
            )
        r = rules()
        owner, value, points = list(state.owner), list(state.value), list(state.points)
        owner[a.t], value[a.t] = seat, r.pick_value
        points[seat] += r.pick_value
        st = replace(state, owner=tuple(owner), value=tuple(value), points=tuple(points), picks=state.picks[1:])
        return self._after_expansion_step(st)

    def _after_expansion_step(self, state: State) -> State:
        """S3: go on picking, ask the next round's question, or start the battle (S4)."""
        if FREE not in state.owner:
            return replace(state, phase="order", picks=(), battle_round=1, order=(), turn=0)
        if state.picks:
            return replace(state, phase="pick")
        st = replace(state, expansion_round=state.expansion_round + 1)
        return self._ask(st, "expand", self._alive(st))

    @staticmethod
    def _alive(state: State) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if state.alive[s])

    @staticmethod
    def _ask(state: State, purpose: str, seats: Sequence[int]) -> State:
        return replace(state, phase="draw", purpose=purpose, asked=tuple(sorted(seats)), question="")

    # S4
    def _order(self, state: State, a: Order) -> State:
        self._phase(state, a, "order")
        alive = self._alive(state)
        if sorted(a.seats) != list(alive):
            raise _illegal(
                "S4.order", f"S4: the attack order must list each player still in once: {', '.join(map(str, alive))}"
            )
        if state.battle_round >= rules().rounds and any(
            state.points[x] < state.points[y] for x, y in zip(a.seats, a.seats[1:], strict=False)
        ):
            raise _illegal("S4.last-round", "S4: in the last battle round the order is by points, most first")
        return self._next_attack(replace(state, order=a.seats, turn=0))

    def _next_attack(self, state: State) -> State:
        """The next attacker in the order who is still in and has a target; else the next
        round, or the end. A player with no rival territory on their border cannot attack
        this round (S4 needs a bordering target) and is passed over."""
        if len(self._alive(state)) < 2:
            return self._finish(state)
        turn = state.turn
        while turn < len(state.order):
            seat = state.order[turn]
            if state.alive[seat] and self.targets(state, seat):
                return replace(state, phase="attack", turn=turn, target=FREE, defender=FREE, fights=0)
            turn += 1
        if state.battle_round < rules().rounds:
            return replace(state, phase="order", battle_round=state.battle_round + 1, order=(), turn=0)
        return self._finish(replace(state, turn=turn))

    def _attack(self, state: State, a: Attack) -> State:
        self._phase(state, a, "attack")
        self._territory(state, a.t, str(a))
        seat = state.attacker
        owner = state.owner[a.t]
        name = self._tname(state, a.t)
        if owner == seat:
            raise _illegal("S4.own", f"S4: {name} is already {self._pname(state, seat)}'s")
        if a.t not in self.targets(state, seat):
            raise _illegal(
                "S4.border", f"S4: a target must be a rival's territory bordering {self._pname(state, seat)}'s empire; {name} is not"
            )
        st = replace(state, target=a.t, defender=owner, fights=1)
        return self._ask(st, "battle", (seat, owner))

    # S5
    def _resolve_battle(self, state: State, q: Question, a: Answers) -> State:
        """S5: attacker wrong or silent: the defender wins (+100 if the defender was right);
        attacker right and defender not: the attacker wins; both right: a guess question."""
        by_seat = dict(zip(state.asked, a.parts, strict=True))
        right = LETTERS[q.answer]
        att_ok = (by_seat[state.attacker] or ("", 0))[0] == right
        def_ok = (by_seat[state.defender] or ("", 0))[0] == right
        ranking = self._choice_ranking(q, state.asked, a.parts)
        if not att_ok:
            result = "defender-bonus" if def_ok else "defender"
            st = replace(state, reveal=self._reveal(state, a, ranking, result))
            return self._defender_wins(st, bonus=def_ok)
        if not def_ok:
            st = replace(state, reveal=self._reveal(state, a, ranking, "attacker"))
            return self._attacker_wins(st)
        st = replace(state, reveal=self._reveal(state, a, ranking, "both-right"))
        return self._ask(st, "tiebreak", (state.attacker, state.defender))

    def _resolve_tiebreak(self, state: State, q: Question, a: Answers) -> State:
        """S5: closer, then faster. Silent rulings: a seat that does not answer loses it; an
        exact tie in distance and time, or two silent seats, leave the territory with the
        defender (the attacker must beat the defender)."""
        rows = {s: (d, ms) for d, ms, s in self.guess_ranking(q, state.asked, a.parts)}
        ranking = [s for _, _, s in self.guess_ranking(q, state.asked, a.parts)]
        att, dfd = rows.get(state.attacker), rows.get(state.defender)
        if att is not None and (dfd is None or att < dfd):
            return self._attacker_wins(replace(state, reveal=self._reveal(state, a, ranking, "attacker")))
        return self._defender_wins(replace(state, reveal=self._reveal(state, a, ranking, "defender")), bonus=False)

    def _defender_wins(self, state: State, bonus: bool) -> State:
        points = list(state.points)
        if bonus:
            points[state.defender] += rules().defence_bonus
        return self._end_attack(replace(state, points=tuple(points)))

    def _attacker_wins(self, state: State) -> State:
        """S5/S6: a territory changes hands; a standing Base loses a tower (and on the last
        one its holder is out); a demolished Base is worth 1000 either way."""
        r = rules()
        t, att, dfd = state.target, state.attacker, state.defender
        owner, value, points = list(state.owner), list(state.value), list(state.points)
        if self.is_standing_base(state, t):
            holder = state.base.index(t)
            towers = list(state.towers)
            towers[holder] -= 1
            st = replace(state, towers=tuple(towers))
            if towers[holder] > 0:
                # S6: the battle goes on for the towers still standing
                return self._ask(replace(st, fights=st.fights + 1), "battle", (att, dfd))
            # S6: the last tower: all the defender's points and territories, +1000, out
            points[att] += points[dfd] + r.elimination_bonus
            points[dfd] = 0
            owner = [att if o == dfd else o for o in owner]
            value[t] = r.demolished_value
            alive = tuple(False if s == dfd else v for s, v in enumerate(st.alive))
            return self._end_attack(
                replace(st, owner=tuple(owner), value=tuple(value), points=tuple(points), alive=alive)
            )
        if self.is_demolished_base(state, t):
            points[att] += r.demolished_value
            points[dfd] -= r.demolished_value
            value[t] = r.demolished_value
        else:
            points[att] += r.win
            points[dfd] -= value[t]
            value[t] = r.conquered_value
        owner[t] = att
        return self._end_attack(replace(state, owner=tuple(owner), value=tuple(value), points=tuple(points)))

    def _end_attack(self, state: State) -> State:
        st = replace(state, target=FREE, defender=FREE, fights=0, question="", asked=(), turn=state.turn + 1)
        return self._next_attack(st)

    # S7
    def _finish(self, state: State) -> State:
        best = max(state.points)
        tied = [s for s in range(SEATS) if state.points[s] == best]
        base = replace(state, order=(), target=FREE, defender=FREE, fights=0, question="", asked=())
        if len(tied) == 1:
            return replace(base, phase="over", winner=tied[0], purpose="")
        return self._ask(base, "final", tied)

    def _resolve_final(self, state: State, q: Question, a: Answers) -> State:
        """S7: closest, then fastest, among the tied players. Silent rulings: if nobody
        answers, or the best two are tied in distance and time, another question follows
        among those still level."""
        rows = self.guess_ranking(q, state.asked, a.parts)
        ranking = [s for _, _, s in rows]
        if rows and (len(rows) == 1 or rows[0][:2] != rows[1][:2]):
            reveal = self._reveal(state, a, ranking, "final")
            return replace(state, phase="over", winner=rows[0][2], reveal=reveal, question="", asked=(), purpose="")
        still = [s for d, ms, s in rows if (d, ms) == rows[0][:2]] if rows else list(state.asked)
        st = replace(state, reveal=self._reveal(state, a, ranking, "again"))
        return self._ask(st, "final", still)

    # -- text ---------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def _pname(self, state: State, seat: int) -> str:
        names = self.setup(state).names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def _tname(self, state: State, t: int) -> str:
        names = self.setup(state).board.names
        return names[t] if 0 <= t < len(names) else f"territory {t}"

    def describe_action(self, state: State, action: Action) -> str:
        """Plain words for the log, with what the step decided (never an unanswered answer)."""
        from conquest.games.campaign.view import describe_action

        return describe_action(self, state, action)

    # -- view -------------------------------------------------------------------------
    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """Everything the page shows. The same for every seat: the only secret is the open
        question's answer, which no view contains (answers in progress stay in the page)."""
        from conquest.games.campaign.view import build_view

        return build_view(self, state, player)

    def stats(self, state: State) -> dict[str, list[float]]:
        return {"Points": [float(p) for p in state.points], "Territories": [float(c) for c in state.counts()]}

    def rules_tables(self) -> dict[str, dict[str, Any]]:
        r = rules()
        return {
            "scoring": {
                "caption": "Points (S1, S3–S6)",
                "head": ["Event", "Points"],
                "rows": [
                    ["Your Base at the start (S1)", f"{r.base_value:,}"],
                    ["Each territory taken in the expansion (S3)", f"+{r.pick_value}"],
                    ["Winning a battle for a territory (S5)", f"+{r.win}; the defender loses its value"],
                    ["Defending at the first question (S5)", f"+{r.defence_bonus}"],
                    [
                        "Felling the last tower of a Base (S6)",
                        f"all the defender's points and territories, +{r.elimination_bonus:,}",
                    ],
                    ["Taking a demolished Base (S6)", f"+{r.demolished_value:,}; its holder loses {r.demolished_value:,}"],
                ],
            },
            "bots": {
                "caption": "Computer players (S2)",
                "head": ["Level", "Knows a multiple-choice answer", "Typical guess error", "Answers within"],
                "rows": [
                    [
                        name,
                        f"{round(100 * b['accuracy'])}%",
                        f"about {round(100 * b['spread'])}%",
                        f"{b['time_ms'][0] / 1000:g}–{b['time_ms'][1] / 1000:g} s",
                    ]
                    for name, b in r.bots.items()
                ],
            },
        }

    def bot_levels(self) -> dict[str, Callable[[Any], Any]]:
        from conquest.games.campaign.bots import bot_levels

        return bot_levels()

    # -- JSON -------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        rv = state.reveal
        return {
            "opts": state.opts,
            "phase": state.phase,
            "owner": list(state.owner),
            "value": list(state.value),
            "points": list(state.points),
            "base": list(state.base),
            "towers": list(state.towers),
            "alive": list(state.alive),
            "used": list(state.used),
            "purpose": state.purpose,
            "question": state.question,
            "asked": list(state.asked),
            "picks": list(state.picks),
            "expansion_round": state.expansion_round,
            "battle_round": state.battle_round,
            "order": list(state.order),
            "turn": state.turn,
            "target": state.target,
            "defender": state.defender,
            "fights": state.fights,
            "winner": state.winner,
            "reveal": None
            if rv is None
            else {
                "qid": rv.qid,
                "purpose": rv.purpose,
                "asked": list(rv.asked),
                "parts": [format_part(p) for p in rv.parts],
                "ranking": list(rv.ranking),
                "result": rv.result,
            },
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        from conquest.games.campaign.actions import parse_part

        try:
            rv = obj["reveal"]
            reveal = (
                None
                if rv is None
                else Reveal(
                    qid=rv["qid"],
                    purpose=rv["purpose"],
                    asked=tuple(rv["asked"]),
                    parts=tuple(parse_part(p) for p in rv["parts"]),
                    ranking=tuple(rv["ranking"]),
                    result=rv["result"],
                )
            )
            return State(
                opts=obj["opts"],
                phase=obj["phase"],
                owner=tuple(obj["owner"]),
                value=tuple(obj["value"]),
                points=tuple(obj["points"]),
                base=tuple(obj["base"]),
                towers=tuple(obj["towers"]),
                alive=tuple(bool(v) for v in obj["alive"]),
                used=Used(obj["used"]),
                purpose=obj["purpose"],
                question=obj["question"],
                asked=tuple(obj["asked"]),
                picks=tuple(obj["picks"]),
                expansion_round=obj["expansion_round"],
                battle_round=obj["battle_round"],
                order=tuple(obj["order"]),
                turn=obj["turn"],
                target=obj["target"],
                defender=obj["defender"],
                fights=obj["fights"],
                winner=obj["winner"],
                reveal=reveal,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidAction("state.json", f"not a Short Campaign state: {exc}") from None


_PHASE_TEXT = {
    "bases": "Base draw (S1)",
    "draw": "question draw (S8)",
    "answer": "answering (S8)",
    "pick": "expansion pick (S3)",
    "order": "attack-order draw (S4)",
    "attack": "attack choice (S4)",
    "over": "end (S7)",
}

_HANDLERS: dict[type, Any] = {
    Bases: CampaignGame._bases,
    Draw: CampaignGame._draw,
    Order: CampaignGame._order,
    Answers: CampaignGame._answers,
    Pick: CampaignGame._pick,
    Attack: CampaignGame._attack,
}
