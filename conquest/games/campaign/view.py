"""What the page shows of a Short Campaign state, and the log's plain words.

Why apart from the engine: these are for people (prompts, sentences, numbers spelled out);
the engine only decides. The one rule here: the open question's answer is never in a view
or a log line. It appears only in ``reveal``, once every asked seat has answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from conquest.core import GameError
from conquest.games.campaign.actions import Action, Answers, Attack, Bases, Draw, Order, Part, Pick
from conquest.games.campaign.questions import CHOICE, LETTERS, Question
from conquest.games.campaign.state import FREE, Reveal, State

if TYPE_CHECKING:
    from conquest.games.campaign.engine import CampaignGame

__all__ = ["build_view", "describe_action"]


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


def _purpose_words(game: CampaignGame, state: State, purpose: str) -> str:
    if purpose == "expand":
        return f"expansion round {state.expansion_round}"
    if purpose in ("battle", "tiebreak"):
        where = game._tname(state, state.target)
        if purpose == "tiebreak":
            return f"the guess question deciding the battle for {where}"
        if game.is_standing_base(state, state.target):
            holder = state.base.index(state.target)
            return f"the battle for {where} (tower {state.towers[holder]} of {game._pname(state, holder)}'s Base)"
        return f"the battle for {where}"
    if purpose == "final":
        return "the final tie-break"
    return purpose


def _answer_row(game: CampaignGame, state: State, q: Question, seat: int, part: Part) -> dict[str, Any]:
    row: dict[str, Any] = {"seat": seat, "name": game._pname(state, seat), "answered": part is not None}
    if part is None:
        row["text"] = f"{row['name']}: no answer"
        return row
    answer, ms = part
    row.update(answer=answer, ms=ms)
    if q.kind == CHOICE:
        right = answer == LETTERS[q.answer]
        row["correct"] = right
        row["text"] = f"{row['name']}: {answer} ({'right' if right else 'wrong'}, {_seconds(ms)})"
    else:
        dist = abs(int(answer) - q.answer)
        row["distance"] = dist
        row["text"] = f"{row['name']}: {int(answer):,} ({dist:,} off, {_seconds(ms)})"
    return row


def _reveal_view(game: CampaignGame, state: State, rv: Reveal) -> dict[str, Any]:
    q = game.question(state, rv.qid)
    assert q is not None
    pool = game.setup(state).pool
    public = q.public(pool.category_name(q))
    public["answer"] = q.answer_text()  # answered: now public
    return {
        "question": public,
        "purpose": rv.purpose,
        "answers": [_answer_row(game, state, q, s, p) for s, p in zip(rv.asked, rv.parts, strict=True)],
        "ranking": list(rv.ranking),
        "result": rv.result,
    }


def _prompt(game: CampaignGame, state: State) -> str:
    ph = state.phase
    name = game._pname
    if ph == "bases":
        return "The Bases are being drawn (S1)."
    if ph == "draw":
        return f"A question is being drawn for {_purpose_words(game, state, state.purpose)}."
    if ph == "answer":
        who = ", ".join(name(state, s) for s in state.asked)
        return f"{who}: answer {_purpose_words(game, state, state.purpose)} before the time runs out."
    if ph == "pick":
        seat = state.picks[0]
        left = sum(1 for s in state.picks if s == seat)
        return f"{name(state, seat)}: take a free territory ({left} pick{'s' if left != 1 else ''} left, S3)."
    if ph == "order":
        return f"The attack order of battle round {state.battle_round} is being drawn (S4)."
    if ph == "attack":
        return f"{name(state, state.attacker)}: choose a territory to attack (battle round {state.battle_round}, S4)."
    if ph == "over":
        return f"{name(state, state.winner)} wins with {state.points[state.winner]:,} points (S7)."
    return ""


def build_view(game: CampaignGame, state: State, player: int | None) -> dict[str, Any]:
    """JSON for the page; the same for every seat and for spectators."""
    setup = game.setup(state)
    b = setup.board
    pool = setup.pool
    counts = state.counts()
    base_of = {t: s for s, t in enumerate(state.base) if t != FREE}
    view: dict[str, Any] = {
        "game": game.id,
        "seat": player,
        "phase": state.phase,
        "prompt": _prompt(game, state),
        "map": setup.map_id,
        "to_move": game.to_move(state),
        "answering": list(game.simultaneous(state)),
        "time_limit_ms": setup.limit_ms,
        "expansion_round": state.expansion_round,
        "battle_round": state.battle_round,
        "battle_rounds": _rules().rounds,
        "players": [
            {
                "seat": s,
                "name": setup.names[s],
                "points": state.points[s],
                "territories": counts[s],
                "alive": state.alive[s],
                "base": state.base[s],
                "towers": state.towers[s],
            }
            for s in range(len(state.points))
        ],
        "territories": [
            {
                "index": t,
                "id": b.ids[t],
                "name": b.names[t],
                "neighbours": sorted(b.adj[t]),
                "owner": state.owner[t],
                "value": state.value[t],
                "base_of": base_of.get(t),
                "towers": state.towers[base_of[t]] if t in base_of else None,
                "demolished": t in base_of and state.towers[base_of[t]] == 0,
            }
            for t in range(len(b))
        ],
        "questions": {
            "multiple_choice": len(pool.eligible[CHOICE]),
            "guess": len(pool.eligible["guess"]),
            "asked": len(state.used),
            # asked from an earlier edition of the bank (a game saved before it was rebuilt)
            "earlier_edition": game.earlier_edition_questions(state),
        },
        "order": list(state.order),
        "turn": state.turn if state.order else None,
        "picks": list(state.picks),
        "pickable": game.pickable(state, state.picks[0]) if state.phase == "pick" else [],
        "targets": game.targets(state, state.attacker) if state.phase == "attack" else [],
        "attack": None,
        "question": None,
        "reveal": None if state.reveal is None else _reveal_view(game, state, state.reveal),
        "winner": state.winner if state.phase == "over" else None,
    }
    if state.target != FREE:
        view["attack"] = {
            "attacker": state.attacker,
            "defender": state.defender,
            "target": state.target,
            "battle": state.fights,
            "standing_base": game.is_standing_base(state, state.target),
        }
    if state.phase == "answer":
        q = game.question(state)
        assert q is not None
        public = q.public(pool.category_name(q))  # never the answer
        public.update(purpose=state.purpose, purpose_text=_purpose_words(game, state, state.purpose))
        public["asked"] = list(state.asked)
        view["question"] = public
    out = game.outcome(state)
    view["outcome"] = None if out is None else out.to_json()
    return view


def _rules() -> Any:
    from conquest.games.campaign.engine import rules

    return rules()


# ------------------------------------------------------------------------------------------
# The log's plain words
# ------------------------------------------------------------------------------------------
def describe_action(game: CampaignGame, state: State, action: Action) -> str:
    name, tname = game._pname, game._tname
    if isinstance(action, Bases):
        where = ", ".join(f"{name(state, s)} at {tname(state, t)}" for s, t in enumerate(action.ts))
        return f"Bases drawn at random (S1): {where}."
    if isinstance(action, Draw):
        q = game.question(state, action.qid)
        if q is None:
            return f"Question {action.qid} drawn."
        cat = game.setup(state).pool.category_name(q)
        old = f", from the {q.edition} edition of the question bank" if q.edition else ""
        return f"Question for {_purpose_words(game, state, state.purpose)} ({cat}{old}): {q.text}"
    if isinstance(action, Order):
        who = ", ".join(name(state, s) for s in action.seats)
        how = "by points, most first" if state.battle_round >= _rules().rounds else "drawn at random"
        return f"Battle round {state.battle_round}: {who} attack in this order ({how}, S4)."
    if isinstance(action, Pick):
        seat = state.picks[0] if state.picks else FREE
        return f"{name(state, seat)} takes {tname(state, action.t)} (+{_rules().pick_value}, S3)."
    if isinstance(action, Attack):
        t = action.t
        owner = state.owner[t] if 0 <= t < len(state.owner) else FREE
        if game.is_standing_base(state, t):
            what = f"{name(state, owner)}'s Base, {state.towers[state.base.index(t)]} towers standing (S6)"
        elif game.is_demolished_base(state, t):
            what = f"a demolished Base held by {name(state, owner)}, worth {_rules().demolished_value:,} (S6)"
        else:
            what = f"held by {name(state, owner)}, worth {state.value[t] if 0 <= t < len(state.value) else 0}"
        return f"{name(state, state.attacker)} attacks {tname(state, t)}, {what}."
    if isinstance(action, Answers):
        return _describe_answers(game, state, action)
    return str(action)


def _describe_answers(game: CampaignGame, state: State, action: Answers) -> str:
    q = game.question(state)
    try:
        after = game.apply(state, action)
    except GameError:
        return str(action)
    assert q is not None
    name = game._pname
    rows = [_answer_row(game, state, q, s, p)["text"] for s, p in zip(state.asked, action.parts, strict=True)]
    head = f"The answer was {q.answer_text()}. " + "; ".join(rows) + "."
    rv = after.reveal
    assert rv is not None
    gained = [after.points[s] - state.points[s] for s in range(len(state.points))]
    if rv.result == "expand":
        firsts = [s for i, s in enumerate(after.picks) if s not in after.picks[:i]]
        shares = ", ".join(f"{name(state, s)} picks {after.picks.count(s)}" for s in firsts)
        return f"{head} {shares} (closest, then fastest, S3)."
    if rv.result == "none":
        return f"{head} Nobody answered: another question (S3)."
    if rv.result == "both-right":
        return f"{head} Both right: a guess question decides (S5)."
    if rv.result == "again":
        return f"{head} Still level: another question decides (S7)."
    if rv.result == "final":
        return f"{head} {name(state, after.winner)} wins the tie-break and the game (S7)."
    att, dfd, t = state.attacker, state.defender, state.target
    where = game._tname(state, t)
    if rv.result == "attacker":
        if not after.alive[dfd] and state.alive[dfd]:
            return (
                f"{head} {name(state, att)} fells the last tower of {where}: {name(state, dfd)} is out, and "
                f"{name(state, att)} takes all their territories and points, +{_rules().elimination_bonus:,} (S6)."
            )
        if after.owner[t] == att:
            return (
                f"{head} {name(state, att)} takes {where}, {gained[att]:+,}; "
                f"{name(state, dfd)} {gained[dfd]:+,} (S5{', S6' if game.is_demolished_base(state, t) else ''})."
            )
        standing = after.towers[state.base.index(t)]
        return (
            f"{head} {name(state, att)} fells a tower of {where}; {standing} still standing, "
            f"the battle goes on (S6)."
        )
    bonus = f" and scores the defence bonus, +{_rules().defence_bonus}" if rv.result == "defender-bonus" else ""
    return f"{head} {name(state, dfd)} holds {where}{bonus} (S5)."
