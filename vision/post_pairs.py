"""Two posts touching along the camera's ray: one dark run, two feet.

Seen from a tilted camera and drawn on the table plane, a post is a dark stripe from its foot
outwards (away from the point below the camera), as long as the camera geometry says for a
post of its height standing there (:func:`vision.posts.post_outline`). A second post touching
it on the same ray makes the run one post diameter longer: beyond the first post's top
(the second stands behind it, farther out: what goes on there is mostly its top face, dark
or lit, unlike the table either way) or behind the first post's foot (it stands in front,
nearer the nadir: its foot and wall, dark, over the first post's foot). The post stage reads
one post from such a run, and the second one's outline lies mostly over the first's, which the
stage takes for a post hidden behind it. So, for each post read, the run is measured along its ray
on both sides; where it goes on dark for about a diameter, a post touching it there is looked
for (the outline fitted from one diameter along the ray) and judged as any reading is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.sampling import bilinear
from vision.topview import TopView


@dataclass(frozen=True)
class PostPairConfig:
    """Attributes:
    min_dark: Least mean darkness (0 table, 1 fully dark, as the post stage's template reads
        it) of the part of the run a post touching the foot would add behind it, and least
        mean unlikeness (0 table, 1 as far from it as a fully dark post: the post stage's
        ``black_level`` less its ``contrast``) of the part one touching the top would add
        beyond it, for one to be looked for there (a grey top face, as unlike the table as a
        shade, is not enough: side by side posts' shades would be read as posts behind).
    gap_mm: The second post's foot is looked for this far from the first's beyond one
        diameter (feet of touching posts are one diameter apart; the fit moves it).
    max_shift_mm: A fitted foot that moved farther than this from where it was looked for is
        not that touching post.
    min_support_share: A touching post stands where the learned judge is sure of it, or
        where the edges of its outline are at least this share as strong (the outline fit's
        support) as those of the post it touches (a shade's edges are soft).
    max_on_pieces: Most share of a touching post's outline over other pieces found (a tile
        or coin beyond a post makes the run go on, and has strong edges of its own).
    """

    min_dark: float = 0.8
    gap_mm: float = 0.0
    max_shift_mm: float = 3.0
    min_support_share: float = 0.7
    max_on_pieces: float = 0.1


_ACROSS = np.array([-0.4, 0.0, 0.4])  # radii across the ray


def touching_feet(cfg: PostPairConfig, soft: np.ndarray, unlike: np.ndarray,
                  origin: np.ndarray, view: TopView, foot_px: np.ndarray, radius_mm: float,
                  height_mm: float) -> list[np.ndarray]:
    """Where (view pixels) a post touching the one standing at ``foot_px`` along the camera's
    ray may stand: one diameter outwards when the run goes on dark beyond this post's top for
    as long as another post's would, one diameter inwards when it goes on dark behind its foot.

    Args:
        soft: float32 darkness (0 table, 1 dark) of a window of the view whose top left
            corner is the view point ``origin`` (2,).
        unlike: float32 unlikeness (0 table, 1 far from it, darker or lighter) of the same
            window.
        foot_px: The post's foot, view pixels (2,).
    """
    cam, s = view.camera, view.px_per_mm
    r = radius_mm * s
    k = cam.height_mm / max(cam.height_mm - height_mm, 1.0)
    f = np.asarray(foot_px, float).reshape(2)
    nadir = view.to_px(cam.nadir_mm[None])[0]
    d = float(np.hypot(*(f - nadir)))
    if d < 1e-6:
        return []
    u = (f - nadir) / d
    v = np.array([-u[1], u[0]])
    step = 2.0 * r + cfg.gap_mm * s
    length = d * (k - 1.0)  # foot to the top's centre, this post
    out_len = (d + step) * (k - 1.0)  # the same for one a diameter farther out
    end = length + k * r  # this post's silhouette ends here along the ray
    end_out = step + out_len + k * r
    found = []
    for lo, hi, shift, seen in ((end + 1.5, end_out - 1.5, step, unlike),
                                (-r - step + 1.5, -r - 1.5, -step, soft)):
        if hi - lo < 2.0:
            continue
        t = np.arange(lo, hi + 1e-9, 1.0)
        pts = f + t[:, None, None] * u + (_ACROSS * r)[None, :, None] * v
        if float(bilinear(seen, pts.reshape(-1, 2) - origin).mean()) >= cfg.min_dark:
            found.append(f + shift * u)
    return found
