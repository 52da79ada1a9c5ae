"""Short Campaign's picture questions (issue 40), in CPython: the engine reads a choice row's
7th element and shows it in ``public()`` only when it is a valid picture; the page draws a
flag or an emoji as an image file of the site (from a guest device's page one folder
deeper) and an element's symbol as a tile; the build copies exactly the files the banks
name and fails on a missing one; packs stay text-only.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from campaign import CampaignPage
from page_host import FakeHost, make_page, render_all
from ui import Node, find, find_all, text, to_html

import build
from buildlib.errors import BuildError
from buildlib.pictures import PICTURE_SOURCES, picture_files
from conquest.games.campaign import GAME
from conquest.games.campaign import questions as qmod
from conquest.games.campaign.pictures import ALT_MAX, Picture, PictureError, picture_from_json
from conquest.games.campaign.questions import BANK_FILE, LEGACY_FILE, PackError, bank_from_json, seal_pack

ROOT = Path(__file__).resolve().parent.parent
FLAG = {"kind": "flag", "key": "fr", "alt": "A national flag: the question is whose it is"}
EMOJI = {"kind": "emoji", "key": "1f1eb-1f1f7", "alt": "An emoji: the question is what it stands for"}
SYMBOL = {"kind": "symbol", "key": "Fe", "alt": "A chemical element's symbol: the question is which element"}


def small_bank(*pictures: dict[str, Any] | None, guess: bool = True) -> dict[str, Any]:
    """A bank in the file's layout: one choice row per picture (None: a 6-field row)."""
    rows = []
    for i, pic in enumerate(pictures):
        row: list[Any] = [f"q{i:05d}", 0, 0, f"Which one is number {i}?", ["A1", "B2", "C3", "D4"], i % 4]
        if pic is not None:
            row.append(pic)
        rows.append(row)
    return {
        "categories": [{"id": "flags", "name": "Flags"}],
        "sources": [{"source": "flag-icons 7.5.0", "license": "MIT", "year": 2026}],
        "choice": rows,
        "guess": [["g00001", 0, 0, "How many flags?", "flags", 1, 500, 250]] if guess else [],
    }


# ------------------------------------------------------------------------------------------
# The engine
# ------------------------------------------------------------------------------------------
def test_a_choice_row_may_carry_a_picture_and_public_shows_it() -> None:
    bank = bank_from_json(small_bank(FLAG, EMOJI, SYMBOL, None))
    flag, emoji, symbol, plain = (bank.questions[f"q{i:05d}"] for i in range(4))
    assert flag.picture == Picture("flag", "fr", FLAG["alt"])
    assert flag.public()["picture"] == FLAG
    assert emoji.public("Emoji")["picture"] == EMOJI
    assert symbol.public()["picture"] == SYMBOL
    # a 6-field row (every row of the legacy file today) is text only, as before
    assert plain.picture is None and "picture" not in plain.public()
    assert "picture" not in bank.questions["g00001"].public()
    # never the answer: the public view is the same as before plus the picture
    assert "answer" not in flag.public() and flag.answer == 0
    assert Picture("flag", "fr", "x").path() == "pictures/flag/fr.svg"
    assert Picture("emoji", "1f600", "x").path() == "pictures/emoji/1f600.svg"
    assert Picture("symbol", "Fe", "x").path() is None


@pytest.mark.parametrize(
    "pic",
    [
        "fr",
        ["flag", "fr", "alt"],
        {"kind": "photo", "key": "fr", "alt": "A photo"},
        {"kind": "flag", "key": "FR", "alt": "A flag"},
        {"kind": "flag", "key": "fra", "alt": "A flag"},
        {"kind": "flag", "key": "../x", "alt": "A flag"},
        {"kind": "flag", "key": "fr.svg", "alt": "A flag"},
        {"kind": "flag", "key": 7, "alt": "A flag"},
        {"kind": "emoji", "key": "1F600", "alt": "An emoji"},
        {"kind": "emoji", "key": "1f600/../../x", "alt": "An emoji"},
        {"kind": "emoji", "key": "1f600-", "alt": "An emoji"},
        {"kind": "emoji", "key": "-".join(["1f600"] * 11), "alt": "An emoji"},
        {"kind": "symbol", "key": "fe", "alt": "A symbol"},
        {"kind": "symbol", "key": "Fee", "alt": "A symbol"},
        {"kind": "symbol", "key": "<b>", "alt": "A symbol"},
        {"kind": "flag", "key": "fr", "alt": ""},
        {"kind": "flag", "key": "fr", "alt": "   "},
        {"kind": "flag", "key": "fr", "alt": "x" * (ALT_MAX + 1)},
        {"kind": "flag", "key": "fr", "alt": "A flag\nof France"},
        {"kind": "flag", "key": "fr", "alt": None},
        {"kind": "flag", "key": "fr"},
        {**FLAG, "src": "https://evil.example/x.svg"},
    ],
)
def test_a_bad_picture_in_a_bank_is_refused(pic: Any) -> None:
    with pytest.raises(PictureError) as err:
        bank_from_json(small_bank(None, pic))
    assert "question q00001" in str(err.value)
    assert isinstance(err.value, ValueError)  # load_legacy treats it as a file that cannot be read


