"""Computer players for The Game of Conquests: random, easy, medium, hard.

Why this shape:

- **Negamax alpha-beta with iterative deepening** (principal-variation null windows, late
  quiet moves searched one ply shallower first), a **transposition table** keyed by
  incrementally updated Zobrist keys (the same keys the engine uses for repetition), and
  move ordering (table move, captures by most valuable victim / least valuable attacker,
  two killer moves per ply, a history table). A capture-only quiescence search stops the
  horizon from hiding a recapture.
- **Slices for the browser**: the search is a generator that pauses every so many nodes,
  so :class:`Search` ``.step(max_nodes)`` runs one chunk and returns ``None`` until the
  move is chosen; the page calls it from a timer and stays responsive. :func:`choose_action`
  simply steps to the end.
- **Randomness only from** :class:`conquest.rng.Rng`: noise for the easy and medium
  levels, the shuffled root order (variety between equal moves) and the random player.
- The evaluation is hand-tuned (White's view, kept incrementally): material by kind and
  level, reserve fighters at most of their value (they come back, C3/C4), potential
  mobility from the move tables, Soldier advance, and General safety (friendly fighters
  around it, a General kept home early). Numbers are in centi-soldiers.

Levels: ``random``; ``easy`` (1 ply, short quiescence, much noise: a beginner can win);
``medium`` (2 plies, full quiescence, a little noise); ``hard`` (iterative deepening to a
node budget, default 60,000, or a deadline on ``time.monotonic()``).

:class:`SearchBot` is the :class:`conquest.bots.Bot` of each level (``GAME.bot_levels()``):
its ``think`` generator runs the :class:`Search` a few milliseconds at a time and yields
in between, so the page shell's bot runner plays it in slices; a page may give it a time
per move (``seconds``) and listen to its progress.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from conquest.bots import Bot
from conquest.core import Game
from conquest.rng import Rng

from . import rules as R
from .game import GAME, Action, State

__all__ = ["LEVELS", "Search", "SearchBot", "choose_action", "random_action", "evaluate"]

LEVELS = ("random", "easy", "medium", "hard")

INF = 1_000_000
MATE = 100_000
MATE_BOUND = MATE - 1000
EXACT, LOWER, UPPER = 0, 1, 2
TT_MAX = 400_000
HARD_BUDGET = 60_000
MAX_PLY = 64

# -- evaluation tables ---------------------------------------------------------------------

#: material by kind (S, A, L, C, G) and level 1..3; the Champion weakens as it rises (C2)
MATERIAL = (
    (0, 100, 190, 0),
    (0, 120, 260, 330),
    (0, 130, 240, 440),
    (0, 760, 470, 300),
    (0, 0, 0, 0),
)
#: a reserve fighter is worth this share of the same fighter on the board (it needs a
#: General move to come back, and only next to the General: C4)
RESERVE_SHARE = 0.45
MOBILITY_WEIGHT = 3
SOLDIER_ADVANCE = 10
GENERAL_HOME = 12
SHIELD = 9
TEMPO = 8


def _build_eval() -> tuple[list[list[int]], list[int], list[int], list[tuple[int, ...]]]:
    """VAL[code][sq] (White-positive), RESERVE_VAL[code], PROMOTED[code], NEIGHBOURS[sq]."""
    val = [[0] * R.NSQ for _ in range(64)]
    reserve_val = [0] * 64
    promoted = [0] * 64
    for owner in (0, 1):
        sign = 1 if owner == 0 else -1
        for kind in range(5):
            for level in range(1, R.MAX_LEVEL[kind] + 1):
                c = R.code(owner, kind, level)
                mat = MATERIAL[kind][level]
                reserve_val[c] = sign * int(mat * RESERVE_SHARE)
                promoted[c] = R.code(owner, kind, level + 1) if level < R.MAX_LEVEL[kind] else 0
                for sq in range(R.NSQ):
                    rank = sq // R.SIZE
                    advance = rank if owner == 0 else R.SIZE - 1 - rank
                    reach = sum(len(ray) for ray in R.RAYS[c][sq])
                    v = mat + MOBILITY_WEIGHT * reach
                    if kind == R.SOLDIER:
                        v += SOLDIER_ADVANCE * advance
                    if kind == R.GENERAL:
                        v = -GENERAL_HOME * advance - MOBILITY_WEIGHT * reach
                    val[c][sq] = sign * v
    neighbours = []
    for sq in range(R.NSQ):
        x, y = sq % R.SIZE, sq // R.SIZE
        neighbours.append(
            tuple(
                (y + dy) * R.SIZE + x + dx
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                if (dx or dy) and 0 <= x + dx < R.SIZE and 0 <= y + dy < R.SIZE
            )
        )
    return val, reserve_val, promoted, neighbours


VAL, RESERVE_VAL, PROMOTED, NEIGHBOURS = _build_eval()
#: for ordering captures: how much a fighter is worth, whoever owns it
ORDER_VAL = [MATERIAL[(c >> 2) & 7][c & 3] if c & 3 and (c >> 2) & 7 < 5 else 0 for c in range(64)]
#: the non-General fighter codes of each side, in a fixed order (reserve iteration)
RESERVE_CODES = tuple(
    tuple(R.code(owner, k, lvl) for k in range(4) for lvl in range(1, R.MAX_LEVEL[k] + 1)) for owner in (0, 1)
)


def evaluate(state: State) -> int:
    """The static evaluation of a state from the side to move's view (for tests and tools)."""
    return Search(state, "hard", rng=Rng(0))._evaluate()


