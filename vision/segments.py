"""Worm Up segments: coloured half-spheres, named by their colour.

Segments are the only strongly coloured blobs of their size on the table (the pieces of a
piecepack are pale, their symbols small or inside a tile), so a blob of saturated colour
outside tiles and coins is one or more segments: segments touching one another (a worm of
them) make one blob, cut into discs of the segment's size at the peaks of its distance to
its outline (:func:`discs_in_blob`). A disc is a segment when it is round where nothing
touches it and shaded as a lit half-sphere is (printed colour, a cloth's check, is flat);
its name is the nearest of the set's segment colours in hue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.blobs import blobs
from vision.detections import Detections
from vision.prepare import Prepared, fill_holes
from vision.segment_domes import DomeConfig, dome_centres
from vision.segment_features import (
    N_FEATURES,
    candidate_features,
    candidate_images,
    disc_features,
)
from vision.segment_judge import SegmentJudgeConfig, judge_for
from vision.segment_light import without_bands
from vision.segment_mask import (
    SegmentMaskConfig,
    chroma_off_table,
    frame_coloured,
    segment_mask,
    table_colour,
)


@dataclass(frozen=True)
class SegmentConfig:
    """Attributes:
    diameter_mm: A segment's diameter.
    height_mm: A segment's height (unused for its place: a half-sphere's outline, seen from
        anywhere, is a circle round its centre, which lies on the table).
    mask: Which pixels may be a segment's colour (:mod:`vision.segment_mask`).
    colours: Colour name -> 8-bit RGB.
    max_touching: Most segments touching one another in one blob (a worm of segments).
    hue_split: A larger blob is split into each set colour's pixels, those within this of
        its hue (HSV hue, 0-255 round the circle).
    max_coloured_share: A piece found before (a tile) masks the segment colour over it
        unless more than this share of it is of segment colour (then it was segments).
    min_fill: Least share of a segment's disc its blob covers.
    max_outside: Most of a segment's part of a blob that lies beyond its disc (1.25 radii),
        as a share of the disc's area: a patch of colour of another shape is no segment.
    max_roughness: Most RMS distance (share of the radius) of a segment's free outline from
        a circle.
    min_dome_cover: Segments read by their shading in a blob (:func:`shading_peaks`) stand
        only where their discs fill at least this share of it.
    min_apart: Of the segments judged, one nearer than this many radii to a better one is
        left out (two segments cannot overlap).
    judge: The learned judge of candidates (:mod:`vision.segment_judge`); None: the
        hand-set test of ``min_relief`` instead.
    min_relief: Least spread of brightness (5th to 95th percentile, share of the median)
        over a segment's disc: a lit half-sphere shades from highlight to rim, printed
        colour is flat.
    domes: Candidates found by their outline (:mod:`vision.segment_domes`) as well, where
        the colour mask's discs have none (a segment on a table of its own colour); None:
        the colour mask's alone.
    min_own_colour: A segment is named by the hue of its disc's pixels in the colour mask,
        or, where they cover less than this share of it (a dome on a table of its colour),
        by its pixels coloured in the frame itself.
    """

    diameter_mm: float = 20.0
    height_mm: float = 10.0
    mask: SegmentMaskConfig = field(default_factory=SegmentMaskConfig)
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = (
        ("red", (209, 52, 47)), ("yellow", (242, 194, 48)), ("green", (58, 154, 69)),
        ("blue", (47, 100, 192)), ("purple", (122, 62, 157)))
    max_touching: int = 40
    hue_split: int = 14
    max_coloured_share: float = 0.5
    min_fill: float = 0.5
    max_outside: float = 0.5
    max_roughness: float = 0.3
    min_relief: float = 0.22
    min_dome_cover: float = 0.25
    min_apart: float = 1.2
    judge: SegmentJudgeConfig | None = field(default_factory=SegmentJudgeConfig)
    domes: DomeConfig | None = field(default_factory=DomeConfig)
    min_own_colour: float = 0.3


def _hue(rgb: tuple[int, int, int]) -> float:
    px = np.uint8([[list(rgb[::-1])]])
    return float(cv2.cvtColor(px, cv2.COLOR_BGR2HSV_FULL)[0, 0, 0])


_RING = np.column_stack([np.cos(np.arange(32) * math.pi / 16),
                         np.sin(np.arange(32) * math.pi / 16)])


def discs_in_blob(blob: np.ndarray, r: float, min_fill: float = 0.7,
                  max_outside: float = 0.25, max_roughness: float = 0.15) -> list[np.ndarray]:
    """The centres (blob pixels, (2,) each) of the discs of radius ``r`` a blob is made of.

    Discs that touch make one blob; each disc's centre is a peak of the blob's distance to
    its outline, about ``r`` high, and two such centres are at least a diameter apart (a
    little less: the discs may press together). Each peak that stands for a disc (its blob
    covers ``min_fill`` of the disc round it, and little of its part of the blob, the pixels
    nearer to it than to another centre, lies beyond 1.25 ``r``) is kept, its centre fitted
    to the outline where no other disc touches it; where that outline is not a circle of
    about ``r`` (its points off the circle by more than ``max_roughness`` of ``r``, RMS: a
    square's corners), it is no disc.

    >>> m = np.zeros((40, 70), np.uint8)
    >>> _ = cv2.circle(m, (20, 20), 10, 255, -1); _ = cv2.circle(m, (40, 20), 10, 255, -1)
    >>> sorted(tuple(round(float(v)) for v in c) for c in discs_in_blob(m, 10.0))
    [(20, 20), (40, 20)]
    """
    filled = fill_holes(blob)
    dt = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
    k = max(3, int(r) | 1)
    peak = (dt >= 0.5 * r) & (dt >= cv2.dilate(dt, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k))))
    if float(dt.max()) > 1.35 * r:  # thicker than one disc: worms side by side
        score = outline_votes(filled, r)
        peak = (score >= 0.15) & (score >= cv2.dilate(score, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (k, k)))) & (dt >= 0.5 * r)
    else:
        score = dt
    ys, xs = np.nonzero(peak)
    order = np.argsort(-score[ys, xs], kind="stable")
    chosen: list[np.ndarray] = []
    for i in order:
        p = np.array([xs[i], ys[i]], float)
        if all(float(np.hypot(*(p - q))) >= 1.2 * r for q in chosen):
            chosen.append(p)
    if not chosen:
        return []
    cs = np.array(chosen)
    py, px = np.nonzero(filled)
    pts = np.c_[px, py].astype(float)
    dist = np.linalg.norm(pts[:, None] - cs[None], axis=2)
    near = np.argmin(dist, axis=1)
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    edge = np.concatenate([c.reshape(-1, 2) for c in contours]).astype(float)
    ed = np.linalg.norm(edge[:, None] - cs[None], axis=2)
    ed_sorted = np.sort(ed, axis=1)
    e_near = np.argmin(ed, axis=1)
    e_second = ed_sorted[:, 1] if len(cs) > 1 else np.full(len(edge), np.inf)
    out = []
    hh, ww = filled.shape
    for j, c in enumerate(cs):
        ring = np.round(c + _RING * np.linspace(0, 0.95 * r, 6)[:, None, None]).astype(int)
        ring = ring.reshape(-1, 2)
        inside = ((ring[:, 0] >= 0) & (ring[:, 0] < ww) & (ring[:, 1] >= 0) & (ring[:, 1] < hh))
        cover = np.zeros(len(ring), bool)
        cover[inside] = filled[ring[inside, 1], ring[inside, 0]] > 0
        mine = dist[near == j, j]
        if cover.mean() < min_fill or np.count_nonzero(mine > 1.25 * r) > max_outside * (
                math.pi * r * r):
            continue
        # the outline where no other disc touches: a circle through it
        use = (e_near == j) & (np.abs(ed[:, j] - r) < 0.4 * r) & (e_second > 1.3 * r)
        if np.count_nonzero(use) >= 8:
            fit = _circle(edge[use])
            if fit is None:
                continue
            centre, rad = fit
            rms = float(np.sqrt(np.mean((np.linalg.norm(edge[use] - centre, axis=1) - rad) ** 2)))
            if rms > max_roughness * r or not 0.6 * r < rad < 1.35 * r:
                continue  # a patch of colour with corners, or of another size: no disc
            if float(np.hypot(*(centre - c))) < 0.5 * r:
                c = centre
        out.append(c)
    return refine_centres(out, edge, r)


def refine_centres(centres: list[np.ndarray], edge: np.ndarray, r: float, rounds: int = 3
                   ) -> list[np.ndarray]:
    """Each disc's centre fitted as a circle of the known radius ``r`` to its own free
    outline (``edge`` (M, 2): the points near its rim, nearer to it than to any other disc
    and not where another disc touches), all discs together a few rounds, each round
    choosing the points by the last round's centres: a disc in a worm's bend, pressed on two
    sides, keeps only its free arc, and a short arc fixes a known radius's centre well.

    >>> t = np.linspace(0, 2 * np.pi, 60, endpoint=False)
    >>> ring = np.c_[10 + 8 * np.cos(t), 5 + 8 * np.sin(t)]
    >>> [round(float(v), 3) for v in refine_centres([np.array([11.5, 4.0])], ring, 8.0)[0]]
    [10.0, 5.0]
    """
    if not centres or not len(edge):
        return centres
    cs = np.array(centres, float)
    r_fit = r
    by_x = np.argsort(edge[:, 0], kind="stable")
    for k in range(rounds):
        near, first, second = nearest_two(edge, by_x, cs, 1.35 * r)
        if k == 0:  # the outline's own radius (a mask a little inside or outside the rim)
            rim = (np.abs(first - r) < 0.3 * r) & (second > 1.25 * r)
            if np.count_nonzero(rim) >= 8:
                r_fit = float(np.median(first[rim]))
        new = cs.copy()
        free = np.nonzero((np.abs(first - r) < 0.3 * r) & (second > 1.25 * r))[0]
        free = free[np.argsort(near[free], kind="stable")]  # by disc, each in the points' order
        bounds = np.searchsorted(near[free], np.arange(len(cs) + 1))
        for j in range(len(cs)):
            use = free[bounds[j]:bounds[j + 1]]
            if len(use) < 8:
                continue
            c = cs[j]
            pts = edge[use]
            for _ in range(5):  # Gauss-Newton on sum (|p - c| - r)^2
                d = pts - c
                n = np.linalg.norm(d, axis=1)
                u = d / np.maximum(n, 1e-9)[:, None]
                # normal equations of -u . step = -(n - r_fit), a 2x2 system
                a = u.T @ u
                b = u.T @ (n - r_fit)
                det = a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]
                if abs(det) < 1e-9:
                    break
                c = c + np.array([a[1, 1] * b[0] - a[0, 1] * b[1],
                                  a[0, 0] * b[1] - a[1, 0] * b[0]]) / det
            if np.isfinite(c).all() and float(np.hypot(*(c - centres[j]))) < 0.5 * r:
                new[j] = c
        cs = new
    return [c for c in cs]


DENSE_PAIRS = 20000
"""Up to this many point-centre pairs :func:`nearest_two` measures them all at once (a blob's
few discs); beyond it, only the pairs within reach."""


def nearest_two(points: np.ndarray, by_x: np.ndarray, centres: np.ndarray, reach: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each point (M, 2), its nearest centre (N, 2) within ``reach`` (index, -1 if none),
    the distance to it and to the second nearest (inf where none is within ``reach``):
    only the points within ``reach`` of each centre are measured (``by_x``: the points' order
    by x), not every point against every centre (a cloth's checks can make a thousand
    centres and a hundred thousand edge points).

    >>> pts = np.array([[0.0, 0.0], [10.0, 0.0], [50.0, 0.0]])
    >>> near, d1, d2 = nearest_two(pts, np.argsort(pts[:, 0]), np.array([[1.0, 0.0],
    ...                            [9.0, 0.0]]), 12.0)
    >>> near.tolist(), d1.tolist(), d2.tolist()
    ([0, 1, -1], [1.0, 1.0, inf], [9.0, 9.0, inf])
    """
    m = len(points)
    cs = np.asarray(centres, float).reshape(-1, 2)
    if m * len(cs) <= DENSE_PAIRS:  # few: every point against every centre, at once
        d = np.linalg.norm(points[:, None] - cs[None], axis=2)
        near = np.argmin(d, axis=1) if len(cs) else np.full(m, -1, np.int64)
        nd = np.sort(d, axis=1)
        first = nd[:, 0] if len(cs) else np.full(m, np.inf)
        second = nd[:, 1] if len(cs) > 1 else np.full(m, np.inf)
        near = np.where(first <= reach, near, -1)
        return near, np.where(first <= reach, first, np.inf), np.where(
            second <= reach, second, np.inf)
    near = np.full(m, -1, np.int64)
    first = np.full(m, np.inf)
    second = np.full(m, np.inf)
    xs = points[by_x, 0]
    ii, jj, dd = [], [], []
    for j, (cx, cy) in enumerate(cs):
        lo = np.searchsorted(xs, cx - reach, side="left")
        hi = np.searchsorted(xs, cx + reach, side="right")
        idx = by_x[lo:hi]
        d = np.linalg.norm(points[idx] - np.array([cx, cy]), axis=1)  # as the dense path
        ok = d <= reach
        ii.append(idx[ok])
        jj.append(np.full(np.count_nonzero(ok), j, np.int64))
        dd.append(d[ok])
    if not ii:
        return near, first, second
    i, j, d = np.concatenate(ii), np.concatenate(jj), np.concatenate(dd)
    order = np.lexsort((j, d, i))  # by point, then distance, then centre (argmin's tie)
    i, j, d = i[order], j[order], d[order]
    head = np.ones(len(i), bool)
    head[1:] = i[1:] != i[:-1]
    near[i[head]] = j[head]
    first[i[head]] = d[head]
    nxt = np.nonzero(~head & np.r_[False, head[:-1]])[0]  # each point's second pair
    second[i[nxt]] = d[nxt]
    return near, first, second


def outline_votes(filled: np.ndarray, r: float) -> np.ndarray:
    """float32 (H, W): for each pixel, about the share of a circle's outline of radius ``r``
    round it that the blob's outline shows (each outline pixel votes ``r`` inwards along its
    normal; 1 at a lone disc's centre): the centres of discs in a blob where they press
    together on several sides (two worms side by side), whose distance map peaks between
    them, not at their centres.

    >>> m = np.zeros((40, 60), np.uint8)
    >>> _ = cv2.circle(m, (20, 20), 10, 255, -1); _ = cv2.circle(m, (40, 20), 10, 255, -1)
    >>> v = outline_votes(m, 10.0)
    >>> y, x = np.unravel_index(int(np.argmax(v)), v.shape)
    >>> bool(min(abs(x - 20), abs(x - 40)) <= 1 and abs(y - 20) <= 1)
    True
    """
    ref = np.zeros((int(4 * r) + 5, int(4 * r) + 5), np.uint8)
    c0 = ref.shape[0] // 2
    cv2.circle(ref, (c0, c0), round(r), 255, -1)
    return _votes(filled, r) / max(float(_votes(ref, r).max()), 1e-6)


def _votes(filled: np.ndarray, r: float) -> np.ndarray:
    """Each outline pixel of a blob votes ``r`` inwards along its normal, blurred."""
    f = cv2.GaussianBlur(filled.astype(np.float32) / 255.0, (5, 5), 1.0)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    edge = cv2.subtract(filled, cv2.erode(filled, np.ones((3, 3), np.uint8))) > 0
    ys, xs = np.nonzero(edge & (mag > 1e-3))
    acc = np.zeros(filled.shape, np.float32)
    if len(xs):  # the gradient points inwards (0 outside the blob, 1 inside)
        cx = np.round(xs + r * gx[ys, xs] / mag[ys, xs]).astype(int)
        cy = np.round(ys + r * gy[ys, xs] / mag[ys, xs]).astype(int)
        ok = (cx >= 0) & (cx < acc.shape[1]) & (cy >= 0) & (cy < acc.shape[0])
        np.add.at(acc, (cy[ok], cx[ok]), 1.0)
    return cv2.GaussianBlur(acc, (0, 0), max(1.0, 0.12 * r))


def _circle(pts: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The least-squares circle through points (N, 2): centre and radius; None if degenerate."""
    m = pts.mean(axis=0)
    q = pts - m
    a = np.c_[2 * q, np.ones(len(q))]
    sol, *_ = np.linalg.lstsq(a, (q * q).sum(axis=1), rcond=None)
    rad2 = sol[2] + sol[0] ** 2 + sol[1] ** 2
    if not np.isfinite(rad2) or rad2 <= 0:
        return None
    return m + sol[:2], float(math.sqrt(rad2))


@dataclass(frozen=True, eq=False)
class Candidates:
    """Discs of a segment's colour and size that may be segments.

    Attributes:
        centres_px: (N, 2) their centres, view pixels.
        mask: uint8 (H, W) the segment-coloured pixels they were found in.
        r_px: A segment's radius in view pixels.
        coloured: uint8 (H, W) the pixels coloured in the frame itself, whatever the table's
            colour (None: not made).
        off_table: int16 (H, W) the frame's colour against the table's
            (:func:`vision.segment_mask.chroma_off_table`; None: not made).
    """

    centres_px: np.ndarray
    mask: np.ndarray
    r_px: float
    coloured: np.ndarray | None = None
    off_table: np.ndarray | None = None


def pieces_not_segments(exclude: np.ndarray, mask: np.ndarray, max_share: float) -> np.ndarray:
    """uint8 (H, W): the parts of ``exclude`` (pieces found before, each a blob) that are
    not mostly of a segment's colour: a tile's printed symbol stays masked, while a "tile"
    another stage read into a block of touching segments is given back to them.

    >>> ex = np.zeros((10, 20), np.uint8); ex[:, :8] = 255; ex[:, 12:] = 255
    >>> m = np.zeros_like(ex); m[2:4, 2:4] = 255; m[:, 12:] = 255
    >>> out = pieces_not_segments(ex, m, 0.5)
    >>> int(out[0, 0]), int(out[0, 15])
    (255, 0)
    """
    n, lab, stats, _ = cv2.connectedComponentsWithStats(exclude)
    area = stats[:, cv2.CC_STAT_AREA]
    coloured = np.bincount(lab[mask > 0], minlength=n)
    keep = coloured <= max_share * np.maximum(area, 1)
    # the pieces' pixels, less the few blobs given back (each cleared in its own box)
    out = np.where(exclude != 0, 255, 0).astype(np.uint8)
    for i in np.flatnonzero(~keep[1:]) + 1:
        x, y, w, h = (int(v) for v in stats[i, :4])
        box = out[y:y + h, x:x + w]
        box[lab[y:y + h, x:x + w] == i] = 0
    return out


def segment_candidates(cfg: SegmentConfig, prep: Prepared, exclude: np.ndarray | None = None
                       ) -> Candidates:
    """The discs of segment colour and size in a prepared frame (outside ``exclude``), each
    centred on its outline where nothing touches it (:func:`discs_in_blob`)."""
    s = prep.view.px_per_mm
    table = table_colour(prep.top, s, cfg.mask.table_window_mm)
    off_table = chroma_off_table(prep.top, table)
    own = frame_coloured(cfg.mask, prep, off_table)
    mask = segment_mask(cfg.mask, prep, own, table)
    coloured = np.where(own, 255, 0).astype(np.uint8)
    if exclude is not None and np.any(exclude):
        pieces = cv2.bitwise_not(pieces_not_segments(exclude, mask, cfg.max_coloured_share))
        mask = cv2.bitwise_and(mask, pieces)
        coloured = cv2.bitwise_and(coloured, pieces)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    r = cfg.diameter_mm * s / 2
    centres: list[tuple[float, float]] = []
    value: np.ndarray | None = None
    for blob, x0, y0 in _segment_blobs(cfg, prep, mask, r):
        discs = discs_in_blob(blob, r, cfg.min_fill, cfg.max_outside, cfg.max_roughness)
        # room for more discs than found
        if np.count_nonzero(blob) > (len(discs) + 0.75) * math.pi * r * r:
            if value is None:
                value = cv2.cvtColor(prep.top, cv2.COLOR_BGR2HSV_FULL)[..., 2]
            h, w = blob.shape
            patch = value[y0:y0 + h, x0:x0 + w]
            domes = shading_peaks(patch, blob, r)
            # more domes than discs: a bar of segments in a row, read by its shading alone
            shaded = domes if len(domes) > len(discs) else \
                discs + shading_peaks(patch, blob, r, discs)
            if domes_fill(len(shaded), r, blob, cfg.min_dome_cover):
                discs = shaded
        for c in discs:
            centres.append((float(c[0]) + x0, float(c[1]) + y0))
    found = np.array(centres, float).reshape(-1, 2)
    if cfg.domes is not None:
        found = np.concatenate([found, outline_candidates(cfg.domes, prep.top, coloured, r,
                                                          found)])
    return Candidates(found, mask, r, coloured, off_table)


def outline_candidates(cfg: DomeConfig, bgr: np.ndarray, coloured: np.ndarray, r: float,
                       found: np.ndarray) -> np.ndarray:
    """(N, 2) centres of discs found by their outline (:func:`dome_centres`, each fitted at
    the known radius to its own outline's edges, :func:`refine_centres`) that lie more than
    0.3 radii from every centre already ``found`` (M, 2): the domes the colour mask lost or
    placed off their centre (the judge, then :func:`crowded`, keeps one of two near ones)."""
    domes, edge = dome_centres(cfg, bgr, coloured, r)
    if not len(domes):
        return np.zeros((0, 2))
    domes = np.array(refine_centres(list(domes), edge, r), float).reshape(-1, 2)
    if len(found):
        d = np.linalg.norm(domes[:, None] - found[None], axis=2).min(axis=1)
        domes = domes[d > 0.3 * r]
    return domes


def domes_fill(count: int, r: float, blob: np.ndarray, min_share: float) -> bool:
    """Whether ``count`` discs of radius ``r`` fill at least ``min_share`` of a blob (uint8
    (H, W)): domes read by their shading that fill too little of their blob are bumps of light
    on a patch of colour (a cloth, a coloured lamp on the table), not segments in a row.

    >>> bar = np.zeros((30, 70), np.uint8); bar[5:25, 5:65] = 255  # three segments in a row
    >>> domes_fill(3, 10.0, bar, 0.25)
    True
    >>> patch = np.zeros((120, 120), np.uint8); patch[5:115, 5:115] = 255  # a cloth's patch
    >>> domes_fill(3, 10.0, patch, 0.25)
    False
    """
    return bool(count * math.pi * r * r >= min_share * np.count_nonzero(blob))


def _segment_blobs(cfg: SegmentConfig, prep: Prepared, mask: np.ndarray, r: float
                   ) -> list[tuple[np.ndarray, int, int]]:
    """The blobs of the mask that may be segments, as ``(patch, x0, y0)``: those of one to
    ``max_touching`` segments' size. A larger one is a table of segment colour joined to the
    segments on it (a blue gingham): it is split by hue into each set colour's pixels, so
    segments of another hue than the table's come out on their own."""
    small, large = 0.5 * math.pi * r * r, cfg.max_touching * math.pi * r * r
    out = []
    hue: np.ndarray | None = None
    set_hues = np.array([_hue(rgb) for _, rgb in cfg.colours])
    for found in blobs(mask, math.floor(small)):
        if found.area < small:
            continue
        if hue is None:
            hue = cv2.cvtColor(prep.top, cv2.COLOR_BGR2HSV_FULL)[..., 0]
        patch, x0, y0 = found.mask(pad=2)
        if found.area <= large:
            h = hue[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
            out.extend((sub, sx + x0, sy + y0) for sub, sx, sy in split_by_hue(
                patch, h, set_hues, small, large))
            continue
        h = hue[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]].astype(np.int16)
        for _, rgb in cfg.colours:
            gap = np.abs(h - round(_hue(rgb)))
            own = (np.minimum(gap, 256 - gap) <= cfg.hue_split) & (patch > 0)
            own = cv2.morphologyEx(own.astype(np.uint8) * 255, cv2.MORPH_OPEN,
                                   np.ones((3, 3), np.uint8))
            for part in blobs(own, math.floor(small)):
                sub, sx, sy = part.mask(pad=2)
                pieces = [(sub, 0, 0)] if part.area <= large else solid_parts(sub, r, small,
                                                                              large)
                out.extend((q, qx + sx + x0, qy + sy + y0) for q, qx, qy in pieces)
    return out


def solid_parts(patch: np.ndarray, r: float, small: float, large: float
                ) -> list[tuple[np.ndarray, int, int]]:
    """The parts of a blob too large for segments (uint8 (H, W)) that are solid over a
    segment's width, as ``(part, x0, y0)``: a cloth's checks of a segment's own colour (a red
    gingham under a red worm) join into a lattice of bands narrower than a segment, which an
    opening by a disc of 1.6 radii wipes out while a worm of segments stays; each part left
    is grown back to the blob's own outline near it.

    >>> m = np.zeros((120, 120), np.uint8); m[:, ::12] = 255; m[::12, :] = 255
    >>> m = cv2.dilate(m, np.ones((5, 5), np.uint8))  # a lattice of thin bands
    >>> _ = cv2.rectangle(m, (30, 50), (100, 70), 255, -1)  # a worm across it
    >>> [(p.shape, x, y) for p, x, y in solid_parts(m, 10.0, 150.0, 5000.0)]
    [((39, 81), 25, 41)]
    """
    k = max(3, round(1.6 * r) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    core = cv2.morphologyEx(patch, cv2.MORPH_OPEN, disc)
    if not np.any(core):
        return []
    grown = cv2.bitwise_and(patch, cv2.dilate(core, np.ones((5, 5), np.uint8)))
    return [part.mask(pad=2) for part in blobs(grown, math.floor(small))
            if small <= part.area <= large]


def split_by_hue(patch: np.ndarray, hue: np.ndarray, set_hues: np.ndarray, small: float,
                 large: float) -> list[tuple[np.ndarray, int, int]]:
    """A blob (uint8 (H, W)) cut into the parts of each set colour, as ``(part, x0, y0)``,
    when it holds more than one of them: each pixel goes to the set colour nearest to it in
    hue (``hue`` (H, W), ``set_hues`` (K,), both HSV-FULL 0-255), and each part of at least
    ``small`` pixels (and at most ``large``) is a blob of its own. Worms of several colours
    joined by their shadows on a cloth (a hard light's shadows stand out from the cloth's
    colour) come apart, each a row of discs again; a blob of one colour is kept whole.

    >>> m = np.zeros((20, 60), np.uint8); m[5:15, 5:55] = 255
    >>> h = np.zeros((20, 60), np.uint8); h[:, 30:] = 160
    >>> [(p.shape, x) for p, x, _ in split_by_hue(m, h, np.array([0.0, 160.0]), 20, 900)]
    [((14, 29), 3), ((14, 29), 28)]
    >>> len(split_by_hue(m, np.zeros_like(h), np.array([0.0, 160.0]), 20, 900))
    1
    """
    gap = np.abs(hue.astype(np.int16)[..., None] - np.round(set_hues).astype(np.int16))
    nearest = np.argmin(np.minimum(gap, 256 - gap), axis=2)
    inside = patch > 0
    counts = np.bincount(nearest[inside], minlength=len(set_hues))
    if np.count_nonzero(counts >= small) < 2:
        return [(patch, 0, 0)]
    out = []
    for k in np.nonzero(counts >= small)[0]:
        own = ((nearest == k) & inside).astype(np.uint8) * 255
        own = cv2.morphologyEx(own, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        for part in blobs(own, math.floor(small)):
            if small <= part.area <= large:
                out.append(part.mask(pad=2))
    return out


def shading_peaks(value: np.ndarray, blob: np.ndarray, r: float,
                  found: list[np.ndarray] = (), min_depth: float = 0.6) -> list[np.ndarray]:
    """The centres (blob pixels, (2,) each) of the lit domes in a blob that
    :func:`discs_in_blob` did not find: where segments lie in a row their blob is a bar with
    hardly a waist between them (their rims and shadows blur into one), but each dome is
    brightest at its middle and darker where it meets the next. The brightness over the blob's
    own pixels only (the table round it left out, whether lighter or darker), smoothed over
    half a radius, peaks once per dome; each peak at least ``min_depth`` radii inside the blob
    and 1.5 radii from every other centre (``found`` first) is one.

    >>> m = np.zeros((30, 80), np.uint8); v = np.zeros((30, 80), np.uint8)
    >>> for x in (15, 35, 55):
    ...     _ = cv2.rectangle(m, (x - 10, 5), (x + 10, 25), 255, -1)
    ...     _ = cv2.circle(v, (x, 15), 9, 200, -1)
    >>> sorted(round(float(c[0])) for c in shading_peaks(v, m, 10.0))
    [15, 35, 55]
    """
    inside = (blob > 0).astype(np.float32)
    sigma = max(1.0, 0.5 * r)
    weight = cv2.GaussianBlur(inside, (0, 0), sigma)
    mean = cv2.GaussianBlur(value.astype(np.float32) * inside, (0, 0), sigma) / np.maximum(
        weight, 1e-3)
    depth = cv2.distanceTransform(fill_holes(blob), cv2.DIST_L2, 5)
    k = max(3, int(1.2 * r) | 1)
    top = cv2.dilate(mean, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    ys, xs = np.nonzero((mean >= top) & (depth >= min_depth * r))
    order = np.argsort(-mean[ys, xs], kind="stable")
    chosen = [np.asarray(c, float) for c in found]
    out = []
    hh, ww = mean.shape
    for i in order:
        x, y = int(xs[i]), int(ys[i])
        p = np.array([x, y], float)
        if all(float(np.hypot(*(p - q))) >= 1.5 * r for q in chosen):
            chosen.append(p)
            if 0 < x < ww - 1 and 0 < y < hh - 1:  # the peak to a fraction of a pixel
                p = p + np.array([_vertex(*mean[y, x - 1:x + 2]), _vertex(*mean[y - 1:y + 2, x])])
            out.append(p)
    return out


def _vertex(a: float, b: float, c: float) -> float:
    """Where a parabola through (-1, a), (0, b), (1, c) peaks (clipped to half a step).

    >>> _vertex(1.0, 3.0, 2.0), _vertex(0.0, 1.0, 1.0)
    (0.167, 0.5)
    """
    den = a - 2 * b + c
    return 0.0 if den >= -1e-9 else round(float(np.clip(0.5 * (a - c) / den, -0.5, 0.5)), 3)


def _relief_ok(cfg: SegmentConfig, value: np.ndarray, c: np.ndarray, r: float) -> bool:
    """A half-sphere lit from above shades from a highlight to its rim; a patch of printed
    colour is flat (the hand-set test, when no judge is configured)."""
    disc = np.zeros(value.shape, np.uint8)
    cv2.circle(disc, (round(c[0]), round(c[1])), max(1, round(0.8 * r)), 255, -1)
    val = value[disc > 0]
    if not val.size:
        return False
    lo, mid, hi = np.percentile(val, (5, 50, 95))
    return bool(hi - lo >= cfg.min_relief * max(float(mid), 1.0))


def crowded(centres_px: np.ndarray, score: np.ndarray, min_apart_px: float) -> np.ndarray:
    """bool (N,): candidates nearer than ``min_apart_px`` to one the judge scored higher (the
    first of equals kept): two segments cannot overlap, so two candidates on one dome (found
    twice, once in each colour's part of a blob its highlight split) are one.

    >>> crowded(np.array([[0.0, 0.0], [5.0, 0.0], [30.0, 0.0]]), np.array([0.6, 0.9, 0.7]),
    ...         10.0).tolist()
    [True, False, False]
    """
    c = np.asarray(centres_px, float).reshape(-1, 2)
    out = np.zeros(len(c), bool)
    for i in np.argsort(-np.asarray(score, float), kind="stable"):
        if out[i]:
            continue
        d = np.hypot(*(c - c[i]).T)
        near = d < min_apart_px
        near[i] = False
        out |= near & ~out
        out[i] = False
    return out


def disc_hues(top: np.ndarray, mask: np.ndarray, coloured: np.ndarray | None,
              centre_px: np.ndarray, r: float, min_own_colour: float) -> np.ndarray:
    """The hues (HSV_FULL, float (N,)) of the view ``top``'s pixels of a candidate's disc (0.8
    of its radius ``r`` round ``centre_px``) that are in ``mask``, or, where fewer than
    ``min_own_colour`` of the disc are, in ``coloured`` (None: never), in the view's order;
    made in a window round the disc (the same pixels as a disc drawn on the whole view)."""
    hh, ww = mask.shape
    rad = max(1, round(0.8 * r))
    cx, cy = round(centre_px[0]), round(centre_px[1])
    xa, ya = min(ww, max(0, cx - rad - 1)), min(hh, max(0, cy - rad - 1))
    xb, yb = max(xa, min(ww, cx + rad + 2)), max(ya, min(hh, cy + rad + 2))
    if xb <= xa or yb <= ya:  # (wholly off the view)
        return np.zeros(0)
    win = (slice(ya, yb), slice(xa, xb))
    disc = np.zeros((yb - ya, xb - xa), np.uint8)
    cv2.circle(disc, (cx - xa, cy - ya), rad, 255, -1)
    own = cv2.bitwise_and(disc, mask[win])
    if coloured is not None and np.count_nonzero(own) < min_own_colour * \
            np.count_nonzero(disc):
        own = cv2.bitwise_and(disc, coloured[win])
    if not own.any():
        return np.zeros(0)
    return cv2.cvtColor(top[win], cv2.COLOR_BGR2HSV_FULL)[..., 0][own > 0].astype(float)


@dataclass(frozen=True)
class JudgedView:
    """What the segment judge reads in one frame, as the stage reads it at run time.

    Attributes:
        prep: The prepared frame the stage reads (under a blind, the view with its bands of
            light divided out, :func:`vision.segment_light.without_bands`).
        candidates: Its candidate discs (:func:`segment_candidates`).
        features: float32 (N, F) each candidate's features (:mod:`vision.segment_features`);
            None when no judge is configured.
    """

    prep: Prepared
    candidates: Candidates
    features: np.ndarray | None


def judged_view(cfg: SegmentConfig, prep: Prepared, exclude: np.ndarray | None = None
                ) -> JudgedView:
    """The candidates of a prepared frame and the features the judge reads of them: the one
    path of :func:`detect_segments` and of the judge's training rows
    (``training/make_segments.py``), so that the forest is trained on what it is shown."""
    prep = without_bands(prep)
    cand = segment_candidates(cfg, prep, exclude)
    if cfg.judge is None:
        return JudgedView(prep, cand, None)
    if not len(cand.centres_px):  # (no view's images made for no candidate)
        return JudgedView(prep, cand, np.zeros((0, N_FEATURES), np.float32))
    off = cand.off_table
    feats = (disc_features(candidate_images(prep, cand.mask, None, cfg.mask.table_window_mm),
                           cand.centres_px, cand.r_px) if off is None else
             candidate_features(prep, cand.mask, off, cand.centres_px, cand.r_px))
    return JudgedView(prep, cand, feats)


def detect_segments(cfg: SegmentConfig, prep: Prepared, exclude: np.ndarray | None = None
                    ) -> Detections:
    """Finds the Worm Up segments in a prepared frame: the candidates
    (:func:`segment_candidates`) the judge takes for segments, named by their hue; under a
    blind, in the view with its bands of light divided out (:mod:`vision.segment_light`)."""
    seen_by_judge = judged_view(cfg, prep, exclude)
    prep, cand = seen_by_judge.prep, seen_by_judge.candidates
    if not len(cand.centres_px):
        return Detections.empty()
    r = cand.r_px
    if seen_by_judge.features is not None and cfg.judge is not None:
        score = judge_for(cfg.judge).scores(seen_by_judge.features)
        keep = score >= cfg.judge.min_score
    else:
        score = np.ones(len(cand.centres_px))
        value = cv2.cvtColor(prep.top, cv2.COLOR_BGR2HSV_FULL)[..., 2]
        keep = np.array([_relief_ok(cfg, value, c, r) for c in cand.centres_px], bool)
    keep &= ~crowded(cand.centres_px, score, cfg.min_apart * r)
    hues = [(name, _hue(rgb)) for name, rgb in cfg.colours]
    centres, names, confs = [], [], []
    for c, ok, sc in zip(cand.centres_px, keep, score, strict=True):
        if not ok:
            continue
        h = disc_hues(prep.top, cand.mask, cand.coloured, c, r, cfg.min_own_colour)
        if not h.size:
            continue
        ang = np.angle(np.mean(np.exp(1j * h / 256.0 * 2 * np.pi))) / (2 * np.pi) * 256.0
        ang %= 256
        d = sorted((min(abs(ang - hh), 256 - abs(ang - hh)), name) for name, hh in hues)
        centres.append(c)
        names.append(d[0][1])
        confs.append(float(sc))
    if not centres:
        return Detections.empty()
    seen = prep.view.to_mm(np.array(centres))
    foot = prep.view.camera.foot_of(seen, 0.0)
    return Detections.of(foot, ["segment"] * len(centres), confidence=confs, seen_mm=seen,
                         color=names)
