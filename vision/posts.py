"""Posts: dark upright cylinders, reported at their foot.

From a tilted camera a post's side wall lies on the table plane of the view as a dark stripe
from its foot outwards (away from the point below the camera), as long as the camera geometry
says for a post of its height standing there. Each dark blob is searched for the foot whose
predicted stripe is dark while the table just behind the foot, or just beyond the top, is
not: a shadow (pointing the light's way, not the camera's) does not fit that template.

The foot is then fitted to the post's outline: seen from the camera and drawn on the table
plane, a post is the convex hull of its foot circle and of its top circle (seen displaced
outward and a little larger, :meth:`CameraGeometry.seen_at`). Edges are measured to a fraction
of a pixel along the normals of that outline (the near half of the foot circle, the two long
sides, the top face's edge) and the foot moved until the outline fits them
(:func:`fit_post`).

Posts that touch make one dark blob: each post read is taken out of it (the outline its fit
says) and the rest is read again while it is as large as a post. A reading is a post only
when it looks like one: its side wall dark all through (a shadow beside a coin or a tile
fills only part of it), its top face of one level, the table brighter all round its outline
but where its own shadow leaves it (a patch of a broader shadow is dark on all sides). In one
blob, posts are alike: a reading much lighter than the darkest is a shadow (it lets light
in), and one mostly covered by a post already read is that post's shadow or is hidden.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.detections import Detections
from vision.normalise import TABLE_LEVEL
from vision.post_judge import PostJudgeConfig
from vision.post_level import PostLevelConfig
from vision.post_pairs import PostPairConfig, touching_feet
from vision.post_pattern import PostPatternConfig, lattice_blobs, repeats_table
from vision.prepare import Prepared
from vision.sampling import bilinear
from vision.topview import TopView


@dataclass(frozen=True)
class PostConfig:
    """Attributes:
    radius_mm: The post's radius.
    height_mm: The post's height.
    black_level: Level (table = 100) where darkness starts to count (below: a shadow's).
    contrast: Levels below ``black_level`` at which a pixel counts as fully dark.
    min_score: Least template score of a post (dark stripe minus dark behind the foot, or
        minus dark beyond the top).
    max_core_level: A post's darkest tenth is below this level (table = 100): black, not shade.
    border_mm: Blobs this close to the edge of the view are left out (vignetting).
    max_points: Candidate feet tried per blob (the blob's pixels, thinned to this many).
    min_edge: Least change of the level (table = 100) per pixel across an edge of the outline.
    min_contrast: Least difference of level between the two surfaces (table, wall, top face)
        on either side of a part of the outline for it to be fitted.
    edge_share: An edge must show this share of the contrast between its two surfaces.
    shine_trust: Weight of the top face's edges when the top shines (brighter than the
        table): a lamp's highlight on it need not fill it.
    fit_steps: Most steps of the outline fit.
    max_per_blob: Most posts looked for in one dark blob (posts touching one another).
    min_wall_dark: Least share of a post's side wall (inside its rim, where no other piece
        covers it) that is dark (below ``black_level``).
    min_seen_share: A post whose outline other pieces cover but for this share is not
        judged by its darkness.
    alike_levels: Posts are alike: every post in one dark blob is at most this many levels
        (table = 100) lighter than the darkest (a shadow, which lets light in, is lighter).
    max_top_spread: Most spread of levels (10th to 90th percentile) over a post's top face.
    max_overlap: Most of a second post's outline in one blob that the posts found in it
        before may cover (side by side, only their rims meet; more is a post hidden behind
        another, not to be read, or the first one's shadow).
    min_outlined: Least share of a post's outline (where no other piece is against it)
        with the table brighter outside than the post inside: its own shadow, as wide as
        the post and leaving from its foot, covers a third at most (for the first post read
        in a blob: ``min_outlined_first``, as the shade of a lamp's soft shadow round a post
        may darken more of it).
    judge: The learned judge of the readings (:mod:`vision.post_reading`): its forest
        keeps a reading instead of the gates above (:meth:`proposing`: the loose gates
        under which ``training/make_posts.py`` gathers its candidates); None: the gates.
    level: On a dark table posts are read in how unlike the table each pixel is, not in its
        level (:mod:`vision.post_level`).
    pairs: A post touching one read along the camera's ray is looked for where the dark run
        goes on for another post (:mod:`vision.post_pairs`); None: never.
    pattern: A reading that stands by the hand-set gates (or a touching post by its edges)
        without the judge sure of it is dropped where it repeats the table's pattern (a
        checked cloth's square, :mod:`vision.post_pattern`); None: never.
    max_blobs: Most dark blobs read in one frame (the darkest first, :func:`dark_blobs`): a
        checked cloth makes hundreds, each read and judged, for seconds; None: all.
    """

    radius_mm: float = 5.0
    height_mm: float = 40.0
    black_level: float = 75.0
    contrast: float = 35.0
    min_score: float = 0.67
    max_core_level: float = 60.0
    border_mm: float = 15.0
    max_points: int = 120
    min_edge: float = 6.0
    min_contrast: float = 20.0
    edge_share: float = 0.6
    shine_trust: float = 0.3
    fit_steps: int = 5
    max_per_blob: int = 4
    min_wall_dark: float = 0.9
    min_seen_share: float = 0.3
    alike_levels: float = 8.0
    max_top_spread: float = 35.0
    max_overlap: float = 0.25
    min_outlined: float = 0.65
    min_outlined_first: float = 0.35
    judge: PostJudgeConfig | None = field(default_factory=PostJudgeConfig)
    level: PostLevelConfig = field(default_factory=PostLevelConfig)
    pairs: PostPairConfig | None = field(default_factory=PostPairConfig)
    pattern: PostPatternConfig | None = field(default_factory=PostPatternConfig)
    max_blobs: int | None = 96

    def proposing(self) -> PostConfig:
        """This configuration with the judge's loose gates (every reading a candidate: none
        dropped as the table's pattern, every blob read)."""
        j = self.judge or PostJudgeConfig()
        return replace(self, min_wall_dark=j.min_wall_dark, min_outlined=j.min_outlined,
                       min_outlined_first=j.min_outlined_first, alike_levels=j.alike_levels,
                       max_top_spread=j.max_top_spread, pattern=None, max_blobs=None)


_INNER: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _inner(valid: np.ndarray, k: int) -> np.ndarray:
    """``valid`` eroded by a k x k square, kept while the same array is passed again (the
    play area changes by a new array, never in place)."""
    hit = _INNER.get((id(valid), k))
    if hit is not None and hit[0] is valid:
        return hit[1]
    if len(_INNER) > 8:
        _INNER.clear()
    inner = cv2.erode(valid, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    _INNER[(id(valid), k)] = (valid, inner)  # holds ``valid``, so its id stays unique
    return inner


@functools.lru_cache(maxsize=8)
def _darkness(black_level: float, contrast: float) -> np.ndarray:
    """Level (uint8) -> how dark (float32: 0 at ``black_level``, 1 ``contrast`` below it)."""
    lut = np.clip((black_level - np.arange(256, dtype=np.float32)) / contrast, 0.0, 1.0)
    lut.setflags(write=False)
    return lut


def detect_posts(cfg: PostConfig, prep: Prepared, exclude: np.ndarray | None = None,
                 tiles: np.ndarray | None = None,
                 judge: Callable[[np.ndarray, np.ndarray | None], float] | None = None
                 ) -> Detections:
    """Finds the posts in a prepared frame (their feet, in mm).

    Args:
        exclude: uint8 mask of places the earlier stages explained (pieces found).
        tiles: uint8 mask of the tiles among them: a post beside a tile may be seen leaning
            over it (its dark top on the tile), and is then followed into it.
        judge: The learned judge's score of a reading (its foot in view pixels, the mask of
            where other pieces lie): when given, a reading stands where it is at least
            ``cfg.judge.min_score``, or where the hand-set gates pass it and it is at least
            ``cfg.judge.veto`` (a reading it rejects takes nothing of the blob from the
            next); its score is the confidence.
    """
    view = prep.view
    s = view.px_per_mm
    r = cfg.radius_mm * s
    kb = max(3, int(cfg.border_mm * s) | 1)
    dark = cv2.bitwise_and(prep.dark, _inner(prep.valid, kb))
    if exclude is not None:
        cv2.subtract(dark, exclude, dst=dark)
    lut = _darkness(cfg.black_level, cfg.contrast)
    h, w = dark.shape
    min_area = 0.5 * math.pi * r * r
    feet, scores = [], []
    for blob, x0, y0, against in dark_blobs(cfg, prep, dark, exclude, tiles):
        bh, bw = blob.shape
        prior = against  # the other pieces' places, before this blob's posts
        # the template reads darkness in the blob's rectangle and a margin round it
        xa, ya, xb, yb = _template_window(cfg, view, x0, y0, bw, bh, dark.shape)
        soft = lut[prep.level[ya:yb, xa:xb]]
        origin = np.array([xa, ya], float)
        # touching posts make one blob: each post found is taken out of it (the outline its
        # fit says), and what is left is searched again while it is as large as a post
        level = prep.level[ya:yb, xa:xb]
        left = np.zeros(level.shape, np.uint8)
        left[y0 - ya:y0 - ya + bh, x0 - xa:x0 - xa + bw] = blob
        found: list[tuple[np.ndarray, float, float, np.ndarray]] = []
        tried: list[tuple[np.ndarray, float]] = []
        taken = np.zeros(level.shape, np.uint8)
        for _ in range(cfg.max_per_blob):
            ys, xs = np.nonzero(left)
            if len(xs) < min_area:
                break
            lv = level[ys, xs]
            if np.partition(lv, len(lv) // 10)[len(lv) // 10] > cfg.max_core_level:
                break
            best = _best_post(cfg, prep.level, view, soft, origin, np.c_[xs, ys].astype(float),
                              against)
            if best is None:
                break
            foot, score = best
            if any(float(np.hypot(*(foot - f[0]))) < r for f in tried):
                break  # the same reading again: the rest is no post
            tried.append((foot, score))
            wall = _wall(cfg, view, foot, (xa, ya), level.shape)
            left = cv2.bitwise_and(left, cv2.bitwise_not(cv2.dilate(wall, _GROW)))
            side, face = _side(cfg, view, foot, (xa, ya), wall)
            near = None if against is None else against[ya:yb, xa:xb]
            core = _gated(cfg, prep.level, level, view, foot, side, face, near, against,
                          bool(found))
            if judge is not None and cfg.judge is not None:
                # the forest keeps what it is sure of; what the gates pass stands unless it
                # is sure that is no post
                score = judge(foot, against)
                if score >= cfg.judge.min_score:
                    core = -1.0  # judged a post: no likeness to the darkest asked
                elif core is None or score < cfg.judge.veto:
                    continue
            elif core is None:
                continue
            if core >= 0 and _repeats_table(cfg, prep.level, s, foot, view):
                continue  # passed by the gates alone, and a square of a checked cloth
            if found and np.count_nonzero(wall & taken) > cfg.max_overlap * np.count_nonzero(
                    wall):
                continue  # mostly where a post was read: a rest of it, or hidden behind it
            taken |= wall
            found.append((foot, score, core, wall))
            # the next one's edges against this one are not against the table, and its
            # template does not see this one's darkness
            placed = _placed(wall, (xa, ya), (h, w))
            against = cv2.bitwise_or(against, placed) if against is not None else placed
            soft = np.where(cv2.dilate(wall, _GROW) > 0, 0.0, soft).astype(np.float32)
        # posts are alike and black; a shadow lets some light in: those as dark as the
        # darkest stand
        darkest = min((f[2] for f in found if f[2] >= 0), default=0.0)
        kept = [f for f in found if f[2] < 0 or f[2] <= darkest + cfg.alike_levels]
        if cfg.pairs is not None and kept:
            kept += _touching(cfg, prep.level, view, level, origin, kept, prior, judge)
        for foot, score, _core, _wall_mask in kept:
            feet.append(foot)
            scores.append(score)
    if not feet:
        return Detections.empty()
    foot_mm = view.to_mm(np.array(feet))
    return Detections.of(foot_mm, ["post"] * len(feet), confidence=np.clip(scores, 0, 1))


_GROW = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def dark_blobs(cfg: PostConfig, prep: Prepared, dark: np.ndarray, exclude: np.ndarray | None,
               tiles: np.ndarray | None) -> list[tuple[np.ndarray, int, int, np.ndarray | None]]:
    """The blobs of the mask ``dark`` (uint8 over the view) a post may be read in, each as
    ``(patch, x0, y0,
    against)``: its pixels (a patch whose corner is view pixel ``x0, y0``; one against a tile
    followed into it, :func:`_into_tiles`) and the other pieces' places it is read against.
    Only blobs as large as a post and black in their darkest tenth (``max_core_level``) are
    kept, and not the squares of a checked cloth (blobs alike in size round them on a
    lattice, :func:`vision.post_pattern.lattice_blobs`); where more are left than
    ``cfg.max_blobs``, those that fit the post template best
    (:func:`_template_score`: a post is black along its whole stripe, a cloth's square is
    grey and short), in the contours' order."""
    r = cfg.radius_mm * prep.view.px_per_mm
    min_area, max_area = 0.5 * math.pi * r * r, 40 * math.pi * r * r
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    every: list[tuple[np.ndarray, int, int, np.ndarray | None, bool]] = []
    for c in contours:
        x0, y0, bw, bh = cv2.boundingRect(c)
        if bw * bh < min_area or cv2.contourArea(c) > max_area:
            continue
        blob = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(blob, [c], -1, 255, cv2.FILLED, offset=(-x0, -y0))
        blob = cv2.bitwise_and(blob, dark[y0:y0 + bh, x0:x0 + bw])
        against = exclude
        if tiles is not None and exclude is not None and tiles[
                max(0, y0 - 2):y0 + bh + 2, max(0, x0 - 2):x0 + bw + 2].any():
            grown = _into_tiles(prep.dark, tiles, blob, x0, y0, round(4 * r))
            if grown is not None:  # its top over a tile: the tile's edges there are not its
                blob, x0, y0 = grown
                bh, bw = blob.shape
                against = _cleared_near(exclude, blob, x0, y0, 5)
        ys, xs = np.nonzero(blob)
        if len(xs) < min_area or len(xs) > max_area:
            continue
        lv = prep.level[ys + y0, xs + x0]
        black = np.partition(lv, len(lv) // 10)[len(lv) // 10] <= cfg.max_core_level
        every.append((blob, x0, y0, against, bool(black)))  # not black: no post in it
    if cfg.pattern is not None:
        boxes = np.array([[x0, y0, b.shape[1], b.shape[0]] for b, x0, y0, _a, _k in every],
                         float).reshape(-1, 4)
        cloth = lattice_blobs(cfg.pattern, boxes[:, :2] + boxes[:, 2:] / 2, boxes[:, 2:],
                              prep.view.px_per_mm, cfg.radius_mm)
    else:
        cloth = np.zeros(len(every), bool)
    out = [(b, x0, y0, a) for (b, x0, y0, a, black), sq in zip(every, cloth, strict=True)
           if black and not sq]
    if cfg.max_blobs is None or len(out) <= cfg.max_blobs:
        return out
    likeness = [_template_score(cfg, prep, blob, x0, y0) for blob, x0, y0, _ in out]
    first = np.argsort(-np.asarray(likeness), kind="stable")[:cfg.max_blobs]
    return [out[i] for i in sorted(first.tolist())]


def _template_window(cfg: PostConfig, view: TopView, x0: int, y0: int, bw: int, bh: int,
                     shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """``(xa, ya, xb, yb)``: the part of a view of ``shape`` the post template reads round a
    blob's box (``x0, y0, bw, bh``, view pixels): a margin of two radii, 5 mm and the lean of a
    post's top that far from the camera's nadir."""
    s = view.px_per_mm
    cam = view.camera
    lean = cfg.height_mm / max(cam.height_mm - cfg.height_mm, 1.0)
    mid = view.to_mm(np.array([[x0 + bw / 2, y0 + bh / 2]]))[0]
    r = cfg.radius_mm * s
    pad = math.ceil(2 * r + 5.0 * s + lean * s * float(np.hypot(*(mid - cam.nadir_mm)))) + 2
    h, w = shape[:2]
    return max(0, x0 - pad), max(0, y0 - pad), min(w, x0 + bw + pad), min(h, y0 + bh + pad)


def _template_score(cfg: PostConfig, prep: Prepared, blob: np.ndarray, x0: int, y0: int
                    ) -> float:
    """How well the best foot in a blob (patch at ``x0, y0``) fits the post template (its
    stripe dark, the table behind its foot or beyond its top, :func:`_scores`), on the blob's
    pixels thinned to a tenth of ``cfg.max_points``, its darkness read all the way down to
    black (a post is blacker than a cloth's squares): the cheap first look of
    :func:`_best_post`."""
    view = prep.view
    bh, bw = blob.shape
    xa, ya, xb, yb = _template_window(cfg, view, x0, y0, bw, bh, prep.level.shape)
    # darkness from the black level (0) down to black (1): the template's own scale stops
    # at ``contrast`` below it, where a cloth's dark squares are as dark as a post
    soft = _darkness(cfg.black_level, cfg.black_level)[prep.level[ya:yb, xa:xb]]
    ys, xs = np.nonzero(blob)
    pts = np.c_[xs + x0 - xa, ys + y0 - ya].astype(float)
    n = max(4, cfg.max_points // 10)
    if len(pts) > n:
        pts = pts[:: len(pts) // n + 1]
    stripe, behind, beyond = _scores(cfg, soft, view, pts, np.array([xa, ya], float))
    return float(max((stripe - behind).max(), (stripe - beyond).max()))


def _repeats_table(cfg: PostConfig, level: np.ndarray, px_per_mm: float, foot: np.ndarray,
                   view: TopView) -> bool:
    """Whether a reading at ``foot`` (view pixels) repeats the table's pattern
    (:mod:`vision.post_pattern`); never when ``cfg.pattern`` is None."""
    if cfg.pattern is None:
        return False
    out = post_outline(cfg, view, foot, step_px=2.0)
    return repeats_table(cfg.pattern, level, px_per_mm, out.points, cfg.radius_mm)


def _touching(cfg: PostConfig, full: np.ndarray, view: TopView, level: np.ndarray,
              origin: np.ndarray, kept: list[tuple[np.ndarray, float, float, np.ndarray]],
              prior: np.ndarray | None,
              judge: Callable[[np.ndarray, np.ndarray | None], float] | None
              ) -> list[tuple[np.ndarray, float, float, np.ndarray]]:
    """Posts touching those read in a blob along the camera's ray (:mod:`vision.post_pairs`):
    each fitted from one diameter along the ray where the dark run goes on, and kept where
    the judge is sure of it (without a judge: where the hand-set model passes it). ``level``
    is the blob's window of ``full`` (its corner at ``origin``), ``prior`` the other pieces'
    places (not the posts read: the touching post's edges against them are its own)."""
    assert cfg.pairs is not None
    r = cfg.radius_mm * view.px_per_mm
    shift = cfg.pairs.max_shift_mm * view.px_per_mm
    known = [f[0] for f in kept]
    soft = _darkness(cfg.black_level, cfg.contrast)[level]
    unlike = np.minimum(np.abs(level.astype(np.float32) - TABLE_LEVEL) / (
        TABLE_LEVEL - cfg.black_level + cfg.contrast), 1.0)
    more: list[tuple[np.ndarray, float, float, np.ndarray]] = []
    for foot, *_ in kept:
        starts = touching_feet(cfg.pairs, soft, unlike, origin, view, foot, cfg.radius_mm,
                               cfg.height_mm)
        if not starts:
            continue
        edges = fit_post(cfg, full, view, foot, prior, steps=1).support
        corner = (int(origin[0]), int(origin[1]))
        near = None if prior is None else prior[corner[1]:corner[1] + level.shape[0],
                                                corner[0]:corner[0] + level.shape[1]]
        for start in starts:
            got = fit_post(cfg, full, view, start, prior)
            fit = got.foot
            if float(np.hypot(*(fit - start))) > shift or any(
                    float(np.hypot(*(fit - k))) < 1.5 * r for k in known):
                continue
            if prior is not None:  # running on into another piece (a tile beyond): its
                mine = _wall(cfg, view, fit, corner, level.shape)  # edges, not a post's
                if np.count_nonzero(mine & near) > cfg.pairs.max_on_pieces * np.count_nonzero(
                        mine):
                    continue
            # the judge knows lone posts: where it doubts one whose edges are as strong as
            # its neighbour's, the edges tell (a shade's are soft)
            outlined = got.support >= cfg.pairs.min_support_share * edges
            if judge is not None and cfg.judge is not None:
                score = judge(fit, prior)
                if score < cfg.judge.min_score and not outlined:
                    continue
                sure = score >= cfg.judge.min_score
                core = -1.0
            elif outlined or judge_post(cfg, full, view, fit, prior) is not None:
                score, core, sure = 1.0, -1.0, False
            else:
                continue
            if not sure and _repeats_table(cfg, full, view.px_per_mm, fit, view):
                continue  # stood by its edges alone, and a square of a checked cloth
            known.append(fit)
            more.append((fit, score, core, np.zeros((0, 0), np.uint8)))
    return more


def _gated(cfg: PostConfig, full: np.ndarray, level: np.ndarray, view: TopView,
           foot: np.ndarray, side: np.ndarray, face: np.ndarray, near: np.ndarray | None,
           against: np.ndarray | None, later: bool) -> float | None:
    """The median level of a reading's wall where the hand-set gates pass it, else None: its
    wall dark all through; the table round most of its outline, held to more when it is not
    the first in its blob (``later``: the first post's shadow is not), whose top face must
    then be of one level too (a patch of a broad shadow beside a tile is dark all round).
    ``full`` is the whole view's level, ``level`` the blob's window of it."""
    core = _wall_level(cfg, level, side, near)
    if core is None:
        return None
    outlined = _outlined(cfg, full, view, foot, against)
    if outlined < (cfg.min_outlined if later else cfg.min_outlined_first) or (
            later and not _flat(cfg, level, face, near)):
        return None
    return core


def judge_post(cfg: PostConfig, level: np.ndarray, view: TopView, foot_px: np.ndarray,
               against: np.ndarray | None = None) -> float | None:
    """The median level of the side wall of a post standing at ``foot_px`` (view pixels) when
    the view ``level`` shows one there, as :func:`detect_posts` holds its readings to: its
    wall dark all through and black (``max_core_level``), the table brighter round most of
    its outline (``min_outlined``), its top face of one level; None when it does not (a
    shadow has no top and is not outlined where the post's wall would be; a mug is pale; a
    patch of a broad shadow is dark all round). Parts of it against other pieces
    (``against``, uint8 over the view) are not judged, and a reading they cover for the most
    part is not a post either (nothing is seen of it)."""
    s = view.px_per_mm
    out = post_outline(cfg, view, foot_px, step_px=2.0)
    pad = 2.0 * cfg.radius_mm * s + 4.0
    h, w = level.shape
    x0, y0 = (max(0, int(v - pad)) for v in out.points.min(axis=0))
    x1, y1 = (min(lim, int(v + pad) + 2) for v, lim in zip(out.points.max(axis=0), (w, h),
                                                            strict=True))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    patch = level[y0:y1, x0:x1]
    wall = _wall(cfg, view, foot_px, (x0, y0), patch.shape)
    side, face = _side(cfg, view, foot_px, (x0, y0), wall)
    near = None if against is None else against[y0:y1, x0:x1]
    if near is not None:
        inner = cv2.erode(side, np.ones((3, 3), np.uint8)) > 0
        if np.count_nonzero(inner & (near == 0)) < cfg.min_seen_share * max(
                1, np.count_nonzero(inner)):
            return None
    core = _wall_level(cfg, patch, side, near)
    if core is None or core > cfg.max_core_level:
        return None
    if _outlined(cfg, level, view, foot_px, against) < cfg.min_outlined:
        return None
    return core if _flat(cfg, patch, face, near) else None


def read_post_near(cfg: PostConfig, level: np.ndarray, view: TopView, start_px: np.ndarray,
                   reach_px: float, against: np.ndarray | None = None
                   ) -> tuple[np.ndarray, float] | None:
    """The foot (view pixels) and template score of the post that best explains the dark
    pixels (below ``black_level``) within ``reach_px`` of ``start_px``, fitted to its outline
    as :func:`detect_posts` fits a blob's (so a shadow does not pull it); None when too few
    are dark there or no foot fits the template."""
    s = view.px_per_mm
    r = cfg.radius_mm * s
    h, w = level.shape
    lean = cfg.height_mm / max(view.camera.height_mm - cfg.height_mm, 1.0)
    mm = view.to_mm(np.asarray(start_px, float)[None])[0]
    pad = math.ceil(reach_px + 2 * r + 5.0 * s
                    + lean * s * float(np.hypot(*(mm - view.camera.nadir_mm)))) + 2
    cx, cy = (int(v) for v in np.rint(start_px))
    xa, ya = max(0, cx - pad), max(0, cy - pad)
    xb, yb = min(w, cx + pad + 1), min(h, cy + pad + 1)
    if xb - xa < 4 or yb - ya < 4:
        return None
    patch = level[ya:yb, xa:xb]
    ys, xs = np.nonzero(patch <= cfg.black_level)
    near = np.hypot(xs + xa - start_px[0], ys + ya - start_px[1]) <= reach_px
    if np.count_nonzero(near) < 0.5 * math.pi * r * r:
        return None
    soft = _darkness(cfg.black_level, cfg.contrast)[patch]
    pts = np.c_[xs[near], ys[near]].astype(float)
    return _best_post(cfg, level, view, soft, np.array([xa, ya], float), pts, against)


def _best_post(cfg: PostConfig, level: np.ndarray, view: TopView, soft: np.ndarray,
               origin: np.ndarray, pts: np.ndarray, against: np.ndarray | None
               ) -> tuple[np.ndarray, float] | None:
    """The foot (view pixels) and template score of the post that best explains a blob's
    pixels ``pts`` (M, 2, in the window ``soft`` whose corner is ``origin``), fitted to its
    outline; None when no foot scores well enough."""
    r = cfg.radius_mm * view.px_per_mm
    if len(pts) > cfg.max_points:
        pts = pts[:: len(pts) // cfg.max_points + 1]
    stripe, behind, beyond = _scores(cfg, soft, view, pts, origin)
    # A post's own shadow darkens the table behind its foot (light from beyond it) or
    # beyond its top (light from the camera's side), not both; the tip of a shadow
    # pointing at the camera looks like a foot with the table behind it. So: the best
    # foot with the table behind it, and the best with the table beyond; when they
    # differ, the better fit of both.
    s1, s2 = stripe - behind, stripe - beyond
    i1, i2 = int(np.argmax(s1)), int(np.argmax(s2))
    score = max(float(s1[i1]), float(s2[i2]))
    if score < cfg.min_score:
        return None
    p1, p2 = pts[i1] + origin, pts[i2] + origin
    if s1[i1] < cfg.min_score:
        p1, p2 = p2, p1
    fit = fit_post(cfg, level, view, p1, against)
    if min(s1[i1], s2[i2]) >= cfg.min_score and float(np.hypot(*(p2 - p1))) > r:
        # a first look (one coarse step) before fitting it all the way; the first stays
        # unless the other fits clearly better
        other = fit_post(cfg, level, view, p2, against, steps=1)
        if other.support > 1.15 * fit.support:
            other = fit_post(cfg, level, view, other.foot, against)
            if other.support > 1.15 * fit.support:
                fit = other
    return fit.foot, score


def _wall(cfg: PostConfig, view: TopView, foot_px: np.ndarray, corner: tuple[int, int],
          shape: tuple[int, ...]) -> np.ndarray:
    """uint8 mask (``shape``, its corner at view pixel ``corner``) of the outline of a post
    standing at ``foot_px``: the convex hull of its foot and top circles."""
    out = post_outline(cfg, view, foot_px, step_px=2.0)
    pts = np.round(out.points[out.part != CAP] - corner).astype(np.int32)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts), 255)
    return mask


def _side(cfg: PostConfig, view: TopView, foot_px: np.ndarray, corner: tuple[int, int],
          wall: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The part of a post's outline mask ``wall`` that is its side wall, not its top face (a
    lit top may be pale; all of it when the camera sees little of the side, near the point
    below it), and its top face (inside its rim), as masks like ``wall``."""
    out = post_outline(cfg, view, foot_px, step_px=4.0)
    r = cfg.radius_mm * view.px_per_mm
    side = wall.copy()
    top = np.round(out.top - corner).astype(int)
    cv2.circle(side, (int(top[0]), int(top[1])), round(out.k * r + 1.5), 0, -1)
    face = np.zeros_like(wall)
    cv2.circle(face, (int(top[0]), int(top[1])), max(1, round(out.k * r - 1.5)), 255, -1)
    return (side if np.count_nonzero(side) >= 0.5 * math.pi * r * r else wall), face


def _placed(patch: np.ndarray, corner: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """A mask of ``shape`` holding ``patch`` with its corner at ``corner``."""
    out = np.zeros(shape, np.uint8)
    x0, y0 = corner
    ph, pw = patch.shape
    out[y0:y0 + ph, x0:x0 + pw] = patch[:shape[0] - y0, :shape[1] - x0]
    return out


def _wall_level(cfg: PostConfig, level: np.ndarray, wall: np.ndarray,
                against: np.ndarray | None) -> float | None:
    """The median level inside a post's outline (``wall``, a mask over the patch ``level``)
    when it is dark all through, as a post is (a shadow beside a coin or a tile, the edge of
    a shadow, fills only part of it); None when it is not. Its rim (a pixel) and what other
    pieces cover are not judged; a post mostly covered by them is taken as dark."""
    inner = cv2.erode(wall, np.ones((3, 3), np.uint8)) > 0
    n = int(np.count_nonzero(inner))
    if against is not None:
        inner &= against == 0
    seen = level[inner]
    if len(seen) < cfg.min_seen_share * n or not len(seen):
        return 0.0
    if np.count_nonzero(seen <= cfg.black_level) < cfg.min_wall_dark * len(
            seen):
        return None
    return float(np.median(seen))


def _outlined(cfg: PostConfig, level: np.ndarray, view: TopView, foot_px: np.ndarray,
              against: np.ndarray | None) -> float:
    """The share of a post's outline (view ``level``; its foot's near half, its sides, its top's
    far half, where no other piece is against it) where the table outside is brighter than
    the post inside: a post stands apart from what is round it, except where its own shadow
    lies; a patch of a broader shadow (beside a tile) is dark on all sides."""
    out = post_outline(cfg, view, foot_px, step_px=2.0)
    use = out.part != CAP
    p, n = out.points[use], out.normals[use]
    h, w = level.shape
    q_out = np.round(p + 2.5 * n).astype(int)
    q_in = np.round(p - 2.0 * n).astype(int)
    ok = ((q_out[:, 0] >= 0) & (q_out[:, 0] < w) & (q_out[:, 1] >= 0) & (q_out[:, 1] < h)
          & (q_in[:, 0] >= 0) & (q_in[:, 0] < w) & (q_in[:, 1] >= 0) & (q_in[:, 1] < h))
    q_out, q_in = q_out[ok], q_in[ok]
    if against is not None:
        free = against[q_out[:, 1], q_out[:, 0]] == 0
        q_out, q_in = q_out[free], q_in[free]
    if len(q_out) < 8:
        return 1.0
    rise = level[q_out[:, 1], q_out[:, 0]].astype(np.float32) - level[q_in[:, 1], q_in[:, 0]]
    return float(np.mean(rise >= cfg.min_contrast))


def _flat(cfg: PostConfig, level: np.ndarray, face: np.ndarray, against: np.ndarray | None
          ) -> bool:
    """Whether a post's top face (``face``, a mask over the patch ``level``) is of one level,
    dark or lit, as a face is; where a shadow's edge would be read as a post, the table and
    the shadow share the place of its top. Parts other pieces cover are not judged."""
    seen = face > 0
    if against is not None:
        seen &= against == 0
    v = level[seen]
    if len(v) < 8:
        return True
    lo, hi = np.percentile(v, (10, 90))
    return float(hi - lo) <= cfg.max_top_spread


def _into_tiles(dark: np.ndarray, tiles: np.ndarray, blob: np.ndarray, x0: int, y0: int,
                reach: int) -> tuple[np.ndarray, int, int] | None:
    """A dark blob (patch ``blob`` at ``x0, y0``) with the dark pixels inside the tiles joined
    to it (within ``reach`` pixels of its box): ``(patch, x0, y0)``, or None when none join."""
    h, w = dark.shape
    bh, bw = blob.shape
    xa, ya = max(0, x0 - reach), max(0, y0 - reach)
    xb, yb = min(w, x0 + bw + reach), min(h, y0 + bh + reach)
    both = cv2.bitwise_and(dark[ya:yb, xa:xb], tiles[ya:yb, xa:xb])
    if not both.any():
        return None
    part = both[y0 - ya:y0 - ya + bh, x0 - xa:x0 - xa + bw]
    cv2.bitwise_or(part, blob, dst=part)
    _n, labels = cv2.connectedComponents(both, connectivity=8)
    ys, xs = np.nonzero(blob)
    keep = np.unique(labels[ys + y0 - ya, xs + x0 - xa])
    grown = np.where(np.isin(labels, keep[keep > 0]), 255, 0).astype(np.uint8)
    if np.count_nonzero(grown) <= len(xs):
        return None
    gx, gy, gw, gh = cv2.boundingRect(grown)
    return grown[gy:gy + gh, gx:gx + gw], xa + gx, ya + gy


def _cleared_near(mask: np.ndarray, blob: np.ndarray, x0: int, y0: int, grow: int
                  ) -> np.ndarray:
    """A copy of ``mask`` cleared over a blob (patch at ``x0, y0``) grown by ``grow``."""
    out = mask.copy()
    h, w = mask.shape
    near = cv2.dilate(cv2.copyMakeBorder(blob, grow, grow, grow, grow, cv2.BORDER_CONSTANT,
                                         value=0),
                      np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    xa, ya = x0 - grow, y0 - grow
    cx, cy = max(0, -xa), max(0, -ya)
    xb, yb = min(w, xa + near.shape[1]), min(h, ya + near.shape[0])
    part = out[ya + cy:yb, xa + cx:xb]
    cv2.bitwise_and(part, cv2.bitwise_not(near[cy:cy + part.shape[0], cx:cx + part.shape[1]]),
                    dst=part)
    return out


FOOT, SIDE, TOP, CAP = 0, 1, 2, 3
"""Parts of a post's outline: the near half of the foot circle, the long sides, the far half
of the top circle (against the table), the near half of the top circle (against the wall)."""


@dataclass(frozen=True)
class Outline:
    """Points along the outline of a post standing at ``foot`` (view pixels), as the view
    shows it: the convex hull of the foot circle and of the top circle, which is seen ``k``
    times farther from the nadir and ``k`` times larger (``k = H / (H - height)``).

    Attributes:
        foot, top: Centres of the foot and top circles (2,).
        k: How much farther from the nadir the top is seen than the foot.
        axis: Unit vector from the foot towards the top (2,).
        length: Distance from the foot to the top.
        points: (M, 2) points: the near half of the foot circle (part :data:`FOOT`), the two
            long sides where the top does not cover them (:data:`SIDE`), the far half of the
            top circle (:data:`TOP`), and inside the hull the near half of the top circle,
            where the top face meets the wall (:data:`CAP`).
        normals: (M, 2) unit normals, away from the post (for :data:`CAP`, from the top face).
        jac: (M,) how far each point moves when the foot moves by one pixel: 1 on the foot
            circle, ``k`` on the top circle.
        part: (M,) the part of each point.
        top_share: (M,) how much of each point's radius is the top circle's: 0 on the foot
            circle, 1 on the top circle, between along the sides.
    """

    foot: np.ndarray
    top: np.ndarray
    k: float
    axis: np.ndarray
    length: float
    points: np.ndarray
    normals: np.ndarray
    jac: np.ndarray
    part: np.ndarray
    top_share: np.ndarray


_PARTS = np.array([FOOT, SIDE, TOP, CAP])


def _spread(a: float, b: float, n: int) -> np.ndarray:
    """``n`` values from ``a`` to ``b`` (both included), evenly spaced."""
    return a + (b - a) / (n - 1) * np.arange(n)


def post_outline(cfg: PostConfig, view: TopView, foot_px: np.ndarray, step_px: float = 1.5
                 ) -> Outline:
    """The outline of a post standing at ``foot_px``, a point every ``step_px`` or so."""
    cam, s = view.camera, view.px_per_mm
    r = cfg.radius_mm * s
    k = cam.height_mm / max(cam.height_mm - cfg.height_mm, 1.0)
    big_r = r * k
    f = np.asarray(foot_px, float).reshape(2)
    nadir = view.to_px(cam.nadir_mm[None])[0]
    top = nadir + (f - nadir) * k
    d = float(np.hypot(*(top - f)))
    u = (top - f) / d if d > 1e-6 else np.array([1.0, 0.0])
    v = np.array([-u[1], u[0]])
    # the sides touch both circles where the normal n has n.u = -(R - r) / d
    th_t = math.acos(max(-1.0, min(1.0, -(big_r - r) / d))) if d > 1e-6 else math.pi / 2
    # every point is on a circle between the two: its share of the way from the foot circle
    # to the top circle (centre, radius and motion alike), and the angle of its normal from -u
    na = max(5, int(2 * th_t * r / step_px) | 1)
    nc = max(5, int(2 * (math.pi - th_t) * big_r / step_px) | 1)
    nd = max(3, int(2 * (math.pi / 3) * big_r / step_px) | 1)  # within 60 degrees of the axis
    lam_max = 1.0 - (big_r + 1.0) / max(d, 1e-6)  # the sides' points short of the top
    nl = max(1, int(lam_max * d / step_px)) if lam_max > 0 else 0
    ls = np.arange(1, nl + 1) * (lam_max / max(nl, 1))
    th = np.concatenate([_spread(-th_t, th_t, na), np.full(nl, -th_t), np.full(nl, th_t),
                         _spread(th_t, 2 * math.pi - th_t, nc),
                         _spread(-math.pi / 3, math.pi / 3, nd)])
    share = np.concatenate([np.zeros(na), ls, ls, np.ones(nc + nd)])
    part = np.repeat(_PARTS, [na, 2 * nl, nc, nd])
    nrm = -np.cos(th)[:, None] * u + np.sin(th)[:, None] * v
    pts = f + share[:, None] * (top - f) + (r + share * (big_r - r))[:, None] * nrm
    return Outline(f, top, k, u, d, pts, nrm, 1.0 + share * (k - 1.0), part, share)


def steepest(prof: np.ndarray, sign: np.ndarray, step_px: float, lo: int, hi: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The steepest change along each profile (rows of ``prof``, samples ``step_px`` apart),
    a rise where ``sign`` is 1, a fall where it is -1, looked for between samples ``lo`` and
    ``hi`` (inclusive).

    Returns its position in samples to a fraction (M,: the peak of a parabola through the
    differences), the change per pixel there (M,, times ``sign``), and whether the steepest
    change lies inside ``lo`` - ``hi`` rather than at an end (M,).

    >>> prof = np.array([[0.0, 0.0, 1.0, 3.0, 4.0, 4.0]])
    >>> pos, rise, inside = steepest(prof, np.ones(1), 1.0, 1, 4)
    >>> float(pos[0]), float(rise[0]), bool(inside[0])
    (2.5, 1.5, True)
    """
    g = (prof[:, lo + 1:hi + 2] - prof[:, lo - 1:hi]) * (sign / (2 * step_px))[:, None]
    j = np.argmax(g, axis=1)  # g[:, i] is the change at sample lo + i
    rows = np.arange(len(prof))
    jj = np.minimum(np.maximum(j, 1), g.shape[1] - 2)
    a, b, c = g[rows, jj - 1], g[rows, jj], g[rows, jj + 1]
    den = a - 2 * b + c
    off = np.minimum(np.maximum(0.5 * (a - c) / np.where(den < -1e-9, den, -np.inf), -0.5), 0.5)
    return lo + jj + off, g[rows, j], (j > 0) & (j < g.shape[1] - 1)


def _window(level: np.ndarray, points: np.ndarray, pad: float) -> tuple[np.ndarray, np.ndarray]:
    """A float32 copy of ``level`` round ``points`` (``pad`` pixels more) and its corner."""
    h, w = level.shape
    x0, y0 = (max(0, int(v - pad)) for v in points.min(axis=0))
    x1, y1 = (int(v + pad) + 2 for v in points.max(axis=0))
    x1, y1 = min(w, max(x1, x0 + 2)), min(h, max(y1, y0 + 2))
    return level[y0:y1, x0:x1].astype(np.float32), np.array([x0, y0], float)


def _sample(win: np.ndarray, corner: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``win`` (whose corner is ``corner`` in the view) at view points
    ``xy`` (..., 2), clamped to its edge."""
    return bilinear(win, xy - corner)


@dataclass(frozen=True)
class PostFit:
    """A fit of a post's outline.

    Attributes:
        foot: The foot, view pixels (2,).
        support: Mean strength (level change per pixel) of the edges that fit, over all the
            edges looked for; 0 when the fit failed.
    """

    foot: np.ndarray
    support: float


def fit_foot(cfg: PostConfig, level: np.ndarray, view: TopView, foot_px: np.ndarray
             ) -> np.ndarray:
    """The foot (view pixels) whose outline (:func:`post_outline`) fits the edges best,
    starting from ``foot_px`` (see :func:`fit_post`)."""
    return fit_post(cfg, level, view, foot_px).foot


_RING = np.column_stack([np.cos(np.arange(16) * math.pi / 8),
                         np.sin(np.arange(16) * math.pi / 8)])  # 16 points round
_ALONG = np.repeat(np.arange(4) / 3.0, 4)[:, None]  # the wall's 4 x 4 points
_ACROSS = np.tile([-0.45, -0.15, 0.15, 0.45], 4)[:, None]


_REG = np.diag([1e-3, 1e-3, 3e-2, 3e-2])  # the radii change little


@functools.lru_cache(maxsize=32)
def _offsets(reach: float, step: float) -> np.ndarray:
    """Offsets from ``-reach`` to ``reach`` every ``step`` (made once for each reach)."""
    out = np.arange(-reach, reach + 1e-9, step)
    out.setflags(write=False)
    return out


def fit_post(cfg: PostConfig, level: np.ndarray, view: TopView, foot_px: np.ndarray,
             exclude: np.ndarray | None = None, steps: int | None = None) -> PostFit:
    """Fits the outline of a post (:func:`post_outline`) to the edges, from ``foot_px``.

    Each part of the outline is an edge between two surfaces: the dark wall and the table
    (the foot's near half and the sides), the top face and the table (the top's far half),
    the top face and the wall (the top's near half). Their levels are measured on the post,
    which tells each edge's sign (a top face may be darker than the wall, or shine) and
    contrast; an edge that does not show most of that contrast is left out (the post's own
    shadow beside it, a neighbour touching it), and so is a part whose two surfaces look
    alike. The edges are found along the outline's normals, and Gauss-Newton steps move the
    foot (and change the radii of the foot and of the top circles: blur and light make a
    post look a little thinner or fatter than it is) to fit them, each edge weighted by its
    strength and robustly (less when the top shines). The outline is drawn once and moved
    with the foot (its shape hardly changes over a few pixels); the levels are measured
    again when the first step moved it far. Edges against another piece (``exclude``,
    uint8: where the earlier stages found pieces) are not looked for. A fit that wanders off
    more than two radii fails. ``steps``: at most this many steps (None: ``cfg.fit_steps``).
    """
    r = cfg.radius_mm * view.px_per_mm
    out = post_outline(cfg, view, foot_px)
    part, jac, nrm = out.part, out.jac, out.normals
    # where the surfaces' levels are read (16 points each): a ring on the table round the
    # whole post, the wall along the axis from the foot to short of the top face (near the
    # nadir: the crescent before it), a ring inside the top face; and how each moves with
    # the foot
    u, d, k = out.axis, out.length, out.k
    v = np.array([-u[1], u[0]])
    a = -0.7 * r + max(0.0, d - 0.6 * r) * _ALONG
    probes = np.concatenate([(out.foot + out.top) / 2 + (0.5 * d + 2.5 * r) * _RING,
                             out.foot + a * u + r * _ACROSS * v, out.top + 0.5 * r * _RING])
    probe_jac = np.repeat([(1.0 + k) / 2, 1.0, k], 16)[:, None]
    margin, st = 2.0, 0.5
    km = round(margin / st)
    win, corner = _window(level, out.points, 1.2 * r + margin + 3.0 * r + 2.0)
    design = np.column_stack([nrm * jac[:, None], 1 - out.top_share, out.top_share])
    reg = _REG
    moved = np.zeros(2)
    support = 0.0
    for step in range(cfg.fit_steps if steps is None else steps):
        if step == 0 or (step == 1 and abs(moved[0]) + abs(moved[1]) > 1.5):
            vals = np.sort(_sample(win, corner, probes + probe_jac * moved).reshape(3, 16), axis=1)
            table, wall, cap = (vals[:, 7] + vals[:, 8]) / 2  # medians
            sign = np.array([1.0, 1.0, np.sign(table - cap), np.sign(wall - cap)])[part]
            want = np.array([table - wall, table - wall, abs(table - cap),
                             abs(wall - cap)])[part]
            keep = (want >= cfg.min_contrast) & (table - wall >= cfg.min_contrast)
            if exclude is not None:  # an edge against another piece is not against the table
                q = np.round(out.points + jac[:, None] * moved + 3.0 * nrm).astype(int)
                q = np.minimum(np.maximum(q, 0), [exclude.shape[1] - 1, exclude.shape[0] - 1])
                keep &= (exclude[q[:, 1], q[:, 0]] == 0) | (part == CAP)
            use = np.nonzero(keep)[0]
            if len(use) < 4:
                break
            p_use, n_use, s_use = out.points[use], nrm[use], sign[use]
            j_use, w_use, d_use = jac[use][:, None], cfg.edge_share * want[use], design[use]
            trust = np.where((part[use] >= TOP) & (cap > table + cfg.min_contrast),
                             cfg.shine_trust, 1.0)
            rows = np.arange(len(use))
        # coarse to fine: the first steps look farther for the edges
        half = max(3.0, (1.2, 0.6)[step] * r) if step < 2 else 3.0
        ts = _offsets(half + margin, st)
        prof = _sample(win, corner, (p_use + j_use * moved)[:, None]
                       + ts[None, :, None] * n_use[:, None])
        pos, strength, ok = steepest(prof, s_use, st, km, len(ts) - 1 - km)
        ip = np.round(pos).astype(int)
        contrast = s_use * (prof[rows, ip + km] - prof[rows, ip - km])
        ok &= (strength >= cfg.min_edge) & (contrast >= w_use)
        support = float(strength[ok].sum()) / len(use)
        if ok.sum() < 4:
            break
        a_ok, y, w0 = d_use[ok], ts[0] + st * pos[ok], strength[ok] * trust[ok]
        wgt = w0
        for _ in range(2):
            aw = a_ok.T * wgt
            delta = cv2.solve(aw @ a_ok + reg * wgt.sum(), aw @ y,
                              flags=cv2.DECOMP_CHOLESKY)[1][:, 0]
            wgt = w0 / (1.0 + ((a_ok @ delta - y) / 0.7) ** 2)
        moved += delta[:2]
        if step >= 1 and abs(delta[0]) + abs(delta[1]) < 0.1:
            break
    if float(np.hypot(*moved)) > 2 * r + 3.0:
        return PostFit(out.foot, 0.0)
    return PostFit(out.foot + moved, support)


_T_STRIPE = np.repeat(np.arange(8) / 7.0, 3)  # 8 steps along the stripe, 3 across each
_T_TABLE = np.tile([2.5, 4.5], 3)  # mm off the stripe's ends, 2 along x 3 across
_Q_ALL = np.concatenate([np.tile([-0.45, 0.0, 0.45], 8),
                         np.tile(np.repeat([-0.6, 0.0, 0.6], 2), 2)])  # radii across


def _scores(cfg: PostConfig, soft: np.ndarray, view: TopView, p_px: np.ndarray,
            origin: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How dark (``soft``, float32: 1 dark, 0 table) a post standing at each of the points
    ``p_px`` (M, 2) of ``soft`` would be, and the table behind its foot and beyond its top,
    (M,) each. ``soft`` is a window of the view whose top left corner is the view point
    ``origin``."""
    cam, s = view.camera, view.px_per_mm
    r = cfg.radius_mm * s
    m = len(p_px)
    mm = view.to_mm(p_px + origin)
    dist = np.linalg.norm(mm - cam.nadir_mm, axis=1)
    length = dist * cfg.height_mm / max(cam.height_mm - cfg.height_mm, 1.0) * s
    u = view.outward_px(p_px + origin)
    v = np.c_[-u[:, 1], u[:, 0]]
    # along the stripe: 8 steps from 0.6 r behind the foot to 1.2 r short of the top's centre,
    # 3 across; behind the foot and beyond the top: 2 x 3 points on the table each
    t_hi = np.maximum(-0.3 * r, length - 1.2 * r)
    end = length + r * cam.height_mm / max(cam.height_mm - cfg.height_mm, 1.0)
    along = np.empty((m, 36))
    along[:, :24] = -0.6 * r + (t_hi + 0.6 * r)[:, None] * _T_STRIPE
    along[:, 24:30] = -r - s * _T_TABLE
    along[:, 30:] = end[:, None] + s * _T_TABLE
    across = _Q_ALL * r
    xy = (p_px[:, None] + along[..., None] * u[:, None] + across[None, :, None] * v[:, None])
    val = bilinear(soft, xy)
    return val[:, :24].mean(axis=1), val[:, 24:30].mean(axis=1), val[:, 30:].mean(axis=1)
