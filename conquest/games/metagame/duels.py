"""The games a duel can be played in (M9, M12): titles from the catalog, "built in" from the registry.

Why read them instead of keeping a list: the session's list of games mixes the project's
own games (by id, e.g. ``"conquests"``) with names the host types ("Chess on
BoardGameArena"). Two questions are asked of each entry:

- its title, for everything people see: :func:`game_title` reads
  :func:`conquest.catalog.catalog`, so a game whose rules page exists but whose engine does
  not yet ("reign") is still shown as "To Reign Supreme", never as its id;
- whether the app can play it here (M12, "built in"): :func:`builtin_games` lists the
  registered games (:func:`conquest.core.games`) that two players can play
  (``min_players <= 2 <= max_players``).

So a later two-player game joins the wheel, the defaults and the titles with no change to
the metagame.
"""

from __future__ import annotations

from functools import cache

__all__ = ["builtin_games", "default_games", "game_title", "catalog_id", "FILLER_GAMES", "clear_caches"]

#: this game's own id: the metagame is never a duel of itself
SELF_ID = "metagame"
#: typed names that complete the default wheel when the project has fewer than 3 duel games
FILLER_GAMES = ("Chess", "Go", "Checkers", "Backgammon")


@cache
def _titles() -> dict[str, str]:
    """Catalog id -> title; empty when the catalog cannot be read (titles fall back to names)."""
    try:
        from conquest.catalog import catalog

        return {gid: f.title for gid, f in catalog().items()}
    except Exception:  # a broken data file of another game must not break the metagame
        return {}


@cache
def _two_player_ids() -> tuple[str, ...]:
    """Catalog games two players can play (not the metagame), in id order."""
    try:
        from conquest.catalog import catalog

        found = [gid for gid, f in catalog().items() if gid != SELF_ID and f.min_seats <= 2 <= f.max_seats]
    except Exception:
        return ()
    return tuple(sorted(found))


def game_title(name: str) -> str:
    """What people see for an entry of the session's list: a catalog game's title, else the name."""
    return _titles().get(name, name)


def catalog_id(name: str) -> str | None:
    """The catalog id when the entry is one of the project's games (its rules page exists)."""
    return name if name in _titles() else None


@cache
def builtin_games() -> dict[str, str]:
    """Registered two-player games, id -> title: the duels the app can play here (M12).

    Reads :func:`conquest.core.games`; when the registry cannot be built (another game's
    module is broken while it is being written), each two-player catalog game is looked up
    on its own, so the working ones are still offered.
    """
    from conquest.core import games, get_game

    try:
        registered = dict(games())
    except Exception:
        registered = {}
        for gid in _two_player_ids():
            try:
                registered[gid] = get_game(gid)
            except Exception:
                continue
    found: dict[str, str] = {}
    for gid, game in registered.items():
        try:
            if gid == SELF_ID or not game.min_players <= 2 <= game.max_players:
                continue
            found[gid] = _titles().get(gid) or game.title
        except Exception:  # a game without facts is not offered
            continue
    return found


@cache
def default_games() -> tuple[str, ...]:
    """The default wheel (M9): the project's two-player games, then typed names up to 3.

    Catalog games, not only registered ones: the host records any duel's winner (M12), and a
    game's rules page exists before its engine does. Links always carry the list, so a
    change of the default never changes an existing campaign.
    """
    out = list(_two_player_ids())
    for name in FILLER_GAMES:
        if len(out) >= 3:
            break
        out.append(name)
    return tuple(out)


def clear_caches() -> None:
    """Forget what was read (for tests that register a game on the fly)."""
    for f in (_titles, _two_player_ids, builtin_games, default_games):
        f.cache_clear()
