"""Conquest: pure-Python rules engines for five conquest games.

Standard library only, so the same code runs under CPython 3.11+ and Pyodide's 3.14.
"""
from __future__ import annotations

__version__ = "0.1.0"
