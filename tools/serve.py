#!/usr/bin/env python3
"""Serve ``_site/`` on http://127.0.0.1:8000 the way GitHub Pages does: gzip and MIME types.

Why not ``python -m http.server``: it sends neither gzip nor the WebAssembly MIME type, so
the first visit would move 3x the bytes Pages moves and the figures would mislead.
"""
from __future__ import annotations

import argparse
import gzip
import mimetypes
import os
import sys
import threading
from functools import lru_cache
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".wasm", ".py", ".txt", ".map"}
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".py": "text/plain; charset=utf-8",
    ".zip": "application/zip",
}


@lru_cache(maxsize=256)
def gzipped(path: str, mtime: float, size: int) -> bytes:
    with open(path, "rb") as f:
        return gzip.compress(f.read(), compresslevel=6, mtime=0)


class Handler(SimpleHTTPRequestHandler):
    #: bytes of response bodies and headers sent, for benchmarks (reset by assigning 0)
    bytes_sent = 0
    requests = 0
    #: when a list, each answered request is appended as (path, status, bytes sent): the
    #: site benchmark checks that a first visit fetches no file twice
    record: list[tuple[str, int, int]] | None = None
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if os.environ.get("CONQUEST_SERVE_LOG"):
            super().log_message(format, *args)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def handle_one_request(self) -> None:
        wrapped = _Counting(self.wfile)
        self.wfile = wrapped  # type: ignore[assignment]
        try:
            super().handle_one_request()
        finally:
            Handler.bytes_sent += wrapped.count
            if wrapped.count:
                Handler.requests += 1
                if Handler.record is not None and hasattr(self, "path"):
                    Handler.record.append((self.path, getattr(self, "_status", 0), wrapped.count))

    def send_response(self, code, message=None):  # type: ignore[no-untyped-def]
        self._status = int(code)
        super().send_response(code, message)

    def send_head(self):  # type: ignore[override]
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()
            path = os.path.join(path, "index.html")
        ext = os.path.splitext(path)[1]
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if ext not in COMPRESSIBLE or not accepts or not os.path.isfile(path):
            return super().send_head()
        st = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and since == self.date_time_string(int(st.st_mtime)):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.send_header("Last-Modified", since)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        body = gzipped(path, st.st_mtime, st.st_size)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", TYPES.get(ext) or mimetypes.guess_type(path)[0] or "application/octet-stream")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
        self.end_headers()
        import io

        return io.BytesIO(body)


class _Counting:
    """A write-through wrapper that counts the bytes the server sends."""

    def __init__(self, raw) -> None:  # noqa: ANN001
        self.raw = raw.raw if isinstance(raw, _Counting) else raw
        self.count = 0

    def write(self, data: bytes) -> int:
        self.count += len(data)
        return self.raw.write(data)

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self.raw, name)


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    handler = lambda *a, **k: Handler(*a, directory=str(directory), **k)  # noqa: E731
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(directory: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """For tests and benchmarks: a server on a free port, stopped with ``server.shutdown()``."""
    server = make_server(directory, port=port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(Path(__file__).resolve().parent.parent / "_site"))
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if not (Path(args.dir) / "index.html").exists():
        print(f"{args.dir} has no index.html: run build.py first", file=sys.stderr)
        return 1
    server = make_server(Path(args.dir), port=args.port)
    print(f"Serving {args.dir} on http://127.0.0.1:{args.port}/ (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
