"""Reading a user's file, or one line naming it (``cal.json: cannot read (no such calibration
file)``), the same way for every kind of file.

>>> read_text("/no/such/cal.json", "calibration file")
Traceback (most recent call last):
...
tabletop.errors.InputError: /no/such/cal.json: cannot read (no such calibration file)
"""

from __future__ import annotations

from pathlib import Path

from tabletop.errors import InputError
from tabletop.limits import check_file_bytes


def read_bytes(path: str | Path, what: str = "file",
               error: type[InputError] = InputError) -> bytes:
    """The bytes of a file.

    Raises:
        InputError (or ``error``): the file is missing (``no such <what>``), a folder,
            unreadable or far larger than any such file (``tabletop.limits``), naming it.
    """
    p = Path(path)
    check_file_bytes(p, error=error)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise error(f"{p}: cannot read (no such {what})") from None
    except OSError as exc:
        raise error(f"{p}: cannot read ({exc.strerror or exc})") from None


def read_text(path: str | Path, what: str = "file",
              error: type[InputError] = InputError) -> str:
    """The text (UTF-8) of a file.

    Raises:
        InputError (or ``error``): as :func:`read_bytes`, or the file is not UTF-8 text.
    """
    data = read_bytes(path, what, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{Path(path)}: not a text file") from None
