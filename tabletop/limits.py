"""What a table can be: the bounds every input is checked against before any work is done.

A real table is a few metres across and holds a few hundred pieces at most; a webcam picture or
a photo of it has at most some tens of megapixels. Anything beyond these is refused with a
one-line error naming the file or field, before it can cost seconds or gigabytes.

>>> check_coordinate_mm(120.5, "piece 0: x")
120.5
>>> check_coordinate_mm(1e6, "x")
Traceback (most recent call last):
...
tabletop.errors.InputError: x: 1000000.0 mm is off any table (at most 10000 mm from the origin)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from tabletop.errors import InputError

TABLE_MM = 10_000.0
"""Farthest a point on the table may be from the calibration's origin (mm, either axis)."""

MAX_PIECES = 1_000
"""Most pieces in one scene."""

PIECE_MM = (1.0, 300.0)
"""Smallest and largest size of a piece (a diameter, a tile's side), mm."""

MAX_IMAGE_PIXELS = 50_000_000
"""Most pixels in one picture (a 48-megapixel phone photo passes)."""

MAX_IMAGE_SIDE_PX = 16_384
"""Longest side of one picture, pixels."""

MAX_FILE_BYTES = 200 * 1024 * 1024
"""Largest input file read whole (an image, a record, a scene), bytes."""

MAX_JSON_DEPTH = 32
"""Deepest nesting of a JSON value (events nest four or five levels)."""

MAX_JSON_INT_DIGITS = 18
"""Most digits of a JSON integer (below 2**63: fits an SQLite integer)."""

MAX_ID = 2**63 - 1
"""Largest id of a game or an event (SQLite's integers)."""


GAP_OUTLINE_POINTS = 25_000
"""Most outline points a gap query may sample (about 100 m of piece edges at 4 mm): the work
and memory of :func:`referee.geometry.fit_path` grow with them (25,000: about a second and
200 MB; a real table has a few hundred)."""

GAP_SAMPLE_MM = 4.0
"""The spacing of those points (``referee.geometry.fit.SAMPLE_SPACING_MM``)."""


def gap_outline_points(pieces: Iterable[Any], sizes: Any) -> int:
    """How many outline points a gap query over ``pieces`` samples (an estimate from above).

    Args:
        pieces: :class:`tabletop.scene.Piece` values.
        sizes: The :class:`tabletop.pieceset.PieceSet` they are measured with.
    """
    square = {"tile": sizes.tile_mm, "token": sizes.token_mm}
    round_ = {"coin": sizes.coin_diameter_mm, "post": sizes.post_diameter_mm,
              "segment": sizes.segment_diameter_mm, "die": sizes.die_mm}
    total_mm = 0.0
    for p in pieces:
        if p.kind in square:
            total_mm += 4.0 * square[p.kind]
        else:
            total_mm += math.pi * round_.get(p.kind, sizes.die_mm)
    return int(total_mm / GAP_SAMPLE_MM) + 1


def check_gap_work(pieces: Iterable[Any], sizes: Any, what: str) -> None:
    """Refuses a gap query that would sample more than :data:`GAP_OUTLINE_POINTS` points."""
    n = gap_outline_points(pieces, sizes)
    if n > GAP_OUTLINE_POINTS:
        raise InputError(f"{what}: the pieces' outlines are too long for a gap check "
                         f"({n} points to sample, at most {GAP_OUTLINE_POINTS})")


def check_coordinate_mm(value: float, what: str) -> float:
    """``value`` when it lies on a table, else an :class:`InputError` naming ``what``."""
    if not math.isfinite(value) or abs(value) > TABLE_MM:
        raise InputError(f"{what}: {value} mm is off any table "
                         f"(at most {TABLE_MM:.0f} mm from the origin)")
    return value


def check_piece_mm(value: Any, what: str) -> float:
    """A piece size in mm within :data:`PIECE_MM`, else an :class:`InputError` naming ``what``."""
    lo, hi = PIECE_MM
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{what} must be a number of mm, not {value!r}")
    v = float(value)
    if not math.isfinite(v) or not lo <= v <= hi:
        raise InputError(f"{what} must be {lo:g}..{hi:g} mm, not {value!r}")
    return v


def check_image_size(width: int, height: int, what: str) -> tuple[int, int]:
    """``(width, height)`` when a picture that size may be decoded, else an :class:`InputError`."""
    if width <= 0 or height <= 0:
        raise InputError(f"{what}: the image declares no pixels ({width}x{height})")
    if max(width, height) > MAX_IMAGE_SIDE_PX or width * height > MAX_IMAGE_PIXELS:
        raise InputError(f"{what}: the image is {width}x{height} px, larger than any picture "
                         f"of a table this program reads (at most {MAX_IMAGE_PIXELS // 10**6} "
                         f"megapixels, {MAX_IMAGE_SIDE_PX} px a side)")
    return width, height
