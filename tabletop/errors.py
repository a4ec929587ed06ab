"""The error hierarchy shared by every package.

Each error carries a message that is shown to a user as one line, so the command line and the
dashboard can say each case plainly (``tabletop: error: cal.json: not a calibration file``).
Subpackages derive their own errors from these (``calibration.errors.MatNotFound``).
"""

from __future__ import annotations


class TabletopError(Exception):
    """Base of every error the product reports to a user.

    Attributes:
        exit_code: The process exit code the command line uses for it (1: input that cannot
            be processed; 2: a usage error).
    """

    exit_code: int = 1

    def __str__(self) -> str:  # one line, always
        return " ".join(super().__str__().split())


class InputError(TabletopError):
    """A file or value given by the user cannot be read or is not what it should be."""


class SceneFormatError(InputError):
    """A scene or piece in JSON does not follow the contract's format."""


class RecordFormatError(InputError):
    """A game record (JSON Lines) or an event in it does not follow the contract's format."""


class UsageError(TabletopError):
    """The command line was used wrongly in a way argparse cannot see."""

    exit_code = 2
