"""Pieces found by the centre net (:mod:`vision.centres`), wherever the masks saw nothing.

Each peak of the net's heat maps that no found piece explains is a candidate: a coin is placed
by its far rim (:func:`vision.coins.far_edge_centres`, or on a table whose level varies
:func:`vision.rim_fit.rim_centres`), a tile by its edges (:func:`vision.tiles.refine_block`,
or from its strongest straight edges in colour: :mod:`vision.tile_candidates`), and the namer
then judges it at its foot and the ink readers read its suit, as :mod:`vision.proposals` does
for the bright mask's leftovers. A candidate whose fit fails is dropped. The prepared view is
made in full only around pieces the masks saw; around a candidate elsewhere, the view is
warped and divided by the local table's colour (the median of a window a few times the
piece's size) before fitting.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.model import Calibration
from vision.centres import CentreFinder, CentresConfig, Peaks
from vision.coin_colour import blurred_rim_centres, colour_rim_centres, smoothed
from vision.coin_judge import coin_judge_for
from vision.coin_light import banded_windows
from vision.coin_shape import not_round
from vision.coin_unround import unround_unsure
from vision.coin_weak_rim import weak_rim_centres
from vision.coins import CoinConfig, far_edge_centres
from vision.detections import Detections
from vision.namer import Namer, name_detections
from vision.namer_classes import CLASSES
from vision.post_candidates import PostCandidateConfig, propose_posts
from vision.posts import PostConfig
from vision.prepare import Prepared
from vision.proposals import explained_mask, read_found
from vision.rim_fit import rim_centres
from vision.sampling import bilinear
from vision.square_polish import face_side_px
from vision.tile_candidates import fit_tiles
from vision.tile_fit import TileFitConfig
from vision.tiles import TileConfig
from vision.topview import TopView


@dataclass(frozen=True)
class CentreProposalConfig:
    """Attributes:
    finder: The centre net.
    seen: A fitted candidate stays where the namer gives its kind at least this probability.
    margin_mm: How far around a found piece its explanation reaches (no candidate there).
    coin_window: Around a coin candidate outside the prepared view, this many radii each way
        are warped and normalised for its fit.
    tile_window: The same for a tile, in tile sides.
    max_shift: A coin's fit may move it at most this many radii from its peak.
    max_each: At most this many candidates of each kind are fitted (the hottest; a cost
        bound: a table holds at most about a hundred pieces).
    sure_face: A tile's face (and a face-up tile's suit) is the namer's where it gives that
        face at least this share of the tile's probability: the ink readers misread faces
        where the masks see nothing (a blind's stripes over a red cloth). None: never.
    fit: How a tile the stages' own edge fit cannot place is fitted from its strongest
        straight edges in colour (:func:`vision.tile_fit.fit_square`).
    faint_tile: Tile candidates down to this heat of the net (below its own threshold) are
        fitted too, under stricter rules (:func:`faint_tiles`); None: only the net's own.
    max_faint: At most this many of those (the hottest; a cost bound).
    faint_coin: Coin candidates down to this heat of the net (below its own threshold) are
        fitted too (a coin under a lamp's glare, blurred by a shaking camera or seen small
        on a busy cloth gets a peak the net is unsure of: :func:`cool_peaks`), each as
        ``CoinConfig.round_only`` fits (a far edge surely no circle of a coin's radius, where
        that can be told, is no coin: a pencil's white end under a blind, 0.77 of a coin's
        radius, read 0.96 by the namer and 0.85 by the judge), and each stands only where
        the namer gives a coin at least ``faint_seen``; None: only the net's own.
    max_faint_coin: At most this many of those (the hottest; a cost bound).
    faint_seen: The namer's least coin probability for a faint coin candidate.
    faint_votes: The coin judge's least votes for a faint coin candidate: sure of it, as
        the tile judge's 0.8 is (its own threshold, 0.275, keeps the stages' coins and the
        net's sure ones; a card's corner index under glare gets 0.73, the faint coins the
        namer is sure of 0.99-1.0); None: the judge's own.
    faint_ring: A faint coin candidate stands only where the median of the grey shade (1:
        the table's level) on a ring 1.3-2 radii from its centre is under this: a coin is a
        disc with the table beyond its rim, while a card's corner index or a page's print
        lies inside a sheet brighter than the table all round it (the cards' indices read as
        faint coins with the namer at 0.94-0.98 and the judge at 0.73-0.92 have rings of
        1.4-2.1; the coins 0.91-1.02); None: no such check.
    weak_rim: A coin candidate (the net's sure or faint) that no fit places, whose colour rim
        fit (:func:`vision.coin_colour.colour_rim_fit`) holds with a rise at least this many
        times the table's own change over the same step (the fit itself asks
        ``ColourRimConfig.over_texture``, 2.5), is placed there and stands only as a faint
        coin does (``faint_seen``, ``faint_votes``, ``faint_ring``): a cream coin on glossy
        white under glare or a soft lamp, or on marble in a dim warm room, rises 1.4-2.5
        times the table's noise at its rim (:mod:`vision.coin_weak_rim`); None: never.
    posts: How posts are proposed at the net's post peaks
        (:func:`vision.post_candidates.propose_posts`); None: never.
    reach_mm: How far from its centre a found piece of another kind explains the net's coin
        and tile peaks (a Jungle token's square, a Worm Up! segment's dome: a coin peak on
        their edge is no coin), as the detector's own mask has it; other kinds 6 mm (a post).
    banded_windows: Under a blind (step 2 found bands), the coin candidates' windows the
        prepared view did not make are divided by the table's colour with its bands before
        they are fitted, not by their own median (:mod:`vision.coin_light`).
    """

    finder: CentresConfig = field(default_factory=CentresConfig)
    seen: float = 0.5
    margin_mm: float = 1.5
    coin_window: float = 3.0
    tile_window: float = 1.2
    max_shift: float = 0.6
    max_each: int = 150
    sure_face: float | None = 0.9
    fit: TileFitConfig = field(default_factory=TileFitConfig)
    faint_tile: float | None = 0.2
    max_faint: int = 12
    faint_coin: float | None = 0.2
    max_faint_coin: int = 24
    faint_seen: float = 0.9
    faint_votes: float | None = 0.8
    faint_ring: float | None = 1.25
    weak_rim: float | None = 1.3
    posts: PostCandidateConfig | None = field(default_factory=PostCandidateConfig)
    reach_mm: tuple[tuple[str, float], ...] = (("segment", 12.0), ("token", 18.0))
    banded_windows: bool = True


def local_views(prep: Prepared, frame_bgr: np.ndarray, centres_px: np.ndarray,
                half_px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``prep.shade`` and ``prep.top`` with windows (``half_px`` each way) around centres the
    prepared view did not make in full, warped and divided by their own table's colour."""
    shade, top = prep.shade, prep.top
    copied = False
    for c, hw in zip(centres_px, half_px, strict=True):
        rect = prep.unmade_window(c, hw)
        if rect is None:
            continue
        x0, y0, x1, y1 = rect
        if not copied:
            shade, top, copied = shade.copy(), top.copy(), True
        win = prep.view.warp_rect(frame_bgr, x0, y0, x1, y1)
        ok = prep.valid[y0:y1, x0:x1] > 0
        grey = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY).astype(np.float32)
        table = float(np.median(grey[ok]))
        shade[y0:y1, x0:x1] = grey / (table + 1.0)
        top[y0:y1, x0:x1] = win
    return shade, top


