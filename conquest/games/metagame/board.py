"""The map as the metagame engine needs it: territories by index, adjacency, distances.

Why an adapter of its own instead of using :class:`conquest.maps.MapData` directly: the
engine works on integer indices (compact action texts, tuples for owners), needs the
distance between any two territories many times (M4 capitals), and must also run on small
fixture maps in tests. A :class:`Board` is built once per map and cached, and states only
hold a reference to it.

Maps come from :func:`conquest.maps.load_map` (by id) or from a map JSON dict passed in the
options (``map_data``), validated by :func:`conquest.maps.parse_map`. The import is lazy so
the engine module loads even where the map module is not available; a dict map then gets a
minimal check here.

A map from the options comes from a link, so it is bounded before anything is built from
it (:func:`check_map_size`): at most :data:`MAX_TERRITORIES` territories and
:data:`MAX_EDGES` borders. The engine's costs grow with the map (all-pairs distances are
n x (n + edges), each step scans the territories), and these caps keep the replay of the
worst accepted link within the budget stated in ``tests/test_hardening_resources.py``.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["Board", "BoardError", "board_for_options", "check_map_size", "MAX_TERRITORIES", "MAX_EDGES"]

#: the largest map the options may carry (the built-in usa100 has 100)
MAX_TERRITORIES = 200
#: borders of such a map: a planar map of 200 territories has at most 594, sea links add a few
MAX_EDGES = 1_000
#: the longest territory name or map title in a map from the options
MAX_MAP_NAME = 80
#: boards built from maps in the options kept in memory (a page may open many links)
_MAX_CACHED_DATA_BOARDS = 16


class BoardError(ValueError):
    """The map named or given in the options cannot be used."""


class Board:
    """An immutable territory graph; ``key`` identifies it (equal keys, equal boards)."""

    __slots__ = ("key", "map_id", "title", "ids", "names", "adj", "adjset", "data", "_dist", "_index")

    def __init__(
        self,
        key: str,
        map_id: str,
        title: str,
        ids: Sequence[str],
        names: Sequence[str],
        edges: Sequence[tuple[int, int]],
        data: Mapping[str, Any] | None = None,
    ) -> None:
        self.key = key
        self.map_id = map_id
        self.title = title
        self.ids: tuple[str, ...] = tuple(ids)
        self.names: tuple[str, ...] = tuple(names)
        n = len(self.ids)
        neigh: list[set[int]] = [set() for _ in range(n)]
        for a, b in edges:
            if a != b:
                neigh[a].add(b)
                neigh[b].add(a)
        self.adj: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(s)) for s in neigh)
        #: the same as sets: "borders the target?" is asked for every territory in a step
        self.adjset: tuple[frozenset[int], ...] = tuple(frozenset(s) for s in neigh)
        #: the map JSON when the map came from the options (so states can be rebuilt)
        self.data = data
        self._dist: tuple[tuple[int, ...], ...] | None = None
        self._index = {tid: i for i, tid in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Board({self.key!r}, {len(self)} territories)"

    def index(self, tid: str) -> int:
        return self._index[tid]

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.adjset[a]

    @property
    def dist(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs graph distances (M1: "N territories away" counts edges); -1 = unreachable."""
        if self._dist is None:
            n = len(self.ids)
            rows = []
            for s in range(n):
                row = [-1] * n
                row[s] = 0
                queue = deque([s])
                while queue:
                    u = queue.popleft()
                    for v in self.adj[u]:
                        if row[v] < 0:
                            row[v] = row[u] + 1
                            queue.append(v)
                rows.append(tuple(row))
            self._dist = tuple(rows)
        return self._dist

    def connected(self) -> bool:
        return all(d >= 0 for d in self.dist[0]) if self.ids else False


_CACHE: dict[str, Board] = {}


def _from_mapdata(key: str, md: Any, data: Mapping[str, Any] | None) -> Board:
    terrs = sorted(md.territories, key=lambda t: t.index)
    ids = [t.id for t in terrs]
    pos = {tid: i for i, tid in enumerate(ids)}
    edges = [(pos[a], pos[b]) for a, b in md.edges]
    return Board(key, md.id, md.title, ids, [t.name for t in terrs], edges, data)


