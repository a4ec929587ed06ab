"""``tabletop render SCENE.json -o OUT.jpg``: a scene drawn as the webcam would see it, with its
ground truth beside it (``OUT.json``: camera, calibration points, each piece's pixels)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from tabletop.cli import number_in
from tabletop.errors import InputError, UsageError
from tabletop.events import check_scene
from tabletop.pieceset import PieceSet
from tabletop.render.render import default_pose_for, render_scene
from tabletop.render.settings import SURFACES, RenderSettings
from tabletop.scene import Scene


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, not {text!r}") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text} is out of range")
    return (w, h)


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= seed < 2**32:
        raise argparse.ArgumentTypeError(f"{text} is not 0..2**32-1")
    return seed


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds ``render``."""
    p = subparsers.add_parser(
        "render", help="draw a scene as an overhead webcam would see it (test data)",
        description="Draws SCENE.json (pieces in table mm) as an overhead webcam would see it and "
                    "writes the image and, beside it, OUT.json with the exact ground truth "
                    "(camera, calibration points, pixel of every piece).")
    p.add_argument("scene", metavar="SCENE.json", help="a scene in the contract's JSON format")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jpg",
                   help="image to write (.jpg or .png)")
    p.add_argument("--seed", type=_seed, default=0, metavar="N",
                   help="random seed (0..2**32-1, default 0)")
    p.add_argument("--height", type=number_in(100, 5000, " mm"), default=900.0, metavar="MM",
                   help="camera height above the table (100..5000, default 900)")
    p.add_argument("--tilt", type=number_in(0, 60, " degrees"), default=10.0, metavar="DEG",
                   help="camera tilt from vertical (0..60, default 10)")
    p.add_argument("--yaw", type=number_in(-360, 360, " degrees"), default=0.0, metavar="DEG",
                   help="camera yaw (default 0)")
    p.add_argument("--hfov", type=number_in(10, 150, " degrees"), default=60.0, metavar="DEG",
                   help="horizontal field of view (10..150, default 60)")
    p.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                   help="image size (default 1280x720)")
    p.add_argument("--table", choices=SURFACES, default="wood", metavar="TABLE",
                   help=f"table surface: {', '.join(SURFACES)} (default wood)")
    p.add_argument("--hand", action="store_true", help="a hand and arm over the table")
    p.add_argument("--pieces", metavar="PIECES.json", help="piece set overrides")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Renders one scene."""
    out = Path(args.output)
    if out.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise UsageError(f"{out}: the output must end in .jpg or .png")
    scene = check_scene(Scene.load(args.scene), args.scene)
    pieces = PieceSet.load(args.pieces) if args.pieces else PieceSet()
    pose = default_pose_for(scene, args.height, args.tilt, args.yaw, args.size, args.hfov)
    settings = RenderSettings(seed=args.seed, table=args.table, hand=args.hand,
                              jpeg_quality=None)
    r = render_scene(scene, pose, settings, pieces)
    params = [cv2.IMWRITE_JPEG_QUALITY, 90] if out.suffix.lower() != ".png" else []
    try:
        ok = cv2.imwrite(str(out), r.image, params)
    except cv2.error:
        ok = False
    if not ok:
        raise InputError(f"{out}: cannot write the image")
    truth_path = out.with_suffix(".json")
    try:
        truth_path.write_text(json.dumps(r.truth_json(out.name), indent=1) + "\n",
                              encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{truth_path}: cannot write ({exc.strerror})") from None
    print(f"{out} {truth_path}")
    return 0