def _free(prep: Prepared, explained: np.ndarray, peaks: Peaks, most: int) -> np.ndarray:
    """The ``most`` hottest peaks (view pixels) inside the play area and not explained."""
    if not len(peaks.score):
        return np.zeros((0, 2))
    px = prep.view.to_px(peaks.centre_mm[np.argsort(-peaks.score, kind="stable")])
    h, w = explained.shape
    xi, yi = np.rint(px[:, 0]).astype(int), np.rint(px[:, 1]).astype(int)
    inside = (xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)
    keep = np.zeros(len(px), bool)
    keep[inside] = (explained[yi[inside], xi[inside]] == 0) & (
        prep.valid[yi[inside], xi[inside]] > 0)
    return px[keep][:most]


def faint_tiles(finder: CentreFinder, frame_bgr: np.ndarray, half_bgr: np.ndarray | None,
                least: float | None) -> dict[str, Peaks]:
    """The net's peaks, a tile's down to ``least`` heat (None: the net's own threshold):
    under a blind's stripes on a white or stone table the net gives tiles less heat than it
    needs to be sure, and such candidates are then fitted under stricter rules
    (:func:`vision.tile_candidates.fit_tiles`)."""
    return cool_peaks(finder, frame_bgr, half_bgr, {"tile": least})


