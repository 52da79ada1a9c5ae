"""The Short Campaign's set-up: the bank's question categories and a loaded question pack.

Why a part: what the host picks before a game (which categories, which pack) is state of its
own that lives only until the game starts, with its own form, its own handlers (tick a box,
load or remove a pack) and its own checks; the game itself never reads it again. The page
asks it for the game's options and mounts its two renderers in the set-up form.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shell import Seat, plural
from ui import Node, h

from conquest.core import InvalidOptions
from conquest.games.campaign import GAME, PackError, load_pack
from conquest.games.campaign.engine import rules

if TYPE_CHECKING:
    from shell import Shell

#: a pack file larger than this is refused before it is read (the engine allows 4 x 100 kB)
PACK_FILE_MAX = 400_000
#: the answer times the set-up offers (the template lists the same; the engine checks)
SECONDS = (5, 10, 15, 20, 30, 45, 60, 90, 120)


class SetupForm:
    """The categories ticked and the pack loaded, their form and their handlers."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        cats = GAME.question_categories()
        self.bank_categories: list[dict[str, Any]] = cats
        self.categories: set[str] = {c["id"] for c in cats}
        self.pack: dict[str, Any] | None = None
        self.pack_file = ""
        self.pack_problems: list[str] = []
        self.pack_categories: set[str] = set()

    def options(self, seats: list[Seat], fields: Mapping[str, str]) -> dict[str, Any]:
        """Seats with their colours and bot levels (so a link reopens the same table), the
        answer time, the categories and the pack. No set-up seed: every draw is a chance step."""
        raw = str(fields.get("seconds", "") or rules().seconds).strip()
        if not raw.isdigit():
            raise InvalidOptions("options.seconds", "Pick the time to answer from the list.")
        out: dict[str, Any] = {
            "seed": 0,
            "seats": [
                {"name": s.name, "colour": s.colour, **({"bot": s.who} if s.is_bot else {})} for s in seats
            ],
            "seconds": int(raw),
            "categories": self.chosen_categories(fields),
            "mix": True,  # issue 40: a varied draw (no category above a third of the questions)
        }
        if self.pack is not None:
            out["pack"] = self.pack
            out["pack_categories"] = self.chosen_pack_categories(fields)
        return out

    def chosen_categories(self, fields: Mapping[str, str]) -> list[str]:
        """The ticked bank categories: from the form when its boxes were drawn, else the page's."""
        ids = [c["id"] for c in self.bank_categories]
        if "cats-shown" in fields:
            return [c for c in ids if f"cat-{c}" in fields]
        return [c for c in ids if c in self.categories]

    def chosen_pack_categories(self, fields: Mapping[str, str]) -> list[str]:
        cats = list(self.pack["cats"]) if self.pack else []
        if "pcats-shown" in fields:
            return [c for i, c in enumerate(cats) if f"pcat-{i}" in fields]
        return [c for c in cats if c in self.pack_categories]

    def set_category(self, cat: str, on: bool) -> None:
        (self.categories.add if on else self.categories.discard)(cat)

    def set_all_categories(self, on: bool) -> None:
        self.categories = {c["id"] for c in self.bank_categories} if on else set()

    def set_pack_category(self, cat: str, on: bool) -> None:
        (self.pack_categories.add if on else self.pack_categories.discard)(cat)

    def load_pack_text(self, filename: str, text: str | bytes) -> bool:
        """A pack file was read: the engine checks it (every fault listed) and seals it.

        A loaded pack replaces the bank by default (the engine's default too): the bank
        categories are unticked, and the host may tick some back to mix them in."""
        self.pack_file = " ".join(str(filename).split())[:120]
        try:
            sealed = load_pack(text)
        except PackError as exc:
            self.pack_problems = list(exc.problems)
            self.shell.say(f"{self.pack_file} cannot be used as a question pack; the problems are listed below.", "error")
            return False
        self.pack = sealed
        self.pack_problems = []
        self.pack_categories = set(sealed["cats"])
        self.categories = set()
        self.shell.say(f"Loaded the question pack “{sealed['title']}” ({plural(len(sealed['q']), 'question')}).")
        return True

    def pack_refused(self, filename: str, problem: str) -> None:
        """A file that could not be read at all (too large, not text)."""
        self.pack_file = " ".join(str(filename).split())[:120]
        self.pack_problems = [problem]
        self.shell.say(f"{self.pack_file} cannot be used as a question pack.", "error")

    def remove_pack(self) -> None:
        self.pack = None
        self.pack_file = ""
        self.pack_problems = []
        self.pack_categories = set()
        self.categories = {c["id"] for c in self.bank_categories}
        self.shell.clear_message()

    def question_counts(self) -> tuple[int, int]:
        """Multiple-choice and guess questions in the chosen bank and pack categories."""
        choice = sum(c["choice"] for c in self.bank_categories if c["id"] in self.categories)
        guess = sum(c["guess"] for c in self.bank_categories if c["id"] in self.categories)
        if self.pack is not None:
            wanted = {i for i, c in enumerate(self.pack["cats"]) if c in self.pack_categories}
            for row in self.pack["q"]:
                if row[1] in wanted:
                    choice += row[0] == "c"
                    guess += row[0] == "g"
        return choice, guess

    def render(self) -> dict[str, Node]:
        return {"cp-categories": self.render_categories(), "cp-pack": self.render_pack()}

    def render_categories(self) -> Node:
        boxes = []
        for c in self.bank_categories:
            cid = c["id"]
            kinds = ", ".join(
                part for part in (
                    f"{c['choice']:,} multiple choice" if c["choice"] else "",
                    f"{c['guess']:,} guess" if c["guess"] else "",
                ) if part
            )
            boxes.append(h(
                "label",
                h("input", type="checkbox", id=f"cp-cat-{cid}", name=f"cat-{cid}", checked=cid in self.categories,
                  on_change=lambda ev, c=cid: self.set_category(c, ev.checked)),
                f" {c['name']} ", h("span", f"({kinds})", cls="muted"),
                cls="cp-check",
            ))
        choice, guess = self.question_counts()
        need = 5
        short = choice < need or guess < need
        return h(
            "div",
            h("input", type="hidden", name="cats-shown", value="1"),
            h("p", "Questions from the bundled bank (built from open data; see the credits):", cls="cp-note"),
            h("div", *boxes, cls="cp-checks", role="group", aria_label="Question categories of the bank"),
            h("p",
              h("button", "All", type="button", cls="small", id="cp-cats-all", on_click=lambda ev: self.set_all_categories(True)),
              " ",
              h("button", "None", type="button", cls="small", id="cp-cats-none",
                on_click=lambda ev: self.set_all_categories(False)),
              " ",
              h("span", f"Chosen: {choice:,} multiple-choice and {guess:,} guess questions"
                + (f" — a game needs at least {need} of each." if short else "."),
                cls="cp-count" + (" bad" if short else ""), id="cp-count")),
            id="cp-categories-inner",
        )

    def render_pack(self) -> Node:
        kids: list[Any] = []
        if self.pack_problems:
            kids.append(h("div",
                          h("p", h("strong", f"{self.pack_file or 'The file'} cannot be used:")),
                          h("ul", *[h("li", p) for p in self.pack_problems], id="cp-pack-problems"),
                          cls="cp-pack-bad", role="alert"))
        if self.pack is not None:
            pack = self.pack
            n_choice = sum(1 for r in pack["q"] if r[0] == "c")
            n_guess = len(pack["q"]) - n_choice
            boxes = [
                h("label",
                  h("input", type="checkbox", id=f"cp-pcat-{i}", name=f"pcat-{i}", checked=c in self.pack_categories,
                    on_change=lambda ev, c=c: self.set_pack_category(c, ev.checked)),
                  f" {c}", cls="cp-check")
                for i, c in enumerate(pack["cats"])
            ]
            kids.append(h(
                "div",
                h("input", type="hidden", name="pcats-shown", value="1"),
                h("p", "Question pack ", h("strong", f"“{pack['title']}”", id="cp-pack-title"),
                  f" from {self.pack_file}: " if self.pack_file else ": ",
                  f"{plural(n_choice, 'multiple-choice question')} and {plural(n_guess, 'guess question')}."),
                h("p", f"Source: {pack['source']}", cls="muted") if pack.get("source") else None,
                h("div", *boxes, cls="cp-checks", role="group", aria_label="Categories of the pack"),
                h("p", "The bank's categories above were unticked so the game uses the pack only; tick some to "
                       "mix them in. The pack travels in the game's links (its answers scrambled, so they are not "
                       "readable at a glance).", cls="muted"),
                h("button", "Remove the pack", type="button", cls="small secondary", id="cp-pack-remove",
                  on_click=lambda ev: self.remove_pack()),
                cls="cp-pack-ok", id="cp-pack-loaded",
            ))
        return h("div", *kids, id="cp-pack-inner")
