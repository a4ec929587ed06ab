"""No post where a checked cloth's square stands, whatever read it and however sure the judge.

The post stage drops a reading passed by its hand-set gates whose place repeats the table's
pattern (:mod:`vision.post_pattern`), but a reading the judge is sure of was never asked: on a
black gingham in a dim warm room the judge gave the cloth's black squares 0.55-0.80 (trust seed
195037, the first still: three false posts and a fourth beside a finish post). A post is one
thing standing on the table; a square of a checked cloth is found again at the lattice's steps
in two directions, and the squares are alike to one another as closely as the noise lets them
be. So once every stage has read its posts, each post's place (its outline and a margin of the
table round it) is looked for round it in the level the post stage reads (made in full round
it, :func:`vision.post_candidates.local_level`), and where it is found again on a lattice (step
6's own test) and matches its copies as well as its best copy matches that copy's own copies
(:func:`likeness`), it is a square of the cloth and is dropped. A black post on a black gingham
matches the squares, but worse than they match one another. A plain or grained table, a
blind's stripes, repeat along one line at most, so nothing changes there but the time of the
look (a correlation over ``max_shift_mm`` each way round each post, and round its best copy
where it repeats).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detections import Detections
from vision.post_candidates import local_level
from vision.post_level import for_posts, post_channels
from vision.post_pattern import PostPatternConfig, pattern_matches, two_ways
from vision.posts import PostConfig, post_outline
from vision.prepare import Prepared


@dataclass(frozen=True)
class PostClothConfig:
    """Attributes:
    top: A place's likeness to its copies is the median correlation of its this many best.
    slack: A post whose place is found again round it on a lattice (the pattern test's own
        copies, ``PostPatternConfig.min_match`` and two directions) is the cloth's square
        where its likeness to its copies is at least its best copy's likeness to that
        copy's own copies, less this. The cloth's squares are alike to one another as
        closely as the noise lets them be; a black post on a black gingham in a dim, noisy
        room matches the squares at up to 0.85 (trust seed 195037's finish posts), while
        the squares match one another better still.
    min_alike: ... and where that copy's likeness to its own copies is at least this: the
        squares of a cloth are alike (0.91-0.99 on the tuning tables); on a large check a
        post's best copy is another stretch of checks matched at 0.68-0.77, and a post's
        place matched nearly as well there is no sign of a lattice.
    margin_mm: The level is made in full this much beyond twice the pattern test's reach
        (``PostConfig.pattern.max_shift_mm``) round each post (the best copy's own copies
        are looked for round it).
    """

    top: int = 4
    slack: float = 0.03
    min_alike: float = 0.85
    margin_mm: float = 16.0


def likeness(pattern: PostPatternConfig, level: np.ndarray, px_per_mm: float,
             outline_px: np.ndarray, radius_mm: float, top: int
             ) -> tuple[float, float] | None:
    """How alike the place of a reading (the box round its outline points ``outline_px``,
    grown as :func:`vision.post_pattern.pattern_copies` grows it) is to its copies round it
    (the median correlation of its ``top`` best), and how alike its best copy is to that
    copy's own copies (the reading's place left out); None where its place is not found
    again on a lattice (:func:`vision.post_pattern.two_ways`) or the best copy's place is
    not wholly in the view.

    >>> yy, xx = np.mgrid[0:300, 0:300]
    >>> cloth = np.where(((yy // 10) % 2 == 0) & ((xx // 10) % 2 == 0), 40, 120)
    >>> rng = np.random.default_rng(0)
    >>> lv = np.clip(cloth + rng.normal(0, 6, cloth.shape), 0, 255).astype(np.uint8)
    >>> square = np.array([[140.0, 140.0], [149.0, 149.0]])
    >>> a, b = likeness(PostPatternConfig(), lv, 1.0, square, 5.0, 4)
    >>> abs(a - b) < 0.03  # a square of the cloth: as alike as the others
    True
    >>> lv[136:156, 138:152] = 20  # a post standing over it: black and larger
    >>> likeness(PostPatternConfig(), lv, 1.0, square, 5.0, 4) is None
    True
    """
    found = pattern_matches(pattern, level, px_per_mm, outline_px, radius_mm)
    if found is None:
        return None
    shift, score = found
    if not two_ways(pattern, shift):
        return None
    mine = float(np.median(score[:top]))
    best = shift[0]
    other = pattern_matches(pattern, level, px_per_mm, outline_px + best, radius_mm,
                            0.0)
    if other is None:
        return None
    oshift, oscore = other
    back = np.hypot(*(oshift + best).T) <= pattern.opposite_px  # the reading's own place
    if not (~back).any():
        return None
    return mine, float(np.median(oscore[~back][:top]))


def cloth_posts(cfg: PostClothConfig, posts: PostConfig, prep: Prepared,
                frame_bgr: np.ndarray, feet_mm: np.ndarray) -> np.ndarray:
    """(N,) bool: which posts standing at ``feet_mm`` (N, 2) are a square of the table's
    pattern (:func:`likeness`: as alike to their copies as those are to theirs)."""
    feet = np.asarray(feet_mm, float).reshape(-1, 2)
    out = np.zeros(len(feet), bool)
    if posts.pattern is None or not len(feet):
        return out
    view = prep.view
    s = view.px_per_mm
    seen = for_posts(prep, posts.level)
    channels = post_channels(prep, posts.level)  # None: the unlikeness
    feet_px = view.to_px(feet).reshape(-1, 2)
    level = local_level(seen, frame_bgr, feet_px,
                        (2 * posts.pattern.max_shift_mm + cfg.margin_mm) * s, channels is None,
                        channels or (0, 1, 2))
    for i, f in enumerate(feet_px):
        outline = post_outline(posts, view, f, step_px=2.0)
        got = likeness(posts.pattern, level, s, outline.points, posts.radius_mm, cfg.top)
        out[i] = got is not None and got[1] >= cfg.min_alike and got[0] >= got[1] - cfg.slack
    return out


def drop_cloth_posts(cfg: PostClothConfig, posts: PostConfig, prep: Prepared,
                     frame_bgr: np.ndarray, dets: Detections) -> Detections:
    """``dets`` without the posts that are a square of the table's pattern
    (:func:`cloth_posts`)."""
    is_post = np.flatnonzero(dets.kind == "post")
    if not len(is_post):
        return dets
    drop = cloth_posts(cfg, posts, prep, frame_bgr, dets.centre_mm[is_post])
    if not drop.any():
        return dets
    keep = np.ones(len(dets), bool)
    keep[is_post[drop]] = False
    return dets[keep]
