"""``tabletop board jungle -o OUT.pdf|.png``: the printable Jungle board and its token sheet;
``tabletop board jungle --photo IMAGE -o CAL.json``: a calibration to the board's own frame."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tabletop.cli import number_in
from tabletop.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``board`` subcommand."""
    p = subparsers.add_parser(
        "board", help="printable Jungle board (with its calibration markers) and token sheet",
        description="Writes the Animal Game's board (A3: 7x9 squares of 38 mm, rivers, traps, "
                    "dens, and four corner ArUco markers, ids 40-43, that are its calibration) "
                    "and the token sheet (A4: 16 tokens with ArUco markers 50-65, the animal's "
                    "name and rank, red for the first player and blue for the second). A PDF "
                    "gets both as two pages; a PNG gets the tokens beside it as NAME-tokens.png. "
                    "Print at 100 %. With --photo, calibrates a camera photo of the printed "
                    "board instead and writes CAL.json whose millimetre frame is the board's "
                    "(origin at the outer corner of a1, x towards file g, y towards rank 9): "
                    "the frame the Jungle referee reads tokens in.")
    p.add_argument("game", choices=["jungle"], help="the game (only jungle has a board)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf|.png|CAL.json",
                   help="the file to write")
    p.add_argument("--dpi", type=number_in(72, 600, " dpi"), default=300.0,
                   help="print resolution (72..600, default 300)")
    p.add_argument("--photo", metavar="IMAGE",
                   help="a camera photo of the printed board: write its calibration (CAL.json)")
    p.add_argument("--lens", metavar="LENS.json", help="with --photo: undistort first")
    p.set_defaults(func=run_board)


def run_board(args: argparse.Namespace) -> int:
    """Writes the files and prints one ``name=path`` line each (or ``reprojection_mm=``)."""
    if args.photo:
        return _calibrate(args)
    if args.lens:
        raise UsageError("--lens goes with --photo")
    from calibration.jungle_board import save_board

    written = save_board(args.output, args.dpi)
    names = ("board", "tokens") if len(written) == 2 else ("board_and_tokens",)
    for name, path in zip(names, written, strict=True):
        sys.stdout.write(f"{name}={path}\n")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from calibration.cli import read_image
    from calibration.errors import CalibrationError
    from calibration.jungle_board import calibrate_from_board
    from calibration.model import Lens

    out = Path(args.output)
    if out.suffix.lower() != ".json":
        raise UsageError(f"{out}: with --photo the output is a calibration file (.json)")
    lens = Lens.load(args.lens) if args.lens else None
    image = read_image(args.photo)
    try:
        cal = calibrate_from_board(image, lens)
    except CalibrationError as exc:
        raise type(exc)(f"{args.photo}: {exc}") from None
    cal.save(out)
    used = cal.extra.get("markers", {}).get("inlier_ids", [])
    sys.stdout.write(f"{args.photo}: {len(used)} of the board's 4 corner markers used\n")
    sys.stdout.write(f"reprojection_mm={cal.reprojection_mm:.4f}\n")
    return 0
