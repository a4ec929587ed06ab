"""The Jungle board for the rules: moves between squares (pure, no OpenCV).

The board as printed (squares, terrain, millimetres) is :mod:`tabletop.boards.jungle`, below
every layer; its names are re-exported here, so the rules say ``g.WATER`` as before.
"""

from __future__ import annotations

from tabletop.boards.jungle import (  # noqa: F401  (the referee's names for them)
    BETWEEN_FRACTION,
    BOARD_MARKERS,
    BOARD_MM,
    BOARD_ORIGIN_ON_PAGE_MM,
    DENS,
    FILES,
    MARKER_GAP_MM,
    MARKER_MM,
    N_FILES,
    N_RANKS,
    N_SQUARES,
    OFF_BOARD_MM,
    PAGE_MM,
    SQUARE_MM,
    SQUARE_NAMES,
    TOKEN_MARKER_MM,
    TOKEN_MARKER_TOP_MM,
    TOKEN_MM,
    TRAPS,
    WATER,
    SquareHit,
    board_to_page_mm,
    file_of,
    is_square_name,
    locate_mm,
    parse_square,
    rank_of,
    square_centre_mm,
    square_index,
    square_name,
)


def neighbours(square: int) -> tuple[int, ...]:
    """The orthogonally adjacent squares (north, south, east, west order).

    >>> [square_name(s) for s in neighbours(parse_square("a1"))]
    ['a2', 'b1']
    """
    f, r = file_of(square), rank_of(square)
    out = []
    for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        nf, nr = f + df, r + dr
        if 0 <= nf < N_FILES and 1 <= nr <= N_RANKS:
            out.append(square_index(nf, nr))
    return tuple(out)


def river_jumps(square: int, short: bool = True, long: bool = True
                ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Jumps over a river from a land square: ``(landing square, water squares crossed)``.

    A jump goes in a straight line from a land square beside a river over its water to the first
    land square across. ``long`` jumps run along a file over the river's length (three water
    squares, rank 3 <-> rank 7); ``short`` jumps run along a rank over its width (two squares,
    for example ``a4`` <-> ``d4``).

    >>> [(square_name(t), len(w)) for t, w in river_jumps(parse_square("d5"))]
    [('g5', 2), ('a5', 2)]
    >>> [(square_name(t), len(w)) for t, w in river_jumps(parse_square("b3"))]
    [('b7', 3)]
    """
    if square in WATER:
        return ()
    out = []
    f, r = file_of(square), rank_of(square)
    for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        if (dr and not long) or (df and not short):
            continue
        crossed = []
        nf, nr = f + df, r + dr
        while 0 <= nf < N_FILES and 1 <= nr <= N_RANKS and square_index(nf, nr) in WATER:
            crossed.append(square_index(nf, nr))
            nf, nr = nf + df, nr + dr
        if crossed and 0 <= nf < N_FILES and 1 <= nr <= N_RANKS:
            out.append((square_index(nf, nr), tuple(crossed)))
    return tuple(out)
