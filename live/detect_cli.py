"""``tabletop detect IMAGE --calibration CAL.json [--game G]``: a scene as JSON.

Here rather than in ``vision`` because ``--game`` names a registered game
(:mod:`referee.registry`): the detector looks for that game's piece kinds, as the live pipeline
does.
"""

from __future__ import annotations

import argparse
import sys

from calibration.errors import ResolutionMismatch
from calibration.model import Calibration
from live.cli import game_help
from referee.registry import find_spec
from tabletop.pieceset import PieceSet
from vision.detector import Detector, DetectorConfig
from vision.io import read_image


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``detect`` subcommand."""
    p = subparsers.add_parser(
        "detect", help="detect the pieces in one image; prints the scene as JSON",
        description="Detects the pieces on a calibrated table in one image and prints the "
                    "scene (the contract's JSON: positions in table mm).")
    p.add_argument("image", metavar="IMAGE", help="the camera image (JPEG, PNG...)")
    p.add_argument("--calibration", required=True, metavar="CAL.json",
                   help="the table calibration made by `tabletop calibrate`")
    p.add_argument("--game", help=game_help("look only for the pieces this game uses: "))
    p.add_argument("--pieces", metavar="PIECES.json",
                   help="sizes and colours of your piece set, if not the reference set")
    p.add_argument("--timings", action="store_true",
                   help="also print each stage's time in ms on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs ``detect``."""
    kinds = find_spec(args.game).piece_kinds if args.game else None
    cal = Calibration.load(args.calibration)
    pieces = PieceSet.load(args.pieces) if args.pieces else PieceSet()
    image = read_image(args.image)
    h, w = image.shape[:2]
    cw, ch = cal.image_size
    if (w, h) != (cw, ch):
        raise ResolutionMismatch(f"{args.image} is {w}x{h} but {args.calibration} was made for "
                                 f"{cw}x{ch}; calibrate again at this resolution")
    det = Detector(cal, pieces, DetectorConfig(kinds=kinds) if kinds else DetectorConfig())
    res = det.detect(image)
    print(res.scene.dumps())
    if args.timings:
        print(" ".join(f"{k}_ms={v:.1f}" for k, v in res.timings_ms.items()), file=sys.stderr)
    return 0
