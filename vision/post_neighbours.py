"""Two posts touching at any angle: the one beside a post found is looked for.

A game lays posts in touching pairs (in the renderer's games, three groups of ten). Read from
the dark mask, such a pair is one blob whose readings go to either post and whose second one's
outline lies over the first's (taken for a post hidden behind it); read at one net peak, the
template's foot and the outline fitted from the peak may both land on one post. Along the
camera's ray the dark run tells (:mod:`vision.post_pairs`); across it nothing did. But where a
post stands, a post touching it has its foot one diameter away, in some direction: so round
every post found, each of ``directions`` places one diameter (and a hair) away is a start
where the level there is dark (the neighbour's wall would be), the post's outline is fitted
from it with the found posts' outlines taken as other pieces (their edges are not the
neighbour's), and a reading that stays a diameter from every post found and the learned judge
is sure of (:mod:`vision.post_judge`, as a cool net peak is held to) stands. The judge, not
a gate, tells a post's own shadow (as wide as a post, leaving its foot) from a post.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.detections import Detections
from vision.post_candidates import _draw_outline, local_level
from vision.post_level import for_posts, post_channels
from vision.post_reading import judge_scores
from vision.posts import PostConfig, _darkness, fit_post
from vision.prepare import Prepared
from vision.topview import TopView


@dataclass(frozen=True)
class PostNeighbourConfig:
    """Attributes:
    directions: Places looked at round each post found (evenly round it).
    gap_mm: A touching post's foot is looked for this far beyond one diameter.
    min_dark: Least darkness (0 table, 1 fully dark, as the post stage's template reads it)
        of the middle of a neighbour's wall at a place for it to be a start.
    max_shift_mm: A fitted foot that moved farther than this from its start is not that
        neighbour (the fit slid back onto the post found, or off to another dark patch).
    min_apart: A reading's foot is at least this many post radii from every post found (two
        posts touching: 2; one post read twice: less).
    window_mm: Round each start outside the prepared view this many mm each way are made in
        full (as the post stage reads a net's peak).
    max_posts: At most this many posts found are looked round (a cost bound; the surest first).
    """

    directions: int = 12
    gap_mm: float = 0.1
    min_dark: float = 0.5
    max_shift_mm: float = 3.0
    min_apart: float = 1.7
    window_mm: float = 40.0
    max_posts: int = 12


_ALONG = np.array([0.0, 0.2, 0.5, 0.8])  # shares of the way from a foot to its top's centre


def neighbour_starts(cfg: PostNeighbourConfig, posts: PostConfig, level: np.ndarray,
                     taken: np.ndarray, view: TopView, foot_px: np.ndarray) -> np.ndarray:
    """The places (view pixels, (M, 2)) one diameter round a post standing at ``foot_px``
    where a touching post would be dark: the points along its axis, from its foot to its top,
    outside the posts found (``taken``, uint8 over the view: their darkness is theirs; a post
    behind one found shows only its top), as dark in ``level`` (the view's, table = 100; as
    the post stage's template reads darkness) as ``cfg.min_dark`` on average."""
    cam, s = view.camera, view.px_per_mm
    k = cam.height_mm / max(cam.height_mm - posts.height_mm, 1.0)
    nadir = view.to_px(cam.nadir_mm[None])[0]
    step = (2 * posts.radius_mm + cfg.gap_mm) * s
    a = np.arange(cfg.directions) * (2 * math.pi / cfg.directions)
    starts = np.asarray(foot_px, float) + step * np.c_[np.cos(a), np.sin(a)]
    pts = starts[:, None] + (k - 1.0) * _ALONG[None, :, None] * (starts - nadir)[:, None]
    h, w = level.shape
    xi = np.clip(np.rint(pts[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.rint(pts[..., 1]).astype(int), 0, h - 1)
    free = taken[yi, xi] == 0
    soft = _darkness(posts.black_level, posts.contrast)[level[yi, xi]]
    n = free.sum(axis=1)
    dark = np.where(free, soft, 0.0).sum(axis=1)
    return starts[(n >= 1) & (dark >= cfg.min_dark * np.maximum(n, 1))]


def neighbour_readings(cfg: PostNeighbourConfig, posts: PostConfig, prep: Prepared,
                       frame_bgr: np.ndarray, dets: Detections, against: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    """The feet (view pixels, (N, 2)) read beside the posts of ``dets`` (none within
    ``cfg.min_apart`` radii of a post found) and the judge's score of each (N,)."""
    none = (np.zeros((0, 2)), np.zeros(0))
    is_post = np.flatnonzero(dets.kind == "post")
    if posts.judge is None or not len(is_post):
        return none
    order = is_post[np.argsort(-dets.confidence[is_post], kind="stable")][:cfg.max_posts]
    view = prep.view
    s = view.px_per_mm
    r = posts.radius_mm * s
    seen = for_posts(prep, posts.level)
    channels = post_channels(prep, posts.level)  # None: the unlikeness
    unlike = channels is None
    known = list(view.to_px(dets.centre_mm[is_post]).reshape(-1, 2))
    around = view.to_px(dets.centre_mm[order]).reshape(-1, 2)
    level = local_level(seen, frame_bgr, around, cfg.window_mm * s, unlike,
                        channels or (0, 1, 2))
    walls = np.zeros_like(against)
    for k in known:
        _draw_outline(walls, posts, view, k)
    starts = [p for f in around for p in neighbour_starts(cfg, posts, level, walls, view, f)]
    if not starts:
        return none
    h, w = prep.valid.shape
    walls |= against
    feet: list[np.ndarray] = []
    fitted: list[np.ndarray] = []
    for p in starts:
        if any(float(np.hypot(*(p - q))) < r for q in fitted):
            continue  # a start beside one fitted already: the fit lands where that one did
        got = fit_post(posts, level, view, p, walls)
        f = got.foot
        fitted.append(f)
        if got.support <= 0 or float(np.hypot(*(f - p))) > cfg.max_shift_mm * s:
            continue
        xi, yi = (int(v) for v in np.rint(f))
        if not (0 <= xi < w and 0 <= yi < h) or not prep.valid[yi, xi]:
            continue
        if any(float(np.hypot(*(f - k))) < cfg.min_apart * r for k in known) or any(
                float(np.hypot(*(f - k))) < 1.0 for k in feet):
            continue
        feet.append(f)
    if not feet:
        return none
    plain = local_level(prep, frame_bgr, around, cfg.window_mm * s) if unlike else None
    return np.array(feet), judge_scores(posts, level, seen, np.array(feet), against, plain)


def neighbour_posts(cfg: PostNeighbourConfig, posts: PostConfig, prep: Prepared,
                    frame_bgr: np.ndarray, dets: Detections, against: np.ndarray
                    ) -> Detections:
    """Posts touching the posts of ``dets`` that no stage read, where the judge is sure of
    them (``against``: uint8 mask of the view where the other pieces lie); of readings closer
    than ``cfg.min_apart`` radii, the surest."""
    feet, score = neighbour_readings(cfg, posts, prep, frame_bgr, dets, against)
    if posts.judge is None or not len(feet):
        return Detections.empty()
    r = posts.radius_mm * prep.view.px_per_mm
    kept: list[int] = []
    for i in np.argsort(-score, kind="stable"):
        if score[i] < posts.judge.min_score:
            break
        if all(float(np.hypot(*(feet[i] - feet[k]))) >= cfg.min_apart * r for k in kept):
            kept.append(int(i))
    if not kept:
        return Detections.empty()
    mm = prep.view.to_mm(feet[kept])
    return Detections.of(mm, ["post"] * len(mm), confidence=np.clip(score[kept], 0, 1))
