"""The Jungle board as printed: squares, terrain, animals and its size in millimetres (pure).

One truth shared by the rules engine (:mod:`referee.jungle.geometry` re-exports it), the
printing and reading code (:mod:`calibration.jungle_board`, :mod:`vision.sheets`) and the
diagrams, so what is printed is what the referee assumes. It sits in the core, below every
layer, so that none of them imports the referee for a board's layout.

Squares are numbered 0..62: ``index = 7 * (rank - 1) + file`` with file 0..6 = ``a``..``g``
from the first player's left and rank 1..9 from the first player's side.

>>> square_name(0), square_name(62), parse_square("d9")
('a1', 'g9', 59)
>>> [square_name(s) for s in sorted(WATER)][:3]
['b4', 'c4', 'e4']

The board's millimetre frame (the frame of a scene of tokens): origin at the outer corner of
``a1``, ``x`` along the files towards ``g``, ``y`` along the ranks towards ``9``; one square is
:data:`SQUARE_MM` wide.

>>> square_centre_mm(parse_square("a1"))
(19.0, 19.0)
>>> locate_mm(19.0 + 38.0, 19.0)
SquareHit(square=1, offset_mm=(0.0, 0.0), status='on')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FILES = "abcdefg"
"""File letters, from the first player's left."""
N_FILES = 7
N_RANKS = 9
N_SQUARES = N_FILES * N_RANKS


def square_index(file: int, rank: int) -> int:
    """The square of a 0-based file and a 1-based rank (no bounds check)."""
    return 7 * (rank - 1) + file


def file_of(square: int) -> int:
    """0-based file (``a`` = 0)."""
    return square % 7


def rank_of(square: int) -> int:
    """1-based rank."""
    return square // 7 + 1


def square_name(square: int) -> str:
    """``a1``..``g9``."""
    return FILES[square % 7] + str(square // 7 + 1)


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(s) for s in range(N_SQUARES))
_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}


def parse_square(name: str) -> int:
    """The index of a square name like ``c3``.

    Raises:
        ValueError: when it names no square of the board (``h1``, ``a10``).
    """
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"{name!r} is not a square of the board (a1..g9)") from None


def is_square_name(name: str) -> bool:
    """Whether ``name`` is one of ``a1``..``g9``."""
    return name in _BY_NAME


def _squares(*names: str) -> frozenset[int]:
    return frozenset(_BY_NAME[n] for n in names)


WATER: frozenset[int] = _squares("b4", "c4", "b5", "c5", "b6", "c6",
                                 "e4", "f4", "e5", "f5", "e6", "f6")
"""The two rivers (2 files x 3 ranks each)."""

DENS: tuple[int, int] = (_BY_NAME["d1"], _BY_NAME["d9"])
"""Each side's den (index = side: 0 first player, 1 second)."""

TRAPS: tuple[frozenset[int], frozenset[int]] = (_squares("c1", "e1", "d2"),
                                                _squares("c9", "e9", "d8"))
"""Each side's traps, around its own den."""

ANIMALS: tuple[str, ...] = ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")
"""The eight animals printed on the tokens, by standard rank: ``ANIMALS[rank - 1]``."""


# ------------------------------------------------------------------------------- millimetres

SQUARE_MM = 38.0
"""Side of one printed square."""
BOARD_MM: tuple[float, float] = (N_FILES * SQUARE_MM, N_RANKS * SQUARE_MM)
"""Width (files) and height (ranks) of the grid of squares."""
PAGE_MM: tuple[float, float] = (297.0, 420.0)
"""The board's sheet: A3 portrait, rank 9 at the top of the page."""
BOARD_ORIGIN_ON_PAGE_MM: tuple[float, float] = ((PAGE_MM[0] - BOARD_MM[0]) / 2,
                                                (PAGE_MM[1] - BOARD_MM[1]) / 2)
"""Where the grid's top-left corner (the outer corner of ``a9``) lies on the page, from the
page's top-left corner, x right and y down."""