class _Abort(Exception):
    """The node budget or the deadline ran out in the middle of an iteration."""


# -- the search ------------------------------------------------------------------------------


class Search:
    """One move choice, run in slices: ``while (a := s.step(2000)) is None: ...``.

    ``node_budget`` bounds the whole search (hard level; default 60,000), ``deadline`` is a
    ``time.monotonic()`` value after which the best move found so far is played.
    Attributes for a progress display: ``nodes``, ``depth`` (last finished iteration),
    ``score`` (centi-soldiers for the side to move), ``done``, ``best``.
    """

    def __init__(
        self,
        state: State,
        level: str = "hard",
        *,
        rng: Rng,
        node_budget: int | None = None,
        deadline: float | None = None,
        max_depth: int | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        self.state = state
        self.level = level
        self.rng = rng
        self.deadline = deadline
        self.root_moves: list[Action] = GAME.legal_actions(state)
        if not self.root_moves:
            raise ValueError("the game is over: there is no move to choose")
        if level == "hard":
            self.node_budget = node_budget if node_budget is not None else HARD_BUDGET
            self.max_depth = max_depth or MAX_PLY - 8
            self.noise = 0
            self.q_limit = 8
        else:
            self.node_budget = node_budget if node_budget is not None else 10**9
            self.max_depth = max_depth or {"random": 0, "easy": 1, "medium": 2}[level]
            self.noise = {"random": 0, "easy": 140, "medium": 25}[level]
            self.q_limit = {"random": 0, "easy": 1, "medium": 8}[level]
        # mutable position
        self.board = list(state.board)
        self.side = state.to_move
        self.rcount = [0] * 64
        for owner in (0, 1):
            for rc in state.reserves[owner]:
                self.rcount[owner << 5 | rc] += 1
        self.gsq = [self.board.index(R.GENERAL_CODE[0]), self.board.index(R.GENERAL_CODE[1])]
        self.key = state.key
        self.quiet = state.quiet
        self.score = sum(VAL[p][s] for s, p in enumerate(self.board) if p) + sum(
            RESERVE_VAL[c] * n for c, n in enumerate(self.rcount) if n
        )
        self.reps: dict[int, int] = {}
        for k in state.history:
            self.reps[k] = self.reps.get(k, 0) + 1
        self.undo: list[tuple[Any, ...]] = []
        # search memory
        self.tt: dict[int, tuple[int, int, int, R.Move | None]] = {}
        self.killers: list[list[R.Move | None]] = [[None, None] for _ in range(MAX_PLY + 16)]
        self.history = [0] * (R.NSQ * R.NSQ)
        self.nodes = 0
        self.depth = 0
        self.score_root = 0
        self.best: Action | None = None
        self.done = False
        self._slice_end = 0
        self._gen = self._run()

    # -- public ---------------------------------------------------------------------------------
    @property
    def score_cp(self) -> int:
        return self.score_root

    def step(self, max_nodes: int = 2000) -> Action | None:
        """Search about ``max_nodes`` more nodes; the chosen action once done, else None."""
        if self.done:
            return self.best
        self._slice_end = self.nodes + max(1, max_nodes)
        try:
            next(self._gen)
        except StopIteration:
            self.done = True
        return self.best if self.done else None

    def progress(self) -> float:
        """0..1, for a progress bar (budget share, or depth share for fixed-depth levels)."""
        if self.done:
            return 1.0
        if self.level == "hard":
            return min(1.0, self.nodes / max(1, self.node_budget))
        return min(1.0, self.depth / max(1, self.max_depth))

    # -- make / unmake --------------------------------------------------------------------------
    def _make(self, m: R.Move) -> bool:
        """Play a pseudo-legal move; False (and nothing changed) if it leaves the mover in Danger."""
        frm, to, pc, ps = m
        b = self.board
        p = b[frm]
        q = b[to]
        side = self.side
        b[to] = p
        b[frm] = 0
        if pc:
            b[ps] = pc
        gsq = self.gsq[side]
        if p == R.GENERAL_CODE[side]:
            gsq = to
        if R.attacked(b, gsq, side ^ 1):
            if pc:
                b[ps] = 0
            b[frm] = p
            b[to] = q
            return False
        self.gsq[side] = gsq
        zp = R.ZOBRIST_PIECE
        key = self.key ^ zp[p][frm] ^ zp[p][to] ^ R.ZOBRIST_SIDE
        score = self.score - VAL[p][frm] + VAL[p][to]
        promo = 0
        if q:
            key ^= zp[q][to]
            score -= VAL[q][to]
            promo = PROMOTED[q]
            if promo:
                n = self.rcount[promo]
                key ^= R.ZOBRIST_RESERVE[promo][n]
                self.rcount[promo] = n + 1
                score += RESERVE_VAL[promo]
        if pc:
            n = self.rcount[pc] - 1
            self.rcount[pc] = n
            key ^= R.ZOBRIST_RESERVE[pc][n] ^ zp[pc][ps]
            score += VAL[pc][ps] - RESERVE_VAL[pc]
        moved_general = gsq if p == R.GENERAL_CODE[side] else -1
        self.undo.append((m, p, q, promo, self.key, self.score, self.quiet, moved_general))
        self.key = key
        self.score = score
        self.quiet = 0 if q else self.quiet + 1
        self.side = side ^ 1
        self.reps[key] = self.reps.get(key, 0) + 1
        self.nodes += 1
        return True

    def _unmake(self) -> None:
        (frm, to, pc, ps), p, q, promo, key, score, quiet, moved_general = self.undo.pop()
        self.reps[self.key] -= 1
        side = self.side ^ 1
        b = self.board
        if pc:  # first: the placement square may be the one the General left
            b[ps] = 0
            self.rcount[pc] += 1
        b[frm] = p
        b[to] = q
        if promo:
            self.rcount[promo] -= 1
        if moved_general >= 0:
            self.gsq[side] = frm
        self.side = side
        self.key = key
        self.score = score
        self.quiet = quiet

    # -- move generation ------------------------------------------------------------------------
    def _moves(self, captures_only: bool = False) -> list[R.Move]:
        """Pseudo-legal moves (Danger is tested in ``_make``), placements included (C4)."""
        b = self.board
        side = self.side
        rays = R.RAYS
        out: list[R.Move] = []
        for s in range(R.NSQ):
            p = b[s]
            if p and p >> 5 == side:
                for ray in rays[p][s]:
                    for t in ray:
                        q = b[t]
                        if q:
                            if q >> 5 != side:
                                out.append((s, t, 0, -1))
                            break
                        if not captures_only:
                            out.append((s, t, 0, -1))
        if captures_only:
            return out
        rcount = self.rcount
        codes = [c for c in RESERVE_CODES[side] if rcount[c]]
        if codes:
            gs = self.gsq[side]
            place = R.PLACE[side]
            extra = []
            for s, t, _, _ in out:
                if s != gs:
                    continue
                for pc in codes:
                    for ps in place[(pc >> 2) & 7][t]:
                        if ps == gs or not b[ps]:
                            extra.append((s, t, pc, ps))
            out.extend(extra)
        return out

    def _in_danger(self) -> bool:
        return R.attacked(self.board, self.gsq[self.side], self.side ^ 1)

    # -- evaluation -------------------------------------------------------------------------------
    def _evaluate(self) -> int:
        b = self.board
        s = self.score
        for owner, sign in ((0, SHIELD), (1, -SHIELD)):
            n = 0
            for t in NEIGHBOURS[self.gsq[owner]]:
                p = b[t]
                if p and p >> 5 == owner:
                    n += 1
            s += sign * min(n, 3)
        s = s if self.side == 0 else -s
        return s + TEMPO

    # -- searching ----------------------------------------------------------------------------------
    def _check_limits(self) -> None:
        if self.nodes >= self.node_budget:
            raise _Abort
        if self.deadline is not None and (self.nodes & 255) == 0 and time.monotonic() >= self.deadline:
            raise _Abort

    def _order(self, moves: list[R.Move], tt_move: R.Move | None, ply: int) -> list[R.Move]:
        b = self.board
        k1, k2 = self.killers[ply]
        hist = self.history
        scored = []
        for m in moves:
            if m == tt_move:
                key = 10_000_000
            else:
                q = b[m[1]]
                if q:
                    key = 1_000_000 + 10 * ORDER_VAL[q] - ORDER_VAL[b[m[0]]] // 10
                elif m == k1:
                    key = 900_000
                elif m == k2:
                    key = 800_000
                else:
                    key = hist[m[0] * R.NSQ + m[1]] + (ORDER_VAL[m[2]] // 4 if m[2] else 0)
            scored.append((key, m))
        scored.sort(key=lambda e: e[0], reverse=True)
        return [m for _, m in scored]

    def _quiesce(self, alpha: int, beta: int, qdepth: int) -> int:
        self._check_limits()
        stand = self._evaluate()
        if stand >= beta or qdepth <= 0:
            return stand
        if stand > alpha:
            alpha = stand
        b = self.board
        caps = self._moves(captures_only=True)
        caps.sort(key=lambda m: 10 * ORDER_VAL[b[m[1]]] - ORDER_VAL[b[m[0]]] // 10, reverse=True)
        for m in caps:
            if not self._make(m):
                continue
            score = -self._quiesce(-beta, -alpha, qdepth - 1)
            self._unmake()
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        return alpha

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> Generator[None, None, int]:
        """Fail-soft alpha-beta; a generator so that the search can pause between slices."""
        if self.nodes >= self._slice_end:
            yield
        self._check_limits()
        if self.reps.get(self.key, 0) >= 2 or self.quiet >= R.QUIET_PLIES:
            return 0  # a repetition is scored as a draw at once; C5's 200 quiet plies too
        danger = self._in_danger()
        if danger and ply < MAX_PLY:
            depth += 1  # look one ply further when the General is in Danger
        if depth <= 0:
            return self._quiesce(alpha, beta, self.q_limit)
        alpha0 = alpha
        entry = self.tt.get(self.key)
        tt_move = None
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            if e_depth >= depth and ply > 0:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if flag == EXACT:
                    return e_score
                if flag == LOWER and e_score >= beta:
                    return e_score
                if flag == UPPER and e_score <= alpha:
                    return e_score
        best = -INF
        best_move = None
        legal = 0
        killers = self.killers[ply]
        for m in self._order(self._moves(), tt_move, ply):
            quiet_move = not self.board[m[1]] and not m[2]
            if not self._make(m):
                continue
            legal += 1
            if ply + 1 >= MAX_PLY:
                score = -self._evaluate()
            elif legal == 1:
                score = -(yield from self._negamax(depth - 1, -beta, -alpha, ply + 1))
            else:
                # principal variation search: prove the later moves worse with a null window,
                # and look one ply less at late quiet moves (late move reduction)
                r = 1 if depth >= 3 and legal > 3 and quiet_move and not danger and m not in killers else 0
                score = -(yield from self._negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1))
                if score > alpha and (r or score < beta):
                    score = -(yield from self._negamax(depth - 1, -beta, -alpha, ply + 1))
            self._unmake()
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet_move:
                            if killers[0] != m:
                                killers[1] = killers[0]
                                killers[0] = m
                            self.history[m[0] * R.NSQ + m[1]] += depth * depth
                        break
        if legal == 0:
            return -(MATE - ply)  # C5: no legal move loses, in Danger or not
        flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
        stored = best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND else best
        if len(self.tt) >= TT_MAX:
            self.tt.clear()
        self.tt[self.key] = (depth, flag, stored, best_move)
        return best

    def _root(
        self, depth: int, order: list[R.Move], exact: bool
    ) -> Generator[None, None, list[tuple[int, R.Move]]]:
        """Search every root move; ``exact`` gives each its own full window (for the noise)."""
        results: list[tuple[int, R.Move]] = []
        self._results = results  # what an abort leaves: the moves searched so far
        alpha = -INF
        for m in order:
            if not self._make(m):  # cannot happen: root moves come from the engine
                continue
            window_alpha = -INF if exact else alpha
            score = -(yield from self._negamax(depth - 1, -INF, -window_alpha, 1))
            self._unmake()
            results.append((score, m))
            if score > alpha:
                alpha = score
                if not exact:
                    self._partial = (score, m)
        return results

    def _run(self) -> Generator[None, None, None]:
        moves = [a.move for a in self.root_moves]
        # owner bits on the placed fighter, as the search's move tuples carry them
        moves = [(s, t, (self.side << 5 | pc) if pc else 0, ps) for s, t, pc, ps in moves]
        to_action = {m: a for m, a in zip(moves, self.root_moves, strict=True)}
        if self.level == "random" or len(moves) == 1:
            self.best = self.root_moves[self.rng.below(len(self.root_moves))]
            return
        shuffled = list(moves)
        for i in range(len(shuffled) - 1, 0, -1):
            j = self.rng.below(i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        order = self._order(shuffled, None, 0)
        if self.level in ("easy", "medium"):
            try:
                results = yield from self._root(self.max_depth, order, exact=True)
                self.depth = self.max_depth
            except _Abort:  # a node budget or deadline: choose among the moves searched
                while self.undo:
                    self._unmake()
                results = self._results or [(0, order[0])]
            noise = self.noise
            noisy = [
                (score + self.rng.below(2 * noise + 1) - noise, i, m) for i, (score, m) in enumerate(results)
            ]
            noisy.sort(key=lambda e: (-e[0], e[1]))
            self.score_root = noisy[0][0]
            self.best = to_action[noisy[0][2]]
            return
        best_move = order[0]
        for depth in range(1, self.max_depth + 1):
            self._partial: tuple[int, R.Move] | None = None
            try:
                results = yield from self._root(depth, order, exact=False)
            except _Abort:
                while self.undo:
                    self._unmake()
                if self._partial is not None:
                    self.score_root, best_move = self._partial
                break
            # best first, then the rest in the order of their (bounded) scores
            results.sort(key=lambda e: e[0], reverse=True)
            order = [m for _, m in results]
            best_move = order[0]
            self.score_root = results[0][0]
            self.depth = depth
            if abs(self.score_root) > MATE_BOUND:
                break  # a forced win or loss is found: deeper search changes nothing
        self.best = to_action[best_move]


def choose_action(
    state: State,
    level: str,
    *,
    rng: Rng,
    node_budget: int | None = None,
    deadline: float | None = None,
) -> Action:
    """The computer's action for the side to move (runs the whole :class:`Search`)."""
    search = Search(state, level, rng=rng, node_budget=node_budget, deadline=deadline)
    while (action := search.step(1 << 30)) is None:
        pass
    return action


def random_action(state: State, rng: Rng) -> Action:
    """The random player: a uniformly drawn legal action."""
    actions = GAME.legal_actions(state)
    if not actions:
        raise ValueError("the game is over: there is no move to choose")
    return actions[rng.below(len(actions))]


class SearchBot(Bot):
    """A computer player of one level for the page shell: the :class:`Search` in small steps.

    Why a generator over ``Search.step``: the shell's runner advances ``think`` for about
    30 ms per slice and then lets the page answer clicks, so each step here searches only
    about ``STEP_MS`` (the node count adapts to the machine's speed) and yields.

    ``seconds`` is the time per move (the page's setting): ``hard`` then deepens until that
    time is up (no node budget of its own), the other levels stop there at the latest. It
    is measured from the first step, so a pause before the bot starts does not count.
    ``on_progress(bot)`` is called between steps, ``on_done(bot)`` once with the figures
    (``search.nodes``, ``search.depth``, ``busy`` seconds inside the steps).
    """

    #: milliseconds of search per step (several steps fit in one of the runner's slices)
    STEP_MS = 4.0

    def __init__(
        self,
        level: str,
        rng: Rng | None = None,
        *,
        seconds: float | None = None,
        node_budget: int | None = None,
        on_progress: Callable[[SearchBot], None] | None = None,
        on_done: Callable[[SearchBot], None] | None = None,
    ) -> None:
        super().__init__(rng)
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        self.level = level
        self.seconds = seconds
        self.node_budget = node_budget
        self.on_progress = on_progress
        self.on_done = on_done
        self.step_nodes = 300
        self.search: Search | None = None
        self.busy = 0.0
        self.started = 0.0

    def think(self, game: Game[Any, Any], state: State) -> Generator[None, None, Action]:
        self.started = time.monotonic()
        deadline = self.started + self.seconds if self.seconds else None
        budget = self.node_budget
        if budget is None and deadline is not None and self.level == "hard":
            budget = 10**9  # the time per move decides, not the default node budget
        search = Search(state, self.level, rng=self.rng, node_budget=budget, deadline=deadline)
        self.search = search
        self.busy = 0.0
        while True:
            t0 = time.perf_counter()
            action = search.step(self.step_nodes)
            took = time.perf_counter() - t0
            self.busy += took
            if action is not None:
                break
            if took > 0.0005:  # aim each step at STEP_MS on this machine
                want = self.step_nodes * self.STEP_MS / (1000.0 * took)
                self.step_nodes = int(max(50, min(20_000, want)))
            if self.on_progress is not None:
                self.on_progress(self)
            yield
        if self.on_done is not None:
            self.on_done(self)
        return action

    def progress(self) -> float:
        """0..1 for a progress bar: the share of the time per move for a timed hard search,
        else the search's own measure."""
        if self.search is None:
            return 0.0
        if self.level == "hard" and self.seconds and not self.search.done:
            return min(1.0, (time.monotonic() - self.started) / self.seconds)
        return self.search.progress()
