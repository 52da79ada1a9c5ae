"""Browser-test fixtures: the built site served on 127.0.0.1, and Debian's Chromium.

The site is built once per test session into a temporary folder (so a test run never
depends on a stale ``_site/``), served with gzip like GitHub Pages, and driven by Playwright
through the system ``chromium``: Playwright's own browser downloads are not available.

Every page opened through ``open_page`` records console errors, page errors and any request
that leaves the origin; ``PageWatch.assert_clean()`` fails the test on any of them.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tools.browser import launch_chromium
from tools.serve import serve_in_thread

ENGINE_TIMEOUT_MS = 90_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import build

    out = tmp_path_factory.mktemp("site") / "_site"
    build.build(out)
    return out


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    server, url = serve_in_thread(site_dir)
    yield url
    server.shutdown()


#: where the session's Chromium prints (tools.browser.crash_report reads it)
CHROMIUM_STDERR: list[Path] = []


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is required for the browser tests: apt-get install -y chromium")
    log = tmp_path_factory.mktemp("chromium") / "stderr.log"
    CHROMIUM_STDERR[:] = [log]
    with sync_playwright() as p:
        b = launch_chromium(p, stderr_log=log)
        yield b
        b.close()


@pytest.fixture(scope="session")
def chromium_stderr(browser: Any) -> Path:
    """The file the session's Chromium prints to."""
    return CHROMIUM_STDERR[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A page that crashed says only "Target crashed": its failure gets what the machine
    knows of why (tools.browser.crash_report), in the line the summary prints."""
    outcome = yield
    rep = outcome.get_result()
    if rep.failed and call.excinfo is not None and "Target crashed" in str(call.excinfo.value):
        from tools.browser import crash_report

        report = crash_report(CHROMIUM_STDERR[0] if CHROMIUM_STDERR else None)
        crash = getattr(rep.longrepr, "reprcrash", None)
        if crash is not None:
            crash.message = f"{crash.message} [{report}]"
        rep.sections.append(("Chromium crash", report))


#: the engines of tests/browser/test_engines.py, besides Chromium, on every run: Firefox and
#: WebKit, every test ("webkit-full": 90 s on the idle 2-core machine, once the first page's
#: Python snapshot is kept and the others boot from it). "webkit" is a short set (each game
#: boots and makes a move, storage, a link on another origin, offline, deep links) for a quick
#: local run: CONQUEST_ENGINES=firefox,webkit; CONQUEST_ENGINES=none runs neither.
DEFAULT_ENGINES = "firefox,webkit-full"
CROSS_ENGINES = [e for e in os.environ.get("CONQUEST_ENGINES", DEFAULT_ENGINES).split(",") if e and e != "none"]


@pytest.fixture(scope="module", params=CROSS_ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Firefox or WebKit (tools/engines.py), one browser per engine for all of its tests
    (issue 23; they are all in test_engines.py). Module-scoped so the last engine closes when
    that file ends: session-scoped, WebKit stayed open through the Chromium tests after it,
    its web process still at about 20% of a core (seen in CI runs here).

    ``engine.short`` is true for WebKit's short set. What the tests learn (host links,
    timings, the deep-input messages) is kept on it and written to
    ``<tmp>/conquest-engines/<engine>.json`` at the end."""
    import json

    from tools.engines import EngineMissing, launch

    name = request.param.removesuffix("-full")
    downloads = tmp_path_factory.mktemp(f"downloads-{name}")
    try:
        e = launch(name, downloads)
    except (EngineMissing, ValueError) as exc:
        pytest.fail(f"CONQUEST_ENGINES={request.param}: {exc}")
    e.short = request.param == "webkit"
    e.downloads = downloads
    e.host_links, e.timings, e.deep = {}, {}, {}
    e.snapshot_saved = False  # the first game page waits for its Python snapshot (test_engines.py)
    version = e.version()  # now: asked at the end, WebKit would start a session for it
    yield e
    out = Path(tempfile.gettempdir()) / "conquest-engines"
    out.mkdir(exist_ok=True)
    (out / f"{e.name}.json").write_text(json.dumps(
        {"version": version, "timings": e.timings, "deep": {str(k): v for k, v in e.deep.items()}}, indent=1))
    e.close()


@pytest.fixture(scope="module")
def main_context(engine: Any) -> Iterator[Any]:
    """The engine's profile its tests share (games saved, then listed)."""
    ctx = engine.new_context()
    yield ctx
    ctx.close()


@dataclass
class PageWatch:
    page: Any
    base_url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    #: answers for the next expected dialogs (True accepts a confirm, text answers a prompt)
    answers: list[Any] = field(default_factory=list)
    #: every URL the page asked for (issue 37: a guest page asks for nothing of the engine)
    requests: list[str] = field(default_factory=list)

    def wait_engine(self, state: str = "ready") -> None:
        self.page.wait_for_function(
            "document.documentElement.dataset.engine !== 'starting'", timeout=ENGINE_TIMEOUT_MS
        )
        got = self.page.evaluate("document.documentElement.dataset.engine")
        assert got == state, f"engine is {got!r}, expected {state!r}; errors: {self.console_errors + self.page_errors}"

    def forgive_navigation_aborts(self) -> None:
        """Requests cut off by the test's own reload or navigation (e.g. the runtime's
        preload still downloading when the engine was already ready) are not failures; their
        events may arrive late, so they are dropped just before the final check."""
        self.failed[:] = [f for f in self.failed if "net::ERR_ABORTED" not in f]

    def assert_clean(self) -> None:
        assert not self.outside, f"requests left the origin: {self.outside}"
        assert not self.page_errors, f"page errors: {self.page_errors}"
        assert not self.console_errors, f"console errors: {self.console_errors}"
        assert not self.failed, f"failed requests: {self.failed}"
        assert not self.dialogs, f"unexpected dialogs: {self.dialogs}"


#: what a page asks for when it runs the engine (issue 37: a guest page asks for none of it)
ENGINE_FILES = ("pyodide", "pyscript", "app.zip", "python_stdlib", ".py")


def engine_files(urls: list[str]) -> list[str]:
    """The URLs among ``urls`` that are part of the engine (Pyodide, PyScript, the app)."""
    return [u for u in urls if any(x in u for x in ENGINE_FILES)]


def watch(page: Any, base_url: str) -> PageWatch:
    w = PageWatch(page, base_url)
    origin = base_url.rstrip("/")

    def on_request(req: Any) -> None:
        url = req.url
        w.requests.append(url)
        if not (url.startswith(origin) or url.startswith(("data:", "blob:", "about:"))):
            w.outside.append(url)

    page.on("request", on_request)
    page.on("console", lambda m: w.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: w.page_errors.append(str(e)))
    page.on("requestfailed", lambda r: w.failed.append(f"{r.url} {r.failure}"))

    def on_dialog(d: Any) -> None:
        if w.answers:
            answer = w.answers.pop(0)
            d.accept(answer) if isinstance(answer, str) else d.accept()
            return
        w.dialogs.append(f"{d.type}: {d.message}")
        d.dismiss()

    page.on("dialog", on_dialog)
    return w


@pytest.fixture(scope="session")
def relay() -> Iterator[str]:
    """A Nostr relay on 127.0.0.1 (tools/relay.py) for the live-play tests, one per run."""
    from tools.relay import local_relay

    with local_relay() as url:
        yield url


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture
def open_page(context: Any, base_url: str):  # noqa: ANN201
    """``open_page("rules/world/")`` -> PageWatch with the engine ready."""

    def _open(path: str = "", *, wait: str | None = "ready") -> PageWatch:
        page = context.new_page()
        w = watch(page, base_url)
        page.goto(base_url + path)
        if wait:
            w.wait_engine(wait)
        return w

    return _open


#: A point of a map territory (by element id) a click there selects: on the territory itself
#: (not under a label or a mark) and clear of every other territory's troop badge, since a
#: click within 2 px of a badge's box picks the badge's territory (mapview.js ``hit``, issue
#: 21). Points in a badge box's corners are outside its circle, so ``elementFromPoint``
#: alone let a click through to a neighbour: with a random deal, the World tests failed now
#: and then. Whole pixels, checked as such. Shared by the Chromium tests and test_engines.py.
FREE_POINT = """(id) => {
    const el = document.getElementById(id);
    el.scrollIntoView({ block: "center" });
    let svg = el;
    while (svg.ownerSVGElement) svg = svg.ownerSVGElement;
    const badges = [...svg.querySelectorAll("[data-t]")]
        .filter((m) => m.dataset.t !== el.dataset.index)
        .map((m) => (m.querySelector("circle") || m).getBoundingClientRect());
    const r = el.getBoundingClientRect();
    for (let i = 1; i < 20; i++) for (let j = 1; j < 20; j++) {
        // whole pixels: WebKit's driver (Selenium actions) takes integers, and a point
        // truncated off a thin territory (Central America) clicked the sea
        const x = Math.round(r.left + r.width * i / 20), y = Math.round(r.top + r.height * j / 20);
        if (document.elementFromPoint(x, y) !== el) continue;
        if (badges.some((b) => x >= b.left - 4 && x <= b.right + 4 && y >= b.top - 4 && y <= b.bottom + 4)) continue;
        return [x, y];
    }
    return null;
}"""


def click_territory(page: Any, element_id: str) -> None:
    """A real mouse click on a point of a map territory (``element_id``) not covered by a
    label or a mark, nor near another territory's badge (``FREE_POINT``): the map's own
    pointer handling turns it into a pick."""
    point = page.evaluate(FREE_POINT, element_id)
    assert point is not None, f"{element_id} has no free point to click"
    page.mouse.click(*point)


def shots_at_two_widths(page: Any, path: str, scroll_to: str | None = None) -> None:
    """Screenshots of ``page`` at 1280 and 360 px wide (``path`` + ``-<width>.png``), the part
    ``scroll_to`` names in view, so a person can look at both; the page is left at 1280."""
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        if scroll_to is not None:
            page.locator(scroll_to).scroll_into_view_if_needed()
        page.screenshot(path=f"{path}-{width}.png", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
