"""``tabletop fit SCENE_OR_IMAGE --from X,Y --to X,Y [--calibration CAL]``: can a coin slide?

Prints ``{"fits": bool, "clearance_mm": float, "path": [[x, y], ...], "pinch": [x, y] or
null}``: whether a coin can slide from one point to the other between the pieces on the table,
the width of the narrowest place on the best path (the diameter of the largest coin that would
pass) and where that place is; and for the straight crossing (the gap the user points at)
``"straight_fits"``, ``"straight_clearance_mm"``, ``"straight_pinch"`` and
``"straight_edges"`` (the two edges that make that gap, or null). Every piece is an obstacle
except dice and pawns and except a coin lying at the start point (the coin that slides).

It reads an image through vision and judges the gap with the referee's geometry, so it sits
above both, with the other whole-pipeline commands (``serve``, ``replay``).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from tabletop.errors import InputError, SceneFormatError, UsageError
from tabletop.events import check_scene
from tabletop.limits import PIECE_MM, check_coordinate_mm, check_file_bytes, check_gap_work
from tabletop.pieceset import PieceSet
from tabletop.scene import Scene


def _point(text: str, option: str, where: str) -> tuple[float, float]:
    """``"X,Y"`` in mm as a point; a usage error naming the file and the option otherwise."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"{where}: {option} is a point X,Y in mm, not {text!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise UsageError(f"{where}: {option} must be a finite point X,Y, not {text!r}")
    return (x, y)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds ``fit``."""
    p = subparsers.add_parser(
        "fit", help="can a coin slide from one point to another between the pieces",
        description="Finds the path for a coin sliding between the pieces of a scene (straight "
                    "when the coin fits along it, else the widest way round), and prints "
                    "whether the coin fits, the "
                    "narrowest width on that path, the path and the pinch point (table mm); and "
                    "for the straight crossing between the two points (the gap you point "
                    "at) straight_fits, straight_clearance_mm, straight_pinch and "
                    "straight_edges.")
    p.add_argument("scene", metavar="SCENE_OR_IMAGE",
                   help="a scene (.json, the contract's format) or a camera image")
    p.add_argument("--from", dest="start", required=True, metavar="X,Y",
                   help="where the coin's centre starts (mm)")
    p.add_argument("--to", dest="goal", required=True, metavar="X,Y",
                   help="where it should get to (mm)")
    p.add_argument("--calibration", metavar="CAL.json",
                   help="the table calibration (needed for an image)")
    p.add_argument("--pieces", metavar="PIECES.json",
                   help="sizes of your piece set, if not the reference set")
    p.add_argument("--coin", type=float, metavar="MM",
                   help="the sliding coin's diameter (default: the piece set's coin)")
    p.set_defaults(func=run)


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"BM", b"II*\x00", b"MM\x00*")


def _looks_like_image(path: Path, head: bytes) -> bool:
    return (path.suffix.lower() in IMAGE_SUFFIXES or head.startswith(IMAGE_MAGIC)
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP"))


def _what_json_is(text: bytes) -> str:
    """A few words on a JSON (Lines) file that is not a scene, for the error message."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > 1:
        try:
            for ln in lines[:2]:
                json.loads(ln)
        except ValueError:
            return ""
        return " (it is JSON Lines, like a game record)"
    return ""


def _scene_of(args: argparse.Namespace, pieces: PieceSet) -> Scene:
    path = Path(args.scene)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    try:
        with path.open("rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if not _looks_like_image(path, head):
        if path.suffix.lower() != ".json" and head.lstrip()[:1] not in (b"{", b"["):
            raise InputError(f"{path} is not a scene JSON or an image")
        check_file_bytes(path)
        text = path.read_bytes()
        try:
            return Scene.loads(text, where=str(path))
        except SceneFormatError as exc:
            hint = _what_json_is(text)
            if hint:
                raise InputError(f"{path} is not a scene JSON or an image{hint}") from None
            raise InputError(str(exc) if str(path) in str(exc) else f"{path}: {exc}") from None
    if not args.calibration:
        raise UsageError(f"{path}: an image needs --calibration CAL.json")
    from calibration.model import Calibration
    from vision import Detector
    from vision.io import read_image

    cal = Calibration.load(args.calibration)
    image = read_image(str(path))
    h, w = image.shape[:2]
    if (w, h) != tuple(cal.image_size):
        raise InputError(f"{path} is {w}x{h} but {args.calibration} was made for "
                         f"{cal.image_size[0]}x{cal.image_size[1]}; calibrate again at this "
                         f"resolution")
    return Detector(cal, pieces).detect(image).scene


def run(args: argparse.Namespace) -> int:
    """Runs ``fit``."""
    from referee.geometry import crossing_in_scene, fit_in_scene

    start = _point(args.start, "--from", args.scene)
    goal = _point(args.goal, "--to", args.scene)
    pieces = PieceSet.load(args.pieces) if args.pieces else PieceSet()
    diameter = args.coin if args.coin is not None else pieces.coin_diameter_mm
    if not (math.isfinite(diameter) and PIECE_MM[0] <= diameter <= PIECE_MM[1]):
        raise UsageError(f"{args.scene}: --coin must be {PIECE_MM[0]:g}..{PIECE_MM[1]:g} mm, "
                         f"not {args.coin}")
    scene = _scene_of(args, pieces)
    try:
        check_scene(scene, args.scene)
        for point, option in ((start, "--from"), (goal, "--to")):
            for v in point:
                check_coordinate_mm(v, f"{args.scene}: {option}")
        check_gap_work(scene.pieces, pieces, args.scene, (start, goal))
    except InputError as exc:
        raise InputError(str(exc)) from None
    result = fit_in_scene(scene, start, goal, pieces, diameter)
    straight = crossing_in_scene(scene, start, goal, pieces, diameter)
    print(json.dumps({**result.to_json(), **straight.to_json()}))
    return 0
