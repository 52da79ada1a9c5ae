"""The build's one error: it names the file at fault."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class BuildError(Exception):
    """A build failure that names the file at fault."""

    def __init__(self, path: Path | str, message: str) -> None:
        rel = Path(path).relative_to(ROOT) if Path(path).is_absolute() and ROOT in Path(path).parents else path
        super().__init__(f"{rel}: {message}")
