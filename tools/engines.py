"""Firefox and WebKit (Safari's engine) driven from Python, behind one small page API.

Why: the cross-browser tests (tests/cross/) and bench/site.py write each scenario once and
run it in both engines. Playwright cannot download its own Firefox or WebKit here, so:

- Firefox: Debian's ``firefox-esr``, driven by ``puppeteer-core`` (npm) over WebDriver BiDi
  through a small Node driver (``tools/firefox_driver.mjs``) that answers JSON lines.
- WebKit: Debian's ``webkit2gtk-driver`` (WebKitWebDriver) and WebKitGTK's MiniBrowser,
  driven by Selenium (PyPI) under an X server this module starts (``Xvfb``).

One browser per engine for a whole session: a "context" is a fresh profile (Firefox: a
browser context; WebKit: a new automation session, whose storage is ephemeral). Scripts are
JS function sources called with JSON arguments; neither driver is bound by the pages'
Content-Security-Policy (WebDriver's scripts are not page scripts).
"""
from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

ENGINES = ("firefox", "webkit")


class EngineMissing(RuntimeError):
    """A browser or driver is not installed: the message says which Debian package."""


class EngineError(RuntimeError):
    """A command failed in the browser (the driver's message is kept)."""


def firefox_path() -> str:
    exe = shutil.which("firefox-esr") or shutil.which("firefox")
    if exe is None:
        raise EngineMissing("Debian's Firefox is required: apt-get install -y firefox-esr")
    if not (ROOT / "node_modules" / "puppeteer-core").exists():
        raise EngineMissing("puppeteer-core is missing: run `npm ci`")
    return exe


def webkit_paths() -> tuple[str, str]:
    """(WebKitWebDriver, MiniBrowser)."""
    driver = shutil.which("WebKitWebDriver")
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser"))
    if driver is None or not found:
        raise EngineMissing("WebKitGTK's driver is required: apt-get install -y webkit2gtk-driver")
    if shutil.which("Xvfb") is None:
        raise EngineMissing("Xvfb is required for WebKitGTK: apt-get install -y xvfb")
    return driver, found[0]


# --------------------------------------------------------------------------------------
# the page API both engines share
# --------------------------------------------------------------------------------------
class Page:
    """One tab. ``js`` arguments are function sources, e.g. ``"(a) => a + 1"``."""

    engine: Engine

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def evaluate(self, js: str, *args: Any) -> Any: ...
    def click(self, selector: str) -> None: ...
    def click_button(self, within: str, label: str) -> None:
        """Click the button inside ``within`` whose text contains ``label`` (found when
        clicked: the page may draw its buttons again at any time)."""
    def click_at(self, x: float, y: float) -> None: ...
    def press(self, key: str) -> None: ...
    def fill(self, selector: str, text: str) -> None: ...
    def screenshot(self, path: str) -> None: ...
    def set_viewport(self, width: int, height: int) -> None: ...

    def wait(self, js: str, *args: Any, timeout: float = 60.0, what: str = "") -> Any:
        """Poll ``js`` until it returns a truthy value (returned). ``timeout`` is stretched
        by the engine's ``slow`` factor (JavaScriptCore runs Python several times slower)."""
        timeout *= self.engine.slow
        end = time.monotonic() + timeout
        while True:
            try:
                got = self.evaluate(js, *args)
            except EngineError:
                got = None  # a navigation in progress
            if got:
                return got
            if time.monotonic() > end:
                shot = Path(tempfile.gettempdir()) / "conquest-engines" / f"timeout-{self.engine.name}.png"
                shot.parent.mkdir(exist_ok=True)
                try:
                    self.screenshot(str(shot))
                except Exception:  # noqa: BLE001 - the timeout is the error to report
                    pass
                raise TimeoutError(f"{self.engine.name}: waited {timeout:.0f} s for {what or js}")
            time.sleep(0.2)

    def text(self, selector: str) -> str:
        return str(self.evaluate("(s) => { const e = document.querySelector(s); return e ? e.innerText : ''; }", selector))

    def count(self, selector: str) -> int:
        return int(self.evaluate("(s) => document.querySelectorAll(s).length", selector))

    def wait_engine(self, state: str = "ready", timeout: float = 120.0) -> None:
        """Until the page's engine state (base.html's ``data-engine``) leaves "starting"."""
        got = self.wait("() => document.documentElement.dataset.engine !== 'starting' "
                        "&& document.documentElement.dataset.engine", timeout=timeout, what="the engine")
        if got != state:
            raise AssertionError(f"{self.engine.name}: engine is {got!r}, expected {state!r}: {self.banner()}")

    def banner(self) -> str:
        """The page's own error banner (frame.js shows uncaught errors there)."""
        return str(self.evaluate(
            "() => { const b = document.getElementById('error-banner');"
            " return b && !b.hidden ? b.querySelector('.banner-text').textContent : ''; }"))


class Context:
    def new_page(self, width: int = 1280, height: int = 900) -> Page: ...
    def close(self) -> None: ...


class Engine:
    name = ""
    #: how much longer than Firefox this engine may take for the same step (timeouts only)
    slow = 1.0

    def new_context(self) -> Context: ...
    def version(self) -> str: ...
    def close(self) -> None: ...


