"""Tiles where the centre net sees them: each candidate fitted, then the fits judged together.

For each of the net's tile peaks (:mod:`vision.centre_proposals`), the stages' own edge fit
(:func:`vision.tiles.refine_block`, against the table's level) is tried first; where it fails
(a white table, a check, a blind's stripes), a square of the tile's size is fitted to the
strongest straight edges in colour (:func:`vision.tile_fit.fit_square`). A fit stands only
where it is no part of a piece already found (a square half on a found tile is the found
tile's printed lines), and where its sides stop at its corners (:func:`vision.tile_fit.
runs_past`: a printed grid, a page's lines run on). Two tiles cannot overlap: of fits closer
than a tile's side, the one from the net's hotter candidate stands (a square straddling two
tiles laid edge to edge, made of their backs' middle lines, fits as well as either tile; the
net is surer of the tiles themselves, and two tiles outnumber one straddle).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np

from vision.proposals import _tile_angle_px
from vision.square_fit import side_turn_deg, square_centre
from vision.square_polish import polish_tile
from vision.tile_backs import BackFitConfig, back_square
from vision.tile_context import SheetConfig, part_of_sheet
from vision.tile_fit import (
    SquareFit,
    TileFitConfig,
    colour_gradient,
    fit_square,
    normalised_channels,
    runs_past,
    vote_angle,
)
from vision.tile_judge import FAINT, NET, tile_votes
from vision.tile_pattern import TilePatternConfig, repeats_cloth
from vision.tile_straddle import StraddleConfig, surer_beside, two_over_one
from vision.tiles import _Block, refine_block
from vision.topview import TopView

SHEETS = SheetConfig()
"""How a square that is a corner of a larger sheet (a page, a notebook) is told."""
PATTERN = TilePatternConfig()
"""How a square of a checked cloth (its place found again round it on a lattice) is told."""
STRADDLES = StraddleConfig()
"""How a square straddling two tiles laid edge to edge is told from the two."""
BACKS = BackFitConfig()
"""How a face-down tile is placed by its back's cross where no square fits its edges."""
_INSIDE = np.linspace(-0.35, 0.35, 5)
"""Where a fitted square's inside is sampled (shares of its side either way)."""


def overlap(mask: np.ndarray, centre_px: np.ndarray, angle_px: float, side: float) -> float:
    """The share of a square's inside (a 5x5 grid) where ``mask`` is set."""
    a = math.radians(angle_px)
    ex, ey = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    g = (np.asarray(centre_px, float)[None, None] + side * (
        _INSIDE[:, None, None] * ex + _INSIDE[None, :, None] * ey)).reshape(-1, 2)
    xi = np.clip(np.rint(g[:, 0]).astype(int), 0, mask.shape[1] - 1)
    yi = np.clip(np.rint(g[:, 1]).astype(int), 0, mask.shape[0] - 1)
    return float(np.mean(mask[yi, xi] > 0))


def steepest(shade: np.ndarray, fine: _Block, side: float, away: np.ndarray,
             max_shift: float = 0.05, max_rms: float = 0.8) -> _Block:
    """A lone tile placed by :func:`vision.tiles.refine_block` placed again by its sides'
    steepest edges (:func:`vision.square_fit.square_centre`) where those give a square within
    ``max_shift`` of a side of it. The centre net's candidates lie where the masks saw
    nothing: a check, a cloth's pattern, a blind's stripes, where the level beside an edge
    changes along it, and the halfway crossing ``refine_block`` takes moves with it (a tile
    turned a degree on a gingham); the steepest change does not."""
    sq = square_centre(shade, np.asarray(fine.centre_px, float), fine.angle_px, side, away,
                       max_rms=max_rms)
    if sq is None or np.hypot(*(sq[0] - np.asarray(fine.centre_px))) > max_shift * side:
        return fine
    return _Block((float(sq[0][0]), float(sq[0][1])), sq[1], 1, 1, side)


def _angles(top: np.ndarray, centre: np.ndarray, side: float, first: float | None,
            modes: int) -> list[float]:
    """The directions a square's sides may take near ``centre`` (view degrees): ``first``,
    then the modes of the colour gradients' vote (:func:`vision.tile_fit.vote_angle`)."""
    win, (x0, y0) = normalised_channels(top, centre, 0.95 * side)
    out = [] if first is None else [first]
    if win.shape[0] < side or win.shape[1] < side:
        return out
    gx, gy = colour_gradient(win)
    for a in vote_angle(gx, gy, centre - (x0, y0), side, modes):
        if all(abs(side_turn_deg(a, u)) >= 1.0 for u in out):
            out.append(a)
    return out


