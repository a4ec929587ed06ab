"""Worm Up! segments confirmed by the last accepted table: each colour keeps its count.

Segments are never taken off the table nor added during a game, so each colour has as many on
the table as on the last accepted one. A still reading short of a colour's count is checked at
the poses of the accepted table's segments of that colour that it lacks (a segment that did not
move is still there): one is *seen* when most of the samples over its dome, where the camera sees
it, are of its colour (a strong colour, nearest in hue to its own of the set's colours). Seen
ones are added, the best first, until the count is made up, never beyond it, each read unsurely
(put back, not read: ``put_back_confidence``; on a table of a segment's own colour an empty place
can look like one, and a segment that moved would reappear where it lay). A reading over a
colour's count leaves out its least confident segments that lie where the accepted table had
none of that colour (a red check of a cloth read as a segment), until the count is right.

Vision still knows no rules: the accepted table is an input (like the calibration) and the
count is only what that table shows.

>>> round(_hue_gap(10.0, 350.0), 1)
20.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from tabletop.scene import Piece, Scene


@dataclass(frozen=True)
class SegmentConfirmConfig:
    """Attributes:
    disc_share: Samples are taken over this share of a segment's radius round where the camera
        sees its middle (the dome at half its height).
    min_chroma: Least colourfulness (CIE Lab chroma) of a sample of segment colour...
    chroma_of_own: ...and at least this share of the chroma of the segment's own colour.
    seen_share: Share of the samples that must be of the segment's colour for it to be seen.
    same_mm: A reading segment of the colour this near a known one is that one.
    table_ring: The table round a segment is read this many radii from its middle...
    min_from_table: ...and a sample of its colour differs at least this much (CIE Lab) from it
        (a table of nearly a segment's colour, an oak's yellow, is no segment).
    put_back_confidence: A segment put back at its known pose was not read there: its
        confidence is its share of samples, at most this (the reading is unsure of it: on a
        table of its own colour the samples of an empty place can be of its colour, and a
        segment that moved then reappears where it lay).
    """

    disc_share: float = 0.55
    min_chroma: float = 15.0
    chroma_of_own: float = 0.3
    seen_share: float = 0.75
    same_mm: float = 6.0
    table_ring: float = 2.6
    min_from_table: float = 20.0
    put_back_confidence: float = 0.7


_RINGS = ((0.0, 1), (0.5, 8), (1.0, 12))
"""(share of the sampled radius, samples) of each ring of samples."""


def _hue_gap(a_deg: float, b_deg: float) -> float:
    """The angle between two hues, degrees (0-180)."""
    d = abs(a_deg - b_deg) % 360.0
    return min(d, 360.0 - d)


def rgb_to_lab(rgb: tuple[int, int, int]) -> np.ndarray:
    """CIE Lab (L 0..100) of an 8-bit RGB colour, as OpenCV converts it."""
    import cv2

    px = np.uint8([[list(rgb[::-1])]])
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2Lab)[0, 0].astype(np.float32)
    return (lab - np.array([0.0, 128.0, 128.0], np.float32)) * np.array(
        [100.0 / 255.0, 1.0, 1.0], np.float32)


LabAt = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
"""Table points (..., 2) mm -> (Lab colours (..., 3), seen in the frame (...,))."""

SeenAt = Callable[[np.ndarray, float], np.ndarray]
"""(feet (N, 2) mm, height mm) -> where the camera sees those points on the table plane."""


def segment_share(lab_at: LabAt, seen_at: SeenAt, piece: Piece, colours: Mapping[str, np.ndarray],
                  radius_mm: float, height_mm: float, config: SegmentConfirmConfig,
                  others_mm: np.ndarray | None = None) -> float:
    """The share (0-1) of samples over ``piece``'s dome that are of its colour and stand out
    from the table round it (read on a ring beyond the dome, away from ``others_mm`` (N, 2),
    the other segments' places): 0 when its colour is not one of ``colours`` (name -> Lab),
    the dome is out of view or no table is seen round it."""
    own = colours.get(piece.color or "")
    if own is None:
        return 0.0
    foot = np.array(piece.centre_mm, float)
    centre = seen_at(foot[None], 0.5 * height_mm)[0]
    r = config.disc_share * radius_mm
    pts = [centre + f * r * np.array([math.cos(a), math.sin(a)])
           for f, n in _RINGS for a in np.arange(n) * 2 * math.pi / n]
    ring = np.array([foot + config.table_ring * radius_mm * np.array([math.cos(a), math.sin(a)])
                     for a in np.arange(24) * 2 * math.pi / 24])
    if others_mm is not None and len(others_mm):
        far = np.min(np.hypot(*(ring[:, None] - others_mm[None]).T), axis=0) > 1.1 * radius_mm
        ring = ring[far]
    if len(ring) < 4:
        return 0.0
    lab, inside = lab_at(np.vstack([np.array(pts), ring]))
    if not np.all(inside[:len(pts)]) or np.count_nonzero(inside[len(pts):]) < 4:
        return 0.0
    table = np.median(lab[len(pts):][inside[len(pts):]], axis=0)
    lab = lab[:len(pts)]
    apart = np.linalg.norm(lab - table, axis=1) >= config.min_from_table
    hues = {name: math.degrees(math.atan2(c[2], c[1])) for name, c in colours.items()}
    own_chroma = float(np.hypot(own[1], own[2]))
    need = max(config.min_chroma, config.chroma_of_own * own_chroma)
    good = 0
    for (a, b), stands_out in zip(lab[:, 1:], apart, strict=True):
        if not stands_out or math.hypot(a, b) < need:
            continue
        h = math.degrees(math.atan2(b, a))
        nearest = min(hues, key=lambda name: _hue_gap(h, hues[name]))
        good += int(nearest == piece.color)
    return good / len(lab)


def conserve_segments(reading: Scene, known: Scene, share_of: Callable[[Piece], float],
                      config: SegmentConfirmConfig) -> tuple[Scene, tuple[int, ...],
                                                               tuple[int, ...]]:
    """Each colour of segment brought to its count on ``known`` (see the module doc).

    Args:
        reading: The still reading.
        known: The last accepted table.
        share_of: A known segment -> the share of its dome's samples of its colour.
        config: The thresholds.

    Returns:
        ``(scene, added, dropped)``: the reading with the segments seen at their known poses
        added at the end (``added``: their indices there) and the extra ones left out
        (``dropped``: their indices in ``reading``).

    >>> k = Scene((Piece("segment", 0, 0, color="red"), Piece("segment", 20, 0, color="red")))
    >>> r = Scene((Piece("segment", 0.5, 0, color="red"),))
    >>> s, added, dropped = conserve_segments(r, k, lambda p: 0.9, SegmentConfirmConfig())
    >>> [p.centre_mm for p in s.pieces], added, dropped, s.pieces[1].confidence
    ([(0.5, 0), (20, 0)], (1,), (), 0.7)
    """
    want = Counter(p.color for p in known.pieces if p.kind == "segment")
    have = Counter(p.color for p in reading.pieces if p.kind == "segment")
    added: list[Piece] = []
    dropped: set[int] = set()
    for colour, n in want.items():
        mine = [(j, p) for j, p in enumerate(reading.pieces)
                if p.kind == "segment" and p.color == colour]
        theirs = [p for p in known.pieces if p.kind == "segment" and p.color == colour]
        if have[colour] < n:
            lacking = [p for p in theirs if not any(
                math.dist(p.centre_mm, q.centre_mm) <= config.same_mm for _, q in mine)]
            scored = sorted(((share_of(p), k) for k, p in enumerate(lacking)), reverse=True)
            for share, k in scored[:n - have[colour]]:
                if share >= config.seen_share:
                    added.append(replace(lacking[k], confidence=round(
                        min(share, config.put_back_confidence), 3)))
        elif have[colour] > n:
            new = [(j, p) for j, p in mine if not any(
                math.dist(p.centre_mm, q.centre_mm) <= config.same_mm for q in theirs)]
            new.sort(key=lambda jp: (1.0 if jp[1].confidence is None else jp[1].confidence,
                                     -jp[0]))
            dropped.update(j for j, _ in new[:have[colour] - n])
    if not added and not dropped:
        return reading, (), ()
    kept = [p for j, p in enumerate(reading.pieces) if j not in dropped]
    scene = replace(reading, pieces=(*kept, *added))
    return scene, tuple(range(len(kept), len(kept) + len(added))), tuple(sorted(dropped))
