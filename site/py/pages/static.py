"""Entry of the pages without a game (rules, credits, maps): the engine is only made ready.

Why boot Python here at all: the runtime is then cached and warm for the game pages, and the
offline cache is filled on whichever page a visitor opens first.
"""
import frame


def main() -> None:
    """Run by the page's bootstrap (a function, so importing the module does nothing: the
    build imports every module to learn what they use, issue 38)."""
    frame.ready()