def cool_peaks(finder: CentreFinder, frame_bgr: np.ndarray, half_bgr: np.ndarray | None,
               least: dict[str, float | None]) -> dict[str, Peaks]:
    """The net's peaks, each kind's down to the heat ``least`` gives it (a kind not there, or
    None, or above the net's own threshold: the net's own). The cool ones are candidates to
    be judged under stricter rules than the net's sure peaks: a tile's fit
    (:func:`vision.tile_candidates.fit_tiles`), a coin's namer (``faint_seen``)."""
    sure = finder.least
    lower = {k: float(v) for k, v in least.items() if v is not None and v < sure[k]}
    if not lower:
        return finder.find(frame_bgr, half_bgr)
    finder.least = {**sure, **lower}
    try:
        return finder.find(frame_bgr, half_bgr)
    finally:
        finder.least = sure


def _free_faint(prep: Prepared, explained: np.ndarray, peaks: Peaks, sure: float,
                most: int, most_faint: int) -> tuple[np.ndarray, np.ndarray]:
    """Candidates (view pixels: the net's sure ones first, each the hottest first) and
    whether each is faint (less heat than ``sure``; at most ``most_faint`` of them)."""
    hot = peaks.score >= sure
    a = _free(prep, explained, Peaks(peaks.centre_mm[hot], peaks.score[hot]), most)
    b = _free(prep, explained, Peaks(peaks.centre_mm[~hot], peaks.score[~hot]),
              min(most_faint, max(0, most - len(a))))
    return np.r_[a, b].reshape(-1, 2), np.r_[np.zeros(len(a), bool), np.ones(len(b), bool)]


def _free_tiles(prep: Prepared, explained: np.ndarray, peaks: Peaks, sure: float,
                cfg: CentreProposalConfig) -> tuple[np.ndarray, np.ndarray]:
    """The tile candidates (view pixels, the net's sure ones first, each the hottest first)
    and whether each is faint (less heat than ``sure``; at most ``cfg.max_faint`` of them)."""
    return _free_faint(prep, explained, peaks, sure, cfg.max_each, cfg.max_faint)


def propose_centres(finder: CentreFinder, namer: Namer, frame_bgr: np.ndarray,
                    calibration: Calibration, prep: Prepared, dets: Detections,
                    coins: CoinConfig, tiles: TileConfig, cfg: CentreProposalConfig,
                    kinds: tuple[str, ...], half_bgr: np.ndarray | None = None,
                    posts: PostConfig | None = None) -> Detections:
    """New coins, tiles and posts where the centre net sees them and ``dets`` has none
    (``posts``: the post stage's configuration, the pieces' size)."""
    cool = cfg.posts.cool if "post" in kinds and cfg.posts is not None else None
    sure = finder.least
    if cool is not None and cool < sure["post"]:  # cool post peaks are judged too
        finder.least = {**sure, "post": cool}
    try:
        peaks = cool_peaks(finder, frame_bgr, half_bgr,
                           {"tile": cfg.faint_tile, "coin": cfg.faint_coin})
    finally:
        finder.least = sure
    found = _coins_and_tiles(finder, namer, frame_bgr, calibration, prep, dets, coins, tiles,
                             cfg, kinds, peaks)
    if "post" not in kinds or cfg.posts is None:
        return found
    coarse = None if finder.last_input is None else (finder.view, finder.last_input)
    return Detections.merge([found, _posts(namer, frame_bgr, calibration, prep,
                                           Detections.merge([dets, found]), coins, tiles, cfg,
                                           peaks["post"], posts or PostConfig(), coarse)])


