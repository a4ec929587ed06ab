"""``tabletop perft jungle DEPTH [--moves ...] [--positions FILE] [--variant NAME]...``."""

from __future__ import annotations

import argparse
import sys

from referee.jungle.errors import JungleError, PerftFileError, PerftUsageError
from referee.jungle.perft import divide, iter_move_lists, perft, position_after
from referee.jungle.position import move_text
from referee.jungle.rules import find_variant, rules_for, variant_names

HELP = """\
Counts the move sequences of DEPTH plies from the start position (or after --moves, or after
each move list of --positions). Perft follows the movement rules only: the one game-end
cut-off is a den entry or the capture of a side's last piece (no move follows those); the
repetition rule is NOT applied inside perft, and the turn timer does not exist here.
Squares a1..g9 as in the contract; a move list is moves like g3g4 separated by spaces.
"""


def _variant(name: str) -> str:
    """A known variant name or alias (an unknown one is a usage error, exit 2)."""
    try:
        find_variant(name)
    except JungleError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def register(sub: argparse._SubParsersAction) -> None:
    """Adds the ``perft`` subcommand."""
    p = sub.add_parser("perft", help="count move sequences of a depth (rules engine check)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=["jungle"], help="the game (only jungle has perft)")
    p.add_argument("depth", metavar="DEPTH", help="plies to count, 0..20")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--moves", default="", metavar='"g3g4 a7b7 ..."',
                     help="count from the position after these moves")
    src.add_argument("--positions", metavar="FILE",
                     help="one move list a line ('-' or an empty list: the start); prints one "
                          "count a line")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", type=_variant,
                   help=f"a rule variant, repeatable: {', '.join(variant_names())}")
    p.add_argument("--divide", action="store_true",
                   help="print the count under each first move (move: count), then the total")
    p.set_defaults(func=run_perft)


def _depth(text: str) -> int:
    try:
        d = int(text)
    except ValueError:
        raise PerftUsageError(f"DEPTH must be a whole number, not {text!r}") from None
    if not 0 <= d <= 20:
        raise PerftUsageError(f"DEPTH must be 0..20, not {d}")
    return d


def run_perft(args: argparse.Namespace) -> int:
    """Runs the command; returns the exit code."""
    depth = _depth(args.depth)
    rules = rules_for(args.variant)
    if args.positions:
        lines = list(iter_move_lists(args.positions))
        out = []
        for n, moves in lines:
            try:
                pos = position_after(moves, rules)
            except JungleError as exc:
                raise PerftFileError(f"{args.positions}: line {n}: {exc}") from None
            out.append(str(perft(pos, depth)))
        sys.stdout.write("".join(line + "\n" for line in out))
        return 0
    pos = position_after(args.moves, rules)
    if args.divide and depth >= 1:
        counts = divide(pos, depth)
        for m, c in counts.items():
            sys.stdout.write(f"{move_text(m)}: {c}\n")
        sys.stdout.write(f"{sum(counts.values())}\n")
        return 0
    sys.stdout.write(f"{perft(pos, depth)}\n")
    return 0
