"""Finds a game by name: ``find_game("worm-derby")``."""

from __future__ import annotations

from referee.base import Game
from tabletop.errors import RecordFormatError
from tabletop.events import Setup

_GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: makes a game findable by its name and aliases."""
    for name in (cls.name, *cls.aliases):
        _GAMES[name] = cls
    return cls


def _load_all() -> None:
    # Each game's package registers its game when imported (they import this module, so not
    # at the top of it).
    import referee.jungle
    import referee.worm_derby
    import referee.worm_up  # noqa: F401


def game_names() -> list[str]:
    """The main names of every registered game."""
    _load_all()
    return sorted({cls.name for cls in _GAMES.values()})


def find_game(name: str) -> type[Game]:
    """The game class with that name or alias.

    Raises:
        RecordFormatError: when no game has that name.
    """
    _load_all()
    try:
        return _GAMES[name]
    except KeyError:
        raise RecordFormatError(
            f"unknown game {name!r} (known: {', '.join(game_names()) or 'none'})") from None


def make_game(setup: Setup) -> Game:
    """The configured game for a setup event (its options checked first).

    Raises:
        RecordFormatError: an unknown game, an unknown option or a bad value.
    """
    cls = find_game(setup.game)
    cls.check_options(setup.options)
    return cls.from_setup(setup)
