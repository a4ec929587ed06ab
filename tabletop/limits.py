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

MAX_POINTS = 1_000
"""Most point correspondences in one POINTS.json (a calibration needs 4 to a few dozen)."""

MAX_IMAGE_PIXELS = 50_000_000
"""Most pixels in one picture (a 48-megapixel phone photo passes)."""

MAX_IMAGE_SIDE_PX = 16_384
"""Longest side of one picture, pixels."""

MIN_IMAGE_SIDE_PX = 16
"""Shortest side of one picture, pixels (smaller ones show no table, and trip OpenCV)."""

MAX_FILE_BYTES = 200 * 1024 * 1024
"""Largest input file read whole (an image, a record, a scene), bytes."""

MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024
"""Largest JSON or JSON Lines file read (a record of a long game is a few megabytes)."""

MAX_JSON_DEPTH = 32
"""Deepest nesting of a JSON value (events nest four or five levels)."""

MAX_JSON_INT_DIGITS = 18
"""Most digits of a JSON integer (below 2**63: fits an SQLite integer)."""

MAX_ID = 2**63 - 1
"""Largest id of a game or an event (SQLite's integers)."""


GAP_WORK_POINTS = 30_000
"""Most points a gap query may build its roadmap from (:func:`gap_work_points`): the time and
memory of :func:`referee.geometry.fit_path` grow with them (30,000: under a second and about
150 MB; a real table needs a few thousand)."""

GAP_SAMPLE_MM = 4.0
"""The spacing of the points sampled on outlines (``referee.geometry.fit.SAMPLE_SPACING_MM``)."""

GAP_EDGE_MM = 8.0
"""The longest roadmap edge before it is split (``referee.geometry.fit.EDGE_MOST_MM``)."""


def gap_work_points(pieces: Iterable[Any], sizes: Any,
                    points_mm: Iterable[tuple[float, float]] = ()) -> int:
    """About how many points a gap query over ``pieces`` builds its roadmap from.

    The outlines are sampled every :data:`GAP_SAMPLE_MM`, and the roadmap (the middle of every
    gap) is split every :data:`GAP_EDGE_MM`: its length grows as ``sqrt(pieces x area)``, so a
    few pieces far apart cost as much as many close together.

    Args:
        pieces: :class:`tabletop.scene.Piece` values.
        sizes: The :class:`tabletop.pieceset.PieceSet` they are measured with.
        points_mm: The query's own points (they widen the area searched).
    """
    from tabletop.kinds import PIECE_KINDS

    outline_mm = 0.0
    xs: list[float] = []
    ys: list[float] = []
    n = 0
    for p in pieces:
        n += 1
        xs.append(p.x_mm)
        ys.append(p.y_mm)
        kind = PIECE_KINDS.get(p.kind)
        size = getattr(sizes, kind.size_field) if kind is not None else sizes.die_mm
        outline_mm += 4.0 * size if kind is not None and kind.outline == "square" else (
            math.pi * size)
    for x, y in points_mm:
        xs.append(x)
        ys.append(y)
    if not xs:
        return 0
    area_mm2 = (max(xs) - min(xs) + 1.0) * (max(ys) - min(ys) + 1.0)
    roadmap_mm = 2.0 * math.sqrt((n + 1) * area_mm2)
    return int(outline_mm / GAP_SAMPLE_MM + roadmap_mm / GAP_EDGE_MM) + 1


def check_gap_work(pieces: Iterable[Any], sizes: Any, what: str,
                   points_mm: Iterable[tuple[float, float]] = ()) -> None:
    """Refuses a gap query that would build its roadmap from more than
    :data:`GAP_WORK_POINTS` points (too many pieces, too far apart)."""
    n = gap_work_points(pieces, sizes, points_mm)
    if n > GAP_WORK_POINTS:
        raise InputError(f"{what}: too many pieces over too large a table for a gap check "
                         f"(about {n} points to search, at most {GAP_WORK_POINTS})")


def check_file_bytes(path: Any, limit: int = MAX_TEXT_FILE_BYTES,
                     error: type[InputError] = InputError) -> None:
    """Refuses a file larger than ``limit`` bytes before it is read (a missing file passes:
    the reader says so in its own words)."""
    import os

    try:
        size = os.stat(path).st_size
    except (OSError, ValueError):
        return
    if size > limit:
        raise error(f"{path}: {size} bytes is far larger than this file can be (at most "
                    f"{limit})")


def parse_id(text: str) -> int | None:
    """An id (a game's, an event's) from text: ASCII digits within SQLite's integers, else None.

    >>> parse_id("12"), parse_id("²"), parse_id("9" * 5000), parse_id("9223372036854775808")
    (12, None, None, None)
    """
    if not 0 < len(text) <= 19 or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if value <= MAX_ID else None


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
    if min(width, height) < MIN_IMAGE_SIDE_PX:
        raise InputError(f"{what}: the image is {width}x{height} px, too small to show a table "
                         f"(at least {MIN_IMAGE_SIDE_PX} px a side)")
    if max(width, height) > MAX_IMAGE_SIDE_PX or width * height > MAX_IMAGE_PIXELS:
        raise InputError(f"{what}: the image is {width}x{height} px, larger than any picture "
                         f"of a table this program reads (at most {MAX_IMAGE_PIXELS // 10**6} "
                         f"megapixels, {MAX_IMAGE_SIDE_PX} px a side)")
    return width, height
