"""The set-up's saved game lists (presets) and the campaign's options from the set-up form.

Why a part: the presets are the one piece of the set-up the shell does not draw. They live in
this browser's storage (``PRESETS_KEY``) and are read back as untrusted data (``parse_presets``);
"Use" fills the form's built-in games and typed games from one. Nothing here touches a
campaign under way.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from shell import Seat, plural
from ui import Node, h

from conquest.core import GameError
from conquest.games.metagame import GAME

PRESETS_KEY = "conquest:metagame:presets"
MAX_PRESETS = 50


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


def duel_games() -> dict[str, str]:
    """The built-in two-player games (id -> title): every playable game for two seats."""
    from conquest.core import games

    return {gid: g.title for gid, g in games().items() if gid != GAME.id and g.min_players <= 2 <= g.max_players}


class Presets:
    """The set-up form's presets (state: none but the storage they live in) and options."""

    def __init__(self, page: Any) -> None:
        self.shell = page.shell

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

    def save(self, name: str, games: list[str]) -> None:
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

    def delete(self, index: int) -> None:
        presets = self.presets()
        if 0 <= index < len(presets):
            del presets[index]
            self.shell.host.save_pref(PRESETS_KEY, json.dumps({"v": 1, "presets": presets}))

    def form_games(self, fields: Mapping[str, str]) -> list[str]:
        games = [k[len("builtin-"):] for k in fields if k.startswith("builtin-")]
        return games + [line.strip() for line in str(fields.get("typed-games", "")).splitlines() if line.strip()]

    def use(self, index: str) -> None:
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

    def render(self) -> dict[str, Node]:
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
                    on_click=lambda ev: self.use(fields().get("preset", ""))),
                  h("button", "Delete", type="button", cls="small", id="mg-preset-delete",
                    on_click=lambda ev: self.delete(int(fields().get("preset") or -1))),
                  cls="mg-presets"),
                h("div",
                  h("label", "Save this list as", for_="mg-preset-name"),
                  h("input", type="text", id="mg-preset-name", name="preset-name", maxlength="40",
                    placeholder="e.g. Friday night"),
                  h("button", "Save preset", type="button", cls="small", id="mg-preset-save",
                    on_click=lambda ev: self.save(fields().get("preset-name", ""), self.form_games(fields()))),
                  cls="mg-presets"),
                id="mg-presets-inner",
            )
        }
