"""A post's foot placed below its lit top, where the post stands on a dark table.

On a table read in the unlikeness (:mod:`vision.post_level`: black felt or cloth, dark wood) a
post's wall shows only where the light falls on it: its lit side is unlike the table, its
unlit side is the table's own level. The outline fit (:func:`vision.posts.fit_post`) then
meets an edge where the lit side turns into the unlit one, half a post inside the true
outline, and shrinks and shifts the post towards its lit side (and, near the camera's nadir,
where little of the wall is seen, towards its shadow): 2-5 mm off. Its flat top, lit from
above, is seen whole whatever side the light comes from: a disc lighter than the table, as
wide as the post's top seen on the table (:func:`vision.post_tops.lit_top`), whose centre lies
40 mm above the foot (:meth:`vision.topview.CameraGeometry.foot_of`), within a few tenths of a
mm of it. So every post read on such a table (by any stage) whose top is found as such a disc
near where the reading puts it is placed at the foot below that disc; one whose top is not
lit (or not alone: a neighbour's top, a coin beside it) keeps its fitted foot. Nothing of the
table is named: the light's direction is not needed, the post's own top says where it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from vision.detections import Detections
from vision.post_candidates import local_level
from vision.post_level import post_channels
from vision.post_tops import PostTopConfig, foot_below, lit_top, top_radius_px
from vision.posts import PostConfig
from vision.prepare import Prepared


@dataclass(frozen=True)
class PostFootConfig:
    """Attributes:
    top: How a lit top is read (:func:`vision.post_tops.lit_top`).
    reach: The top's lightest pixel lies within this many post radii of where the reading
        puts the top (the fitted feet are at most a radius off).
    max_shift: The foot below the top is taken where it is at most this many post radii from
        the fitted foot (farther: another post's top).
    window_mm: Round each post this many mm each way are made in full (as the post stage
        reads a net's peak) before its top is looked for.
    """

    top: PostTopConfig = field(default_factory=PostTopConfig)
    reach: float = 1.2
    max_shift: float = 1.2
    window_mm: float = 30.0


def feet_below_tops(cfg: PostFootConfig, posts: PostConfig, prep: Prepared,
                    frame_bgr: np.ndarray, dets: Detections) -> Detections:
    """``dets`` with each post's foot placed below its lit top (:func:`lit_top` in the plain
    level round where the reading puts its top), on a table whose posts are read in the
    unlikeness (:func:`vision.post_level.post_channels` None); as it is elsewhere, and for a
    post whose top is not found alone and lit."""
    is_post = np.flatnonzero(dets.kind == "post")
    if not len(is_post) or post_channels(prep, posts.level) is not None:
        return dets
    view = prep.view
    s = view.px_per_mm
    r = posts.radius_mm * s
    feet_mm = dets.centre_mm[is_post]
    tops_px = view.to_px(view.camera.seen_at(feet_mm, posts.height_mm)).reshape(-1, 2)
    plain = local_level(prep, frame_bgr, tops_px, cfg.window_mm * s)
    r_top = top_radius_px(view, posts.radius_mm, posts.height_mm)
    centre, seen = dets.centre_mm.copy(), dets.seen_mm.copy()
    moved = False
    for i, k in enumerate(is_post):
        top = lit_top(cfg.top, plain, tops_px[i], r_top, cfg.reach * r)
        if top is None:
            continue
        foot = view.to_mm(foot_below(view, top, posts.height_mm)[None])[0]
        if float(np.hypot(*(foot - feet_mm[i]))) * s > cfg.max_shift * r:
            continue
        shift = foot - centre[k]
        centre[k] = foot
        seen[k] = seen[k] + shift
        moved = True
    if not moved:
        return dets
    return replace(dets, centre_mm=centre, seen_mm=seen)