def test_a_row_of_another_length_is_refused() -> None:
    raw = small_bank(FLAG)
    raw["choice"][0].append("more")
    with pytest.raises(ValueError, match="not 6 or 7"):
        bank_from_json(raw)
    assert picture_from_json({**FLAG, "alt": "x" * ALT_MAX}).alt == "x" * ALT_MAX


def test_the_bank_and_the_earlier_editions_hold_only_valid_pictures_that_give_nothing_away() -> None:
    """Every picture of both files is read by the engine (a bad one fails here, before any
    page), and its alt text never names the right option."""
    for path in (BANK_FILE, LEGACY_FILE):
        raw = json.loads(path.read_text(encoding="utf-8"))
        bank = bank_from_json(raw)
        for row in raw["choice"]:
            assert len(row) in (6, 7), row[0]
            q = bank.questions[row[0]]
            if q.picture is not None:
                right = q.options[q.answer].casefold()
                assert right not in q.picture.alt.casefold(), (q.id, q.picture.alt)


def test_packs_stay_text_only() -> None:
    """A pack travels in every link and the build copies only the banks' pictures: a pack's
    picture could never be shown offline, so a pack question with one is refused as before."""
    pack = {
        "title": "Flags",
        "questions": [
            {
                "type": "choice",
                "text": "Whose flag is this?",
                "options": ["France", "Chad", "Peru", "Mali"],
                "answer": "France",
                "picture": FLAG,
            },
        ],
    }
    with pytest.raises(PackError, match="unknown field 'picture'"):
        seal_pack(pack)


# ------------------------------------------------------------------------------------------
# The page
# ------------------------------------------------------------------------------------------
def page(host: FakeHost | None = None) -> CampaignPage:
    _, p, _ = make_page(CampaignPage, host)
    assert isinstance(p, CampaignPage)
    return p


def test_the_page_draws_a_flag_and_an_emoji_as_site_files_and_a_symbol_as_a_tile() -> None:
    p = page()
    flag = p.stage.render_picture({"id": "q1", "picture": FLAG})
    assert flag is not None and flag.attrs["class"] == "cp-picture is-flag"
    img = find(flag, "img")
    assert img.attrs["src"] == "../../pictures/flag/fr.svg"  # play/campaign/ -> the site's root
    assert img.attrs["alt"] == FLAG["alt"]
    assert (img.attrs["width"], img.attrs["height"]) == ("160", "120")
    emoji = p.stage.render_picture({"id": "q2", "picture": EMOJI})
    assert emoji is not None
    assert find(emoji, "img").attrs["src"] == "../../pictures/emoji/1f1eb-1f1f7.svg"
    assert find(emoji, "img").attrs["alt"] == EMOJI["alt"]
    tile = p.stage.render_picture({"id": "q3", "picture": SYMBOL})
    assert tile is not None and find_all(tile, "img") == []
    card = find(tile, ".cp-symbol")
    assert text(card) == "Fe"  # only the symbol: its name and number would be the answers
    assert card.attrs["role"] == "img" and card.attrs["aria-label"] == SYMBOL["alt"]
    assert p.stage.render_picture({"id": "q4"}) is None
    small = p.stage.render_picture({"id": "q1", "picture": FLAG}, small=True)
    assert small is not None and "is-small" in small.attrs["class"]