def _cloth(cfg: TilePatternConfig, px_per_mm: float, shade: np.ndarray,
           wide: Callable[[np.ndarray, float], np.ndarray] | None, centre_px: np.ndarray,
           angle_px: float, side: float, explained: np.ndarray, out: list[_Block]) -> bool:
    """Whether a fitted square repeats the table's pattern (:func:`vision.tile_pattern.
    repeats_cloth`), the pieces found and the tiles fitted before it left out of its copies."""
    level = shade if wide is None else wide(centre_px, cfg.reach_px(px_per_mm, side) + 2)
    found = np.array([o.centre_px for o in out], float).reshape(-1, 2)
    return repeats_cloth(cfg, level, px_per_mm, centre_px, angle_px, side, explained, found)


def _outline_across(top: np.ndarray, p: np.ndarray, side: float, away: np.ndarray,
                    ang: float | None, cfg: TileFitConfig, gap_px: float, cross_deg: float,
                    max_turn_deg: float) -> SquareFit | None:
    """The square the colour fit measures at ``p`` where it holds all four sides (points
    along half of each) turned more than ``max_turn_deg`` from a back's cross found there
    (``cross_deg``): then the cross is no back, the outline places the tile. Else None."""
    sq = fit_square(top, p, side, away, [] if ang is None else [ang], cfg, gap_px)
    if sq is None or min(sq.counts) < cfg.places / 2:
        return None
    return sq if abs(side_turn_deg(sq.angle_px, cross_deg)) > max_turn_deg else None


def faint_fit(cfg: TileFitConfig) -> TileFitConfig:
    """The fit of a candidate the net is unsure of: its own sides alone (no row's), measured
    whole, and never the looser error of a square held by four sides."""
    return dataclasses.replace(cfg, rows=0, partial_share=None, max_rms_four=None)


