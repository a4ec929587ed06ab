"""``tabletop board jungle -o OUT.pdf|.png``: the printable Jungle board and its token sheet."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``board`` subcommand."""
    p = subparsers.add_parser(
        "board", help="printable Jungle board (with its calibration markers) and token sheet",
        description="Writes the Animal Game's board (A3: 7x9 squares of 38 mm, rivers, traps, "
                    "dens, and four corner ArUco markers, ids 40-43, that are its calibration) "
                    "and the token sheet (A4: 16 tokens with ArUco markers 50-65, the animal's "
                    "name and rank, red for the first player and blue for the second). A PDF "
                    "gets both as two pages; a PNG gets the tokens beside it as NAME-tokens.png. "
                    "Print at 100 %.")
    p.add_argument("game", choices=["jungle"], help="the game (only jungle has a board)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf|.png",
                   help="the file to write")
    p.add_argument("--dpi", type=float, default=300.0, help="print resolution (default 300)")
    p.set_defaults(func=run_board)


def run_board(args: argparse.Namespace) -> int:
    """Writes the files and prints one ``name=path`` line each."""
    from calibration.jungle_board import save_board

    written = save_board(args.output, args.dpi)
    names = ("board", "tokens") if len(written) == 2 else ("board_and_tokens",)
    for name, path in zip(names, written, strict=True):
        sys.stdout.write(f"{name}={path}\n")
    return 0