def _posts(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration, prep: Prepared,
           dets: Detections, coins: CoinConfig, tiles: TileConfig, cfg: CentreProposalConfig,
           peaks: Peaks, posts: PostConfig,
           coarse: tuple[TopView, np.ndarray] | None = None) -> Detections:
    """New posts at the net's post peaks (:func:`vision.post_candidates.propose_posts`); the
    other pieces found are what their edges are not looked for against (``coarse``: the
    net's view and input, read again for places that stand out)."""
    assert cfg.posts is not None
    others = dets[dets.kind != "post"]
    against = explained_mask(prep, others, coins.radius_mm, tiles.side_mm, cfg.margin_mm)
    return propose_posts(peaks, namer, frame_bgr, calibration, prep, dets, against, posts,
                         cfg.posts, coarse)


def _coins_and_tiles(finder: CentreFinder, namer: Namer, frame_bgr: np.ndarray,
                     calibration: Calibration, prep: Prepared, dets: Detections,
                     coins: CoinConfig, tiles: TileConfig, cfg: CentreProposalConfig,
                     kinds: tuple[str, ...], peaks: dict[str, Peaks]) -> Detections:
    """New coins and tiles where the centre net sees them and ``dets`` has none."""
    view = prep.view
    s = view.px_per_mm
    r = coins.radius_mm * s
    side = tiles.side_mm * s
    explained = explained_mask(prep, dets, coins.radius_mm, tiles.side_mm, cfg.margin_mm,
                               dict(cfg.reach_mm))
    none = np.zeros((0, 2))
    coin_px, coin_faint = (
        _free_faint(prep, explained, peaks["coin"], finder.least["coin"], cfg.max_each,
                    cfg.max_faint_coin) if "coin" in kinds else (none, np.zeros(0, bool)))
    tile_px, faint = (_free_tiles(prep, explained, peaks["tile"], finder.least["tile"], cfg)
                      if "tile" in kinds else (none, np.zeros(0, bool)))
    if not len(coin_px) and not len(tile_px):
        return Detections.empty()
    half = np.r_[np.full(len(coin_px), cfg.coin_window * r),
                 np.full(len(tile_px), cfg.tile_window * side)]
    shade, top = local_views(prep, frame_bgr, np.r_[coin_px, tile_px], half)
    found_c: list[np.ndarray] = []
    faint_c: list[bool] = []
    if len(coin_px):
        away = view.outward_px(coin_px)
        fine = np.full((len(coin_px), 2), np.nan)
        c_shade = shade if not cfg.banded_windows else banded_windows(
            prep, shade, top, coin_px, cfg.coin_window * r)
        for which, round_only in ((~coin_faint, coins.round_only), (coin_faint, True)):
            if which.any():  # a faint coin's far edge must be round where that can be told
                fine[which] = coin_fits(c_shade, top, coin_px[which], away[which], r,
                                        round_only=round_only, refused=np.inf)
        weak_fit = np.zeros(len(coin_px), bool)
        lost = np.flatnonzero(np.isnan(fine).any(axis=1))  # not the ones surely not round
        if cfg.weak_rim is not None and len(lost):
            fine[lost] = weak_rim_centres(top, coin_px[lost], away[lost], r, cfg.weak_rim)
            weak_fit[lost] = True
        weak_c_all = coin_faint | weak_fit
        for k in np.r_[np.flatnonzero(~weak_fit), np.flatnonzero(weak_fit)]:
            start, f = coin_px[k], fine[k]  # the weak rims' fits last: the others place first
            if not np.all(np.isfinite(f)) or np.hypot(*(f - start)) > cfg.max_shift * r:
                continue
            fi = np.rint(f).astype(int)
            if explained[min(max(fi[1], 0), explained.shape[0] - 1),
                         min(max(fi[0], 0), explained.shape[1] - 1)]:
                continue  # moved onto a piece already found
            if all(np.hypot(*(f - g)) >= r for g in found_c):
                found_c.append(f)
                faint_c.append(bool(weak_c_all[k]))
    found_t = fit_tiles(view, shade, top, prep.bright, explained, tile_px, side,
                        tiles.gap_mm * s, cfg.fit, faint,
                        face_px=face_side_px(view.camera, side, tiles.thickness_mm),
                        wide=lambda c, half: local_views(prep, frame_bgr, c[None],
                                                         np.array([half]))[0])
    sure_c = [f for f, weak in zip(found_c, faint_c, strict=True) if not weak]
    weak_c = [f for f, weak in zip(found_c, faint_c, strict=True) if weak]
    found = read_found(namer, frame_bgr, calibration, prep, sure_c, found_t, coins, tiles,
                       cfg.seen, top)
    if weak_c and cfg.faint_ring is not None:  # a disc with the table round it
        weak_c = [f for f, ring in zip(weak_c, ring_shade(shade, np.array(weak_c), r),
                                       strict=True) if ring < cfg.faint_ring]
    if weak_c:  # the net's faint coins: the namer and the coin judge must be surer of them
        found = Detections.merge([found, faint_coins(namer, frame_bgr, calibration, prep,
                                                     weak_c, coins, tiles, cfg, top)])
    # faces the ink readers read unsurely are the namer's, as for the stages' pieces
    found = name_detections(namer, frame_bgr, calibration, found, judged=("tile",))
    found = unround_unsure(namer, frame_bgr, calibration, view, shade, found, coins.radius_mm,
                           coins.unround_votes)
    return found if cfg.sure_face is None else sure_faces(namer, frame_bgr, calibration,
                                                          found, cfg.sure_face)


