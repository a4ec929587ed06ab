"""Subcommands ``mat``, ``calibrate`` and ``lens``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.cli import number_in
from tabletop.errors import InputError, UsageError
from tabletop.printing import PAPER_MM, save_printable

if TYPE_CHECKING:
    import numpy as np

# OpenCV and the calibration modules are imported inside the commands, so that
# `tabletop --help` and the other subcommands start without loading them.


def read_image(path: str | Path, flags: int | None = None) -> np.ndarray:
    """Reads an image file (colour unless ``flags`` say otherwise) or raises a one-line
    :class:`InputError`."""
    import cv2

    from tabletop.images import read_image as read_checked

    return read_checked(path, grey=flags == cv2.IMREAD_GRAYSCALE)


def _mat(args: argparse.Namespace) -> int:
    from calibration.mat import make_mat

    if not args.dpi > 0:
        raise UsageError(f"--dpi must be positive, not {args.dpi:g}")
    sheet = make_mat(args.paper, dpi=args.dpi)
    out = save_printable(sheet.image_bgr, args.output, sheet.dpi)
    print(f"{out}: {args.paper} mat, {len(sheet.marker_corners_mm)} markers of "
          f"{sheet.marker_mm:g} mm; print at 100 % and check the 100 mm bar with a ruler")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from calibration.errors import MatNotFound, ResolutionMismatch
    from calibration.from_mat import calibrate_from_mat
    from calibration.homography import calibrate_from_points
    from calibration.model import Lens

    if args.show and Path(args.show).suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise UsageError(f"{args.show}: --show writes a .png or .jpg picture")
    lens = Lens.load(args.lens) if args.lens else None
    img = read_image(args.image)
    if lens is not None and tuple(lens.image_size) != (img.shape[1], img.shape[0]):
        raise ResolutionMismatch(
            f"{args.image} is {img.shape[1]}x{img.shape[0]} but {args.lens} was calibrated at "
            f"{lens.image_size[0]}x{lens.image_size[1]}; use a lens file of this camera "
            f"resolution")
    if args.points:
        from calibration.homography import load_points
        from tabletop.limits import MAX_POINTS

        given = load_points(args.points)
        if isinstance(given, list) and len(given) > MAX_POINTS:
            raise InputError(f"{args.points}: {len(given)} points; a calibration takes at "
                             f"most {MAX_POINTS}")
    try:
        if args.points:
            if args.paper or args.bar_mm is not None:
                raise UsageError("--paper and --bar-mm are for the mat, not with --points")
            size = (img.shape[1], img.shape[0])
            cal = calibrate_from_points(args.points, size, lens)
        else:
            cal = calibrate_from_mat(img, args.paper, lens,
                                     100.0 if args.bar_mm is None else args.bar_mm)
    except MatNotFound as exc:
        raise MatNotFound(f"{args.image}: {exc}") from None
    except ResolutionMismatch as exc:
        raise ResolutionMismatch(f"{args.image}: {exc}") from None
    cal.save(args.output)
    if args.show:
        from calibration.annotate import CalibrationAnnotator

        out = CalibrationAnnotator(thickness=max(1, round(img.shape[1] / 900))).annotate(img, cal)
        try:
            written = cv2.imwrite(str(args.show), out)
        except cv2.error:
            written = False
        if not written:
            raise InputError(f"{args.show}: cannot write the picture")
    fit = cal.extra.get("fit", {})
    if "markers" in cal.extra:
        m = cal.extra["markers"]
        print(f"{args.image}: {len(m['inlier_ids'])} markers used"
              + (f" (ignored, misread or moved: {m['outlier_ids']})" if m["outlier_ids"] else "")
              + f", {cal.extra['mat']['paper']} mat")
    print(f"max_error_mm={fit.get('residual_max_mm', 0.0):.4f}")
    print(f"reprojection_mm={cal.reprojection_mm:.4f}")
    return 0


def _pattern(text: str) -> tuple[int, int]:
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give inner corners as COLSxROWS, like 9x6") from None
    if cols < 2 or rows < 2:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 2x2 inner corners")
    return cols, rows


def _lens(args: argparse.Namespace) -> int:
    from calibration.lens import calibrate_lens
    from tabletop.images import check_file

    for path in args.images:  # sizes from the headers, before any photo is decoded
        check_file(path)

    if not args.square > 0:
        raise UsageError(f"--square must be positive, not {args.square:g}")
    result = calibrate_lens(args.images, args.chessboard, args.square,
                            min_coverage=args.min_coverage)
    result.lens.save(args.output)
    print(f"corners found in {len(result.used)}/{len(args.images)} images"
          + (f" (not in: {', '.join(str(p) for p in result.rejected)})" if result.rejected else "")
          + f"; coverage {result.coverage:.0%} of the view", file=sys.stderr)
    worst = max(range(len(result.used)), key=lambda i: result.per_view_rms_px[i])
    if result.lens.rms_px > 1.0:
        print(f"warning: rms {result.lens.rms_px:.2f} px is high; the worst photo is "
              f"{result.used[worst]} ({result.per_view_rms_px[worst]:.2f} px): blurred, or the "
              "board not flat?", file=sys.stderr)
    print(f"fx={result.lens.K[0, 0]:.3f} fy={result.lens.K[1, 1]:.3f}")
    print(f"rms_px={result.lens.rms_px:.6f}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds ``mat``, ``calibrate`` and ``lens``."""
    papers = list(PAPER_MM)
    p = subparsers.add_parser("mat", help="printable calibration mat (markers at known places)",
                              description="Writes the printable marker mat. Print it at 100 % "
                              "and check its 100 mm bar with a ruler.")
    p.add_argument("-o", "--output", required=True, help="OUT.pdf or OUT.png")
    p.add_argument("--paper", choices=papers, default="a4")
    p.add_argument("--dpi", type=number_in(72, 600, " dpi"), default=300.0,
                   help="print resolution (72..600, default 300)")
    p.set_defaults(func=_mat)

    p = subparsers.add_parser(
        "calibrate", help="table homography from the mat (or given points)",
        description="Finds the printed mat (or takes --points) and writes CAL.json; the last "
        "line is the mean reprojection error, reprojection_mm=<float>.")
    p.add_argument("image", help="a camera image of the table")
    p.add_argument("-o", "--output", required=True, help="CAL.json to write")
    p.add_argument("--points", help="POINTS.json: [{\"pixel\": [u, v], \"world\": [x, y]}, ...]")
    p.add_argument("--lens", help="LENS.json (from `tabletop lens`): undistort first")
    p.add_argument("--paper", choices=papers, default=None,
                   help="the mat's paper (default: read from the mat)")
    p.add_argument("--bar-mm", type=number_in(50, 200, " mm"), default=None,
                   help="the printed 100 mm bar as measured with a ruler (default 100)")
    p.add_argument("--show", metavar="CHECK.png",
                   help="also write the image with the markers used (green), ignored (red) "
                   "and a 50 mm table grid drawn on it")
    p.set_defaults(func=_calibrate)

    p = subparsers.add_parser(
        "lens", help="camera intrinsics and distortion from chessboard photos",
        description="Calibrates the lens from chessboard photos; the last line is "
        "rms_px=<float>.")
    p.add_argument("images", nargs="+", help="chessboard photos (at least 3, all one size)")
    p.add_argument("--chessboard", type=_pattern, required=True,
                   help="inner corners COLSxROWS, like 9x6")
    p.add_argument("--square", type=number_in(1, 1000, " mm"), required=True,
                   help="square side in mm")
    p.add_argument("-o", "--output", required=True, help="LENS.json to write")
    p.add_argument("--min-coverage", type=number_in(0, 1), default=0.25,
                   help="least share of the view the corners must cover (default 0.25)")
    p.set_defaults(func=_lens)