# --------------------------------------------------------------------------------------
# Firefox: puppeteer-core over WebDriver BiDi, through tools/firefox_driver.mjs
# --------------------------------------------------------------------------------------
class Firefox(Engine):
    name = "firefox"

    def __init__(self, downloads: Path | None = None) -> None:
        exe = firefox_path()
        self.downloads = downloads
        self.proc = subprocess.Popen(
            ["node", str(ROOT / "tools" / "firefox_driver.mjs"), exe, str(downloads or "")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )
        self._lock = threading.Lock()
        self._next = 0
        self.call("version", timeout=120)

    def call(self, op: str, timeout: float = 300, **args: Any) -> Any:
        with self._lock:
            self._next += 1
            msg = {"id": self._next, "op": op, **args}
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise EngineError(f"the Firefox driver stopped: {err[-2000:]}")
            reply = json.loads(line)
            if "error" in reply:
                raise EngineError(f"firefox {op}: {reply['error']}")
            return reply["ok"]

    def new_context(self) -> FirefoxContext:
        return FirefoxContext(self, self.call("newContext"))

    def version(self) -> str:
        return str(self.call("version"))

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class FirefoxContext(Context):
    def __init__(self, engine: Firefox, cid: str) -> None:
        self.engine, self.id = engine, cid

    def new_page(self, width: int = 1280, height: int = 900) -> FirefoxPage:
        return FirefoxPage(self.engine, self.engine.call("newPage", context=self.id, width=width, height=height))

    def close(self) -> None:
        self.engine.call("closeContext", context=self.id)


class FirefoxPage(Page):
    def __init__(self, engine: Firefox, pid: str) -> None:
        self.engine: Firefox = engine
        self.id = pid

    def goto(self, url: str) -> None:
        self.engine.call("goto", page=self.id, url=url)

    def reload(self) -> None:
        self.engine.call("reload", page=self.id)

    def evaluate(self, js: str, *args: Any) -> Any:
        return self.engine.call("evaluate", page=self.id, fn=js, args=list(args))

    def click(self, selector: str) -> None:
        self.engine.call("click", page=self.id, selector=selector)

    def click_button(self, within: str, label: str) -> None:
        self.click(f"{within} button::-p-text({label})")

    def click_at(self, x: float, y: float) -> None:
        self.engine.call("clickAt", page=self.id, x=x, y=y)

    def fill(self, selector: str, text: str) -> None:
        self.engine.call("type", page=self.id, selector=selector, text=text)

    def press(self, key: str) -> None:
        self.engine.call("press", page=self.id, key=key)

    def screenshot(self, path: str) -> None:
        self.engine.call("screenshot", page=self.id, path=path)

    def set_viewport(self, width: int, height: int) -> None:
        self.engine.call("setViewport", page=self.id, width=width, height=height)

    def events(self) -> dict[str, list[str]]:
        return self.engine.call("events", page=self.id)


# --------------------------------------------------------------------------------------
# WebKit: WebKitWebDriver + MiniBrowser, through Selenium, on an Xvfb display
# --------------------------------------------------------------------------------------
class Xvfb:
    """An X server of our own (``-displayfd`` picks a free display number)."""

    def __init__(self) -> None:
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            raise EngineError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class WebKit(Engine):
    name = "webkit"
    # JavaScriptCore in WebKitGTK ran a plain JS loop 8x and Pyodide's boot 5x slower than
    # Firefox's engine on the 2-core test machine (issue 23)
    slow = 4.0

    def __init__(self) -> None:
        self.driver_path, self.binary = webkit_paths()
        self.xvfb = Xvfb()
        self._sessions: list[Any] = []

    def _session(self) -> Any:
        from selenium import webdriver

        opts = webdriver.WebKitGTKOptions()
        opts.binary_location = self.binary
        opts.add_argument("--automation")
        env = {**os.environ, "DISPLAY": self.xvfb.display}
        service = webdriver.WebKitGTKService(executable_path=self.driver_path, env=env)
        d = webdriver.WebKitGTK(options=opts, service=service)
        d.set_script_timeout(300)
        d.set_page_load_timeout(180)
        self._sessions.append(d)
        return d

    def new_context(self) -> WebKitContext:
        return WebKitContext(self, self._session())

    def version(self) -> str:
        """WebKitGTK's version, from a session if one is open, else from the driver itself
        (never by starting a browser just to ask)."""
        if self._sessions:
            return str(self._sessions[0].capabilities.get("browserVersion", ""))
        if shutil.which("dpkg-query") is None:
            return ""
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libwebkit2gtk-4.1-0"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip()

    def close(self) -> None:
        for d in list(self._sessions):
            end_session(d)
        self._sessions.clear()
        self.xvfb.close()


def _descendants(pid: int) -> list[int]:
    """Process ids below ``pid`` (from /proc), deepest last."""
    children: dict[int, list[int]] = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        children.setdefault(int(fields[1]), []).append(int(text.split(" ", 1)[0]))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def end_session(driver: Any) -> None:
    """Quit a WebKit session and make sure its MiniBrowser goes too: WebKitWebDriver's
    quit may hang or leave MiniBrowser and its web processes running on their own."""
    import signal

    proc = getattr(getattr(driver, "service", None), "process", None)
    below = _descendants(proc.pid) if proc is not None else []
    done = threading.Event()

    def quit_() -> None:
        try:
            driver.quit()
        except Exception:  # noqa: BLE001 - the processes are ended below anyway
            pass
        done.set()

    threading.Thread(target=quit_, daemon=True).start()
    done.wait(15)
    for pid in [*below, *([proc.pid] if proc is not None else [])]:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


class WebKitContext(Context):
    """A fresh automation session: MiniBrowser's automation storage is ephemeral.

    One window per session: a script in a second tab (a background tab) never returns in
    WebKitGTK's automation, so a "new page" is the same window, emptied first.
    """

    def __init__(self, engine: WebKit, driver: Any) -> None:
        self.engine, self.driver = engine, driver

    def new_page(self, width: int = 1280, height: int = 900) -> WebKitPage:
        self.driver.get("about:blank")
        page = WebKitPage(self.engine, self.driver, self.driver.current_window_handle)
        page.set_viewport(width, height)
        return page

    def close(self) -> None:
        end_session(self.driver)
        if self.driver in self.engine._sessions:
            self.engine._sessions.remove(self.driver)


class WebKitPage(Page):
    def __init__(self, engine: WebKit, driver: Any, handle: str) -> None:
        self.engine: WebKit = engine
        self.driver, self.handle = driver, handle

    def _here(self) -> Any:
        if self.driver.current_window_handle != self.handle:
            self.driver.switch_to.window(self.handle)
        return self.driver

    def goto(self, url: str) -> None:
        self._here().get(url)

    def reload(self) -> None:
        self._here().refresh()

    def evaluate(self, js: str, *args: Any) -> Any:
        from selenium.common.exceptions import WebDriverException

        try:
            return self._here().execute_script(f"return Promise.resolve(({js}).apply(null, arguments));", *args)
        except WebDriverException as exc:
            raise EngineError(f"webkit: {exc.msg}") from None

    def click(self, selector: str) -> None:
        from selenium.webdriver.common.by import By

        self._click(By.CSS_SELECTOR, selector)

    def click_button(self, within: str, label: str) -> None:
        from selenium.webdriver.common.by import By

        self._click(By.XPATH, f"{css_id_xpath(within)}//button[contains(., {json.dumps(label)})]")

    def _click(self, by: str, query: str, timeout: float = 30.0) -> None:
        """Find, wait until shown, click; found again if the page replaced the element in
        between (a re-render), as Playwright's and puppeteer's locators do. An element under
        another (the sticky step bar, after the page scrolled) is scrolled to the middle of
        the view and clicked again, as Playwright does; WebDriver only reports it."""
        from selenium.common.exceptions import (
            ElementClickInterceptedException,
            ElementNotInteractableException,
            NoSuchElementException,
            StaleElementReferenceException,
        )

        d = self._here()
        end = time.monotonic() + timeout * self.engine.slow
        while True:
            try:
                el = d.find_element(by, query)
                if el.is_displayed():
                    el.click()
                    return
            except ElementClickInterceptedException:
                try:
                    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
                except StaleElementReferenceException:
                    pass
            except (NoSuchElementException, StaleElementReferenceException, ElementNotInteractableException):
                pass
            if time.monotonic() > end:
                raise TimeoutError(f"webkit: no {query} to click")
            time.sleep(0.2)

    def click_at(self, x: float, y: float) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        d = self._here()
        ab = ActionBuilder(d)
        ab.pointer_action.move_to_location(int(x), int(y)).click()
        ab.perform()

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(self._here()).send_keys(getattr(Keys, key.upper(), key)).perform()

    def fill(self, selector: str, text: str) -> None:
        from selenium.webdriver.common.by import By

        el = self._here().find_element(By.CSS_SELECTOR, selector)
        el.clear()
        el.send_keys(text)

    def screenshot(self, path: str) -> None:
        self._here().save_screenshot(path)

    def set_viewport(self, width: int, height: int) -> None:
        d = self._here()
        d.set_window_size(width, height)
        # the window's chrome takes some of it: size again so the viewport is what was asked
        inner = d.execute_script("return [innerWidth, innerHeight];")
        d.set_window_size(width + (width - inner[0]), height + (height - inner[1]))

    def events(self) -> dict[str, list[str]]:
        return {"console": [], "errors": [], "dialogs": [], "requests": []}


def css_id_xpath(selector: str) -> str:
    """``#some-id`` as XPath (the only form ``click_button`` takes for its container)."""
    if not selector.startswith("#") or not selector[1:].replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"click_button takes #id, not {selector!r}")
    return f"//*[@id='{selector[1:]}']"


def launch(name: str, downloads: Path | None = None) -> Engine:
    if name == "firefox":
        return Firefox(downloads)
    if name == "webkit":
        return WebKit()
    raise ValueError(f"unknown engine {name!r} (firefox, webkit or webkit-full)")
