"""A live table's join link pasted into the landing page's box, and the host's "Share…"
button (issue 36).

Why: the box said "not a Conquest game" to a join link, and a room code alone got no answer
at all; the join link must open the game's page on this site only, whatever origin the
pasted text names. The pure part (``live.pasted_join_link``) is tested here; the page's
navigation is tested in Chromium (tests/browser/test_site.py).
"""
from __future__ import annotations

from pathlib import Path

from live import (
    JOIN_LINK_DAMAGED,
    JOIN_LINK_NO_GAME,
    is_room_code,
    join_fragment,
    pasted_join_link,
    relays_fragment,
    render_host_panel,
    seat_fragment,
)
from live_kit import Net, world_host
from ui import find, find_all

ROOT = "https://me.example/conquest/"
GAMES = {"world", "reign"}
KEY = "K" * 87  # a host key's length (live.HOST_KEY_CHARS)
FRAG = join_fragment("ABCDEFGH", "p" * 22, KEY)
SITE = Path(__file__).resolve().parent.parent / "site"


def test_a_join_link_opens_its_game_page_on_this_site_with_its_fragment() -> None:
    # on the game's guest page (issue 37: a guest device boots no engine), whichever page it named
    want = ("open", f"{ROOT}play/world/guest/{FRAG}")
    for text in (f"{ROOT}play/world/{FRAG}", f"  {ROOT}play/world/{FRAG}\n", f"play/world/{FRAG}",
                 f"/conquest/play/world{FRAG}", f"{ROOT}play/world/?slot=x{FRAG}", f"{ROOT}play/world/guest/{FRAG}",
                 f"{ROOT}play/world/guest{FRAG}"):
        assert pasted_join_link(text, ROOT, GAMES) == want, text
    # a seat's own link keeps its seat key
    seat = seat_fragment("ABCDEFGH", "p" * 22, KEY, "s" * 20)
    assert pasted_join_link(f"{ROOT}play/reign/{seat}", ROOT, GAMES) == ("open", f"{ROOT}play/reign/guest/{seat}")
    # a host's own relays travel on; a relays part that is not valid is dropped (the guest's own are used)
    own = FRAG + relays_fragment(["wss://relay.example.org"])
    assert pasted_join_link(f"play/world/{own}", ROOT, GAMES) == ("open", f"{ROOT}play/world/guest/{own}")
    assert pasted_join_link(f"play/world/{FRAG}&relays=<b>", ROOT, GAMES) == ("open", f"{ROOT}play/world/guest/{FRAG}")


def test_a_join_link_of_another_origin_opens_on_this_one_never_there() -> None:
    for text in (f"https://evil.example/play/world/{FRAG}", f"javascript:alert(1)//play/world/{FRAG}",
                 f"//evil.example/x/play/world/{FRAG}"):
        kind, url = pasted_join_link(text, ROOT, GAMES) or ("", "")
        assert (kind, url) == ("open", f"{ROOT}play/world/guest/{FRAG}"), text


def test_a_join_link_that_cannot_be_opened_says_why() -> None:
    assert pasted_join_link(f"{ROOT}play/chess/{FRAG}", ROOT, GAMES) == ("say", JOIN_LINK_NO_GAME)
    assert pasted_join_link(FRAG, ROOT, GAMES) == ("say", JOIN_LINK_NO_GAME)
    assert pasted_join_link(f"{ROOT}{FRAG}", ROOT, GAMES) == ("say", JOIN_LINK_NO_GAME)
    for broken in (FRAG[:-10], FRAG + "<img>", FRAG.replace("ABCDEFGH", "ABCDEFG0"), FRAG + "#x"):
        assert pasted_join_link(f"{ROOT}play/world/{broken}", ROOT, GAMES) == ("say", JOIN_LINK_DAMAGED), broken


def test_a_room_code_is_looked_up_in_any_case_with_or_without_spaces() -> None:
    for text in ("ABCDEFGH", "abcd efgh", " AbCd EfGh ", "2345 6789"):
        assert is_room_code(text), text
        assert pasted_join_link(text, ROOT, GAMES) == ("code", "".join(text.split()).upper())
    # not a code: a letter outside the alphabet (0, 1, O, I), or not 8 characters
    for text in ("ABCDEFG0", "ABCDEFGO", "ABCDEFG", "ABCDEFGHJ", ""):
        assert not is_room_code(text), text


def test_anything_else_is_left_to_the_game_link_path() -> None:
    for text in ("", "#h=abc", f"{ROOT}play/world/#h=eJzz", "hello world", "#live", "live=ABC"):
        assert pasted_join_link(text, ROOT, GAMES) is None, text


def test_the_host_panel_offers_share_beside_copy_where_the_browser_can_share() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    url = f"{ROOT}play/world/{FRAG}"
    panel = render_host_panel(net.table, url, None, lambda *a: None, [])
    share = find(panel, "#live-share-join")
    assert share.attrs["data-share"] == url == find(panel, "#live-copy-join").attrs["data-copy"]
    assert share.attrs["data-share-title"] == "World Conquest: join my live table"
    # no join link yet (the key is being made): nothing to share
    assert not find_all(render_host_panel(net.table, "", None, lambda *a: None, []), "#live-share-join")
    # hidden without the Web Share API, 44 px tall on a phone like every live control
    css = (SITE / "static" / "live.css").read_text()
    assert "html:not([data-can-share]) button[data-share] { display: none; }" in css
    assert ".live-box button" in css and "min-height: 44px" in css
    js = (SITE / "static" / "frame.js").read_text()
    assert 'typeof navigator.share === "function") html.dataset.canShare' in js and '"AbortError"' in js
