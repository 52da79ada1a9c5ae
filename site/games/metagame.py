"""The Conquest Metagame host console: its map, invasion panel, wheel and host tools.

Why this is all that is here: the shell (``shell.py``) gives every game page its set-up
seats, links, saves, log, undo, "viewing step N", chart and audience tab; every rule,
number and eligibility comes from :mod:`conquest.games.metagame` (``GAME.view``,
``slice_report``). This page draws that view (the map is in the HTML from the build; here it
is only recoloured through :meth:`MetagamePage.paint`) and turns picks, clicks and typed
text into the engine's action values.

Spins are drawn by the match driver from the host's sealed chain and a contribution
(:mod:`conquest.draws`, issue 26): the page's own randomness, or a word a named player says
aloud that the host types ("Spin with a word said aloud"); the seal is shown before the word
is asked, the word beside the result. The wheel's animation then turns to the drawn slice,
it never decides it. All names from links, files or storage
reach the page as text (``ui`` trees are text-only).
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

from duel_desk import DuelDesk, wire_duel_desk
from shell import GamePage, Seat, Shell, plural
from ui import Node, h, svg

from conquest.core import ConquestError, GameError
from conquest.draws import describe_contribution, describe_said
from conquest.games.metagame import GAME, canonical_allocs, slice_report
from conquest.games.metagame.actions import (
    Agree,
    Block,
    Claim,
    Duel,
    Gift,
    Invade,
    Pass,
    PickCapital,
    Respin,
    Sacrifice,
    SetCapital,
    SetOwner,
    SetTokens,
    Slices,
    Spin,
)
from conquest.maps import load_map
from conquest.rng import Rng
from conquest.seats import WHEEL_COLOURS
from conquest.session import Match

PRESETS_KEY = "conquest:metagame:presets"
#: the slice assignment or sacrifice being edited, so a reload or a closed tab resumes it
DRAFT_KEY = "conquest:metagame:draft"
MAX_PRESETS = 50
#: wheel colours by game (Okabe-Ito first, then Tableau); the list beside the wheel names them
REASONS = {
    "last": "one player is left",
    "majority": "a player holds more than 75% of the map",
    "agreement": "the host recorded a mutual agreement",
}
CHOOSE_VERB = {
    "capital": "capital",
    "capital_override": "capital (override)",
    "sacrifice": "select / unselect",
    "block": "select / unselect",
    "respin": "spend and re-spin",
    "gift": "give",
}
#: the wheel's animation: 3.2 s, or 0.4 s with reduced motion (the CSS has the same numbers)
SPIN_MS, SPIN_MS_REDUCED = 3200, 400


def parse_presets(raw: str | None) -> list[dict[str, Any]]:
    """Saved game lists from storage; anything malformed is skipped, never trusted."""
    if not raw:
        return []
    try:
        obj = json.loads(raw)
    except ValueError:
        return []
    items = obj.get("presets") if isinstance(obj, dict) else obj
    out: list[dict[str, Any]] = []
    if not isinstance(items, list):
        return out
    for item in items[:MAX_PRESETS]:
        if not isinstance(item, dict):
            continue
        name, games = item.get("name"), item.get("games")
        if not isinstance(name, str) or not name.strip() or not isinstance(games, list):
            continue
        clean = [" ".join(g.split())[:60] for g in games if isinstance(g, str) and g.strip()][:40]
        if clean:
            out.append({"name": " ".join(name.split())[:40], "games": clean})
    return out


def parse_draft(raw: str | None, slot: str | None, steps: int, games: int, size: int) -> tuple[dict[int, int], set[int]]:
    """The draft saved for this slot at this very step; anything else is ignored."""
    draft: dict[int, int] = {}
    picked: set[int] = set()
    try:
        obj = json.loads(raw) if raw else None
    except ValueError:
        return draft, picked
    if not isinstance(obj, dict) or obj.get("slot") != slot or obj.get("n") != steps:
        return draft, picked
    d, p = obj.get("draft"), obj.get("picked")
    if isinstance(d, dict):
        for g, n in d.items():
            if isinstance(g, str) and g.isdigit() and int(g) < games and isinstance(n, int) and 0 < n < 1000:
                draft[int(g)] = n
    if isinstance(p, list):
        picked.update(t for t in p if isinstance(t, int) and not isinstance(t, bool) and 0 <= t < size)
    return draft, picked


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every element under it."""
    yield node
    for c in node.children:
        if not isinstance(c, str):
            yield from walk(c)


def unmark(node: Node) -> Node:
    """``node`` with no ``data-now`` mark in it: the page marks one result (issue 41)."""
    for n in walk(node):
        n.attrs.pop("data-now", None)
    return node


def slice_path(a0: float, a1: float) -> str:
    r = 92.0
    if a1 - a0 >= 359.99:
        return "M100,8 A92,92 0 1 1 99.99,8 Z"
    p0 = (100 + r * math.sin(math.radians(a0)), 100 - r * math.cos(math.radians(a0)))
    p1 = (100 + r * math.sin(math.radians(a1)), 100 - r * math.cos(math.radians(a1)))
    large = 1 if a1 - a0 > 180 else 0
    return f"M100,100 L{p0[0]:.2f},{p0[1]:.2f} A{r},{r} 0 {large} 1 {p1[0]:.2f},{p1[1]:.2f} Z"


def star_points(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{cx + rad * math.cos(a):.1f},{cy + rad * math.sin(a):.1f}")
    return " ".join(pts)


def duel_games() -> dict[str, str]:
    """The built-in two-player games (id -> title): every playable game for two seats."""
    from conquest.core import games

    return {gid: g.title for gid, g in games().items() if gid != GAME.id and g.min_players <= 2 <= g.max_players}


def label_lines(title: str, width: int = 11) -> list[str]:
    """A wheel label in at most two lines of about ``width`` characters, split between words
    (issue 21, item 8: "To Reign Supreme" was cut to "To Reign Supre"); a word too long for
    a line is kept whole, and only a third line's words are dropped, with an ellipsis."""
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], lines[1] + "…"]
    return lines or [""]


def upright(angle: float, turn: float) -> float:
    """A wheel label's rotation so that it reads upright where the wheel comes to rest
    (``turn`` degrees): flipped by half a turn when it would stand on its head."""
    net = (angle + turn) % 360
    return angle + 180 if 90 < net < 270 else angle


def wheel_colour(g: int) -> str:
    return WHEEL_COLOURS[g % len(WHEEL_COLOURS)]


