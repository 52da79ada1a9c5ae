"""Seat colours shared by every game and page.

Why one place: the set-up of every game offers the same colours, and the engines fill in
defaults from the same list, so a colour in a link means the same everywhere.
"""
from __future__ import annotations

__all__ = ["PALETTE", "PALETTE_NAMES", "WHEEL_COLOURS"]

#: the Okabe-Ito palette (told apart with the common kinds of colour blindness), black
#: swapped for grey so territory names stay readable on it
PALETTE = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999")
PALETTE_NAMES = ("Orange", "Sky blue", "Bluish green", "Yellow", "Blue", "Vermilion", "Reddish purple", "Grey")

#: the Metagame wheel's game colours (its console and the landing page's picture): none of
#: them near a seat colour above, so a slice is never read as a player's (issue 21, item 8;
#: from Paul Tol's colour-blind safe schemes, each at least 70 apart from every seat colour
#: in RGB)
WHEEL_COLOURS = (
    "#332288", "#999933", "#44aa99", "#882255", "#a6d854",
    "#8c564b", "#bcbddc", "#117733", "#7b3294", "#dfc27d",
)
