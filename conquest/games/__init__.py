"""The games. Each module or package here exposes ``GAME``, a :class:`conquest.core.Game`.

The registry (:func:`conquest.core.games`) discovers them, so adding a game touches
nothing outside its own module, data file and template.
"""
