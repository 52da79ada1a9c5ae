"""The site as an installable app (issue 10, item 8): a web app manifest linked from every
page, icons from the site's own SVG, and Chrome's own installability check (the one
Lighthouse's "installable manifest" audit reads) reporting nothing missing."""
from __future__ import annotations

import json
from pathlib import Path

import build
from conquest.catalog import catalog
from tests.browser.conftest import watch
from tests.browser.test_site import site_pages


def test_every_page_links_the_manifest(site_dir: Path) -> None:
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == build.APP_NAME and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["theme_color"] == build.THEME_COLOUR
    assert all(f.title in manifest["description"] for f in catalog().values())
    assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        data = (site_dir / icon["src"]).read_bytes()
        if icon["type"] == "image/svg+xml":
            assert data.startswith(b"<svg")
        else:  # PNGs of the stated size (issue 23: iOS reads no SVG icon)
            assert icon["type"] == "image/png" and png_size(data) == tuple(map(int, icon["sizes"].split("x")))
    assert {i["sizes"] for i in manifest["icons"] if i["type"] == "image/png"} == {"192x192", "512x512"}
    assert png_size((site_dir / "apple-touch-icon.png").read_bytes()) == (180, 180)
    for shortcut in manifest["shortcuts"]:
        assert (site_dir / shortcut["url"] / "index.html").is_file()
    for path in site_pages(site_dir):
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        root = "../" * path.count("/")
        assert f'<link rel="manifest" href="{root}manifest.webmanifest">' in html, path
        # what Safari reads for a home-screen app
        assert f'<link rel="apple-touch-icon" href="{root}apple-touch-icon.png">' in html, path
        assert '<meta name="apple-mobile-web-app-capable" content="yes">' in html, path
        assert '<meta name="apple-mobile-web-app-title" content="Conquest">' in html, path


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (IHDR), and that it is a PNG."""
    import struct

    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_chrome_finds_the_site_installable_and_the_worker_caches_the_manifest(
    browser, base_url: str, tmp_path: Path
) -> None:
    from tools.browser import CHROMIUM_ARGS, chromium_path

    # a browser profile on disk: Chrome never offers to install from an incognito window,
    # which is what Playwright's ordinary contexts are
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path(), args=CHROMIUM_ARGS
    )
    try:
        check_installable(context, base_url)
    finally:
        context.close()


def check_installable(context, base_url: str) -> None:  # noqa: ANN001
    page = context.new_page()
    w = watch(page, base_url)
    page.goto(base_url)
    w.wait_engine()
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    w.wait_engine()
    cdp = context.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    assert got["url"].endswith("/manifest.webmanifest") and not got["errors"], got["errors"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    # the offline cache holds the manifest and its icons: the app starts offline too
    cached = page.evaluate(
        """async () => Promise.all(['manifest.webmanifest', 'favicon.svg', 'icon-maskable.svg']
            .map(async (f) => !!(await caches.match(new URL(f, location.href).href))))"""
    )
    assert cached == [True, True, True]
    context.set_offline(True)
    try:
        text = page.evaluate("fetch('manifest.webmanifest').then(r => r.text())")
    finally:
        context.set_offline(False)
    assert json.loads(text)["name"] == build.APP_NAME
    w.forgive_navigation_aborts()  # the test's own reload may cut off the first load's runtime preloads
    w.assert_clean()