def ring_shade(shade: np.ndarray, centres_px: np.ndarray, r: float,
               inner: float = 1.3, outer: float = 2.0) -> np.ndarray:
    """(N,) the median of ``shade`` on a ring ``inner``-``outer`` radii ``r`` round each
    centre (view pixels): 3 circles of 32 bilinear samples.

    >>> sh = np.ones((80, 80), np.float32)
    >>> sh[:, 45:] = 2.0  # a sheet to the right
    >>> ring_shade(sh, np.array([[20.0, 40.0], [60.0, 40.0]]), 8.0).round(2).tolist()
    [1.0, 2.0]
    """
    a = np.linspace(0.0, 2.0 * np.pi, 32, endpoint=False)
    rad = r * np.linspace(inner, outer, 3)
    ring = np.stack([np.outer(rad, np.cos(a)).ravel(), np.outer(rad, np.sin(a)).ravel()], 1)
    pts = np.asarray(centres_px, float).reshape(-1, 1, 2) + ring[None]
    return np.median(bilinear(np.ascontiguousarray(shade, np.float32), pts), axis=1)


def faint_coins(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
                prep: Prepared, found_c: list[np.ndarray], coins: CoinConfig,
                tiles: TileConfig, cfg: CentreProposalConfig,
                top: np.ndarray | None = None) -> Detections:
    """The coins fitted at the net's faint peaks (top faces, view pixels) that stand: the
    namer gives a coin at least ``cfg.faint_seen`` at its foot and the coin judge gives it at
    least ``cfg.faint_votes`` (a glare's lobe, a pencil's white end, a light check are round
    and pale enough for the namer, and the judge reads their outline)."""
    found = read_found(namer, frame_bgr, calibration, prep, found_c, [], coins, tiles,
                       max(cfg.seen, cfg.faint_seen), top)
    judge_cfg = namer.cfg.coin_judge
    if not len(found) or cfg.faint_votes is None or judge_cfg is None:
        return found
    p = namer.probabilities(frame_bgr, calibration, found.centre_mm)
    votes = coin_judge_for(judge_cfg).scores(frame_bgr, calibration, found.seen_mm, p)
    return found[np.asarray(votes) >= cfg.faint_votes]


