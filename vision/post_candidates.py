"""Posts where the centre net sees one and the dark mask found none.

The post stage (:mod:`vision.posts`) reads only the dark mask's blobs, which a window's
gradient, a blind's stripes, a dark or patterned table or a shadow joining a post to its
neighbours break. The centre net's post channel (:mod:`vision.centres`) looks at the whole
table, but alone it is a weak judge (many of its peaks are shadows, dark clutter, a cloth's
checks). So each of its peaks that no found piece explains is only a place to look: the view
there is warped and divided by its own table's colour, the post stage's template search and
outline fit read the foot from the dark pixels round it (:func:`vision.posts.read_post_near`:
the foot from the post's known silhouette, not from the blob's extent), and the reading stands
where the post judge (:mod:`vision.post_judge`, a forest over :mod:`vision.post_features`)
is sure of it (of its two possible feet the one it rates higher), or where it looks like a post
to the hand-set model (:func:`vision.posts.judge_post`: a wall dark all through, a flat top,
the table round its outline), the namer gives a post at least ``seen`` and the judge is not
sure it is none (``veto``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.model import Calibration
from vision.centres import Peaks
from vision.detections import Detections
from vision.namer import Namer
from vision.namer_classes import CLASSES
from vision.normalise import TABLE_LEVEL
from vision.post_contrast import (
    PostContrastConfig,
    contrast_peaks,
    frame_contrast_peaks,
    frame_input,
)
from vision.post_level import for_posts, post_channels, window_level
from vision.post_reading import judge_scores
from vision.post_tops import PostTopConfig, foot_below, lit_top, top_places, top_radius_px
from vision.posts import (
    CAP,
    PostConfig,
    fit_post,
    judge_post,
    post_outline,
    read_post_near,
)
from vision.prepare import Prepared
from vision.topview import TopView


@dataclass(frozen=True)
class PostCandidateConfig:
    """Attributes:
    least: Least heat of a peak of the net's post channel to be looked at.
    cool: Peaks from this heat up to ``least`` are looked at too (after the hotter ones, at
        most ``max_cool``), but a post read there stands only where the judge is sure of it
        (``min_score``): the net gives a post on a black gingham under a hard lamp, or one
        against a worm, little heat, and the judge, not the heat, tells it from a shadow.
        None: only from ``least``.
    window_mm: Around a peak outside the prepared view, this many mm each way are warped and
        divided by their own table colour (the median: a post and its shadow are a small part).
    reach_mm: The dark pixels this close to the peak are the post's (its foot, wall, top).
    apart_mm: A peak (or a post read from it) this close to a post already found is that post,
        and so is a reading whose outline lies over a found post's for more than the post
        stage's ``max_overlap`` (its shadow, its top, or a post hidden behind it).
    seen: A reading of the hand-set model stands where the namer gives a post at least this
        probability.
    border_mm: Peaks this close to the edge of the play area are left out (as the post stage
        leaves out blobs there).
    max_each: At most this many peaks are looked at (the hottest; a cost bound): the places
        read, so a peak at a piece found (a post, a coin, a tile) or by the border takes no
        place from one further down.
    max_cool: At most this many of the cool peaks (from ``cool``) are looked at, counted so
        too: as many as the hot ones, the most posts a game lays (three groups of ten). On a
        black felt or cloth every post's peak is cool (0.1-0.2), and where a table held 15
        posts (tuning render 620000) the 11th and later were never read at 10.
    max_gain: Where no post is read at a place in the level as it is (a post on black felt
        in a window's light: its wall barely unlike the felt's own fuzz), it is read again in
        the level round it stretched away from the table's (100) until the darkest
        ``faint_share`` of the pixels within ``reach_mm`` are fully dark (the post stage's
        ``black_level`` less its ``contrast``), by at most this gain; a post read there
        stands only where the judge is sure of it, as at a cool peak. 1: never.
    faint_share: See ``max_gain``.
    contrast: Places a post-wide box stands out of its surroundings
        (:mod:`vision.post_contrast`) are looked at too (after the net's peaks, at most its
        ``max_each``, none within ``apart_mm`` of a peak looked at), and a post read there
        stands only where the judge is sure of it, as at a cool peak. None: never.
    touching: Two posts touching are two posts: where the judge is sure of both feet a peak
        reads (the template's and the outline fitted from the peak: of two touching posts,
        one each), both are read, and a reading the judge is sure of is not taken for a post
        hidden behind one found that stands farther from the camera (:func:`_hiding`).
        False: the foot it rates higher only, and every post found hides (as before).
    tops: On a dark table (read in the unlikeness, :mod:`vision.post_level`: a post's wall
        at the table's own level), where no wall is read at a place (neither in the level
        nor in its stretch), and at places below a lit top (:func:`vision.post_tops.
        top_places`), a lit post top is looked for in the plain level round it
        (:mod:`vision.post_tops`) and the post is read at the foot the top implies, 40 mm
        below it; it stands where the judge gives it the tops' own bar (``min_score``).
        None: never.
    """

    least: float = 0.2
    cool: float | None = 0.1
    max_cool: int = 30
    window_mm: float = 40.0
    reach_mm: float = 9.0
    apart_mm: float = 8.0
    seen: float = 0.5
    border_mm: float = 15.0
    max_each: int = 30
    max_gain: float = 3.0
    faint_share: float = 0.05
    contrast: PostContrastConfig | None = field(default_factory=PostContrastConfig)
    touching: bool = True
    tops: PostTopConfig | None = field(default_factory=PostTopConfig)


_POST = CLASSES.index("post")


def local_level(prep: Prepared, frame_bgr: np.ndarray, centres_px: np.ndarray,
                half_px: float, unlike: bool = False, channels: tuple[int, ...] = (0, 1, 2)
                ) -> np.ndarray:
    """``prep.level`` with windows (``half_px`` each way) round centres the prepared view did not
    make in full, warped and divided by their own table's colour (the median of each channel
    over the play area in the window; the table at 100, the largest of ``channels``, or on a
    dark table, ``unlike``, the unlikeness: :func:`vision.post_level.window_level`)."""
    level = prep.level
    copied = False
    for c in centres_px:
        rect = prep.unmade_window(c, half_px)
        if rect is None:
            continue
        x0, y0, x1, y1 = rect
        ok = prep.valid[y0:y1, x0:x1] > 0
        win = prep.view.warp_rect(frame_bgr, x0, y0, x1, y1)
        table = np.maximum(np.median(win[ok], axis=0), 1.0)
        if not copied:
            level, copied = level.copy(), True
        level[y0:y1, x0:x1] = window_level(win, table, unlike, channels)
    return level


def peak_starts(peaks: Peaks, prep: Prepared, dets: Detections, against: np.ndarray,
                posts: PostConfig, cfg: PostCandidateConfig) -> tuple[list[np.ndarray],
                                                                     list[np.ndarray]]:
    """The places (view pixels) worth reading a post at: the net's post peaks, hottest first,
    at least ``cfg.least`` hot, inside the play area, on no other piece (``against``) and not
    at a post of ``dets``; and the known posts' feet (table mm)."""
    view = prep.view
    s = view.px_per_mm
    known = [np.asarray(p, float) for p in dets.centre_mm[dets.kind == "post"]]
    if not len(peaks.score):
        return [], known
    order = np.argsort(-peaks.score, kind="stable")
    order = order[peaks.score[order] >= cfg.least]
    valid = _inner(prep.valid, max(3, int(cfg.border_mm * s) | 1))
    h, w = valid.shape
    taken = np.zeros((h, w), np.uint8)
    for k in known:
        _draw_outline(taken, posts, view, view.to_px(k[None])[0])
    starts: list[np.ndarray] = []
    for i in order:  # the cap counts the places read, not the peaks of pieces found
        if len(starts) >= cfg.max_each:
            break
        mm = peaks.centre_mm[i]
        if any(np.hypot(*(mm - k)) < cfg.apart_mm for k in known):
            continue
        px = view.to_px(mm[None])[0]
        xi, yi = (int(v) for v in np.rint(px))
        if not (0 <= xi < w and 0 <= yi < h) or not valid[yi, xi] or against[yi, xi] or \
                taken[yi, xi]:
            continue
        starts.append(px)
    return starts, known