def _from_raw(key: str, obj: Mapping[str, Any]) -> Board:
    """Minimal reading of a map dict, used only when :mod:`conquest.maps` is unavailable."""
    try:
        terrs = list(obj["territories"])
        ids = [str(t["id"]) for t in terrs]
        names = [str(t.get("name", t["id"])) for t in terrs]
        pos = {tid: i for i, tid in enumerate(ids)}
        if len(pos) != len(ids):
            raise BoardError("the map lists a territory twice")
        edges = [(pos[str(a)], pos[str(b)]) for a, b in obj["edges"]]
        return Board(key, str(obj.get("id", "custom")), str(obj.get("title", "")), ids, names, edges, obj)
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardError(f"the map data is not a usable map ({exc})") from None


def check_map_size(obj: Any) -> None:
    """Refuse a map dict too large to play before anything is built from it (BoardError).

    Only the sizes are checked here; the rest is :func:`conquest.maps.parse_map`'s.
    """
    if not isinstance(obj, Mapping):
        raise BoardError("the map data must be a map object")
    for key, cap, what in (
        ("territories", MAX_TERRITORIES, "territories"),
        ("edges", MAX_EDGES, "borders (edges)"),
        ("sea_links", MAX_EDGES, "sea links"),
    ):
        items = obj.get(key)
        if isinstance(items, (list, tuple)) and len(items) > cap:
            raise BoardError(
                f"the map in the options has {len(items):,} {what}; a map here has at most {cap:,}"
            )
    # names appear in every log line and message: keep them short
    texts = [obj.get("title")] + [t.get("name") for t in obj.get("territories") or () if isinstance(t, Mapping)]
    if any(isinstance(x, str) and len(x) > MAX_MAP_NAME for x in texts):
        raise BoardError(f"the map's title and territory names are at most {MAX_MAP_NAME} characters")


def _remember(key: str, board: Board) -> Board:
    if key.startswith("data:"):
        data_keys = [k for k in _CACHE if k.startswith("data:")]
        for old in data_keys[: max(0, len(data_keys) - _MAX_CACHED_DATA_BOARDS + 1)]:
            del _CACHE[old]
    _CACHE[key] = board
    return board


def _check(board: Board) -> Board:
    if len(board) < 2:
        raise BoardError("a map needs at least two territories")
    if not board.connected():
        raise BoardError("M1: the map's adjacency graph must be connected")
    return board


def board_for_options(map_id: str, map_data: Mapping[str, Any] | None) -> Board:
    """The board for a game's options, cached: ``map_data`` (a map dict) wins over ``map_id``."""
    if map_data is not None:
        check_map_size(map_data)
        try:
            canon = json.dumps(map_data, sort_keys=True, separators=(",", ":"))
            key = "data:" + hashlib.sha1(canon.encode("utf-8")).hexdigest()[:16]
        except (TypeError, ValueError):  # not JSON data, or text that is not Unicode
            raise BoardError("the map data is not plain JSON data") from None
        if key in _CACHE:
            return _CACHE[key]
        try:
            from conquest import maps  # lazy: see the module docstring
        except ImportError:
            board = _from_raw(key, map_data)
        else:
            try:
                md = maps.parse_map(dict(map_data), "options.map_data")
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                why = str(exc)
                why = why if len(why) <= 200 else why[:200] + "…"
                raise BoardError(f"M1: the map data is not a usable map: {why}") from None
            board = _from_mapdata(key, md, map_data)
        return _remember(key, _check(board))
    key = "id:" + map_id
    if key in _CACHE:
        return _CACHE[key]
    try:
        from conquest import maps
    except ImportError:
        raise BoardError("the map module (conquest.maps) is not available") from None
    try:
        md = maps.load_map(map_id)
    except (ValueError, OSError, KeyError) as exc:
        raise BoardError(f"M1: the map {map_id!r} cannot be loaded: {exc}") from None
    return _remember(key, _check(_from_mapdata(key, md, None)))