def coin_fits(shade: np.ndarray, top: np.ndarray, starts: np.ndarray, away: np.ndarray,
              r: float, smooth: float = 0.07, round_only: bool = True,
              refused: float = np.nan) -> np.ndarray:
    """Coins' top faces (N, 2) near ``starts`` (view pixels), NaN where no fit holds: the far
    rim in the grey ``shade`` (:func:`far_edge_centres`), else the rim in colour in ``top``
    (a coin about as bright as the table: cream on glossy white, a dim warm lamp;
    :func:`colour_rim_centres`), else the grey rim's steepest edges (a table whose level
    varies: a check, a cloth's pattern; :func:`rim_centres`), else the rim in colour once
    the camera's noise is smoothed away round the coin (a dim, under-exposed room: a
    Gaussian of ``smooth`` radii, symmetric, so the circle's centre stays where it was),
    else that rim read over a pixel either side (a small coin blurred over a few pixels:
    :func:`vision.coin_colour.blurred_rim_centres`).
    Where ``round_only``, a grey far-rim fit whose far edge is surely no circle of its
    radius (a die's square top: :func:`vision.coin_shape.not_round`, which reads the same
    halfway edge) is ``refused`` (NaN, or inf to tell it from a coin no fit placed); the
    other fits are used where that edge means nothing."""
    fine = far_edge_centres(shade, starts, away, r, 1.0)
    placed = np.flatnonzero(np.all(np.isfinite(fine), axis=1))
    if round_only and len(placed):
        fine[placed[not_round(shade, fine[placed], away[placed], r)]] = np.inf
    for fit in (lambda i: colour_rim_centres(top, starts[i], away[i], r),
                lambda i: rim_centres(shade, starts[i], away[i], r),
                lambda i: colour_rim_centres(smoothed(top, starts[i], r, smooth),
                                             starts[i], away[i], r),
                lambda i: blurred_rim_centres(top, starts[i], away[i], r, smooth)):
        lost = np.isnan(fine).any(axis=1)
        if not lost.any():
            break
        fine[lost] = fit(lost)
    fine[np.isinf(fine)] = refused  # no coin, however else it could be fitted
    return fine


def sure_faces(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
               dets: Detections, share: float) -> Detections:
    """The tiles' faces (and suits face up) the namer is sure of, its own."""
    idx = np.flatnonzero(dets.kind == "tile")
    if not len(idx):
        return dets
    p = namer.probabilities(frame_bgr, calibration, dets.centre_mm[idx])
    up = [i for i, c in enumerate(CLASSES) if c.startswith("tile-up-")]
    down = CLASSES.index("tile-down")
    suit, face = dets.suit.copy(), dets.face.copy()
    for row, i in enumerate(idx):
        pk = float(p[row, up].sum() + p[row, down])
        if pk <= 0:
            continue
        if p[row, down] >= share * pk:
            face[i], suit[i] = "down", None
        elif p[row, up].sum() >= share * pk and face[i] != "up":
            best = up[int(np.argmax(p[row, up]))]
            face[i], suit[i] = "up", CLASSES[best].split("-")[-1]
    return Detections(centre_mm=dets.centre_mm, seen_mm=dets.seen_mm, kind=dets.kind,
                      confidence=dets.confidence, suit=suit, angle_deg=dets.angle_deg,
                      face=face, color=dets.color, marker_id=dets.marker_id)
