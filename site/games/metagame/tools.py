"""The host's tools below the log: a typed action, the corrections (M17), the end by
agreement (M16), the audience's views, and the engine's speed measured in this browser.

Why a part: these are the host's alone (a device's or a read-only page hides them), each a
form or a button that ends in one step or one tab; the speed read-out is the only state.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ui import Node, h

from conquest.games.metagame.actions import Agree, SetCapital, SetOwner, SetTokens

from .bench import bench, bench_campaign


class HostTools:
    """The tools' forms and the last speed measured here (shown, and kept as JSON)."""

    def __init__(self, page: Any) -> None:
        self.shell = page.shell
        self.speed: str = ""
        self.speed_result: str | None = None
        #: opens a live table of the campaign to watch only (issue 22), set by the page
        #: (``live_browser``); None in CPython, where there is no network
        self.live_audience: Any = None

    def render(self, state: Any) -> Node:
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

    def play_typed(self, ev: Any) -> None:
        """A typed action text: the engine parses it, so a typo gets the engine's message."""
        text = str(ev.fields.get("text", "")).strip()
        if text and self.shell.play(text):
            ev.reset_form()

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

    def agree(self) -> None:
        if self.shell.host.confirm("End the campaign by mutual agreement (M16)?"):
            self.shell.play(Agree())

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