def fit_tiles(view: TopView, shade: np.ndarray, top: np.ndarray, bright: np.ndarray,
              explained: np.ndarray, peaks_px: np.ndarray, side: float, gap_px: float,
              cfg: TileFitConfig, faint: np.ndarray | None = None,
              backs: BackFitConfig | None = BACKS,
              sheets: SheetConfig | None = SHEETS,
              face_px: float | None = None,
              pattern: TilePatternConfig | None = PATTERN,
              wide: Callable[[np.ndarray, float], np.ndarray] | None = None,
              straddles: StraddleConfig | None = STRADDLES) -> list[_Block]:
    """The tiles (view pixels) at candidate centres ``peaks_px`` (N, 2).

    Args:
        view: The top view (the camera's direction at each candidate).
        shade: Grey level relative to the table's, made in full around the candidates.
        top: The view (BGR), the same.
        bright: The bright mask (another piece against a side, for the stages' fit).
        explained: Where pieces already found lie.
        peaks_px: The candidates, view pixels, the hottest first.
        side: A tile's side in view pixels.
        gap_px: The gap between tiles laid edge to edge.
        cfg: How the colour edge fit and its judges work.
        faint: (N,) bool, candidates the net gives less heat than it needs to be sure (a
            blind's stripes over a white or stone table): those stand only where a square is
            measured along half of three of its sides or more (``cfg.faint_sides``; its own
            sides, not a row's: a square straddling two tiles pairs with them) and at
            most ``cfg.faint_runs`` of its sides run on past a corner (a page's or a card's
            corner is two sides, running on).
        backs: A sure candidate the stages' edge fit cannot place is first looked for as a
            face-down tile by its back's cross (:func:`vision.tile_backs.back_square`: on a
            glossy white or marble table the tile's paper shares the table's level and
            colour, and its edges' square fit fails or lands on the cross's lines), then by
            its edges in colour; None: by its edges alone.
        sheets: A fitted square two of whose sides meeting at a corner open onto paper as
            bright as its inside, where nothing was found, is a corner of a page or a
            notebook (:func:`vision.tile_context.part_of_sheet`); None: never asked.
        face_px: The top face's side in view pixels, the camera's magnification of it
            (:func:`vision.square_polish.face_side_px`); None: ``side``.
        pattern: A square whose place is found again round it on a lattice, where no piece
            was found, is a square of a checked cloth (:func:`vision.tile_pattern.
            repeats_cloth`: 2 x 2 checks of a large check cross like a tile's back); None:
            never asked.
        wide: ``shade`` made in full within a given number of view pixels of a centre
            (the pattern's copies lie beyond the candidates' windows); None: ``shade``.
        straddles: A sure candidate whose fit lies on a tile fitted before is judged too, and
            where two such fits, tiles edge to edge, lie either side of a fit that stood, they
            stand in its place (:func:`vision.tile_straddle.two_over_one`: the square
            straddling two backs), and so does one such fit the judge gives plainly more
            votes than a fit standing half a side from it (:func:`vision.tile_straddle.
            surer_beside`); None: the fit first placed stands.
    """
    out: list[_Block] = []
    held: list[_Block] = []
    pts = np.asarray(peaks_px, float).reshape(-1, 2)
    weak = np.zeros(len(pts), bool) if faint is None else np.asarray(faint, bool)
    faint_cfg = faint_fit(cfg)
    for p, unsure in zip(pts, weak, strict=True):
        ang = _tile_angle_px(shade, p, side)
        away = view.outward_px(p[None])[0]
        fine = None
        if ang is not None:
            fine = refine_block(shade, bright, _Block((float(p[0]), float(p[1])), ang, 1, 1,
                                                      side), side, away, gap_px)
        if fine is not None:
            fine = steepest(shade, fine, side, away)
        if fine is None:  # a table whose level varies (stripes of shade, a check, white)
            bk = None
            if backs is not None and not unsure:
                bk = back_square(top, p, side, _angles(top, p, side, ang, cfg.modes), backs)
            sq = None
            if bk is not None and backs is not None and backs.max_square_turn_deg is not None:
                sq = _outline_across(top, p, side, away, ang, cfg, gap_px, bk.angle_px,
                                     backs.max_square_turn_deg)
            if bk is not None and sq is None:
                fine = _Block((float(bk.centre_px[0]), float(bk.centre_px[1])), bk.angle_px,
                              1, 1, side)
            else:
                if sq is None:
                    sq = fit_square(top, p, side, away, [] if ang is None else [ang],
                                    faint_cfg if unsure else cfg, gap_px)
                if sq is None or (unsure and sum(n >= cfg.places / 2 for n in sq.counts)
                                  < cfg.faint_sides):
                    continue
                fine = _Block((float(sq.centre_px[0]), float(sq.centre_px[1])), sq.angle_px,
                              1, 1, side)
        c_px, a_px = polish_tile(top, fine.centre_px, fine.angle_px, face_px or side, away)
        fine = dataclasses.replace(fine, centre_px=c_px, angle_px=a_px)
        c = np.array(fine.centre_px)
        if overlap(explained, c, fine.angle_px, side) > cfg.max_overlap:
            continue  # on a piece already found
        clash = any(np.hypot(*(c - np.array(o.centre_px))) < cfg.apart * side for o in out)
        if clash and (unsure or straddles is None):
            continue  # on a tile fitted before
        runs = runs_past(top, c, fine.angle_px, side, cfg)
        if runs >= cfg.max_runs or (unsure and runs > cfg.faint_runs):
            continue  # lines running on: a printed grid, a page
        if sheets is not None and part_of_sheet(shade, c, fine.angle_px, side, explained,
                                                sheets):
            continue  # the corner of a larger sheet
        vote = float(tile_votes(cfg.judge, shade, top, c[None], np.array([fine.angle_px]),
                                side, np.array([FAINT if unsure else NET]))[0])
        if cfg.judge is not None and vote < cfg.judge.veto:
            continue  # a square of a tile's size that is no tile (a page's print, grain)
        if pattern is not None and _cloth(pattern, view.px_per_mm, shade, wide, c,
                                          fine.angle_px, side, explained, out):
            continue  # 2 x 2 checks of a checked cloth, found again all round
        # (one on a tile fitted before is held: that one may straddle it and another)
        (held if clash else out).append(dataclasses.replace(fine, vote=vote))
    if held and straddles is not None:  # two tiles edge to edge, not their straddle
        drop, add = two_over_one([np.array(o.centre_px) for o in out],
                                 [np.array(h.centre_px) for h in held], side, straddles)
        out = [o for i, o in enumerate(out) if i not in drop] + [held[j] for j in add]
        held = [h for j, h in enumerate(held) if j not in add]
        # or one whole tile the judge is plainly surer of than its straddle
        drop, add = surer_beside([np.array(o.centre_px) for o in out], [o.vote for o in out],
                                 [np.array(h.centre_px) for h in held],
                                 [h.vote for h in held], side, straddles)
        out = [o for i, o in enumerate(out) if i not in drop] + [held[j] for j in add]
    return out  # (the namer's seen: read_found)
