"""The ``tabletop`` command line.

Each package adds its own subcommands: a module ``<package>/cli.py`` with a function
``register(subparsers)`` that adds parsers and sets ``func`` (called with the parsed arguments,
returning an exit code). A subcommand exists only once its module does.

Errors: a :class:`tabletop.errors.TabletopError` prints one line ``tabletop: error: ...`` on
stderr and exits with its code (1 input, 2 usage); argparse's own usage errors exit 2; anything
unexpected prints one line too (set ``TABLETOP_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import os
import re
import sys
from collections.abc import Callable, Sequence

# numpy's BLAS threads only spin on the small arrays the pipeline handles (they took a second
# core for nothing): one thread unless the user says otherwise. Set before numpy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
# OpenCV's own ceiling on decoded pictures (pictures are checked from their headers first, see
# tabletop.images; this holds for any path that reaches OpenCV directly).
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "50000000")

from tabletop import __version__  # noqa: E402
from tabletop.errors import TabletopError  # noqa: E402

COMMAND_MODULES: tuple[str, ...] = (
    "live.cli",         # replay
    "web.cli",          # demo, serve
    "calibration.cli",  # mat, calibrate, lens, board
    "live.detect_cli",  # detect (looks for a registered game's pieces)
    "referee.cli",      # referee, fit, perft
    "calibration.board_cli",  # board (the printable Jungle board)
    "live.fit_cli",  # fit (can a coin slide from A to B)
    "referee.export.cli",  # export (move list, PPN, SVG, PNG)
    "tabletop.render.cli",  # render (the scene renderer, for test data)
)


def number_in(lo: float, hi: float, unit: str = "") -> Callable[[str], float]:
    """An argparse ``type``: a finite number within ``[lo, hi]`` (``nan``, ``inf`` refused).

    >>> number_in(72, 600, " dpi")("300")
    300.0
    >>> number_in(72, 600, " dpi")("100000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 72..600 dpi, not 100000
    """
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(v) or not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo:g}..{hi:g}{unit}, not {text}")
        return v

    parse.__name__ = "number"  # argparse names the type in its messages
    return parse


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand that exists."""
    parser = _Parser(
        prog="tabletop",
        description="Watches a real table through an overhead webcam and referees games on it.",
    )
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name.rsplit(".", 1)[0]) is None:
            continue
        if importlib.util.find_spec(name) is None:
            continue
        importlib.import_module(name).register(sub)
    return parser


_NEGATIVE_VALUES = re.compile(r"^-\d[\d.]*(,-?\d[\d.]*)*$")


def join_negative_values(argv: Sequence[str]) -> list[str]:
    """Lets ``--from -1,2`` mean ``--from=-1,2`` (argparse would take ``-1,2`` for an option).

    >>> join_negative_values(["fit", "s.json", "--from", "-1.5,2", "--to", "3,-4"])
    ['fit', 's.json', '--from=-1.5,2', '--to', '3,-4']
    """
    out: list[str] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        if (tok.startswith("--") and "=" not in tok and i + 1 < len(argv)
                and _NEGATIVE_VALUES.match(argv[i + 1])):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(join_negative_values(sys.argv[1:] if argv is None else argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return int(args.func(args) or 0)
    except TabletopError as exc:
        print(f"tabletop: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("tabletop: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # never a traceback for a user
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        print(f"tabletop: error: internal error: {type(exc).__name__}: "
              f"{' '.join(str(exc).split())} (set TABLETOP_DEBUG=1 for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
