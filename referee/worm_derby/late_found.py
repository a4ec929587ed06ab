"""Tiles found late: a tile the camera missed when the course was set up is on the table.

Between two accepted tables no tile appears (an ace slides one obstacle; nothing else moves a
tile), so a tile read where none lay, clear of every tile of the accepted table and with no tile
of that table missing near it (it cannot be one that slid or was misread a little off), was
there all along and missed: a *late-found* tile, never a foul. One reading may show a tile that
is not there (a shadow, a pattern of the cloth), so a tile is taken as found late once two
readings of two still tables show it at one place (:func:`confirmed_late`); then it joins the
accepted table, with a note.

>>> from tabletop.scene import Piece, Scene
>>> table = Scene.of([Piece.tile(0, 0, 0, "down"), Piece("coin", 100, 0, suit="suns")])
>>> now = Scene.of([*table.pieces, Piece.tile(200, 60, 0, "down")])
>>> [p.centre_mm for p in late_tiles(table, now, tile_mm=50.8, coin_mm=19.05)]
[(200.0, 60.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from referee.worm_derby.reading import STAYED_SHARE
from tabletop.scene import Piece, Scene

MOVED_REACH_TILES = 1.5
"""A tile of the accepted table not read within this many tile widths of a new tile may have
slid there (or been misread off its place): the new tile is then not taken as found late."""

CLEAR_SHARE = 0.9
"""A new tile's centre lies at least this share of a tile's width from every accepted tile's
(two tiles on the table do not overlap)."""


def late_tiles(table: Scene, scene: Scene, tile_mm: float, coin_mm: float) -> list[Piece]:
    """The tiles of ``scene`` (a reading) that may have lain on the table all along unseen:
    no tile of ``table`` (the accepted table) within a tile's width of them, and none of its
    tiles unread within :data:`MOVED_REACH_TILES` tile widths.

    Args:
        table: The accepted table.
        scene: The new reading.
        tile_mm: A tile's side.
        coin_mm: A coin's width (a tile read less than
            :data:`~referee.worm_derby.reading.STAYED_SHARE` of it off is the same tile).
    """
    stayed = STAYED_SHARE * coin_mm
    old = [p for p in table.pieces if p.kind == "tile"]
    new = [p for p in scene.pieces if p.kind == "tile"]
    unread = [p for p in old if not any(math.dist(p.centre_mm, q.centre_mm) <= stayed
                                        for q in new)]
    return [q for q in new
            if all(math.dist(q.centre_mm, p.centre_mm) >= CLEAR_SHARE * tile_mm for p in old)
            and all(math.dist(q.centre_mm, p.centre_mm) > MOVED_REACH_TILES * tile_mm
                    for p in unread)]


def confirmed_late(seen_before: Sequence[Piece], seen_now: Sequence[Piece], same_place_mm: float
                   ) -> list[Piece]:
    """The tiles of ``seen_now`` that an earlier reading (``seen_before``) showed at the same
    place (within ``same_place_mm``), with the same face: found late, twice.

    >>> a = Piece.tile(200, 60, 0, "down")
    >>> confirmed_late([a], [Piece.tile(202, 61, 0, "down")], 4.0)[0].centre_mm
    (202.0, 61.0)
    >>> confirmed_late([a], [Piece.tile(230, 60, 0, "down")], 4.0)
    []
    """
    return [q for q in seen_now if any(
        p.face == q.face and math.dist(p.centre_mm, q.centre_mm) <= same_place_mm
        for p in seen_before)]