MARKER_MM = 30.0
"""Side of each corner marker (black border included)."""
MARKER_GAP_MM = 4.0
"""Gap between the grid and the corner markers (above rank 9 and below rank 1)."""
TOKEN_MM = 32.0
"""Side of a printed token (square, to cut out); it fits a square with room to spare."""
TOKEN_MARKER_MM = 18.0
"""Side of the marker printed on a token."""
TOKEN_MARKER_TOP_MM = 5.0
"""From a token's top edge to its marker's (the name and rank are printed below the marker), so
the marker's centre lies ``TOKEN_MM / 2 - TOKEN_MARKER_TOP_MM - TOKEN_MARKER_MM / 2`` = 2 mm
from the token's centre, towards the marker's top edge."""

BETWEEN_FRACTION = 0.3
"""A token whose centre is more than this fraction of a square from the square's centre (in x
or y) sits between squares."""
OFF_BOARD_MM = 0.25 * SQUARE_MM
"""A token whose centre lies more than this outside the grid is off the board (put aside)."""


def board_to_page_mm(x_mm: float, y_mm: float) -> tuple[float, float]:
    """Board frame -> page millimetres (origin top-left of the sheet, y down).

    >>> board_to_page_mm(0.0, BOARD_MM[1]) == BOARD_ORIGIN_ON_PAGE_MM
    True
    """
    ox, oy = BOARD_ORIGIN_ON_PAGE_MM
    return (ox + x_mm, oy + (BOARD_MM[1] - y_mm))


def _marker_corners(x0: float, y0: float) -> tuple[tuple[float, float], ...]:
    # A marker printed upright on the page (its top towards rank 9): its own top-left corner is
    # at the larger y of the board frame. Order TL, TR, BR, BL as OpenCV reports corners.
    m = MARKER_MM
    return ((x0, y0 + m), (x0 + m, y0 + m), (x0 + m, y0), (x0, y0))


BOARD_MARKERS: dict[int, tuple[tuple[float, float], ...]] = {
    40: _marker_corners(0.0, -MARKER_GAP_MM - MARKER_MM),                      # below a1
    41: _marker_corners(BOARD_MM[0] - MARKER_MM, -MARKER_GAP_MM - MARKER_MM),  # below g1
    42: _marker_corners(BOARD_MM[0] - MARKER_MM, BOARD_MM[1] + MARKER_GAP_MM),  # above g9
    43: _marker_corners(0.0, BOARD_MM[1] + MARKER_GAP_MM),                      # above a9
}
"""The board's corner markers: id -> corners (TL, TR, BR, BL) in the board frame, mm."""


def square_centre_mm(square: int) -> tuple[float, float]:
    """The centre of a square in the board frame."""
    return ((file_of(square) + 0.5) * SQUARE_MM, (rank_of(square) - 0.5) * SQUARE_MM)


@dataclass(frozen=True)
class SquareHit:
    """Where a point of the board frame falls.

    Attributes:
        square: The nearest square (None when off the board).
        offset_mm: From that square's centre to the point.
        status: ``on`` (well inside a square), ``between`` (near a line between squares or the
            board's edge) or ``off`` (outside the board: a piece put aside).
    """

    square: int | None
    offset_mm: tuple[float, float]
    status: Literal["on", "between", "off"]


def locate_mm(x_mm: float, y_mm: float) -> SquareHit:
    """The square under a point of the board frame.

    >>> locate_mm(38.0, 19.0).status
    'between'
    >>> locate_mm(-20.0, 19.0).status
    'off'
    """
    w, h = BOARD_MM
    m = OFF_BOARD_MM
    if not (-m <= x_mm <= w + m and -m <= y_mm <= h + m):
        return SquareHit(None, (0.0, 0.0), "off")
    f = min(max(int(x_mm // SQUARE_MM), 0), N_FILES - 1)
    r = min(max(int(y_mm // SQUARE_MM), 0), N_RANKS - 1) + 1
    sq = square_index(f, r)
    cx, cy = square_centre_mm(sq)
    dx, dy = x_mm - cx, y_mm - cy
    limit = BETWEEN_FRACTION * SQUARE_MM
    status: Literal["on", "between"] = "on" if abs(dx) <= limit and abs(dy) <= limit else "between"
    return SquareHit(sq, (dx, dy), status)
