"""Fixing misreads: a user's correction, and the previous accepted table for doubtful reads.

A :class:`tabletop.events.Correction` (add, remove or change one piece) is what the dashboard
logs; :func:`apply_correction` makes the corrected scene. :func:`resolve_with_previous` keeps a
doubtful reading from flickering: a coin read with low confidence at a place where the last
accepted scene had a coin keeps that coin's suit (tiles: face and suit).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tabletop.events import Correction
from tabletop.scene import Scene


def apply_correction(scene: Scene, correction: Correction) -> Scene:
    """The scene with a user's correction made (a new scene; ``scene`` is unchanged).

    Raises:
        RecordFormatError: the correction names a piece the scene does not have.
    """
    return correction.apply(scene)


def resolve_with_previous(scene: Scene, previous_accepted: Scene | None,
                          min_confidence: float = 0.6, tolerance_mm: float = 6.0) -> Scene:
    """Doubtful readings take the previous accepted scene's reading at the same place.

    Args:
        scene: The newly detected scene.
        previous_accepted: The last scene the referee accepted, or None.
        min_confidence: Readings with a lower confidence (or no suit) are doubtful.
        tolerance_mm: How near the previous piece of the same kind must be.

    Returns:
        A new scene; confident readings and pieces with no previous counterpart are unchanged.

    >>> from tabletop.scene import Piece, Scene
    >>> prev = Scene((Piece("coin", 10.0, 10.0, suit="suns", confidence=0.9),))
    >>> now = Scene((Piece("coin", 11.0, 10.0, suit="arms", confidence=0.3),))
    >>> resolve_with_previous(now, prev).pieces[0].suit
    'suns'
    """
    if previous_accepted is None or not len(previous_accepted):
        return scene
    prev = previous_accepted.pieces
    pieces = []
    for p in scene.pieces:
        doubtful = p.kind in ("coin", "tile") and (
            p.confidence is None or p.confidence < min_confidence
            or (p.suit is None and p.face != "down"))
        if not doubtful:
            pieces.append(p)
            continue
        near = [q for q in prev if q.kind == p.kind
                and float(np.hypot(q.x_mm - p.x_mm, q.y_mm - p.y_mm)) <= tolerance_mm]
        if not near:
            pieces.append(p)
            continue
        q = min(near, key=lambda q: np.hypot(q.x_mm - p.x_mm, q.y_mm - p.y_mm))
        if p.kind == "tile":
            pieces.append(replace(p, suit=q.suit, face=q.face))
        else:
            pieces.append(replace(p, suit=q.suit))
    return replace(scene, pieces=tuple(pieces))
