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
from vision.piece_pairs import nearest_pairs

TILE_FACTOR = 2.0
"""A tile may move twice the tolerance between frames and still be the same (its centre is read
less surely than a coin's)."""


def _pairs(a: Scene, b: Scene, tolerance_mm: float) -> list[int] | None:
    """For each piece of ``a`` the index of its match in ``b`` (the nearest of its kind not
    taken yet, the last of equally near ones), or None if they differ."""
    if len(a) != len(b):
        return None
    if not len(a):
        return []
    pa = np.array([[p.x_mm, p.y_mm] for p in a.pieces])
    pb = np.array([[q.x_mm, q.y_mm] for q in b.pieces])
    d = np.hypot(pa[:, None, 0] - pb[None, :, 0], pa[:, None, 1] - pb[None, :, 1])
    ka = np.array([p.kind for p in a.pieces], dtype=object)
    kb = np.array([q.kind for q in b.pieces], dtype=object)
    d[ka[:, None] != kb[None, :]] = np.inf
    out: list[int] = []
    last = len(b) - 1
    for i in range(len(a)):
        row = d[i, ::-1]
        k = int(np.argmin(row))
        if not row[k] <= tolerance_mm:
            return None
        j = last - k
        d[:, j] = np.inf
        out.append(j)
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


def _match(a: Scene | list[Piece], b: Scene | list[Piece], tolerance_mm: float
           ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """The stabiliser's pairing of two frames' pieces (:func:`vision.piece_pairs.nearest_pairs`,
    tiles twice the tolerance): ``(pairs, unmatched of a, unmatched of b)``.

    >>> a = [Piece("coin", 0.0, 0.0), Piece("tile", 10.0, 0.0), Piece("coin", 50.0, 0.0)]
    >>> _match(a, [Piece("tile", 12.5, 0.0), Piece("coin", 1.0, 0.0)], 1.5)
    ([(0, 1), (1, 0)], [2], [])
    """
    pa = list(a.pieces) if isinstance(a, Scene) else list(a)
    pb = list(b.pieces) if isinstance(b, Scene) else list(b)
    got = nearest_pairs(pa, pb, tolerance_mm, TILE_FACTOR)
    return got.pairs, got.unpaired_a, got.unpaired_b


class Stabiliser:
    """Turns a stream of per-frame scenes into the scenes of a still table.

    Args:
        still_frames: How many agreeing frames in a row make the table still (>= 1).
        tolerance_mm: How far a piece may move between frames and still be the same (tiles:
            twice that).
        flicker: How many pieces may flicker (seen in one frame, not in the next, or jumping)
            between two frames of a still table; None: one per twenty pieces, at least one.
            A flicker does not keep a still table from being judged: the emitted scene holds
            the pieces seen in most of the still frames.
    """

    def __init__(self, still_frames: int = 3, tolerance_mm: float = 1.5,
                 flicker: int | None = None) -> None:
        if still_frames < 1:
            raise ValueError("still_frames must be at least 1")
        self.still_frames = int(still_frames)
        self.tolerance_mm = float(tolerance_mm)
        self.flicker = flicker
        self._run: list[Scene] = []
        self._emitted = False
        self._hand_since = False
        self.last_emitted: Scene | None = None
        self.in_doubt = False
        """The last reading emitted was doubted: after each hand that comes and goes the table
        is emitted again even when it reads the same (a move the camera cannot see is asked
        about, not passed over in silence)."""

    def reset(self) -> None:
        """Forgets the frames seen so far (the next still period emits again)."""
        self._run = []
        self._emitted = False

    def reread(self) -> None:
        """Reads the table again: the next still period is emitted even when it shows the same
        table as the last emitted one (after a doubt, the referee wants a second reading)."""
        self.reset()
        self.last_emitted = None

    def _agree(self, a: Scene, b: Scene) -> bool:
        _, ua, ub = _match(a, b, self.tolerance_mm)
        allowed = self.flicker if self.flicker is not None else max(1, len(b) // 20)
        return len(ua) <= allowed and len(ub) <= allowed

    def update(self, scene: Scene) -> Scene | None:
        """Feeds one frame's scene.

        Returns:
            The stable scene on the frame the table becomes still (hand-free), else None.
        """
        if scene.hand:
            self._run = []
            self._emitted = False
            self._hand_since = True
            return None
        if self._run and not self._agree(self._run[-1], scene):
            self._run = []
            self._emitted = False
        self._run.append(scene)
        if len(self._run) > self.still_frames:
            self._run.pop(0)
        if len(self._run) < self.still_frames:
            return None
        out = self._consensus()
        if self._emitted and self.last_emitted is not None and self._same(out,
                                                                          self.last_emitted):
            return None
        if self.last_emitted is not None and self._same(out, self.last_emitted) and not (
                self.in_doubt and self._hand_since):
            self._emitted = True
            return None  # a hand came and went, and nothing changed
        self._emitted = True
        self._hand_since = False
        self.last_emitted = out
        return out

    def _same(self, a: Scene, b: Scene) -> bool:
        pairs, ua, ub = _match(a, b, self.tolerance_mm)
        return not ua and not ub and all(_same_reading(a.pieces[i], b.pieces[j])
                                         for i, j in pairs)

    def _consensus(self) -> Scene:
        """The pieces seen in most of the still frames, each averaged over its frames, its
        suit, face, colour and id by majority."""
        last = self._run[-1]
        groups: list[list[Piece]] = [[p] for p in last.pieces]
        for other in self._run[:-1]:
            reps = [g[0] for g in groups]
            pairs, _, unmatched = _match(reps, other, self.tolerance_mm * 2)
            for i, j in pairs:
                groups[i].append(other.pieces[j])
            groups += [[other.pieces[j]] for j in unmatched]
        need = len(self._run) / 2.0
        # seen in too few of the frames: a flicker
        kept = [g for g in groups if not (len(g) <= need and len(self._run) > 1)]
        xs = _means([[p.x_mm for p in g] for g in kept])
        ys = _means([[p.y_mm for p in g] for g in kept])
        confs = _means([[p.confidence for p in g if p.confidence is not None] for g in kept])
        pieces = []
        for g, x, y, conf in zip(kept, xs, ys, confs, strict=True):
            vote = Counter((p.suit, p.face, p.color, p.id) for p in g).most_common(1)[0][0]
            best = next(p for p in g if (p.suit, p.face, p.color, p.id) == vote)
            pieces.append(replace(best, x_mm=round(x, 2), y_mm=round(y, 2),
                                  confidence=round(conf, 3) if conf is not None else None))
        return Scene(tuple(pieces), hand=False)


def _means(lists: list[list[float]]) -> list[float | None]:
    """``float(np.mean(v))`` of each list (None for an empty one), the lists of one length
    as the rows of one array (a row's mean is summed as the list's own, bit for bit).

    >>> _means([[1.0, 2.0], [], [3.0], [0.5, 0.25]])
    [1.5, None, 3.0, 0.375]
    """
    out: list[float | None] = [None] * len(lists)
    by_len: dict[int, list[int]] = {}
    for i, v in enumerate(lists):
        if v:
            by_len.setdefault(len(v), []).append(i)
    for idx in by_len.values():
        for i, m in zip(idx, np.mean(np.array([lists[i] for i in idx], float), axis=1).tolist(),
                        strict=True):
            out[i] = m
    return out


def _same_reading(p: Piece, q: Piece) -> bool:
    return (p.suit, p.face, p.color, p.id) == (q.suit, q.face, q.color, q.id)
