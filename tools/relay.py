"""A Nostr relay on 127.0.0.1 for the live-play tests and benchmark (issue 22).

Why a real relay: live play signals over Nostr relays (Trystero); the tests must never reach
the internet, so they run the PyPI package ``nostr-relay`` (the ``test`` extra) locally and
give the pages its address through the live settings. The executable is found beside the
running Python, on PATH, or at ``CONQUEST_NOSTR_RELAY``.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CONFIG = """\
DEBUG: false
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{db}
  num_concurrent_reqs: 10
  num_concurrent_adds: 2
  validators:
    - nostr_relay.validators.is_signed
verification:
  nip05_verification: disabled
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
  loglevel: warning
  reload: false
purple:
  host: 127.0.0.1
  port: {port}
  workers: 1
  disable_compression: true
authentication:
  enabled: false
message_timeout: 1800
subscription_limit: 64
"""


def relay_executable() -> str:
    env = os.environ.get("CONQUEST_NOSTR_RELAY")
    if env:
        return env
    beside = Path(sys.executable).parent / "nostr-relay"
    if beside.exists():
        return str(beside)
    found = shutil.which("nostr-relay")
    if found is None:
        raise RuntimeError("the nostr-relay package is needed (pip install -e '.[test]')")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def local_relay() -> Iterator[str]:
    """``ws://127.0.0.1:PORT`` of a relay running until the block ends."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="conquest-relay-") as tmp:
        cfg = Path(tmp) / "relay.yaml"
        cfg.write_text(CONFIG.format(port=port, db=Path(tmp) / "relay.sqlite3"), encoding="utf-8")
        log = open(Path(tmp) / "relay.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen([relay_executable(), "-c", str(cfg), "serve"], cwd=tmp, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise RuntimeError("the relay stopped: " + (Path(tmp) / "relay.log").read_text(errors="replace")[-2000:])
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                raise RuntimeError("the relay did not start within 30 s")
            yield f"ws://127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
