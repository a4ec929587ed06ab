"""No post where a segment's dome or a coin lies, and none touching a dome unless the judge is sure.

Under a hard lamp a Worm Up! segment (a dome 10 mm high) casts a shadow as dark as a post's
wall, leaving from its rim: the post stage reads a foot there, at the dome's edge, the shadow
for its wall (session 26's tuning tables: 9 of 10 false posts on Worm Up! tables, each 8-16 mm
from a segment's centre, the dome's own radius 10 mm). Two solid pieces cannot stand in one
place, so a post whose foot circle would lie well inside a segment or a coin found (its foot
nearer the piece's centre than the two radii less ``overlap_mm``) is none, whatever read it;
one touching a segment (nearer than the two radii and ``touch_mm``) is read again at its
foot by the post judge (:func:`vision.post_reading.judge_scores`, in the level the post stage
read it in, the other pieces' places left out) and stands only where the judge is sure of it
(``PostJudgeConfig.min_score``): there the hand-set gates alone, which passed the domes'
shadows, are not enough. A coin is only 3 mm thick: it casts no shadow a post's width, and
a post read against one stands as its stage read it (session 27: a real post against a coin,
the judge at 0.41-0.49 there, was lost). Posts elsewhere are not touched, and nothing is read
on a frame whose posts touch no segment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from vision.detections import Detections
from vision.post_candidates import local_level
from vision.post_level import for_posts, post_channels
from vision.post_reading import judge_scores
from vision.posts import PostConfig
from vision.prepare import Prepared


@dataclass(frozen=True)
class PostDomeConfig:
    """Attributes:
    kinds: The round pieces a post cannot stand in.
    rejudged: Of ``kinds``, those beside which a post is judged again: a piece that casts a
        shadow as dark and as wide as a post's wall (a segment's dome, 10 mm high). A coin,
        3 mm thick, casts none a post's width (under a lamp 45 degrees up, 3 mm beyond its
        rim), and a post standing against it is a real one more often than not.
    tiles: No post stands inside a tile found either (a printed suit or a grid's crossing
        on a tile's face); one beside a tile is not judged again (posts stand at tiles).
    overlap_mm: A post whose foot is nearer a piece's centre than the piece's radius and the
        post's, less this, would stand inside it: it is dropped (the feet and centres are
        read to a millimetre or two).
    touch_mm: A post whose foot is nearer a piece's centre than the two radii and this
        touches it: it stands only where the judge, reading it again, is sure of it.
    window_mm: Round each post judged again, this many mm each way are made in full (as the
        post stage reads a net's peak) before its features are read.
    """

    kinds: tuple[str, ...] = ("segment", "coin")
    rejudged: tuple[str, ...] = ("segment",)
    tiles: bool = True
    overlap_mm: float = 3.0
    touch_mm: float = 3.0
    window_mm: float = 30.0


def square_gaps(feet_mm: np.ndarray, centres_mm: np.ndarray, angles_deg: np.ndarray,
                side_mm: float, post_radius_mm: float) -> np.ndarray:
    """(N,) for each post foot, the least gap (mm) between its foot circle and the squares
    (tiles: centres, angles in degrees, one side) (negative: they overlap); +inf where there
    are no squares.

    >>> square_gaps(np.array([[0.0, 0.0], [40.0, 0.0], [0.0, 7.0]]), np.array([[0.0, 0.0]]),
    ...             np.array([0.0]), 50.0, 5.0).round(2).tolist()
    [-30.0, 10.0, -23.0]
    >>> square_gaps(np.array([[40.0, 0.0]]), np.array([[0.0, 0.0]]), np.array([45.0]), 50.0,
    ...             5.0).round(2).tolist()  # the corner reaches 35.36 mm
    [-0.36]
    """
    feet = np.asarray(feet_mm, float).reshape(-1, 2)
    if not len(centres_mm):
        return np.full(len(feet), np.inf)
    a = np.radians(np.nan_to_num(np.asarray(angles_deg, float)))
    rel = feet[:, None] - np.asarray(centres_mm, float)[None]  # (N, M, 2)
    c, s = np.cos(a)[None], np.sin(a)[None]
    local = np.stack([c * rel[..., 0] + s * rel[..., 1], -s * rel[..., 0] + c * rel[..., 1]],
                     axis=-1)
    q = np.abs(local) - side_mm / 2
    out = np.hypot(*np.maximum(q, 0.0).transpose(2, 0, 1))
    inside = np.minimum(q.max(axis=-1), 0.0)
    return (out + inside - post_radius_mm).min(axis=1)


def piece_gaps(feet_mm: np.ndarray, centres_mm: np.ndarray, radii_mm: np.ndarray,
               post_radius_mm: float) -> np.ndarray:
    """(N,) for each post foot, the least gap (mm) between its foot circle and the pieces'
    discs (negative: they overlap); +inf where there are no pieces.

    >>> piece_gaps(np.array([[0.0, 0.0], [40.0, 0.0]]), np.array([[12.0, 0.0]]),
    ...            np.array([10.0]), 5.0).tolist()
    [-3.0, 13.0]
    >>> piece_gaps(np.array([[0.0, 0.0]]), np.zeros((0, 2)), np.zeros(0), 5.0).tolist()
    [inf]
    """
    feet = np.asarray(feet_mm, float).reshape(-1, 2)
    if not len(centres_mm):
        return np.full(len(feet), np.inf)
    d = np.hypot(*(feet[:, None] - np.asarray(centres_mm, float)[None]).transpose(2, 0, 1))
    return (d - np.asarray(radii_mm, float)[None] - post_radius_mm).min(axis=1)


def drop_dome_posts(cfg: PostDomeConfig, posts: PostConfig, prep: Prepared,
                    frame_bgr: np.ndarray, dets: Detections, radii_mm: Mapping[str, float],
                    tile_mm: float, against: np.ndarray) -> Detections:
    """``dets`` without the posts standing in a piece of ``cfg.kinds`` or a tile
    (``radii_mm``: each round kind's radius; ``tile_mm``: a tile's side) and those touching a
    round one that the judge, reading them again, is not sure of (``against``: uint8 mask of
    the view where the pieces other than posts lie)."""
    is_post = np.flatnonzero(dets.kind == "post")
    round_ = np.isin(dets.kind, cfg.kinds)
    tiles = dets.kind == "tile" if cfg.tiles else np.zeros(len(dets), bool)
    if not len(is_post) or not (round_.any() or tiles.any()) or posts.judge is None:
        return dets
    feet = dets.centre_mm[is_post]
    radii = np.array([radii_mm[str(k)] for k in dets.kind[round_]])
    gap = piece_gaps(feet, dets.centre_mm[round_], radii, posts.radius_mm)
    in_tile = square_gaps(feet, dets.centre_mm[tiles], dets.angle_deg[tiles], tile_mm,
                          posts.radius_mm) < -cfg.overlap_mm
    drop = (gap < -cfg.overlap_mm) | in_tile
    near = np.isin(dets.kind[round_], cfg.rejudged)
    touch = piece_gaps(feet, dets.centre_mm[round_][near], radii[near], posts.radius_mm)
    touching = ~drop & (touch < cfg.touch_mm)
    if touching.any():
        view = prep.view
        s = view.px_per_mm
        feet_px = view.to_px(feet[touching]).reshape(-1, 2)
        seen = for_posts(prep, posts.level)
        channels = post_channels(prep, posts.level)  # None: the unlikeness
        unlike = channels is None
        level = local_level(seen, frame_bgr, feet_px, cfg.window_mm * s, unlike,
                            channels or (0, 1, 2))
        plain = local_level(prep, frame_bgr, feet_px, cfg.window_mm * s) if unlike else None
        score = judge_scores(posts, level, seen, feet_px, against, plain)
        drop[np.flatnonzero(touching)] = score < posts.judge.min_score
    if not drop.any():
        return dets
    keep = np.ones(len(dets), bool)
    keep[is_post[drop]] = False
    return dets[keep]