def test_picture_text_is_text_and_a_bad_picture_is_left_out() -> None:
    p = page()
    hostile = {**FLAG, "alt": '"><script>alert(1)</script>'}
    node = p.stage.render_picture({"id": "q1", "picture": hostile})
    assert node is not None
    html = to_html(node)
    assert "<script>" not in html and "&quot;&gt;&lt;script&gt;" in html
    for bad in ({**FLAG, "key": "../../x"}, {**FLAG, "kind": "photo"}, "fr", {"kind": "flag"}):
        assert p.stage.render_picture({"id": "q1", "picture": bad}) is None


def test_a_guest_devices_page_names_the_file_from_its_own_folder() -> None:
    """A device's page is drawn by the host for ``play/campaign/guest/``, one folder deeper
    than the host's page: ``remote.RemoteHost.site_root`` says so."""
    import remote

    guest_path = next(
        p.path for p in build.plan_pages(build.load_inputs()) if p.path.startswith("play/campaign/guest/")
    )
    assert remote.RemoteHost.site_root == "../" * guest_path.count("/")

    class DeviceHost(FakeHost):
        site_root = remote.RemoteHost.site_root

    node = page(DeviceHost()).stage.render_picture({"id": "q1", "picture": FLAG})
    assert node is not None and find(node, "img").attrs["src"] == "../../../pictures/flag/fr.svg"
    guest_dom = (ROOT / "site" / "static" / "guest-dom.js").read_text(encoding="utf-8")
    assert "img`);" in guest_dom and "PICTURE_SRC" in guest_dom  # the device builds it (allow-list)


def drive_to_choice(shell: Any, p: CampaignPage) -> Any:
    """Play on (people answer right at once, pick the first choice) until a multiple-choice
    question is open."""
    from test_page_campaign import drive

    drive(shell, p, lambda st: st.phase == "answer" and GAME.question(st).kind == "choice")
    st = shell.session.match.state
    assert st.phase == "answer", "no multiple-choice question came"
    return st


def test_a_game_shows_the_picture_with_the_question_and_again_in_the_reveal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fields = {
        "title": "Pictures",
        "seat-count": "3",
        "seconds": "20",
        "seat-name-0": "Ann",
        "seat-colour-0": "#e69f00",
        "seat-who-0": "human",
        "seat-name-1": "Bob",
        "seat-colour-1": "#56b4e9",
        "seat-who-1": "human",
        "seat-name-2": "Cy",
        "seat-colour-2": "#009e73",
        "seat-who-2": "human",
    }
    shell, p, _ = make_page(CampaignPage)
    assert isinstance(p, CampaignPage)
    assert shell.start(fields) is not None, shell.message
    st = drive_to_choice(shell, p)
    q = GAME.question(st)
    assert q is not None
    pool = GAME.setup(st).pool
    monkeypatch.setitem(pool.questions, q.id, dataclasses.replace(q, picture=picture_from_json(FLAG)))
    handover = shell.session.needs_handover()
    if handover is not None:  # three people at one device: the one asked takes it first
        shell.handover.ready(handover)
    seat = p.clock.answerer()
    assert seat is not None
    p.clock.show_now(seat)
    stage = render_all(shell)["cp-stage"]
    question = find(stage, "#cp-question")
    img = find(question, ".cp-picture img")
    assert img.attrs["src"] == "../../pictures/flag/fr.svg" and img.attrs["alt"] == FLAG["alt"]
    # above the options
    kids = [c for c in question.children if isinstance(c, Node)]
    classes = [c.attrs.get("class", "") for c in kids]
    assert classes.index("cp-picture is-flag") < classes.index("cp-options")
    # everyone answers: the reveal shows the question again, with its picture
    for _ in range(6):
        if shell.session.match.state.phase != "answer":
            break
        who = p.clock.answerer()
        if who is None:
            handover = shell.session.needs_handover()
            assert handover is not None
            shell.handover.ready(handover)
            continue
        p.clock.show_now(who)
        p.clock.answer(who, "A")
    # the reveal of the question just answered (drawn with its picture; when a tie-break
    # question opens at once the page keeps the reveal for after it: issue 41)
    reveal = p.reveal.render(shell.session.view())
    assert reveal is not None and reveal.attrs["id"] == "cp-reveal"
    assert find(reveal, ".is-small img").attrs["alt"] == FLAG["alt"]