def feet_near(posts: PostConfig, level: np.ndarray, view: TopView, start_px: np.ndarray,
              reach_px: float, against: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The feet (view pixels, (2, 2)) a post read near a peak may stand at: the template's
    foot (:func:`vision.posts.read_post_near`) and the outline fitted from the peak itself
    (the template may take a post's shadow or a post hidden behind it for its foot); and the
    template's score. None when the dark pixels there fit no post's template."""
    got = read_post_near(posts, level, view, start_px, reach_px, against)
    if got is None:
        return None
    return np.array([got[0], fit_post(posts, level, view, start_px, against).foot]), got[1]


def stretched(posts: PostConfig, level: np.ndarray, start_px: np.ndarray, reach_px: float,
              half_px: float, cfg: PostCandidateConfig) -> np.ndarray | None:
    """``level`` with the window ``half_px`` each way round ``start_px`` stretched away from
    the table's level (100) until the darkest ``cfg.faint_share`` of the pixels within
    ``reach_px`` are fully dark to the post stage (``black_level - contrast``), by at most
    ``cfg.max_gain`` (a copy); None when that needs no gain (the dark pixels there are dark
    enough already, or nothing there is darker than the table).

    >>> lv = np.full((60, 60), 100, np.uint8)
    >>> lv[25:35, 28:32] = 70  # a faint post-wide patch
    >>> out = stretched(PostConfig(), lv, np.array([30.0, 30.0]), 9.0, 20.0,
    ...                 PostCandidateConfig())
    >>> int(out[30, 30]), int(out[0, 0])  # the patch fully dark, the table as it was
    (40, 100)
    >>> lv[25:35, 28:32] = 30  # dark enough already
    >>> stretched(PostConfig(), lv, np.array([30.0, 30.0]), 9.0, 20.0, PostCandidateConfig())
    """
    h, w = level.shape
    x, y = (int(v) for v in np.rint(start_px))
    r = max(1, int(reach_px))
    near = level[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
    if near.size == 0:
        return None
    q = float(np.percentile(near, 100.0 * cfg.faint_share))
    full = posts.black_level - posts.contrast
    if q <= full or q >= TABLE_LEVEL - 1:
        return None
    gain = min(cfg.max_gain, (TABLE_LEVEL - full) / (TABLE_LEVEL - q))
    if gain <= 1.05:
        return None
    k = max(1, int(half_px))
    x0, y0, x1, y1 = max(0, x - k), max(0, y - k), min(w, x + k + 1), min(h, y + k + 1)
    out = level.copy()
    win = out[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = np.clip(TABLE_LEVEL - (TABLE_LEVEL - win) * gain, 0, 255).astype(np.uint8)
    return out


def read_starts(posts: PostConfig, level: np.ndarray, view: TopView, starts: list[np.ndarray],
                reach_px: float, against: np.ndarray, cfg: PostCandidateConfig
                ) -> tuple[np.ndarray, list[tuple[np.ndarray, float] | None], list[bool]]:
    """Each start's feet (:func:`feet_near`), read again in the level stretched round it
    (:func:`stretched`) where the level as it is shows no post; the level the readings' judge
    is to read (``level``, or a copy with the stretched windows of those read so), the
    readings (None: none) and which were read stretched."""
    out: list[tuple[np.ndarray, float] | None] = []
    faint: list[bool] = []
    s = view.px_per_mm
    seen = level
    for px in starts:
        got = feet_near(posts, level, view, px, reach_px, against)
        was_faint = False
        if got is None and cfg.max_gain > 1.0:
            more = stretched(posts, level, px, reach_px, cfg.window_mm * s, cfg)
            if more is not None:
                got = feet_near(posts, more, view, px, reach_px, against)
                if got is not None:
                    was_faint = True
                    if seen is level:
                        seen = level.copy()
                    k = max(1, int(cfg.window_mm * s))
                    x, y = (int(v) for v in np.rint(px))
                    ys, xs = slice(max(0, y - k), y + k + 1), slice(max(0, x - k), x + k + 1)
                    seen[ys, xs] = more[ys, xs]
        out.append(got)
        faint.append(was_faint)
    return seen, out, faint


def propose_posts(peaks: Peaks, namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
                  prep: Prepared, dets: Detections, against: np.ndarray, posts: PostConfig,
                  cfg: PostCandidateConfig,
                  coarse: tuple[TopView, np.ndarray] | None = None) -> Detections:
    """New posts at the net's post peaks where ``dets`` has none.

    Args:
        peaks: The net's post peaks (table mm).
        against: uint8 mask over the view of where other pieces (coins, tiles) lie: the peaks
            there are theirs, and a post's edges against them are not looked for.
        coarse: The centre net's view and its input for this frame (the places standing out
            are read from it, ``cfg.contrast``); None: made again from the frame.
    """
    view = prep.view
    s = view.px_per_mm
    seen = for_posts(prep, posts.level)  # on a dark table: how unlike the table
    channels = post_channels(prep, posts.level)  # None: the unlikeness
    unlike, plain_prep, prep = channels is None, prep, seen
    starts, known = peak_starts(peaks, prep, dets, against, posts, cfg)
    hot = len(starts)
    if cfg.cool is not None and cfg.cool < cfg.least and posts.judge is not None:
        low = (peaks.score >= cfg.cool) & (peaks.score < cfg.least)
        more, _ = peak_starts(Peaks(peaks.centre_mm[low], peaks.score[low]), prep, dets,
                              against, posts, replace(cfg, least=cfg.cool,
                                                      max_each=cfg.max_cool))
        starts += more
    if cfg.contrast is not None and posts.judge is not None:
        cpeaks = (frame_contrast_peaks(frame_bgr, calibration, cfg.contrast) if coarse is None
                  else contrast_peaks(coarse[1], coarse[0], cfg.contrast))
        starts += contrast_starts(cpeaks, prep, dets, against, posts, cfg, starts)
    above: list[np.ndarray] = []  # places below a lit top (read from the top alone)
    # only on a table as dark as a post's wall (read in the unlikeness): elsewhere a post's
    # wall shows, and a lit disc with no wall below it is a die's face or a lamp's spot
    if cfg.tops is not None and posts.judge is not None and unlike:
        cview, x = frame_input(frame_bgr, calibration) if coarse is None else coarse
        tpeaks = top_places(cfg.tops, x, cview, posts.radius_mm, posts.height_mm)
        above = contrast_starts(tpeaks, prep, dets, against, posts,
                                replace(cfg, contrast=replace(
                                    cfg.contrast or PostContrastConfig(),
                                    min_z=cfg.tops.min_z, max_each=cfg.tops.max_places)), [])
    if not starts and not above:
        return Detections.empty()
    h, w = prep.valid.shape
    everywhere = np.array(starts + above)
    level = local_level(prep, frame_bgr, everywhere, cfg.window_mm * s, unlike,
                        channels or (0, 1, 2))
    plain = local_level(plain_prep, frame_bgr, everywhere, cfg.window_mm * s) \
        if unlike else None
    lit = level if plain is None else plain  # the plain level (the table at 100)
    level, got, faint = read_starts(posts, level, view, starts, cfg.reach_mm * s, against, cfg)
    got, faint, starts = got + [None] * len(above), faint + [True] * len(above), starts + above
    topped = [False] * len(got)
    if cfg.tops is not None and posts.judge is not None and unlike:
        got, topped = from_tops(cfg.tops, posts, lit, view, starts, got, cfg.reach_mm * s,
                                against)
    cool = [i >= hot or f for i, (r, f) in enumerate(zip(got, faint, strict=True))
            if r is not None]
    tops = [t for r, t in zip(got, topped, strict=True) if r is not None]
    read = [r for r in got if r is not None]
    if not read:
        return Detections.empty()
    judged = (judge_scores(posts, level, prep, np.concatenate([r[0] for r in read]),
                           against, plain).reshape(-1, 2) if posts.judge is not None else None)
    options: list[tuple[np.ndarray, float, bool]] = []  # foot, score, sure (no namer asked)
    for k, (feet, score) in enumerate(read):
        if tops[k]:  # read from its lit top: stands where the judge is not far from sure
            assert cfg.tops is not None and judged is not None
            if judged[k, 0] >= cfg.tops.min_score:
                options.append((feet[0], float(judged[k, 0]), True))
            continue
        if judged is not None and posts.judge is not None:
            j = int(np.argmax(judged[k]))
            if judged[k, j] >= posts.judge.min_score:  # the forest is sure of it
                options.append((feet[j], float(judged[k, j]), True))
                # two posts touching: the template's foot may be one and the outline fitted
                # from the peak the other; where the forest is sure of both, both are read
                # (one within ``apart_mm`` of the other is the same post, and is dropped below)
                if cfg.touching and judged[k, 1 - j] >= posts.judge.min_score:
                    options.append((feet[1 - j], float(judged[k, 1 - j]), True))
                continue
        if cool[k]:
            continue  # a cool peak: only where the forest is sure
        # the foot whose wall is darkest (a shadow lets light in) of those that look like a
        # post to the hand-set model, unless the forest is sure it is none
        best: tuple[float, int] | None = None
        for i, foot_px in enumerate(feet):
            core = judge_post(posts, level, view, foot_px, against)
            if core is not None and (best is None or core < best[0]):
                best = (core, i)
        if best is None or (judged is not None and posts.judge is not None
                            and judged[k, best[1]] < posts.judge.veto):
            continue
        options.append((feet[best[1]], score, False))
    feet_mm: list[np.ndarray] = []
    scores: list[float] = []
    sure: list[bool] = []
    nadir = view.to_px(view.camera.nadir_mm[None])[0]
    outlines = [(float(np.hypot(*(view.to_px(k[None])[0] - nadir))),
                 _draw_outline(np.zeros((h, w), np.uint8), posts, view, view.to_px(k[None])[0]))
                for k in known] if options else []
    for foot_px, score, is_sure in options:
        foot_mm = view.to_mm(foot_px[None])[0]
        if any(np.hypot(*(foot_mm - k)) < cfg.apart_mm for k in known):
            continue
        mine = _draw_outline(np.zeros((h, w), np.uint8), posts, view, foot_px)
        out = float(np.hypot(*(foot_px - nadir)))
        rect = cv2.boundingRect(mine)
        x0, y0, bw, bh = rect
        hiding = _hiding(outlines, rect, out, posts.radius_mm * s, is_sure and cfg.touching)
        if np.count_nonzero(mine[y0:y0 + bh, x0:x0 + bw] & hiding) > posts.max_overlap * \
                np.count_nonzero(mine):
            continue
        outlines.append((out, mine))
        known.append(foot_mm)
        feet_mm.append(foot_mm)
        scores.append(score)
        sure.append(is_sure)
    if not feet_mm:
        return Detections.empty()
    keep = np.array(sure)
    if not keep.all():  # the hand-set model's readings are named too
        p = namer.probabilities(frame_bgr, calibration, np.array(feet_mm))[:, _POST]
        keep |= p >= cfg.seen
    if not keep.any():
        return Detections.empty()
    return Detections.of(np.array(feet_mm)[keep], ["post"] * int(keep.sum()),
                         confidence=np.clip(np.array(scores)[keep], 0, 1))


def from_tops(cfg: PostTopConfig, posts: PostConfig, plain: np.ndarray, view: TopView,
              starts: list[np.ndarray], got: list[tuple[np.ndarray, float] | None],
              reach_px: float, against: np.ndarray
              ) -> tuple[list[tuple[np.ndarray, float] | None], list[bool]]:
    """``got`` (:func:`read_starts`) with each start that read nothing read from a lit top
    (:func:`vision.post_tops.lit_top`) where a post standing at the start would show its top,
    or round the start itself (a place on the top): both feet the foot the top implies; and
    which readings were made so."""
    r_top = top_radius_px(view, posts.radius_mm, posts.height_mm)
    h, w = against.shape
    got, topped = list(got), [False] * len(got)
    for i, px in enumerate(starts):
        if got[i] is not None:
            continue
        above = view.to_px(view.camera.seen_at(view.to_mm(px[None]), posts.height_mm))[0]
        top = lit_top(cfg, plain, above, r_top, reach_px)
        if top is None:
            top = lit_top(cfg, plain, px, r_top, reach_px)
        if top is None:
            continue
        foot = foot_below(view, top, posts.height_mm)
        x, y = (int(v) for v in np.rint(foot))
        if not (0 <= x < w and 0 <= y < h) or against[y, x]:
            continue
        got[i], topped[i] = (np.array([foot, foot]), 0.0), True
    return got, topped


def contrast_starts(peaks: Peaks, prep: Prepared, dets: Detections, against: np.ndarray,
                     posts: PostConfig, cfg: PostCandidateConfig, taken: list[np.ndarray]
                     ) -> list[np.ndarray]:
    """Of the places standing out of their surroundings (``peaks``,
    :mod:`vision.post_contrast`), those (view pixels) that no piece found explains and no
    start already ``taken`` is within ``cfg.apart_mm`` of, most first, at most the contrast's
    ``max_each``."""
    assert cfg.contrast is not None
    got, _ = peak_starts(peaks, prep, dets, against, posts,
                         replace(cfg, least=cfg.contrast.min_z, max_each=len(peaks.score)))
    near = cfg.apart_mm * prep.view.px_per_mm
    out: list[np.ndarray] = []
    for px in got:
        if all(float(np.hypot(*(px - t))) >= near for t in [*taken, *out]):
            out.append(px)
            if len(out) >= cfg.contrast.max_each:
                break
    return out


def _hiding(outlines: list[tuple[float, np.ndarray]], rect: tuple[int, int, int, int],
            out_px: float, radius_px: float, sure: bool) -> np.ndarray:
    """The union, over ``rect`` (x, y, width, height of the view), of the outlines (each with
    its foot's distance from the nadir, view pixels) that may hide a post whose foot is
    ``out_px`` from the nadir or show it to be a part of one (its shadow, its top): all of
    them, or where the judge is ``sure`` of the post, those whose foot is not a radius or more
    farther out (a post standing behind another, farther from the camera, cannot hide it: the
    front one of two posts touching along the camera's ray lies over the back one's foot,
    and is a post).

    >>> a, b = np.zeros((4, 4), np.uint8), np.zeros((4, 4), np.uint8)
    >>> a[0], b[1] = 255, 255
    >>> int(_hiding([(10.0, a), (30.0, b)], (0, 0, 4, 4), 20.0, 5.0, False).sum()) // 255
    8
    >>> int(_hiding([(10.0, a), (30.0, b)], (0, 0, 4, 4), 20.0, 5.0, True).sum()) // 255
    4
    """
    x0, y0, w, h = rect
    union = np.zeros((h, w), np.uint8)
    for d, m in outlines:
        if not sure or d < out_px + radius_px:
            union |= m[y0:y0 + h, x0:x0 + w]
    return union


def _draw_outline(mask: np.ndarray, posts: PostConfig, view: TopView, foot_px: np.ndarray
                  ) -> np.ndarray:
    """``mask`` with the outline of a post standing at ``foot_px`` (its foot and top circles'
    hull) filled in (255)."""
    out = post_outline(posts, view, foot_px, step_px=2.0)
    pts = np.round(out.points[out.part != CAP]).astype(np.int32)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts), 255)
    return mask


def _inner(valid: np.ndarray, k: int) -> np.ndarray:
    """``valid`` eroded by a k x k square."""
    return cv2.erode(valid, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
