"""The stabiliser: a scene is passed on only once the table has been still with no hand.

Frame after frame, the detected pieces are compared with the previous frame's (same kinds,
each piece within ``tolerance_mm`` of one before it). When ``still_frames`` frames in a row
agree and no hand is seen, the table is still: the scene is emitted on that very frame (no
latency beyond the stillness itself), once; then nothing until the table changes and settles
again. The emitted scene averages each piece's position over the still frames and takes the
majority reading of its suit, face, colour and id, so one flickering frame does not decide.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from tabletop.scene import Piece, Scene


def _pairs(a: Scene, b: Scene, tolerance_mm: float) -> list[int] | None:
    """For each piece of ``a`` the index of its match in ``b``, or None if they differ."""
    if len(a) != len(b):
        return None
    out = [-1] * len(a)
    used: set[int] = set()
    for i, p in enumerate(a.pieces):
        best, best_d = -1, tolerance_mm
        for j, q in enumerate(b.pieces):
            if j in used or q.kind != p.kind:
                continue
            d = float(np.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm))
            if d <= best_d:
                best, best_d = j, d
        if best < 0:
            return None
        used.add(best)
        out[i] = best
    return out


def same_table(a: Scene, b: Scene, tolerance_mm: float = 1.5) -> bool:
    """True when two scenes hold the same kinds of piece at the same places.

    >>> s = Scene((Piece("coin", 0.0, 0.0, suit="suns"),))
    >>> same_table(s, Scene((Piece("coin", 1.0, 0.0, suit="arms"),)))
    True
    >>> same_table(s, Scene((Piece("coin", 5.0, 0.0),)))
    False
    """
    return _pairs(a, b, tolerance_mm) is not None


class Stabiliser:
    """Turns a stream of per-frame scenes into the scenes of a still table.

    Args:
        still_frames: How many agreeing frames in a row make the table still (>= 1).
        tolerance_mm: How far a piece may move between frames and still be the same.
    """

    def __init__(self, still_frames: int = 3, tolerance_mm: float = 1.5) -> None:
        if still_frames < 1:
            raise ValueError("still_frames must be at least 1")
        self.still_frames = int(still_frames)
        self.tolerance_mm = float(tolerance_mm)
        self._run: list[Scene] = []
        self._emitted = False
        self.last_emitted: Scene | None = None

    def reset(self) -> None:
        """Forgets the frames seen so far (the next still period emits again)."""
        self._run = []
        self._emitted = False

    def update(self, scene: Scene) -> Scene | None:
        """Feeds one frame's scene.

        Returns:
            The stable scene on the frame the table becomes still (hand-free), else None.
        """
        if scene.hand:
            self._run = []
            self._emitted = False
            return None
        if self._run and not same_table(self._run[-1], scene, self.tolerance_mm):
            self._run = []
            self._emitted = False
        self._run.append(scene)
        if len(self._run) > self.still_frames:
            self._run.pop(0)
        if self._emitted or len(self._run) < self.still_frames:
            return None
        self._emitted = True
        out = self._consensus()
        if self.last_emitted is not None and same_table(out, self.last_emitted,
                                                        self.tolerance_mm) and all(
                _same_reading(p, q) for p, q in _matched(out, self.last_emitted,
                                                         self.tolerance_mm)):
            return None  # a hand came and went, and nothing changed
        self.last_emitted = out
        return out

    def _consensus(self) -> Scene:
        last = self._run[-1]
        groups: list[list[Piece]] = [[p] for p in last.pieces]
        for other in self._run[:-1]:
            pairs = _pairs(last, other, self.tolerance_mm * 2)
            if pairs is None:
                continue
            for i, j in enumerate(pairs):
                groups[i].append(other.pieces[j])
        pieces = []
        for g in groups:
            x = float(np.mean([p.x_mm for p in g]))
            y = float(np.mean([p.y_mm for p in g]))
            vote = Counter((p.suit, p.face, p.color, p.id) for p in g).most_common(1)[0][0]
            best = next(p for p in g if (p.suit, p.face, p.color, p.id) == vote)
            conf = [p.confidence for p in g if p.confidence is not None]
            pieces.append(replace(best, x_mm=round(x, 2), y_mm=round(y, 2),
                                  confidence=round(float(np.mean(conf)), 3) if conf else None))
        return Scene(tuple(pieces), hand=False)


def _matched(a: Scene, b: Scene, tol: float) -> list[tuple[Piece, Piece]]:
    pairs = _pairs(a, b, tol) or []
    return [(a.pieces[i], b.pieces[j]) for i, j in enumerate(pairs)]


def _same_reading(p: Piece, q: Piece) -> bool:
    return (p.suit, p.face, p.color, p.id) == (q.suit, q.face, q.color, q.id)