# ------------------------------------------------------------------------------------------
# The build
# ------------------------------------------------------------------------------------------
def fake_node(
    tmp_path: Path, flags: tuple[str, ...] = ("fr", "gb", "de"), emoji: tuple[str, ...] = ("1f600",)
) -> Path:
    node = tmp_path / "node_modules"
    for key in flags:
        path = node / "flag-icons" / "flags" / "4x3" / f"{key}.svg"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" id="{key}"/>')
    for key in emoji:
        path = node / "@twemoji" / "svg" / f"{key}.svg"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" id="{key}"/>')
    return node


def test_the_build_copies_only_the_pictures_the_banks_name(tmp_path: Path) -> None:
    node = fake_node(tmp_path)
    now = bank_from_json(small_bank(FLAG, {**EMOJI, "key": "1f600"}, SYMBOL, None))
    old = bank_from_json(small_bank({**FLAG, "key": "gb"}, FLAG))
    files = picture_files([now, old], node)
    assert sorted(files) == ["pictures/emoji/1f600.svg", "pictures/flag/fr.svg", "pictures/flag/gb.svg"]
    assert files["pictures/flag/gb.svg"] == (node / "flag-icons/flags/4x3/gb.svg").read_bytes()
    # the service worker caches them with the rest of the site (offline play)
    sw = build.service_worker({**files, "index.html": b"x"}, "v1").decode()
    assert all(f'"{name}"' in sw for name in files)


def test_a_missing_picture_file_fails_the_build(tmp_path: Path) -> None:
    node = fake_node(tmp_path, flags=("fr",))
    with pytest.raises(BuildError, match=r"missing: the picture of question q00001 \(flag 'gb'\)"):
        picture_files([bank_from_json(small_bank(FLAG, {**FLAG, "key": "gb"}))], node)
    (node / "flag-icons/flags/4x3/fr.svg").write_text("<html>not a picture</html>")
    with pytest.raises(BuildError, match="not an SVG"):
        picture_files([bank_from_json(small_bank(FLAG))], node)


def test_the_build_step_reads_both_banks_and_names_a_bad_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = fake_node(tmp_path)
    bank, legacy = tmp_path / "bank.json", tmp_path / "legacy.json"
    bank.write_text(json.dumps(small_bank(FLAG)), encoding="utf-8")
    legacy.write_text(json.dumps(small_bank({**EMOJI, "key": "1f600"})), encoding="utf-8")
    monkeypatch.setattr(qmod, "BANK_FILE", bank)
    monkeypatch.setattr(qmod, "LEGACY_FILE", legacy)
    monkeypatch.setattr(build, "NODE", node)
    assert sorted(build.question_pictures()) == ["pictures/emoji/1f600.svg", "pictures/flag/fr.svg"]
    legacy.write_text(json.dumps(small_bank({**FLAG, "key": "FR"})), encoding="utf-8")
    with pytest.raises(
        BuildError, match="legacy.json: the question bank cannot be read.*not a flag picture's key"
    ):
        build.question_pictures()


def test_the_real_banks_pictures_are_in_the_pinned_packages() -> None:
    """The committed banks' pictures all exist in node_modules (as the build will find them),
    both packages are pinned exactly, and the credits name them with their licenses."""
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert package["dependencies"]["flag-icons"] == "7.5.0"
    assert package["dependencies"]["@twemoji/svg"] == "15.0.0"
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    assert lock["node_modules/flag-icons"]["version"] == "7.5.0"
    assert lock["node_modules/@twemoji/svg"]["version"] == "15.0.0"
    assert all("resolved" not in entry for entry in lock.values())
    node = ROOT / "node_modules"
    if (node / "flag-icons").exists() and (node / "@twemoji" / "svg").exists():
        banks = [bank_from_json(json.loads(p.read_text(encoding="utf-8"))) for p in (BANK_FILE, LEGACY_FILE)]
        picture_files(banks, node)  # raises BuildError on a missing file
        for package_name, _ in PICTURE_SOURCES.values():
            version = json.loads((node / package_name / "package.json").read_text(encoding="utf-8"))[
                "version"
            ]
            assert version == package["dependencies"][package_name]
    credits = json.loads((ROOT / "site" / "credits.json").read_text(encoding="utf-8"))
    by_url = {c["url"]: c for c in credits}
    assert by_url["https://github.com/lipis/flag-icons"]["license"] == "MIT"
    assert "CC BY 4.0" in by_url["https://github.com/jdecked/twemoji"]["license"]
