"""Errors of the Jungle engine, each a one-line message for the user."""

from __future__ import annotations

from tabletop.errors import InputError, UsageError


class JungleError(InputError):
    """Base of the Jungle engine's errors."""


class MoveFormatError(JungleError):
    """A move in text form (``g3g4``) or a move list cannot be read."""


class IllegalMoveError(JungleError):
    """A move breaks a rule (``push`` of an illegal move, a move list with an illegal move)."""


class PositionFormatError(JungleError):
    """A position in text form cannot be read or is impossible."""


class UnknownVariantError(JungleError):
    """No Jungle variant has that name."""


class PerftFileError(JungleError):
    """A ``--positions`` file or a ``.perft`` file cannot be read."""


class PerftUsageError(UsageError):
    """The perft command was used wrongly (a depth that is not a small positive number)."""
