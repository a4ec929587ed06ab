"""Tiles: pale squares of a known size, face up (a suit symbol) or down (the back's grid).

A blob of the bright mask is opened with a disc wider than a coin, so touching coins fall
away and only tiles stay. Tiles laid edge to edge (a board of 2x3 tiles) make one rectangle
whose sides are whole multiples of the tile: it is cut into that grid. The face is read from a
square patch of each tile: a back shows dark lines across the middle of all four sides, a face
shows one coloured symbol in the centre (:mod:`vision.tile_faces`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.blobs import blobs
from vision.detections import Detections
from vision.prepare import Prepared, fill_holes
from vision.reading_memo import ReadingMemo, polished_again, square_rows_again
from vision.sampling import bilinear
from vision.square_fit import side_turn_deg, square_centre
from vision.square_polish import face_side_px, polish_tile
from vision.stats import percentile, row_percentiles
from vision.suits import DEFAULT_SUIT_INKS
from vision.tile_faces import read_tile_faces
from vision.tile_fit import runs_past
from vision.tile_judge import BLOCK, TileJudgeConfig, keep_tiles
from vision.tile_judge import EDGED as EDGED_SOURCE


@dataclass(frozen=True)
class TileConfig:
    """Attributes:
    side_mm: The tile's side.
    thickness_mm: The tile's thickness.
    seen_height: Where in the tile's height its seen outline centres (0 base, 1 top face).
    close_mm: Gaps up to this wide inside a tile (a back's grid lines on a pale table) close.
    open_mm: Diameter of the opening that removes coins from tile blobs.
    min_fill: Share of its rectangle a blob of tiles must fill.
    min_fill_edged: The same for a blob that fills too little of it (a pale tile on a pale
        table, its mask notched where its printed lines meet its edges): it is a tile only
        when a square of the tile's size fits its straight edges (a coin has none).
    wide_close: Gaps up to this share of the side are closed to look for tiles the mask
        shows in parts (a back's quadrants, its printed lines wider than ``close_mm``).
    loose_rms_px: Where a tile's edges fit its square only to more than :func:`refine_block`'s
        0.75 pixel (RMS; noise, a back's border line beside its edge), a fit to within this
        still gives its place and angle better than its blob.
    side_tolerance: How far (share of a side) a blob's side may be from a whole number of tiles.
    gap_mm: The gap left between tiles laid edge to edge.
    back_contrast: How much darker the middle lines of a back are than its quadrants.
    max_runs_edged: A tile guessed from a notched blob's straight stretches is none where
        this many of its sides run on past its corners (:func:`vision.tile_fit.runs_past`):
        the corner of a page, a notebook or a card (a tile touching others at other angles,
        or a coin, has none; one edge to edge with another, shifted along it, one).
    suit_inks: Suit name -> 8-bit RGB of its ink.
    judge: The learned judge every tile found must pass (:mod:`vision.tile_judge`: a page's
        printed lines, grain, a card's corner are squares too); None: none.
    """

    side_mm: float = 50.8
    thickness_mm: float = 4.8
    seen_height: float = 1.0
    close_mm: float = 6.0
    open_mm: float = 26.0
    min_fill: float = 0.85
    min_fill_edged: float = 0.6
    wide_close: float = 0.2
    loose_rms_px: float = 1.6
    side_tolerance: float = 0.3
    gap_mm: float = 0.5
    back_contrast: float = 0.01
    max_runs_edged: int = 2
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = DEFAULT_SUIT_INKS
    judge: TileJudgeConfig | None = field(default_factory=TileJudgeConfig)


@dataclass(frozen=True)
class _Block:
    """Tiles laid edge to edge in an nx by ny rectangle (1 by 1: a lone tile), view pixels."""

    centre_px: tuple[float, float]
    angle_px: float  # degrees, direction of the x side in the view
    nx: int
    ny: int
    side_px: float
    pitch_px: tuple[float, float] = (0.0, 0.0)  # tile to tile along x and y (gaps included)
    vote: float = math.nan  # the tile judge's share of votes for a lone tile it judged

    def tiles(self) -> list[tuple[float, float]]:
        """The centre of each tile of the block."""
        t = math.radians(self.angle_px)
        ex, ey = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
        c = np.array(self.centre_px)
        out = []
        for i in range(self.nx):
            for j in range(self.ny):
                px, py = (v if v > 0 else self.side_px for v in self.pitch_px)
                p = c + (i - (self.nx - 1) / 2) * px * ex + (j - (self.ny - 1) / 2) * py * ey
                out.append((float(p[0]), float(p[1])))
        return out


def _blocks_in_blob(cfg: TileConfig, blob: np.ndarray, side_px: float,
                    min_fill: float | None = None) -> list[_Block]:
    """The blocks of tiles a blob's parts are (their rectangles whole multiples of the tile,
    filled to ``min_fill``, None: ``cfg.min_fill``)."""
    min_fill = cfg.min_fill if min_fill is None else min_fill
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 0.5 * side_px * side_px:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        nx, ny = max(1, round(rw / side_px)), max(1, round(rh / side_px))
        if (abs(rw - nx * side_px) > cfg.side_tolerance * side_px
                or abs(rh - ny * side_px) > cfg.side_tolerance * side_px):
            continue
        if area < min_fill * rw * rh:
            continue
        out.append(_Block((float(cx), float(cy)), float(ang), nx, ny, side_px,
                          (float(rw / nx), float(rh / ny))))
    return out


FOUND, EDGED, SQUARE = 0, 1, 2
"""How a tile was guessed: from a block of its blob (kept even when its edges cannot be
measured), from a notched or broken blob (kept only when they can), from a clean square of
a back's quadrants (kept as it is when they cannot)."""


def _backs_in_parts(cfg: TileConfig, prep: Prepared, closed: np.ndarray,
                    blocks: list[_Block], side: float) -> list[tuple[_Block, int]]:
    """Tiles guessed where the mask, its gaps of up to a fifth of a tile closed, makes a blob
    of a tile's size that no block found so far covers (all to be confirmed by their edges)."""
    kw = max(3, round(cfg.wide_close * side) | 1)
    wide_disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kw, kw))
    least = 0.4 * side * side  # a back's quadrants, inside its printed border

    def close(m: np.ndarray) -> np.ndarray:  # (an empty rectangle stays empty)
        return cv2.morphologyEx(m, cv2.MORPH_CLOSE, wide_disc) if cv2.countNonZero(m) else m

    wide = fill_holes(prep.in_rois(close, closed))
    covered = np.zeros_like(wide)
    for b in blocks:
        _draw_block(covered, b, 0.0)
    out = []
    for found in blobs(wide, math.floor(least)):
        if found.area < least:
            continue
        blob, xa, ya = found.mask(pad=2)
        part = covered[ya:ya + blob.shape[0], xa:xa + blob.shape[1]]
        if np.count_nonzero((blob > 0) & (part > 0)) > 0.5 * found.area:
            continue
        # a clean square a little smaller than a tile (the quadrants inside a back's border)
        # stands as it is where its edges cannot be measured (the border line at the edge)
        square = [b for b in _blocks_in_blob(cfg, blob, side) if b.nx == b.ny == 1]
        if len(square) == 1:  # placed by its quadrants themselves (they lie round its centre)
            own = (closed[ya:ya + blob.shape[0], xa:xa + blob.shape[1]] > 0) & (blob > 0)
            ys, xs = np.nonzero(own)
            pts = np.c_[xs, ys].astype(np.float32)
            (_cx, _cy), _wh, ang = cv2.minAreaRect(pts)
            square = [_Block((float(xs.mean()), float(ys.mean())), float(ang), 1, 1, side)]
        for b in square or (_blocks_in_blob(cfg, blob, side, cfg.min_fill_edged)
                            + _squares_on_edges(blob, side)):
            out.append((_Block((b.centre_px[0] + xa, b.centre_px[1] + ya), b.angle_px, b.nx,
                               b.ny, b.side_px, b.pitch_px), EDGED if not square else SQUARE))
    return out


def _squares_on_edges(blob: np.ndarray, side_px: float) -> list[_Block]:
    """Tiles guessed from the straight parts of a blob's outline, one square of the tile's
    side inside each straight stretch at least 0.6 of a side long (more along a longer one):
    tiles at different angles touching one another or coins make one blob that is no
    rectangle, but each tile still shows a straight edge, and a coin none. Guesses of the
    same tile (from two of its edges) are given once; each must then be confirmed by its
    edges (:func:`refine_block`)."""
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[_Block] = []
    for c in contours:
        if cv2.contourArea(c) < 0.5 * side_px * side_px:
            continue
        poly = cv2.approxPolyDP(c, max(1.5, 0.05 * side_px), True).reshape(-1, 2).astype(float)
        for p, q in zip(poly, np.roll(poly, -1, axis=0), strict=True):
            length = float(np.hypot(*(q - p)))
            if length < 0.6 * side_px:
                continue
            d = (q - p) / length
            n = np.array([-d[1], d[0]])
            mid = (p + q) / 2
            probe = mid + n * 0.25 * side_px
            if cv2.pointPolygonTest(c, (float(probe[0]), float(probe[1])), False) < 0:
                n = -n
            k = max(1, round(length / side_px))
            for i in range(k):
                centre = p + d * (length / k) * (i + 0.5) + n * side_px / 2
                if any(float(np.hypot(centre[0] - b.centre_px[0], centre[1] - b.centre_px[1]))
                       < 0.3 * side_px for b in out):
                    continue
                out.append(_Block((float(centre[0]), float(centre[1])),
                                  math.degrees(math.atan2(d[1], d[0])), 1, 1, side_px))
    return out


_INNER_GRID = np.linspace(-0.35, 0.35, 5)
"""Where a block's face is sampled (shares of its extent either way from the centre)."""


@functools.lru_cache(maxsize=16)
def _edge_spots(n: int) -> np.ndarray:
    """Where along an edge (shares of its half length) profiles cross it."""
    return np.linspace(-0.9, 0.9, n)


@functools.lru_cache(maxsize=16)
def _steps(side: float) -> np.ndarray:
    """Sample offsets along a profile, from outside the edge in, every quarter pixel."""
    return np.arange(0.0, -0.4 * side, -0.25)


def refine_block(shade: np.ndarray, bright: np.ndarray, block: _Block, side: float,
                 away: np.ndarray, gap_px: float = 0.0, again: int = 2,
                 max_rms_px: float = 0.75) -> _Block | None:
    """The top faces' centre and angle from the edges facing away from the camera, subpixel.

    Edges turned towards the camera show the side wall and are left out, and so are edges
    with another piece against them. Across each kept edge, brightness profiles give edge
    points (searched from outside in, past lines printed near the edge); a rectangle of the
    known size (whole tiles) is fitted to them: centre and angle.

    A block's tiles are taken to lie ``gap_px`` apart (hand-laid tiles leave a fraction of a
    millimetre between them).

    A fit that turns the block by more than a degree (a rough angle from a blob with rounded
    corners: rays near a corner then meet the other side) is tried again from where it ended,
    up to ``again`` times; one turning it by more than 5 degrees is kept only so, and so is
    one whose edge points miss the rectangle by more than ``max_rms_px`` (RMS).

    Returns:
        The refined block, or None when its edges cannot be measured.
    """
    th = math.radians(block.angle_px)
    centre = np.array(block.centre_px, float)
    ex, ey = np.array([math.cos(th), math.sin(th)]), np.array([-math.sin(th), math.cos(th)])
    pitch = side + gap_px
    ext = [n_ * side + (n_ - 1) * gap_px for n_ in (block.nx, block.ny)]
    half = (ext[0] / 2, ext[1] / 2)
    inner = centre[None] + (_INNER_GRID[:, None, None] * 2 * half[0] * ex
                            + _INNER_GRID[None, :, None] * 2 * half[1] * ey).reshape(-1, 2)
    body = percentile(bilinear(shade, inner), 75)
    if body < 1.04:
        return None
    normals = np.array([[math.cos(th + k * math.pi / 2), math.sin(th + k * math.pi / 2)]
                        for k in range(4)])
    p0s, kss = [], []
    for k in range(4):
        n = normals[k]
        if n[0] * away[0] + n[1] * away[1] < -0.3:
            continue
        t = np.array([-n[1], n[0]])
        h_t = half[1 - k % 2]
        qs = _edge_spots(9 * round(h_t / (side / 2)) // 2 + 1)
        along = centre + (qs * h_t)[:, None] * t
        p0s.append(along)
        kss.append(np.full(len(qs), k))
    if not p0s:
        return None
    p0, ks = np.concatenate(p0s), np.concatenate(kss)
    nn = normals[ks]
    hn = np.where(ks % 2 == 0, half[0], half[1])
    beyond = np.round(p0 + nn * (hn + 0.12 * side)[:, None]).astype(int)
    inside = ((beyond[:, 0] >= 0) & (beyond[:, 0] < bright.shape[1])
              & (beyond[:, 1] >= 0) & (beyond[:, 1] < bright.shape[0]))
    against = np.zeros(len(p0), bool)  # another piece lies against the edge here
    against[inside] = bright[beyond[inside, 1], beyond[inside, 0]] > 0
    if against.any():
        p0, ks, nn, hn = p0[~against], ks[~against], nn[~against], hn[~against]
    if len(p0) < 8:
        return None
    steps = _steps(side)  # from outside in, relative to h_n + 0.2 side
    ts = hn[:, None] + 0.2 * side + steps[None, :]
    prof = bilinear(shade, p0[:, None] + ts[..., None] * nn[:, None])
    # halfway from the table beside the edge (where brighter than the table's mean: a pale
    # cloth's texture; never lower: a shadow) up to the face, ray by ray
    beside = row_percentiles(prof[:, :max(1, int(0.1 * side / 0.25))], 50)
    mid = (body + np.maximum(beside, 1.0))[:, None] / 2.0
    above = prof >= mid
    first = np.argmax(above, axis=1)
    ok = above.any(axis=1) & (first > 0)
    rows = np.nonzero(ok)[0]
    j = first[rows]
    a_, b_, m_ = prof[rows, j - 1], prof[rows, j], mid[rows, 0]
    d = ts[rows, j - 1] - (m_ - a_) / np.maximum(b_ - a_, 1e-6) * 0.25
    good = np.abs(d - hn[rows]) < 0.12 * side
    rows, d = rows[good], d[good]
    obs_k, obs_p = ks[rows], p0[rows] + d[:, None] * nn[rows]
    if len(obs_k) < 8 or not (obs_k != obs_k[0]).any():  # two edges at least
        return None
    c, a = centre, th
    for _round in range(3):  # fit, drop outliers (a chipped edge, a coin against it), refit
        c, a, res = _fit_rect(obs_k, obs_p, c, a, half)
        keep = np.abs(res) <= max(0.75, 3.0 * percentile(np.abs(res), 50))
        if keep.all():
            break
        obs_k, obs_p = obs_k[keep], obs_p[keep]
        if len(obs_k) < 8 or not (obs_k != obs_k[0]).any():  # two edges at least
            return None
    turn, shift = abs(math.degrees(a - th)), float(np.hypot(*(c - centre)))
    loose = float(np.sqrt(np.mean(res * res))) > max_rms_px  # they fit no rectangle
    if again > 0 and turn > 1 and turn <= 15 and shift <= 0.15 * side:
        again_ = refine_block(shade, bright, _Block((float(c[0]), float(c[1])), math.degrees(a),
                                                    block.nx, block.ny, side),
                              side, away, gap_px, again - 1, max_rms_px)
        if again_ is not None or turn > 5 or loose:
            return again_
    if shift > 0.15 * side or turn > 5 or loose:
        return None
    return _Block((float(c[0]), float(c[1])), math.degrees(a), block.nx, block.ny, side,
                  (pitch, pitch))


UNMEASURED_TURN_DEG = 15.0
"""How far a tile of a block whose edges were not measured may turn from the blob's angle
(:func:`refine_block` follows a turn up to this)."""


def each_tile(shade: np.ndarray, bright: np.ndarray, block: _Block, side: float,
              away: np.ndarray, gap_px: float, max_turn_deg: float = 5.0,
              measured: bool = True) -> list[tuple[tuple[float, float], float]]:
    """Each tile of a block (centre view pixels, angle view degrees), placed again on
    its own free edges where they are measured (:func:`refine_block`, the sides against its
    neighbours left out): tiles laid edge to edge by hand are shifted along their shared
    sides and turned by a degree or more from one another: a block's one rectangle (bent by
    the steps of its outline, or its blob's where no rectangle fits) turns them all alike,
    and may place them a few mm off. A tile whose own edges are not measured (two sides at
    least, within ``max_turn_deg`` and a tenth of a side of its place in the block) keeps
    that place.

    A block whose own edges were not ``measured`` has only its blob's rectangle for an angle:
    two tiles laid edge to edge and shifted along their shared side make a blob whose
    rectangle is turned by degrees from both (a pair at 6.6 degrees read at 0). Each tile's
    own fit then starts again from where it ended (as :func:`refine_block` does for a lone
    tile), up to :data:`UNMEASURED_TURN_DEG` from the blob's angle and 0.15 of a side (the
    refit's own limits) from its place in the blob's rectangle."""
    if block.nx * block.ny == 1:
        return [(block.centre_px, block.angle_px)]
    again, turn, shift = (0, max_turn_deg, 0.1) if measured else (2, UNMEASURED_TURN_DEG, 0.15)
    out = []
    for c in block.tiles():
        own = refine_block(shade, bright, _Block(c, block.angle_px, 1, 1, side), side, away,
                           gap_px, again=again)
        if own is not None and (
                float(np.hypot(own.centre_px[0] - c[0], own.centre_px[1] - c[1]))
                <= shift * side and abs(side_turn_deg(own.angle_px, block.angle_px)) <= turn):
            out.append((own.centre_px, own.angle_px))
        else:
            out.append((c, block.angle_px))
    return out


def steepest_square(shade: np.ndarray, block: _Block, side: float, away: np.ndarray
                    ) -> _Block | None:
    """A lone tile's top face from its sides' steepest edges
    (:func:`vision.square_fit.square_centre`), where :func:`refine_block` cannot measure them
    against the table's level (a check, a cloth's pattern): better than its blob's rectangle,
    which the table's pale parts beside it bend (a gingham's white squares turn it by
    degrees). None where those edges fit no square either."""
    sq = square_centre(shade, np.asarray(block.centre_px, float), block.angle_px, side, away)
    if sq is None:
        return None
    return _Block((float(sq[0][0]), float(sq[0][1])), sq[1], 1, 1, side)


def _solve3(A: tuple[tuple[float, ...], ...], b: tuple[float, ...]
            ) -> tuple[float, float, float] | None:
    """The solution of a 3x3 linear system by Cramer's rule; None when it is singular."""
    (a, b_, c), (d, e, f), (g, h, i) = A
    det = a * (e * i - f * h) - b_ * (d * i - f * g) + c * (d * h - e * g)
    if abs(det) < 1e-12 * max(1.0, abs(a * e * i)):
        return None
    x = (b[0] * (e * i - f * h) - b_ * (b[1] * i - f * b[2]) + c * (b[1] * h - e * b[2])) / det
    y = (a * (b[1] * i - f * b[2]) - b[0] * (d * i - f * g) + c * (d * b[2] - b[1] * g)) / det
    z = (a * (e * b[2] - b[1] * h) - b_ * (d * b[2] - b[1] * g) + b[0] * (d * h - e * g)) / det
    return x, y, z


def _fit_rect(ks: np.ndarray, pts: np.ndarray, c: np.ndarray, a: float,
              half: tuple[float, float]) -> tuple[np.ndarray, float, np.ndarray]:
    """Gauss-Newton fit of a rectangle's centre and angle to points on its edges.

    Args:
        ks: (N,) which edge each point is on (0-3, counter-clockwise from the x side's).
        pts: (N, 2) the points.
    """
    res = np.zeros(len(ks))
    hk = np.where(ks % 2 == 0, half[0], half[1])
    for _ in range(10):
        ak = a + ks * (math.pi / 2)
        cos, sin = np.cos(ak), np.sin(ak)
        d = pts - c
        res = cos * d[:, 0] + sin * d[:, 1] - hk
        q = -sin * d[:, 0] + cos * d[:, 1]
        # the normal equations of the Jacobian [-cos, -sin, q] (3 unknowns), solved directly
        A = ((float(cos @ cos), float(cos @ sin), -float(cos @ q)),
             (float(cos @ sin), float(sin @ sin), -float(sin @ q)),
             (-float(cos @ q), -float(sin @ q), float(q @ q)))
        b = (float(cos @ res), float(sin @ res), -float(q @ res))
        step = _solve3(A, b)
        if step is None:
            Jm = np.stack([-cos, -sin, q], axis=1)
            step = np.linalg.lstsq(Jm, -res, rcond=None)[0]
        c, a = c + np.asarray(step[:2]), a + float(step[2])
        if abs(step[0]) + abs(step[1]) < 1e-3 and abs(step[2]) < 1e-5:
            break
    return c, a, res


def _draw_block(mask: np.ndarray, b: _Block, margin_px: float) -> None:
    """Fills the block's rectangle, grown by ``margin_px`` in all, into ``mask``."""
    px, py = (v if v > 0 else b.side_px for v in b.pitch_px)
    box = cv2.boxPoints((b.centre_px, ((b.nx - 1) * px + b.side_px + margin_px,
                                       (b.ny - 1) * py + b.side_px + margin_px), b.angle_px))
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 255)


def detect_tiles(cfg: TileConfig, prep: Prepared, memo: ReadingMemo | None = None
                 ) -> tuple[Detections, np.ndarray]:
    """Finds the tiles in a prepared frame (``memo``: live, a square placed where one was
    read on the last still table, and the frame there unchanged, keeps that reading's polish,
    judge's features and face: :mod:`vision.reading_memo`).

    Returns:
        ``(detections, mask)``: one row per tile (foot centre, angle in [0, 90) in table
        terms, face, suit) and a uint8 mask of the tiles' area, for later stages to leave out.
    """
    s = prep.view.px_per_mm
    side = cfg.side_mm * s
    kc = max(3, round(cfg.close_mm * s) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc))
    least = 0.4 * side * side  # a rectangle with less is no tile: left as it is

    def close(m: np.ndarray) -> np.ndarray:
        return cv2.morphologyEx(m, cv2.MORPH_CLOSE, disc) if cv2.countNonZero(m) >= least else m

    closed = prep.in_rois(close, prep.bright)
    closed = fill_holes(closed)
    k = max(3, int(cfg.open_mm * s) | 1)
    k2 = max(3, int(cfg.open_mm * s / 2) | 1)  # the opening runs at half resolution (speed)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k2, k2))
    h, w = prep.bright.shape
    blocks: list[_Block] = []
    needs_edges: list[int] = []
    min_area = 0.5 * side * side
    for found in blobs(closed, math.floor(min_area)):
        if found.area < min_area:
            continue
        blob, xa, ya = found.mask(pad=k)
        bh2, bw2 = blob.shape
        half = cv2.resize(blob, ((bw2 + 1) // 2, (bh2 + 1) // 2), interpolation=cv2.INTER_AREA)
        half = cv2.morphologyEx(np.where(half > 127, 255, 0).astype(np.uint8), cv2.MORPH_OPEN,
                                kernel)
        opened = cv2.bitwise_and(blob, cv2.resize(half, (bw2, bh2),
                                                  interpolation=cv2.INTER_LINEAR))
        opened = np.where(opened > 127, 255, 0).astype(np.uint8)
        # a tile that something leans over (a post's top) has a notch the opening widens:
        # the blob as it is, when it is tiles alone
        found_blocks = _blocks_in_blob(cfg, opened, side) or _blocks_in_blob(cfg, blob, side)
        edged = EDGED if not found_blocks else FOUND  # a pale tile on a pale table: notched
        if edged:
            found_blocks = (_blocks_in_blob(cfg, opened, side, cfg.min_fill_edged)
                            + _squares_on_edges(opened, side))
        for b in found_blocks:
            blocks.append(_Block((b.centre_px[0] + xa, b.centre_px[1] + ya), b.angle_px,
                                 b.nx, b.ny, b.side_px, b.pitch_px))
            needs_edges.append(edged)
    # a back whose printed lines the mask does not bridge is four small squares apart: they
    # are one tile where a square of its size fits their outer edges
    for b, edged in _backs_in_parts(cfg, prep, closed, blocks, side):
        blocks.append(b)
        needs_edges.append(edged)
    mask = np.zeros((h, w), np.uint8)
    if not blocks:
        return Detections.empty(), mask
    inks = dict(cfg.suit_inks)
    cam = prep.view.camera
    face_px = face_side_px(cam, side, cfg.thickness_mm)
    away = prep.view.outward_px(np.array([b.centre_px for b in blocks]))
    found: list[tuple[float, float]] = []
    angles_px: list[float] = []
    z: list[float] = []
    backs: list[bool] = []
    sources: list[int] = []
    groups: list[int] = []  # which block each tile is of
    for k, (b, u, edged) in enumerate(zip(blocks, away, needs_edges, strict=True)):
        # the places refine_block looks at lie beyond the block's edges: closed there is
        # another piece against it
        fine = refine_block(prep.shade, closed, b, side, u, cfg.gap_mm * s)
        if fine is None:  # a noisy picture's edges, or a back's printed border beside them
            fine = refine_block(prep.shade, closed, b, side, u, cfg.gap_mm * s,
                                max_rms_px=cfg.loose_rms_px)
        if fine is None and edged == EDGED:
            continue  # a notched blob is a tile only when its straight edges are measured
        if fine is None and b.nx == b.ny == 1:  # a check, a cloth's pattern beside its edges
            fine = steepest_square(prep.shade, b, side, u)
        if edged == EDGED and fine is not None and runs_past(
                prep.top, np.array(fine.centre_px), fine.angle_px, side) >= cfg.max_runs_edged:
            continue  # a corner of a page or a card: its edges run on past the square's corners
        if edged and fine is not None and any(
                float(np.hypot(fine.centre_px[0] - c[0], fine.centre_px[1] - c[1])) < 0.5 * side
                for c in found):
            continue  # the same tile, guessed from another of its edges
        use = fine or b
        for c, a_px in each_tile(prep.shade, closed, use, side, u, cfg.gap_mm * s,
                                 measured=fine is not None):
            c, a_px = polished_again(  # dense edges, robust fit
                memo, prep.view.to_mm, c, a_px, cfg.side_mm,
                lambda c=c, a_px=a_px, u=u: polish_tile(prep.top, c, a_px, face_px, u))
            found.append(c)
            angles_px.append(a_px)
            z.append(cfg.thickness_mm if fine else cfg.seen_height * cfg.thickness_mm)
            backs.append(edged == SQUARE)
            sources.append(BLOCK if edged == FOUND else EDGED_SOURCE)
            groups.append(k)
        _draw_block(mask, use, 4.0)
    if not found:
        return Detections.empty(), mask
    seen_mm = prep.view.to_mm(np.array(found))
    foot_mm = cam.foot_of(seen_mm, np.array(z))
    top_mm = cam.seen_at(foot_mm, cfg.thickness_mm)
    top_px = prep.view.to_px(top_mm)
    keep = keep_tiles(cfg.judge, prep.shade, prep.top, top_px, np.array(angles_px), side,
                      np.array(sources), np.array(groups),
                      again=(memo, prep.view.to_mm, cfg.side_mm))
    if not keep.all():  # squares that are no tile (their place stays out of later stages)
        if not keep.any():
            return Detections.empty(), mask
        foot_mm, seen_mm, top_px = foot_mm[keep], seen_mm[keep], top_px[keep]
        angles_px = [a for a, k in zip(angles_px, keep, strict=True) if k]
        backs = [b for b, k in zip(backs, keep, strict=True) if k]
    faces, suits, confs, angles = [], [], [], []

    def read(i: np.ndarray) -> np.ndarray:
        out = np.empty((len(i), 3), object)
        out[:] = read_tile_faces(prep.top, top_px[i], [angles_px[k] for k in i], side, inks,
                                 cfg.back_contrast)
        return out
    read_all = square_rows_again(memo, "tile_face", prep.view.to_mm, top_px,
                                 np.array(angles_px), np.zeros(len(top_px), int), cfg.side_mm,
                                 read)
    for (face, suit, conf), a_px, back in zip(read_all, angles_px, backs, strict=True):
        if back and face == "up":  # found by its back's four quadrants: a back
            face, suit, conf = "down", None, 0.5
        faces.append(face)
        suits.append(suit)
        confs.append(conf)
        angles.append(float(prep.view.angle_to_mm(a_px)) % 90.0)
    return (Detections.of(foot_mm, ["tile"] * len(foot_mm), confidence=confs, seen_mm=seen_mm,
                          suit=suits, angle_deg=angles, face=faces), mask)