class MetagamePage(GamePage):
    """The console's own state (one object) and renderers."""

    game_id = "metagame"
    needs_all_games = True  # the wheel lists every built-in game
    focus_home = "mg-side-inner"  # the controls, after a step (issue 21, item 2)
    chart_x_label = "turns played"

    #: the wheel turns on every player's device too (issue 39: each watches their own wheel)
    turns_on_devices = True

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        #: a spending step's question asked on the page (a device shows no dialog):
        #: (the step it was asked at, the question, the action)
        self.asking: tuple[int, str, Any] | None = None
        #: the host's page: its live table's devices' pages (``remote.Devices``) or None (set
        #: in main), drawn again when what they show of this page changes
        self.device_pages: Any = None
        self.links_told: Any = None
        self.draft: dict[int, int] = {}  # the slice assignment being edited
        self.picked: set[int] = set()  # territories picked for a sacrifice or block
        self.wheel_turn = 0.0  # degrees the wheel has turned (animations continue from there)
        self.last_spin_shown = -1  # log index of the last spin result whose animation was shown
        self.reveal_at = 0.0  # clock time when the spinning wheel stops and the result shows
        self.reduced_motion = False
        self.presets_raw: str | None = None
        self.labels: dict[int, tuple[float, float]] = {}
        self.speed: str = ""
        self.speed_result: str | None = None
        self.perf: dict[str, float] = {}
        #: a duel in one of the site's own games: set up, watched, its result taken (issue 14)
        self.duel_desk = DuelDesk(self)
        #: opens a live table of the campaign to watch only (issue 22), set by the page
        #: (``live_browser``); None in CPython, where there is no network
        self.live_audience: Any = None
        #: set by the person's own step here (click, key, pick): after the next render the
        #: keyboard focus goes to the control the new step needs (never after typed text)
        self.want_focus: str | None = None
        self.want_reveal: str | None = None

    # -- set-up ---------------------------------------------------------------------------
    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        # no set-up randomness in the metagame (M2: the host orders the players): a fixed seed
        # keeps ~25 random digits out of every link
        options: dict[str, Any] = {
            "players": [{"name": s.name, "colour": s.colour} for s in seats],
            "games": self.form_games(fields),
            "seed": 0,
        }
        if "pool-unlimited" not in fields:
            raw = str(fields.get("pool-size", "")).strip()
            if not raw.isdigit():
                raise GameError("options.token_pool", "M15: the pool size must be a whole number.")
            options["token_pool"] = int(raw)
        return options

    def presets(self) -> list[dict[str, Any]]:
        return parse_presets(self.shell.host.load_pref(PRESETS_KEY))

    def save_preset(self, name: str, games: list[str]) -> None:
        name = " ".join(name.split())[:40]
        if not name:
            self.shell.say("Give the preset a name first.", "error")
            return
        if not games:
            self.shell.say("The list of games is empty.", "error")
            return
        presets = [p for p in self.presets() if p["name"].casefold() != name.casefold()]
        presets.insert(0, {"name": name, "games": games})
        if self.shell.host.save_pref(PRESETS_KEY, json.dumps({"v": 1, "presets": presets[:MAX_PRESETS]})):
            self.shell.say(f"Saved the preset “{name}” ({plural(len(games), 'game')}).")
        else:
            self.shell.say("The preset could not be saved: this browser's storage is full or disabled.", "error")

    def delete_preset(self, index: int) -> None:
        presets = self.presets()
        if 0 <= index < len(presets):
            del presets[index]
            self.shell.host.save_pref(PRESETS_KEY, json.dumps({"v": 1, "presets": presets}))

    def form_games(self, fields: Mapping[str, str]) -> list[str]:
        games = [k[len("builtin-"):] for k in fields if k.startswith("builtin-")]
        return games + [line.strip() for line in str(fields.get("typed-games", "")).splitlines() if line.strip()]

    def use_preset(self, index: str) -> None:
        presets = self.presets()
        if not index.isdigit() or int(index) >= len(presets):
            self.shell.say("Pick a preset first.", "error")
            return
        games = presets[int(index)]["games"]
        builtins = duel_games()
        values: dict[str, str | bool] = {f"mg-builtin-{gid}": gid in games for gid in builtins}
        values["mg-typed-games"] = "\n".join(g for g in games if g not in builtins)
        self.shell.host.set_fields(values)
        self.shell.clear_message()

    def render_setup(self) -> dict[str, Node]:
        """The saved game lists (presets): they live in this browser's storage."""
        presets = self.presets()
        fields = lambda: self.shell.host.form_fields("shell-setup-form")  # noqa: E731
        return {
            "mg-presets": h(
                "div",
                h("div",
                  h("label", "Preset", for_="mg-preset"),
                  h("select", h("option", "(saved game lists)" if presets else "(no presets yet)", value=""),
                    *[h("option", f"{p['name']} ({plural(len(p['games']), 'game')})", value=str(i))
                      for i, p in enumerate(presets)], id="mg-preset", name="preset"),
                  h("button", "Use", type="button", cls="small", id="mg-preset-use",
                    on_click=lambda ev: self.use_preset(fields().get("preset", ""))),
                  h("button", "Delete", type="button", cls="small", id="mg-preset-delete",
                    on_click=lambda ev: self.delete_preset(int(fields().get("preset") or -1))),
                  cls="mg-presets"),
                h("div",
                  h("label", "Save this list as", for_="mg-preset-name"),
                  h("input", type="text", id="mg-preset-name", name="preset-name", maxlength="40",
                    placeholder="e.g. Friday night"),
                  h("button", "Save preset", type="button", cls="small", id="mg-preset-save",
                    on_click=lambda ev: self.save_preset(fields().get("preset-name", ""), self.form_games(fields()))),
                  cls="mg-presets"),
                id="mg-presets-inner",
            )
        }

    # -- reading ----------------------------------------------------------------------------
    def reset(self) -> None:
        if not self.own_slices_go_on():
            self.draft.clear()
        self.picked.clear()
        if self.shell.session is not None:  # an undo took a spin back: the next one turns again
            self.last_spin_shown = min(self.last_spin_shown, self.last_spin_index())

    def own_slices_go_on(self) -> bool:
        """On a defender's own device the slices being set go on across the attacker's step
        (M9: both sides choose at once at a live table), so that step must not wipe them."""
        s = self.shell.session
        if s is None or s.mode != "guest" or s.only_seat is None:
            return False
        state = s.match.state
        return state.phase in ("slices_a", "slices_d") and state.inv is not None and state.inv.defender == s.only_seat

    def slice_side(self) -> str | None:
        """"d" on the defender's own device while the attacker assigns (``Game.ahead``, M9):
        the slices edited are the defender's; None: the side the phase asks."""
        s = self.shell.session
        choosing = getattr(s, "choosing_ahead", None)
        return "d" if choosing is not None and choosing() else None

    def opened(self) -> None:
        """A campaign was opened: its spins count as seen, its draft comes back."""
        s = self.shell.session
        assert s is not None
        self.last_spin_shown = self.last_spin_index()
        if s.mode == "host" and s.viewing is None:
            st = s.match.state
            self.draft, self.picked = parse_draft(
                self.shell.host.load_pref(DRAFT_KEY), s.slot_id, len(s.match.log), len(st.games), len(st.owner)
            )

    def save_draft(self) -> None:
        s = self.shell.session
        if s is None or s.slot_id is None or s.locked():
            return
        obj = {
            "slot": s.slot_id,
            "n": len(s.match.log),
            "draft": {str(g): n for g, n in self.draft.items()},
            "picked": sorted(self.picked),
        }
        self.shell.host.save_pref(DRAFT_KEY, json.dumps(obj))  # only a convenience: may fail

    def last_spin_index(self) -> int:
        """Log index of the latest spin result of the invasion under way (-1 if none)."""
        s = self.shell.session
        assert s is not None
        for i in range(len(s.match.log) - 1, -1, -1):
            text = s.match.log[i]
            if text.startswith("r"):
                return i
            if text.startswith("i"):
                return -1
        return -1

    def chart_points(self, states: Any) -> list[tuple[int, int]]:
        """(turns completed, state index) at the start of each turn, and at the end."""
        pts: list[tuple[int, int]] = []
        last_turn = -1
        for i, st in enumerate(states):
            if st.phase == "turn" and st.turn != last_turn:
                pts.append((st.turn - 1, i))
                last_turn = st.turn
            elif st.phase == "over":
                if pts and pts[-1][0] == st.turn:
                    pts[-1] = (st.turn, i)
                else:
                    pts.append((st.turn, i))
        return pts

    def log_label(self, before: Any) -> str:
        return "Capitals" if before.phase == "capital" else f"Turn {before.turn}"

    def prompt(self, view: Mapping[str, Any]) -> str:
        s = self.shell.session
        assert s is not None
        if view["outcome"] is not None:
            names = " and ".join(view["players"][w]["name"] for w in view["outcome"]["winners"])
            reason = REASONS.get(view["ended"], view["ended"])
            return f"The campaign is over: {reason}. {names} won with the most territories (M16)."
        self.start_spin_animation()  # the bar is drawn before the panel: never the result before the wheel stops
        if self.spinning():
            return "The wheel is spinning…"
        turn = "Capitals" if view["phase"] == "capital" else f"Turn {view['turn']}"
        if view["phase"] == "duel" and self.duel_desk.note and s.mode == "host":
            return f"{turn} · {self.duel_desk.note}"  # a drawn or refused duel: what happens next (M12)
        return f"{turn} · {self.drawn_note(view)}{view['prompt']}"

    @staticmethod
    def drawn_note(view: Mapping[str, Any]) -> str:
        """Before a re-spin choice, which game the wheel drew (the choice depends on it)."""
        inv = view["invasion"]
        if view["phase"] not in ("respin_a", "respin_d") or not inv or not inv["spins"]:
            return ""
        sp = inv["spins"][-1]
        titles = {g["index"]: g.get("title") or g["name"] for g in view["games"]}
        return f"Drawn: {titles.get(sp['game'], sp['name'])}. "

    def spinning(self) -> bool:
        return self.reveal_at > self.shell.host.clock()

    # -- acting --------------------------------------------------------------------------------
    def pick(self, t: int) -> None:
        """A territory was picked (click, tap, Enter on the map, or the "Choose" list)."""
        s = self.shell.session
        if s is None:
            return
        state = s.shown_state()
        if not 0 <= t < len(state.owner):
            return
        view = GAME.view(state, None)
        elig = view["eligible"]
        if s.locked() or elig is None or t not in elig["territories"]:
            name = state.board.names[t]
            owner = state.owner[t]
            who = "neutral" if owner < 0 else state.players[owner].name
            why = self.locked_why() if s.locked() else self.why_not(state, t, elig)
            self.shell.say(f"{name} ({who}): {why}")
            return
        kind = elig["kind"]
        if kind in ("sacrifice", "block"):
            self.picked.symmetric_difference_update({t})
            self.save_draft()
            return
        action = {
            "capital": lambda: PickCapital(t),
            "capital_override": lambda: PickCapital(t, override=True),
            "turn": lambda: Claim(t) if t in elig["claim"] else Invade(t),
            "respin": lambda: Respin(t),
            "gift": lambda: Gift(t),
        }.get(kind)
        if action is not None:
            self.act(action())

    def locked_why(self) -> str:
        """Why nothing can be picked here now, in words that fit this screen."""
        s = self.shell.session
        assert s is not None
        if s.viewing is not None or s.mode not in ("host", "guest"):
            return "This view is read-only."
        ruling = GAME.host_step(s.match.state)
        if ruling is not None:
            return f"{ruling}; this device waits for the host."
        seat = s.acting_seat()
        who = s.seat_name(seat) if seat is not None else "nobody"
        if s.mode == "guest":
            if s.only_seat is None:
                return "You are watching this table."
            return f"It is {who}'s choice now; you choose for {s.seat_name(s.only_seat)} when the campaign asks you (M3)."
        return f"It is {who}'s choice, on their own device; “Choose for {who} here” makes it from here (M3)."

    def why_not(self, state: Any, t: int, elig: Mapping[str, Any] | None) -> str:
        """Why ``t`` is not a choice now, in the engine's words: the step a pick of it would
        be is tried, and the engine's refusal (its ruling) is the reason; no rule is repeated
        here."""
        if elig is None:
            return "nothing is chosen on the map at this step."
        kind = elig["kind"]
        others = [u for u in elig["territories"] if u != t]
        s_count = len(state.inv.sacrificed) if state.inv is not None else 1
        trial = {
            "capital": lambda: PickCapital(t),
            "capital_override": lambda: PickCapital(t, override=True),
            "turn": lambda: Claim(t) if state.owner[t] < 0 else Invade(t),
            "sacrifice": lambda: Sacrifice((t,)),
            "block": lambda: Block(tuple(sorted((t, *others[: max(0, s_count - 1)])))),
            "respin": lambda: Respin(t),
            "gift": lambda: Gift(t),
        }.get(kind)
        if trial is not None:
            try:
                GAME.apply(state, trial())
            except GameError as exc:
                return self.plain(exc.message)
        return "it is not a choice for this step."

    def plain(self, message: str) -> str:
        """An engine message without its leading rule code (kept when codes are shown)."""
        if self.shell.log.show_codes:
            return message
        head, sep, rest = message.partition(": ")
        if sep and head[:1] == "M" and head[1:].replace(".", "").isalnum() and len(head) <= 4:
            message = rest
        return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")

    def spend_question(self, state: Any, action: Any) -> str | None:
        """The confirmation a step that spends a token or a territory needs (None: none)."""
        inv = state.inv
        if inv is None:
            return None
        names = state.board.names
        pl = state.players

        def listed(ts: tuple[int, ...]) -> str:
            return ", ".join(names[t] for t in ts) + (" (it becomes neutral)" if len(ts) == 1 else " (they become neutral)")

        if isinstance(action, Sacrifice) and action.ts:
            return f"{pl[inv.attacker].name} sacrifices {listed(action.ts)} to invade {names[inv.target]}. Go on?"
        if isinstance(action, Block) and action.ts:
            return f"{pl[inv.defender].name} spends a block token and sacrifices {listed(action.ts)}. Go on?"
        if isinstance(action, Respin) and action.t is not None:
            who = pl[inv.attacker if state.phase == "respin_a" else inv.defender].name
            return f"{who} spends a re-spin token and {listed((action.t,))} to spin the wheel again. Go on?"
        if isinstance(action, Gift):
            return f"{pl[inv.attacker].name} gives {names[action.t]} to {pl[inv.defender].name}. Go on?"
        return None

    def play_typed(self, ev: Any) -> None:
        """A typed action text: the engine parses it, so a typo gets the engine's message."""
        text = str(ev.fields.get("text", "")).strip()
        if text and self.shell.play(text):
            ev.reset_form()

    def set_count(self, game: int, n: int) -> None:
        n = max(0, min(n, 999))
        if n:
            self.draft[game] = n
        else:
            self.draft.pop(game, None)
        self.save_draft()

    def typed_count(self, game: int, raw: str) -> None:
        raw = raw.strip()
        try:
            n = int(raw) if raw else 0
        except ValueError:
            return
        self.set_count(game, n)

    def assign(self) -> None:
        self.act(Slices(tuple(sorted((g, n) for g, n in self.draft.items() if n > 0))))

    def fill_draft(self) -> None:
        s = self.shell.session
        assert s is not None
        rep = slice_report(s.match.state, self.draft, self.slice_side())
        offers = canonical_allocs(rep["z"], rep["cap"], len(s.match.state.games))
        if offers:
            self.draft = dict(offers[-1])
            self.want_focus = "mg-assign"  # the next control this step needs
        self.save_draft()

    def spin(self) -> None:
        self.act(Spin())

    # -- a word said aloud (issue 26): the draw's contribution from a named player ---------
    def word_giver(self, view: Mapping[str, Any]) -> int:
        """Who is asked by default: the defender (the side that did not start the invasion)."""
        inv = view["invasion"]
        return int(inv["defender"]) if inv else 0

    def ensure_sealed(self) -> str | None:
        """Seal the host's chain before anyone is asked for a word, and save it, so the
        commitment is on every screen (the audience's too) before the word is said."""
        s = self.shell.session
        if s is None or s.mode != "host" or getattr(s.match, "draws", None) is None:
            return None
        if s.match.chain is None:
            s.match.seal()
            self.shell.saved.autosave()
        return s.match.commitment

    def spin_with_word(self, ev: Any) -> None:
        """Spin with the word the named player said aloud, as the host typed it."""
        from conquest.draws import DrawError, said_contribution

        s = self.shell.session
        if s is None:
            return
        try:
            seat = int(str(ev.fields.get("who", "")))
            contribution = said_contribution(seat, str(ev.fields.get("word", "")))
        except (ValueError, DrawError) as exc:
            self.shell.say(exc.message if isinstance(exc, DrawError) else "Choose who said the word.", "error")
            return
        if not 0 <= seat < len(s.seats()):
            self.shell.say("Choose who said the word.", "error")
            return
        self.ensure_sealed()
        if self.shell.play(Spin(), contribution):
            self.want_focus = "next"
            ev.reset_form()

    def render_word_form(self, view: Mapping[str, Any]) -> Node:
        """"Spin with a word": who says it, what they said; the seal it meets is shown above."""
        s = self.shell.session
        assert s is not None
        default = self.word_giver(view)
        people = [h("option", seat.name, value=str(i), selected=i == default) for i, seat in enumerate(s.seats())]
        return h(
            "form",
            h("p", h("strong", "Or spin with a word said aloud: "),
              "ask a player for a word or a number, type it exactly as they say it, then spin. Their word and "
              "the host's sealed draws decide the slice together, so nobody alone can choose it.", cls="muted"),
            h("label", "Who says it ", h("select", *people, name="who", id="mg-word-who")),
            h("label", " Their word or number ",
              h("input", type="text", name="word", id="mg-word", maxlength="40", autocomplete="off",
                spellcheck="false", aria_label="The word or number they said")),
            h("button", "Spin with this word", type="submit", id="mg-spin-word", cls="secondary"),
            id="mg-word-form", cls="mg-word-form inline-form", aria_label="Spin with a word said aloud",
            on_submit=lambda ev: self.spin_with_word(ev),
        )

    def render_seal(self) -> Node | None:
        """The host's commitment, shown before a spin (the audience sees it too)."""
        s = self.shell.session
        rec = getattr(s.match, "draws", None) if s is not None else None
        if rec is not None and rec.seals:
            c, n = rec.seals[-1].commitment, rec.count + 1
        elif getattr(s, "seal", None) is not None:  # a player's own device: as the host's table says
            c, n = s.seal  # type: ignore[union-attr]
        else:
            return None
        return h("p", f"Sealed before anyone is asked: the host's draws are committed to {c[:8]}…{c[-4:]}; "
                      f"the next spin is draw {n}.", id="mg-seal", cls="mg-trust mg-seal")

    def spin_contribution(self) -> tuple[int, str] | None:
        """(draw number from 1, contribution) of the latest spin result, when recorded."""
        at = self.last_spin_index()
        found = self.shell.draws.by_step().get(at) if at >= 0 else None
        return None if found is None else (found[0] + 1, found[1])

    # -- the keyboard flow: after each step, the focus goes where the next step is taken ----
    def act(self, action: Any) -> bool:
        """Play a step the person took on this page's controls (confirmed first when it
        spends a token or a territory); the focus then follows."""
        s = self.shell.session
        question = self.spend_question(s.match.state, action) if s is not None else None
        if question is not None and not getattr(self.shell.host, "dialogs", True):
            # a player's own device shows no dialog: the question is asked on the page
            self.asking = (len(s.match.log), question, action)  # type: ignore[union-attr]
            self.want_focus = "mg-confirm-yes"
            self.want_reveal = "mg-confirm"
            self.shell.host.rerender()
            return False
        if question is not None and not self.shell.host.confirm(question):
            return False
        played = self.shell.play(action)
        if played:
            self.want_focus = "next"
        return played

    def focus_target(self, view: Mapping[str, Any]) -> str | None:
        """The id of the control the step on screen needs next (None: leave the focus).

        Choices on the map: the map (``mapboard.js`` puts the focus on a choice); the slices:
        the first count; the spin: its button; a re-spin: "Keep the result" (spending is a
        pick on the map, Shift+Tab away); the duel: the first winner button, once the wheel
        has stopped."""
        s = self.shell.session
        if s is None or s.locked() or view["outcome"] is not None or self.spinning():
            return None
        ph = view["phase"]
        if ph in ("capital", "capital_override", "turn", "sacrifice", "block", "gift"):
            return "mg-map"
        if ph in ("slices_a", "slices_d"):
            return "mg-count-0"
        return {"spin": "mg-spin", "respin_a": "mg-keep", "respin_d": "mg-keep", "duel": "mg-won-a"}.get(ph)

    def after_render(self) -> None:
        url, self.duel_desk.open_now = self.duel_desk.open_now, None
        if url is not None:  # "Play here, on this device" opens the duel at once (item 7)
            self.shell.host.open_tab(url)
        self.duel_desk.after_render()  # a live duel's QR codes (drawn in the page)
        self.tell_devices()
        if self.duel_desk.reveal:  # a refused or drawn duel: its panel in view (issue 39)
            self.duel_desk.reveal = False
            self.shell.host.reveal("mg-duel")
        want, self.want_focus = self.want_focus, None
        s = self.shell.session
        target = None if want is None or s is None else self.focus_target(s.view()) if want == "next" else want
        if target is not None:
            self.shell.host.focus(target)
        # a spin started: the wheel into view; it stopped: the result (on a phone both are
        # below the fold, and the focus may just have scrolled to the winner buttons)
        reveal, self.want_reveal = self.want_reveal, None
        if reveal is not None:
            self.shell.host.reveal(reveal)

    def tell_devices(self) -> None:
        """The host's page: when the live duel's links change, every device's page is drawn
        again (each shows its player's own link, ``render_my_duel``). Looked up only while
        devices are connected: a render with none reads no storage for it."""
        devices = self.device_pages() if self.device_pages is not None else None
        s = self.shell.session
        if devices is None or not devices.pages or s is None or s.mode != "host":
            return
        t = self.duel_desk.tie()
        links = self.duel_desk.live_links(t) if t is not None and t.get("mode") == "live" else None
        if links != self.links_told:
            self.links_told = links
            devices.redraw()

    def landed(self) -> None:
        """The wheel stopped: the result shows and the focus goes to what comes next."""
        self.want_focus = "next"
        self.want_reveal = "mg-result"
        self.shell.host.rerender()

    def start_spin_animation(self) -> None:
        """A new spin result: the wheel turns to it; the result shows when it stops."""
        s = self.shell.session
        assert s is not None
        newest = self.last_spin_index()
        if newest <= self.last_spin_shown or s.viewing is not None:
            return
        inv = GAME.view(s.match.state, None)["invasion"]
        if not inv or not inv["spins"]:
            return
        x = inv["numbers"]["X"]
        k = inv["spins"][-1]["slice"]
        final = (-(k + 0.5) * 360.0 / x) % 360
        start = self.wheel_turn
        self.wheel_turn = start - (start % 360) + 360 * 5 + final
        self.last_spin_shown = newest
        ms = SPIN_MS_REDUCED if self.reduced_motion else SPIN_MS
        self.reveal_at = self.shell.host.clock() + ms + 80
        self.shell.host.later(ms + 120, self.landed)
        self.want_reveal = "mg-wheel-box"

    def correction(self, kind: str, fields: Mapping[str, str]) -> None:
        """The host's corrections (M17) from the tools form."""
        def num(key: str) -> int | None:
            v = str(fields.get(key, "-"))
            return None if v in ("-", "") else int(v)

        try:
            if kind == "owner":
                action: Any = SetOwner(int(fields["t"]), num("p"))
            elif kind == "capital":
                action = SetCapital(int(fields["p"]), num("t"))
            else:
                action = SetTokens(int(fields["p"]), str(fields["k"]), int(fields.get("n") or 0))
        except (KeyError, ValueError):
            self.shell.say("Fill in every field of the correction.", "error")
            return
        self.shell.play(action)

    # -- the map: paints for the build-time SVG, and the marks layer ---------------------------
    def paint(self, view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        s = self.shell.session
        assert s is not None
        state = s.shown_state()
        colours = [p["colour"] for p in view["players"]]
        elig = set(view["eligible"]["territories"]) if view["eligible"] and not s.locked() else set()
        inv = view["invasion"]
        sac: set[int] = set()
        if inv:
            sac = set(inv["sacrificed"]["territories"]) | set(inv["blocked"]["territories"])
        names = state.board.names
        out: dict[str, dict[str, Any]] = {}
        for t, owner in enumerate(state.owner):
            who = "neutral" if owner < 0 else view["players"][owner]["name"]
            cap = ", capital" if owner >= 0 and state.capital[owner] == t else ""
            out[f"mg-t{t}"] = {
                "style": {"--owner-fill": colours[owner] if owner >= 0 else None},
                "class": {
                    "is-eligible": t in elig,
                    "is-target": bool(inv) and inv["target"] == t,
                    "is-picked": t in self.picked,
                    "is-sacrificed": t in sac and owner < 0,
                },
                "attrs": {"aria-label": f"{names[t]}, {who}{cap}{', a choice now' if t in elig else ''}"},
            }
        return out

    def label_at(self, t: int, map_id: str) -> tuple[float, float] | None:
        if not self.labels:
            try:
                m = load_map(map_id)
            except Exception:  # a custom map carries no label points: no marks
                return None
            self.labels = {i: (float(tr.label[0]), float(tr.label[1])) for i, tr in enumerate(m.territories)}
        return self.labels.get(t)

    def render_marks(self, view: Mapping[str, Any]) -> Node:
        kids: list[Node] = []
        for p in view["players"]:
            if p["capital"] is None:
                continue
            at = self.label_at(p["capital"], view["map"])
            if at is None:
                continue
            cx, cy = at
            kids.append(svg("polygon", points=star_points(cx, cy - 12, 8.0), cls="cap-mark"))
            tokens = " ".join(
                part for part in (f"B{p['block']}" if p["block"] else "", f"R{p['respin']}" if p["respin"] else "") if part
            )
            if tokens:
                kids.append(svg("text", tokens, x=cx, y=cy + 10, font_size=7, text_anchor="middle", cls="tok-mark"))
        return svg("g", *kids, id="mg-marks-inner")

    # -- the side panel -------------------------------------------------------------------------
    def render(self, view: Mapping[str, Any]) -> dict[str, Node]:
        s = self.shell.session
        assert s is not None
        self.start_spin_animation()
        state = s.shown_state()
        side = h(
            "div",
            self.render_last_pick(),
            unmark(self.shell.result.render()),  # the spin, the duel's result, a step (item 10)
            self.render_my_duel(view),
            self.render_actions(view),
            self.render_choose(state, view),
            self.render_invasion(state, view),  # the duel's choice is with the drawn game in it
            self.render_players(view),
            self.render_final(view),
            id="mg-side-inner",
        )
        self.mark_now(side, view)
        return {
            "mg-marks": self.render_marks(view),
            "mg-side": side,
            "mg-host-tools": self.render_tools(state),
            "mg-spins": self.render_spins(),
        }

    def mark_now(self, side: Node, view: Mapping[str, Any]) -> None:
        """Issue 41: the newest result (``data-now="result"``) and the next decision
        (``"next"``), at most one of each, for the shell to bring into view after a tap.

        The result: the drawn game while the wheel's result stands (the spin, a re-spin
        choice, the duel), else "What just happened". The next decision: the duel's choice
        (play here, live or by link) with the winner buttons, the Spin button, the re-spin
        buttons, the slices' form, the list of the map's choices, the final standings."""
        ids = {n.attrs.get("id"): n for n in walk(side)}

        def mark(kind: str, *choices: str) -> None:
            for c in choices:
                node = ids.get(c)
                if node is not None and "hidden" not in node.attrs:
                    node.attrs["data-now"] = kind
                    return

        inv, ph = view["invasion"], view["phase"]
        spun = bool(inv and inv["spins"]) and ph in ("respin_a", "respin_d", "duel")
        mark("result", *(("mg-result-text",) if spun or self.spinning() else ()), "shell-result-inner")
        s = self.shell.session
        if s is None or s.viewing is not None:
            return
        if view["outcome"] is not None:
            mark("next", "mg-final")
        elif self.spinning():
            mark("next", "mg-wheel-box")
        elif ids.get("mg-waiting") is not None or ids.get("mg-confirm") is not None:
            mark("next", "mg-actions")
        elif ph == "duel":
            mark("next", "mg-decide", "mg-my-duel-box")
        elif ph in ("slices_a", "slices_d"):
            mark("next", "mg-slice-form", "mg-held")
        elif ph == "spin":
            # the Spin button: spinning with a word said aloud is the other way, its form under
            # it (as a whole 440 px at 360x740, taller than the sheet's room with the result)
            mark("next", "mg-spin", "mg-actions")
        elif ph in ("respin_a", "respin_d", "sacrifice", "block"):
            mark("next", "mg-actions")
        else:
            mark("next", "mg-choose", "mg-actions")

    def button(
        self, label: str, action: Any, secondary: bool = False, disabled: bool = False, id: str | None = None
    ) -> Node:
        return h(
            "button", label, type="button", cls="secondary" if secondary else None, disabled=disabled, id=id,
            on_click=lambda ev: self.act(action),
        )

    def render_last_pick(self) -> Node | None:
        """The territory the last step chose, named beside the controls with a one-tap Undo
        (issue 21): on a phone the map's names show only once zoomed in, so a pick is said
        in words where the controls are, and a slip is taken back in one tap, not hunted for
        in the log. Only a pick on the map (a capital, a claim, an invasion) and only while
        the next step is still to come (the log's last step, at the host)."""
        s = self.shell.session
        if s is None or s.locked() or s.viewing is not None or s.mode != "host" or not s.match.log:
            return None
        try:
            action = GAME.parse_action(s.match.log[-1])
        except GameError:
            return None
        before, after = s.match.states[-2], s.match.state
        names = before.board.names
        if isinstance(action, PickCapital):
            who = next((p.name for i, p in enumerate(after.players) if after.capital[i] == action.t), "")
            said = f"{who}'s capital: {names[action.t]} (M4)."
        elif isinstance(action, Claim):
            said = f"{after.players[after.owner[action.t]].name} claimed {names[action.t]} (M5)."
        elif isinstance(action, Invade):
            said = f"{before.players[before.current].name} invades {names[action.t]} (M5)."
        else:
            return None
        return h("p", h("span", said, id="mg-last-pick-text"), " ",
                 h("button", "Undo", type="button", id="mg-undo-pick", cls="small secondary",
                   aria_label=f"Undo: {said}", on_click=lambda ev: self.shell.bar.undo()),
                 id="mg-last-pick", cls="mg-last-pick", role="status")

    def render_actions(self, view: Mapping[str, Any]) -> Node:
        s = self.shell.session
        assert s is not None
        kids: list[Any] = [self.render_asking()]
        waits = getattr(s, "waits_for_device", None)
        seat = waits() if waits is not None and s.viewing is None else None
        if seat is not None and view["outcome"] is None:
            name = s.seat_name(seat)
            kids += [
                h("p", f"{name} chooses on their own device.", cls="mg-msg", id="mg-waiting", role="status"),
                h("button", f"Choose for {name} here", type="button", cls="secondary", id="mg-take-over",
                  aria_label=f"Choose for {name} here (M3: the host may make any choice; the log says so)",
                  on_click=lambda ev, k=seat: self.take_over(k)),
            ]
        if not s.locked() and view["outcome"] is None:
            ph, inv = view["phase"], view["invasion"]
            if ph == "turn":
                kids.append(self.button("Pass (M5)", Pass(), True))
            elif ph == "sacrifice":
                n = len(self.picked)
                elig = view["eligible"]
                most = min(elig["max"], len(elig["territories"]))
                kids += [
                    self.button(f"Sacrifice {n} selected", Sacrifice(tuple(sorted(self.picked))), disabled=n == 0),
                    self.button("No sacrifice", Sacrifice(()), True),
                    h("span", f"Select up to {plural(most, 'territory', 'territories')} on the map.", cls="muted"),
                ]
            elif ph == "block":
                n_s = len(inv["sacrificed"]["territories"])
                kids += [
                    self.button(f"Block: sacrifice {len(self.picked)} of {n_s} selected",
                                Block(tuple(sorted(self.picked))), disabled=len(self.picked) != n_s),
                    self.button("Do not block", Block(()), True),
                ]
            elif ph == "spin":
                kids.append(h("button", "Spin the wheel", type="button", id="mg-spin", on_click=lambda ev: self.spin()))
                if s.mode == "host" and getattr(s.match, "draws", None) is not None:
                    self.ensure_sealed()
                    kids.append(self.render_word_form(view))
            elif ph in ("respin_a", "respin_d"):
                kids += [
                    self.button("Keep the result", Respin(None), True, id="mg-keep"),
                    h("span", "or pick a highlighted territory to spend it and re-spin (M11)", cls="muted"),
                ]
            # the duel's winner buttons are in the result box beside the wheel (render_result)
        return h("div", *kids, id="mg-actions", cls="mg-actions")

    def render_asking(self) -> Node | None:
        """The question a spending step asks first, on a device that shows no dialog."""
        s = self.shell.session
        if self.asking is None or s is None or self.asking[0] != len(s.match.log) or s.locked():
            self.asking = None
            return None
        _, question, action = self.asking
        return h("div", h("p", question, cls="mg-msg", id="mg-confirm-q"),
                 h("div", h("button", "Yes, go on", type="button", id="mg-confirm-yes",
                            on_click=lambda ev: self.answered(True)),
                   h("button", "No", type="button", cls="secondary", id="mg-confirm-no",
                     on_click=lambda ev: self.answered(False)), cls="mg-actions"),
                 id="mg-confirm", cls="mg-confirm", role="alertdialog", aria_labelledby="mg-confirm-q")

    def answered(self, yes: bool) -> None:
        asking, self.asking = self.asking, None
        s = self.shell.session
        if yes and asking is not None and s is not None and asking[0] == len(s.match.log):
            if self.shell.play(asking[2]):
                self.want_focus = "next"
        self.shell.host.rerender()

    def my_duel(self) -> tuple[str, str] | None:
        """On a player's device at a live campaign table, at a duel played live: the duel's
        title and this player's own link to it (from the host's page, issue 39)."""
        s = self.shell.session
        host = self.host_page
        if s is None or s.mode != "guest" or s.only_seat is None or not isinstance(host, MetagamePage):
            return None
        state = s.match.state
        inv = state.inv
        if state.phase != "duel" or inv is None or s.only_seat not in (inv.attacker, inv.defender):
            return None
        return host.duel_desk.player_link(state.players[s.only_seat].name)

    def render_my_duel(self, view: Mapping[str, Any]) -> Node | None:
        mine = self.my_duel()
        if mine is None:
            return None
        title, url = mine
        return h("section", h("h4", f"Your duel: {title}"),
                 h("p", "It is played live on its own table: open your seat's link here, play, and come back; "
                        "the host's console takes the result by itself (M12).", cls="mg-msg"),
                 h("p", h("a", "Open my duel", href=url, target="_blank", rel="noopener", id="mg-my-duel",
                          cls="button"), cls="mg-actions"),
                 id="mg-my-duel-box", cls="mg-duel")

    def take_over(self, seat: int) -> None:
        """M3: the host makes a seat's present choice from the console (logged as the host's)."""
        s = self.shell.session
        try:
            s.take_over(seat)  # type: ignore[union-attr] - only at a live table
        except (AttributeError, ConquestError) as exc:
            self.shell.say(getattr(exc, "message", "Nobody's choice is awaited now."), "error")
            return
        self.want_focus = "next"
        self.shell.host.rerender()

    def winner_buttons(self, view: Mapping[str, Any]) -> list[Node]:
        """The duel's result: shown once the wheel has stopped, beside the drawn game."""
        s = self.shell.session
        inv = view["invasion"]
        if s is None or s.locked() or view["phase"] != "duel" or view["outcome"] is not None or self.spinning():
            return []
        a = view["players"][inv["attacker"]]["name"]
        d = view["players"][inv["defender"]]["name"]
        kids: list[Node] = []
        if inv["needed_wins"] == 2:
            nth = "second" if inv["duel_wins"] else "first"
            kids.append(h("p", f"Capital: {a} must win twice. Result of the {nth} game:", cls="mg-msg"))
        kids.append(h("div",
                      self.button(f"{a} (attacker) won", Duel("a"), id="mg-won-a"),
                      self.button(f"{d} (defender) won", Duel("d"), id="mg-won-d"),
                      cls="mg-actions mg-result-actions", id="mg-winners"))
        return kids

    def render_choose(self, state: Any, view: Mapping[str, Any]) -> Node:
        """The choices as a list too: for the keyboard, screen readers and small screens."""
        s = self.shell.session
        assert s is not None
        elig = view["eligible"]
        if s.locked() or elig is None or view["outcome"] is not None or not elig["territories"]:
            return h("form", id="mg-choose", cls="mg-choose", hidden=True)
        names = state.board.names
        options = []
        for t in elig["territories"]:
            # the name first, so typing a letter in the list jumps to it
            if elig["kind"] == "turn":
                label = f"{names[t]}: claim" if t in elig["claim"] else (
                    f"{names[t]}: invade ({state.players[state.owner[t]].name})"
                )
            else:
                mark = " ✓" if t in self.picked else ""
                label = f"{names[t]}: {CHOOSE_VERB.get(elig['kind'], '')}{mark}"
            options.append((label, t))
        options.sort()
        return h(
            "form",
            h("label", "Choose", for_="mg-choose-t"),
            h("select", *[h("option", label, value=str(t)) for label, t in options], id="mg-choose-t", name="t"),
            h("button", "OK", type="submit", cls="small", id="mg-choose-go"),
            id="mg-choose", cls="mg-choose", on_submit=lambda ev: self.chose(ev.fields.get("t", "")),
        )

    def chose(self, value: str) -> None:
        if value.isdigit():
            self.pick(int(value))

    def render_invasion(self, state: Any, view: Mapping[str, Any]) -> Node:
        inv = view["invasion"]
        s = self.shell.session
        assert s is not None
        if inv is None:
            return h("div", id="mg-invasion")
        pl = view["players"]
        a, d = pl[inv["attacker"]]["name"], pl[inv["defender"]]["name"]
        kids: list[Any] = [
            h("h3", f"{a} invades {inv['target_name']} of {d}" + (" (capital!)" if inv["capital"] else "")),
        ]
        # the wheel right under the heading, near Spin: in view when the host spins (item 8)
        if inv["wheel"]:
            kids.extend(self.render_wheel(view))
        numbers = h("ul", *[h("li", line) for line in self.explain(inv)], cls="mg-numbers", id="mg-numbers")
        names = [g.get("title") or g["name"] for g in view["games"]]
        for side, who in (("a", a), ("d", d)):
            alloc = inv["slices"][side]
            if alloc:
                kids.append(h("p", f"{who} assigned: " + ", ".join(f"{names[g]} {n}" for g, n in alloc), cls="mg-msg"))
        if view["phase"] in ("slices_a", "slices_d") and not s.locked():
            kids.append(self.render_slice_editor(state, view))
        # under the form (issue 41: eight lines of numbers stood between the invasion's heading
        # and the form the person fills in, pushing it off a phone's screen)
        kids.append(numbers)
        held = sorted(getattr(s, "held", ()))
        if held and view["phase"] == "slices_a":
            names_held = " and ".join(pl[i]["name"] for i in held if 0 <= i < len(pl))
            mine = s.mode == "guest" and s.only_seat in held
            kids.append(h("p", ("Your slices are in. " if mine else f"{names_held} assigned their slices ahead, on "
                                "their own device; they are shown once played. ")
                          + f"The wheel is drawn once {a} has assigned too (M9).", cls="mg-msg ok", id="mg-held",
                          role="status"))
        return h("div", *kids, id="mg-invasion")

    @staticmethod
    def explain(inv: Mapping[str, Any]) -> list[str]:
        """The engine's lines of the invasion's numbers, with ``m`` said in words before the
        first formula that uses it (issue 41: the panel showed "ZA = m x nA" and never said
        what m is)."""
        lines = list(inv["explain"])
        m = inv["numbers"]["m"]
        words = (f"m = {m}: the target is {'' if m == 2 else 'not '}the defender's capital "
                 "(m is 2 for a capital, else 1), and the slices and caps are multiplied by it (M6)")
        at = next((i for i, line in enumerate(lines) if " m x " in line or "= m x" in line), len(lines))
        lines.insert(at, words)
        return lines

    def render_slice_editor(self, state: Any, view: Mapping[str, Any]) -> Node:
        rep = slice_report(state, self.draft, self.slice_side())
        side = rep["side"]
        inv = view["invasion"]
        who = view["players"][inv["attacker" if side == "a" else "defender"]]["name"]
        rows = []
        for g in view["games"]:
            i = g["index"]
            name = g.get("title") or g["name"]
            n = self.draft.get(i, 0)
            rows.append(
                h(
                    "tr",
                    h("td", name, cls="name"),
                    # − and + are for the pointer; the keyboard types or uses ↑ ↓ in the field
                    h("td", h("button", "−", type="button", cls="small", aria_label=f"One slice less for {name}",
                              tabindex="-1",
                              on_click=lambda ev, i=i: self.set_count(i, self.draft.get(i, 0) - 1))),
                    h("td", h("input", type="number", min="0", max=str(rep["cap"]), value=str(n),
                              aria_label=f"Slices for {name}", data_game=str(i), id=f"mg-count-{i}",
                              on_input=lambda ev, i=i: self.typed_count(i, ev.value)), cls="n"),
                    h("td", h("button", "+", type="button", cls="small", aria_label=f"One slice more for {name}",
                              tabindex="-1",
                              on_click=lambda ev, i=i: self.set_count(i, self.draft.get(i, 0) + 1))),
                )
            )
        # a form: Enter in a count assigns; "Fill for me" is one Shift+Tab before the first count
        return h(
            "form",
            h("div",
              h("h4", f"{who}'s slices: exactly {plural(rep['z'], 'slice')}, at most {rep['cap']} per game"),
              h("button", "Fill for me", type="button", cls="secondary small", id="mg-fill",
                on_click=lambda ev: self.fill_draft()),
              cls="mg-slice-head"),
            h("table", h("tbody", *rows), cls="mg-slices"),
            h("div", *[h("p", msg, cls="mg-msg " + ("ok" if rep["ok"] else "bad")) for msg in rep["messages"]],
              cls="mg-slice-msgs", aria_live="polite"),
            h("div",
              h("button", "Assign these slices", type="submit", id="mg-assign", disabled=not rep["ok"]),
              cls="mg-actions"),
            cls="mg-slice-editor", id="mg-slice-form", on_submit=lambda ev: self.assign(),
        )

    def render_wheel(self, view: Mapping[str, Any]) -> list[Node]:
        """The wheel as SVG: X slices coloured by game; it turns so the drawn slice ends under
        the pointer. Labels stay upright when their slice stops under the pointer."""
        s = self.shell.session
        assert s is not None
        inv = view["invasion"]
        x = inv["numbers"]["X"]
        step = 360.0 / x
        spins = [sp["slice"] for sp in inv["spins"]]
        if s.viewing is not None or not spins:
            if spins:
                self.wheel_turn = (-(spins[-1] + 0.5) * step) % 360
            elif s.viewing is None:
                self.wheel_turn = 0.0
        drawn_k = spins[-1] if spins and not self.spinning() else None
        titles = {g["index"]: g.get("title") or g["name"] for g in view["games"]}
        paths, labels = [], []
        k = 0
        for seg in inv["wheel"]:
            colour = wheel_colour(seg["game"])
            for _ in range(seg["count"]):
                paths.append(svg("path", d=slice_path(k * step, (k + 1) * step), fill=colour, stroke="#fff",
                                 stroke_width=0.6 if x < 120 else 0.2, data_slice=str(k),
                                 cls="is-drawn" if k == drawn_k else None))
                k += 1
            mid = math.radians((seg["start"] + seg["count"] / 2) * step - 90)
            if seg["count"] * step >= 14:
                lx, ly = 100 + 60 * math.cos(mid), 100 + 60 * math.sin(mid)
                lines = label_lines(titles.get(seg["game"], seg["name"]))
                longest = max(len(x) for x in lines)
                size = 8 if longest <= 11 else max(5.5, 8 * 11 / longest)  # fits the 60-unit radius
                tspans = [svg("tspan", line, x=f"{lx:.1f}", dy=f"{(i - (len(lines) - 1) / 2) * 1.1 if i == 0 else 1.1:.2f}em")
                          for i, line in enumerate(lines)]
                labels.append(svg("text", *tspans, x=f"{lx:.1f}", y=f"{ly:.1f}",
                                  transform=f"rotate({upright(math.degrees(mid) + 90, self.wheel_turn):.1f} "
                                            f"{lx:.1f} {ly:.1f})",
                                  font_size=f"{size:g}", text_anchor="middle", dominant_baseline="central", fill="#111",
                                  stroke="#fff", stroke_width=2, paint_order="stroke", cls="mg-wheel-label"))
        if drawn_k is not None:  # the drawn slice above the others, below the labels
            paths.append(paths.pop(next(i for i, p in enumerate(paths) if p.attrs.get("data-slice") == str(drawn_k))))
        drawn = "; then ".join(f"slice {sp['slice'] + 1} of {x}: {titles.get(sp['game'], sp['name'])}" for sp in inv["spins"])
        wheel = svg(
            "svg",
            svg("g", *paths, *labels, cls="spinner", id="mg-spinner", style=f"transform: rotate({self.wheel_turn}deg)"),
            svg("polygon", points="100,16 93,0 107,0", fill="#111"),
            viewBox="0 0 200 210", role="img", cls="mg-wheel",
            aria_label=f"The wheel: {x} slices" + (f"; drawn: {drawn}" if drawn and not self.spinning() else ""),
        )
        items = []
        for seg in inv["wheel"]:
            pct = round(100 * seg["count"] / x, 1)
            first, last = seg["start"] + 1, seg["start"] + seg["count"]
            span = f"slice {first}" if first == last else f"slices {first}–{last}"
            items.append(h("li", h("span", cls="swatch", style=f"background:{wheel_colour(seg['game'])}"),
                           h("span", f"{titles.get(seg['game'], seg['name'])}: {span}, {seg['count']} of {x} ({pct}%) — "
                                     f"attacker {seg['a']}, defender {seg['d']}")))
        out = [self.render_result(view),
               h("div", wheel, cls="mg-wheel-box", id="mg-wheel-box"),
               h("ul", *items, cls="mg-wheel-list", aria_label="The wheel's slices")]
        used = self.spin_contribution() if inv["spins"] else None
        if inv["spins"]:
            out.append(h("p", f"Drawn: {drawn} (M10).", cls="mg-msg mg-drawn", hidden=self.spinning()))
        if used is not None:
            number, contribution = used
            names = [seat.name for seat in s.seats()]
            out.append(h("p", f"How it was drawn: draw {number}, from the host's sealed draws and "
                              f"{describe_contribution(contribution, names)}. Each of the {x} slices was equally "
                              "likely; anyone can recompute it (Check the draws under the log, or "
                              "python -m conquest verify with the link). The animation only turns the wheel.",
                         cls="mg-trust", id="mg-how"))
        elif inv["spins"]:
            out.append(h("p", "How it was drawn: by the host's browser (crypto.getRandomValues), each of the "
                              f"{x} slices equally likely. This game was saved before draws were sealed, so its "
                              "draws are not checkable.", cls="mg-trust", id="mg-how"))
        elif view["phase"] == "spin":
            out.append(h("p", f"Each of the {x} slices is equally likely: a game's chance is its share of the slices.",
                         cls="mg-trust"))
            out.append(self.render_seal())
        return out

    def render_result(self, view: Mapping[str, Any]) -> Node:
        """The drawn game, large beside the wheel (and in the audience tab), announced once
        the wheel stops ("spinning" while it turns); the duel's winner buttons below it."""
        inv = view["invasion"]
        spins = inv["spins"] if inv else []
        if not spins:
            return h("div", h("div", id="mg-result-text", role="status"), id="mg-result", cls="mg-result",
                     hidden=True)
        if self.spinning():
            return h("div", h("div", h("strong", "The wheel is spinning…"), id="mg-result-text", role="status"),
                     id="mg-result", cls="mg-result is-spinning")
        sp = spins[-1]
        titles = {g["index"]: g.get("title") or g["name"] for g in view["games"]}
        pl = view["players"]
        again = " (after a re-spin)" if len(spins) > 1 else ""
        return h(
            "div",
            h("div",
              h("span", f"The wheel drew{again}", cls="mg-result-label"),
              h("strong", titles.get(sp["game"], sp["name"]), cls="mg-result-game"),
              h("span", f"{pl[inv['attacker']]['name']} and {pl[inv['defender']]['name']} play it · "
                        f"slice {sp['slice'] + 1} of {inv['numbers']['X']}", cls="mg-result-label"),
              self.render_word_used(),
              id="mg-result-text", role="status"),
            self.render_decide(view),
            id="mg-result", cls="mg-result",
        )

    def render_decide(self, view: Mapping[str, Any]) -> Node | None:
        """The duel's next decision under the drawn game, in one box the shell brings into
        view (issue 41): how the duel is played (here, live, by link; it stood above the
        wheel, off the screen after a spin) and, for a duel played elsewhere, its winner."""
        kids = [self.duel_desk.render(view) if view["phase"] == "duel" else None, *self.winner_buttons(view)]
        if not any(k is not None for k in kids):
            return None
        return h("div", *kids, id="mg-decide", cls="mg-decide")

    def render_word_used(self) -> Node | None:
        """The word a player said, large beside the result (the audience sees it used)."""
        used = self.spin_contribution()
        if used is None:
            return None
        said = describe_said(used[1], [seat.name for seat in self.shell.session.seats()]) if self.shell.session else None
        if said is None:
            return None
        who, word = said
        return h("span", f"with {who}'s word “{word}” (draw {used[0]})", cls="mg-result-label mg-word-used",
                 id="mg-word-used")

    def render_players(self, view: Mapping[str, Any]) -> Node:
        rows = []
        for p in view["players"]:
            current = p["seat"] == view["to_move"] and view["outcome"] is None
            name = p["name"] + (" ★" if p["capital"] is not None else "") + (" ◀ to play" if current else "")
            cls = " ".join(c for c in ("is-current" if current else "", "is-out" if not p["alive"] else "") if c)
            rows.append(h("tr", h("td", h("span", cls="swatch", style=f"background:{p['colour']}"), cls="sw"),
                          h("td", name), h("td", f"{p['territories']} ({p['share']}%)"),
                          h("td", str(p["block"])), h("td", str(p["respin"])), cls=cls or None))
        pool = view["pool"]
        note = "unlimited" if pool["size"] is None else f"{pool['block_free']} block, {pool['respin_free']} re-spin left"
        return h(
            "table",
            h("caption", f"Players in turn order · {view['majority']} territories end the game · tokens in the pool: {note}"),
            h("thead", h("tr", h("th", h("span", "Colour", cls="visually-hidden"), cls="sw"), h("th", "Player"),
                         h("th", "Territories"), h("th", "Block", title="block tokens"),
                         h("th", "Re-spin", title="re-spin tokens"))),
            h("tbody", *rows),
            cls="data mg-players", id="mg-players",
        )

    def render_final(self, view: Mapping[str, Any]) -> Node | None:
        out = view["outcome"]
        if out is None:
            return None
        winners = set(out["winners"])
        rows, rank, prev = [], 0, None
        for i, row in enumerate(view["standings"]):
            if row["territories"] != prev:
                rank, prev = i + 1, row["territories"]
            note = "winner" if row["seat"] in winners else ("eliminated" if row["territories"] == 0 else "")
            rows.append(h("tr", h("td", str(rank)), h("td", row["name"]), h("td", str(row["territories"])), h("td", note)))
        return h(
            "div",
            h("h3", "Final standings"),
            h("p", f"The campaign ended because {REASONS.get(view['ended'], view['ended'])} (M16)."),
            h("table", h("thead", h("tr", *[h("th", x) for x in ("#", "Player", "Territories", "")])), h("tbody", *rows),
              cls="data"),
            id="mg-final", cls="mg-final",
        )

    # -- below the log: spin history, typed actions, host corrections --------------------------------
    def render_spins(self) -> Node:
        """Every spin of the campaign: who, where, the wheel and the drawn slice (trust, M10)."""
        s = self.shell.session
        assert s is not None
        rows = []
        for i, text in enumerate(s.match.log):
            if not text.startswith("r"):
                continue
            before = s.match.states[i]
            inv = before.inv
            if inv is None:
                continue
            try:
                k = GAME.parse_action(text).k
                game = self.game_title(before.games[inv.game_at(k)])
            except (GameError, IndexError, AttributeError):
                continue
            pl = before.players
            again = " (re-spin)" if inv.spins else ""
            wheel = ", ".join(f"{self.game_title(before.games[g])} {n}" for g, n in inv.layout)
            rows.append(h("li", h("span", f"Turn {before.turn}", cls="mg-turn"),
                          h("span", f"{pl[inv.attacker].name} → {before.board.names[inv.target]} "
                                    f"({pl[inv.defender].name}){again}: slice {k + 1} of {inv.x}: {game}. "),
                          h("span", f"Wheel: {wheel}. ", cls="muted"), h("code", text)))
        taken = [(at, x) for at, texts in s.match.undone for x in texts if x.startswith("r")]
        for at, text in taken:
            rows.append(h("li", f"Taken back by an undo after step {at}: {self.spin_words(at, text)}, taken back "
                                "(drawn, then undone). ", h("code", text), cls="mg-taken-back"))
        spins = plural(len(rows) - len(taken), "spin") + (f", {len(taken)} taken back" if taken else "")
        return h(
            "details",
            h("summary", f"Spin history ({spins})", id="mg-spins-title"),
            h("ol", *rows, cls="mg-spin-list") if rows else h("p", "No spins yet.", cls="muted"),
            cls="mg-more", id="mg-spins-inner", open=True if rows else None,
        )

    def spin_words(self, at: int, text: str) -> str:
        """A spin in words: "slice 27 of 44: Chess" (its wheel is the one of the state it was
        drawn in, on the present line while ``at`` is)."""
        s = self.shell.session
        assert s is not None
        try:
            before = s.match.states[at]
            inv = before.inv
            k = GAME.parse_action(text).k
            return f"slice {k + 1} of {inv.x}: {self.game_title(before.games[inv.game_at(k)])}"
        except (GameError, IndexError, AttributeError):
            return f"a spin ({text})"

    @staticmethod
    def game_title(name: str) -> str:
        from conquest.catalog import catalog

        f = catalog().get(name)
        return f.title if f is not None else name

    def render_tools(self, state: Any) -> Node:
        s = self.shell.session
        assert s is not None
        if s.mode != "host":
            return h("div", id="mg-host-tools-inner", hidden=True)
        players = [(str(i), p.name) for i, p in enumerate(state.players)]
        terrs = [(str(t), n) for t, n in enumerate(state.board.names)]
        def sel(name: str, options: list[tuple[str, str]], sid: str, label: str) -> Node:
            return h("select", *[h("option", lab, value=v) for v, lab in options], id=sid, name=name,
                     aria_label=label)

        def submit(form: str) -> Any:
            return lambda ev: self.correction(form, ev.fields)

        tn = h("input", type="number", id="mg-fix-tn", name="n", min="0", max="999", value="0",
               aria_label="Number of tokens")
        return h(
            "div",
            h("form", h("label", "Type an action (as in the log's code, e.g. c37, i12, p):", for_="mg-typed-text"),
              h("input", type="text", id="mg-typed-text", name="text", autocomplete="off", spellcheck="false"),
              h("button", "Play", type="submit", cls="secondary"),
              id="mg-typed", cls="inline-form", aria_label="Type an action",
              on_submit=lambda ev: self.play_typed(ev)),
            h("details",
              h("summary", "Host corrections and the end by agreement (M16, M17)"),
              h("form", h("label", "Territory ", sel("t", terrs, "mg-fix-t", "Territory")),
                h("label", " owner ", sel("p", [("-", "neutral"), *players], "mg-fix-p", "Owner")),
                h("button", "Set owner", type="submit", cls="small"), id="mg-fix-owner", cls="inline-form",
                on_submit=submit("owner")),
              h("form", h("label", "Capital of ", sel("p", players, "mg-fix-cp", "Player")),
                h("label", " is ", sel("t", [("-", "no capital"), *terrs], "mg-fix-ct", "Capital")),
                h("button", "Set capital", type="submit", cls="small"), id="mg-fix-capital", cls="inline-form",
                on_submit=submit("capital")),
              h("form", h("label", "Tokens of ", sel("p", players, "mg-fix-tp", "Player")),
                sel("k", [("b", "block"), ("r", "re-spin")], "mg-fix-tk", "Kind of token"), tn,
                h("button", "Set tokens", type="submit", cls="small"), id="mg-fix-tokens", cls="inline-form",
                on_submit=submit("tokens")),
              h("p", h("button", "End by mutual agreement", type="button", cls="small", id="mg-agree",
                       on_click=lambda ev: self.agree())),
              cls="mg-tools", id="mg-tools"),
            h("p", h("button", "Open the audience view", type="button", cls="small", id="mg-audience-open",
                     data_audience="1"),
              h("span", " A second tab with the map and the wheel large and no controls, kept in step with this one: "
                        "share that tab on the video call.", cls="muted")),
            None if self.live_audience is None else h(
                "p", h("button", "Audience on their own devices", type="button", cls="small", id="mg-live-audience",
                       on_click=lambda ev: self.live_audience()),
                h("span", " A live table to watch only: its link and QR code show at the top of this page; "
                          "everyone who opens it follows the campaign on their own device, and this device "
                          "keeps every seat.", cls="muted")),
            h("p", h("button", "Measure the engine's speed here", type="button", cls="small", id="mg-speed",
                     on_click=lambda ev: self.measure_speed()),
              h("span", self.speed, id="mg-speed-out", aria_live="polite", data_result=self.speed_result),
              cls="mg-perf"),
            id="mg-host-tools-inner",
        )

    def agree(self) -> None:
        if self.shell.host.confirm("End the campaign by mutual agreement (M16)?"):
            self.shell.play(Agree())

    # -- speed, measured in this browser -----------------------------------------------------------
    def measure_speed(self) -> None:
        self.speed = "Measuring…"
        self.shell.host.later(30, self._measure)

    def _measure(self) -> None:
        r = json.loads(bench(json.dumps(bench_campaign(500)), 3, self.shell.host.clock))
        self.speed = (
            f"Apply one action: mean {r['apply_ms_mean']:.3f} ms, p95 {r['apply_ms_p95']:.2f} ms "
            f"(target ≤ 2 ms). Replay a {r['actions']}-action campaign: {r['replay_ms_best']:.0f} ms "
            f"(target ≤ 300 ms). One view of the console: {r['view_ms_mean']:.2f} ms."
        )
        self.speed_result = json.dumps(r)
        self.shell.host.rerender()


# -- the benchmark hook ----------------------------------------------------------------------------
def bench(save_text: str, repeats: int, clock: Any) -> str:
    """Replay a save in this interpreter and time it: the figures of ``bench/metagame_page.py``.

    Returns JSON: the replay time of the whole log (best and median of ``repeats``), the time
    of one action (parse + apply, mean/p95/max over the log), and of one view.
    """
    save = json.loads(save_text)
    n = max(1, int(repeats))
    replays = []
    m = None
    for _ in range(n):
        t0 = clock()
        m = Match(GAME, save["options"], save["log"])
        replays.append(clock() - t0)
    assert m is not None
    texts = list(save["log"])
    actions = [GAME.parse_action(t) for t in texts]
    t0 = clock()
    state = m.states[0]
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(text))
    loop = clock() - t0
    applies = []
    state = m.states[0]
    for action in actions:
        t0 = clock()
        state = GAME.apply(state, action)
        applies.append(clock() - t0)
    sample = m.states[:: max(1, len(m.states) // 50)]
    t0 = clock()
    for st in sample:
        GAME.view(st, None)
    view_ms = (clock() - t0) / max(1, len(sample))
    applies.sort()
    replays.sort()
    return json.dumps({
        "actions": len(texts),
        "replay_ms_best": replays[0],
        "replay_ms_median": replays[len(replays) // 2],
        "apply_ms_mean": loop / max(1, len(texts)),
        "apply_ms_p95": applies[int(0.95 * (len(applies) - 1))] if applies else 0.0,
        "apply_ms_max": applies[-1] if applies else 0.0,
        "view_ms_mean": view_ms,
    })


BENCH_NAMES = ("Alexandra", "Benjamin", "Charlotte", "Dominic", "Eleanor", "Frederick", "Georgina", "Harrison")
BENCH_GAMES = ("conquests", "reign", "Chess on BoardGameArena", "Go", "Carcassonne", "Patchwork")


def bench_campaign(length: int = 500) -> dict[str, Any]:
    """A seeded campaign of 8 bots that invade whenever they can (invasions are the heavy
    actions), cut at ``length`` actions: what the speed figures replay."""
    from conquest.bots import RandomBot

    options = {"players": [{"name": n} for n in BENCH_NAMES], "games": list(BENCH_GAMES), "seed": 0}
    for seed in range(1, 60):
        rngs = [Rng(seed * 100 + i) for i in range(8)]
        bots = [RandomBot(r) for r in rngs]
        m = Match(GAME, options, rng=Rng(seed))
        while GAME.outcome(m.state) is None and len(m.log) < length:
            seat = GAME.to_move(m.state)
            legal = GAME.legal_actions(m.state)
            inv = [a for a in legal if isinstance(a, Invade)] if m.state.phase == "turn" else []
            m.play(inv[rngs[seat].below(len(inv))] if inv else bots[seat].choose(GAME, m.state))
        if len(m.log) >= length:
            save = m.save().to_json()
            save["log"] = save["log"][:length]
            return save
    raise RuntimeError("no bot campaign reached the length asked for")


def main() -> None:
    """In the page: run the console on the shell, and expose the benchmark hook."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]
    from shell_browser import run

    runner = run(MetagamePage)
    wire_duel_desk(runner)
    runner.page.live_audience = lambda: runner.live.on("start-audience")
    runner.page.device_pages = lambda: runner.live.devices
    runner.render()  # the audience's live button, now that it can work
    js.window.conquestBench = create_proxy(
        lambda text, repeats=3: bench(str(text), int(repeats or 3), runner.host.clock)
    )
