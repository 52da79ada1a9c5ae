"""Entry of the pages without a game (rules, credits, maps): the engine is only made ready.

Why boot Python here at all: the runtime is then cached and warm for the game pages, and the
offline cache is filled on whichever page a visitor opens first.
"""
import frame

frame.ready()
