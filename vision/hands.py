"""Hands and arms: a large blob unlike the table that no piece explains.

Two cues. On any frame alone (:func:`detect_hands`): a large region of the raw frame that
differs from the table around it in colour, brightness or grain, that no detected piece
explains, entering from the frame's border (an arm) or far too big to be anything else. In
live use, also a change against the remembered empty table (:class:`TableMemory`), which sees
a hand that looks like the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from vision.stats import percentile
from vision.topview import TopView


@dataclass(frozen=True)
class HandConfig:
    """Attributes:
    cells_across: The raw frame is looked at on a grid this many cells wide.
    window: Width of the table's local colour window, as a share of the frame's width.
    threshold: Least mean foreign score (over 3x3 cells) of a hand's cell.
    texture_weight: Weight of smoothness where the table is grained (wood): skin is smooth.
    min_area_mm2: Least area of a foreign blob entering from the frame's border.
    min_area_inside_mm2: Least area of a foreign blob that does not reach the border.
    min_depth: Least width and height (share of the grid's width) of a blob's bounding box: an
        arm reaches into the frame, a strip along the border (vignetting) does not.
    max_brightness_score: Brightness alone scores at most this (below ``threshold``): a
        darker plank of a wooden table is not a hand; colour or smoothness must agree.
    confirm_share: In live use (a remembered table), a foreign blob is a hand only when at
        least this share of it has changed against the memory: a plank or a glare that looks
        foreign but never moves is the table.
    """

    cells_across: int = 160
    window: float = 0.25
    threshold: float = 2.5
    texture_weight: float = 2.0
    min_area_mm2: float = 6000.0
    min_area_inside_mm2: float = 40000.0
    min_depth: float = 0.035
    max_brightness_score: float = 1.5
    confirm_share: float = 0.2


class HandGrid:
    """A coarse grid over the raw frame, and where each of its cells lies in the top view.

    Built once per calibration: the view's masks (pieces found, the play area) are sampled at
    the cells' centres, and each cell's area on the table is known, so a blob's size is in mm².
    """

    def __init__(self, calibration: Calibration, view: TopView, cells_across: int) -> None:
        w, h = calibration.image_size
        cell = max(1.0, w / max(1, cells_across))
        sw, sh = max(1, round(w / cell)), max(1, round(h / cell))
        self.size_wh = (sw, sh)
        self.image_size = (w, h)
        us = (np.arange(sw) + 0.5) * (w / sw) - 0.5
        vs = (np.arange(sh) + 0.5) * (h / sh) - 0.5
        uu, vv = np.meshgrid(us, vs)
        pts = np.c_[uu.ravel(), vv.ravel()]
        with np.errstate(all="ignore"):
            mm = calibration.to_table(pts)
            du = calibration.to_table(pts + np.array([1.0, 0.0])) - mm
            dv = calibration.to_table(pts + np.array([0.0, 1.0])) - mm
            px = view.to_px(mm)
        area = np.abs(du[:, 0] * dv[:, 1] - du[:, 1] * dv[:, 0]) * (w / sw) * (h / sh)
        area = np.where(np.isfinite(area), area, 0.0)
        px = np.where(np.isfinite(px), px, -10.0)
        self.cell_mm2 = np.clip(area, 0.0, 1e4).reshape(sh, sw).astype(np.float32)
        self.map_x = px[:, 0].reshape(sh, sw).astype(np.float32)
        self.map_y = px[:, 1].reshape(sh, sw).astype(np.float32)
        self._play: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def play_cells(self, valid: np.ndarray) -> np.ndarray:
        """The cells wholly over the play area (a view mask that rarely changes: the last
        answer is kept while the same mask is asked about), bool (rows, cols)."""
        if self._play is None or self._play[0] is not valid:
            cells = (self.sample(valid) > 250) & (self.cell_mm2 > 0)
            self._play = (valid, cells, np.flatnonzero(cells))
        return self._play[1]

    def play_index(self, valid: np.ndarray) -> np.ndarray:
        """:meth:`play_cells` as flat indices (rows x columns), ascending."""
        self.play_cells(valid)
        assert self._play is not None
        return self._play[2]

    def sample(self, view_mask: np.ndarray) -> np.ndarray:
        """A uint8 view mask at the cells (any part of the mask near a cell's centre counts)."""
        return cv2.remap(view_mask, self.map_x, self.map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def cells_of(self, frame_bgr: np.ndarray, half_bgr: np.ndarray | None = None
                 ) -> np.ndarray:
        """The frame's mean colour in each cell, uint8 (rows, columns, 3); from the frame
        halved (``half_bgr``) when it is already made (cheaper; the same but for rounding)."""
        src = frame_bgr if half_bgr is None else half_bgr
        return cv2.resize(src, self.size_wh, interpolation=cv2.INTER_AREA)

    def covers(self, cells: np.ndarray, points_px: np.ndarray) -> np.ndarray:
        """Which raw pixels (N, 2) fall on a cell mask's blobs, holes filled and grown by a
        cell (a piece found inside a hand leaves a hole in it); bool (N,)."""
        w, h = self.image_size
        sw, sh = self.size_wh
        blobs = cells.astype(np.uint8)
        contours, _ = cv2.findContours(blobs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(blobs, contours, -1, 1, cv2.FILLED)
        blobs = cv2.dilate(blobs, np.ones((3, 3), np.uint8))
        p = np.asarray(points_px, float).reshape(-1, 2)
        i = np.clip(((p[:, 0] + 0.5) * sw / w).astype(int), 0, sw - 1)
        j = np.clip(((p[:, 1] + 0.5) * sh / h).astype(int), 0, sh - 1)
        return blobs[j, i] > 0

    def outlines_px(self, cells: np.ndarray) -> tuple[np.ndarray, ...]:
        """Outlines (each (K, 2) raw image pixels) of the blobs of a cell mask."""
        w, h = self.image_size
        sw, sh = self.size_wh
        contours, _ = cv2.findContours(cells.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        scale = np.array([w / sw, h / sh])
        return tuple((c.reshape(-1, 2).astype(float) + 0.5) * scale - 0.5 for c in contours)


def detect_hands(cfg: HandConfig, grid: HandGrid, frame_bgr: np.ndarray, explained: np.ndarray,
                 valid: np.ndarray, cells: np.ndarray | None = None) -> tuple[bool, np.ndarray]:
    """Whether a hand or arm is over the table in one raw frame alone, and its mask in the view.

    Each cell of a coarse grid over the raw frame is compared with the table around it (a
    wide median, which a hand does not fill): its colour (chromaticity) and brightness, and,
    on a grained table (wood), its smoothness. Cells of detected pieces and outside the play
    area are left out. A hand is a large blob of foreign cells: an arm enters from the frame's
    border, and nothing else that large and unexplained lies on a game table.

    Args:
        cfg: Thresholds.
        grid: The frame's grid (built once per calibration).
        frame_bgr: The raw frame.
        explained: uint8 view mask of the detected pieces (with a margin).
        valid: uint8 view mask of the play area.
        cells: ``grid.cells_of(frame_bgr)`` when already made.

    Returns:
        ``(hand, cells)``: the flag and the hand's cells of the grid (uint8 0/1, (rows, cols)).
    """
    sw, sh = grid.size_wh
    none = np.zeros((sh, sw), np.uint8)
    small = grid.cells_of(frame_bgr) if cells is None else cells
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    fine = cv2.absdiff(grey, cv2.GaussianBlur(grey, (7, 7), 1.5))
    tex = cv2.resize(fine, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(3, int(cfg.window * sw) | 1)
    bg = cv2.medianBlur(small, k).astype(np.float32) + 1.0
    norm = small.astype(np.float32) / bg
    use = grid.play_cells(valid) & (grid.sample(explained) == 0)
    if np.count_nonzero(use) < 16:
        return False, none
    tot = np.maximum(norm.sum(axis=2), 1e-3)
    ratio = np.abs(np.log(tot / 3.0))
    chroma = np.hypot(norm[..., 0] / tot - 1 / 3, norm[..., 1] / tot - 1 / 3) * 100.0
    lvl = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    tex = tex / np.maximum(lvl, 1.0) * 100.0
    c = chroma / max(percentile(chroma[use], 90), 0.8)
    b = np.minimum(ratio / max(percentile(ratio[use], 90), float(np.log(1.1))),
                   cfg.max_brightness_score)
    mt = percentile(tex[use], 50)
    smooth = np.clip(1.0 - tex / max(mt, 1e-3), 0.0, 1.0) * float(np.clip(mt - 0.5, 0.0, 1.0))
    score = (c + b + cfg.texture_weight * smooth) * use
    w3 = cv2.blur(use.astype(np.float32), (3, 3))
    score = cv2.blur(score.astype(np.float32), (3, 3)) / np.maximum(w3, 1e-3)
    mask = ((score > cfg.threshold) & use).astype(np.uint8)
    # an arm's cells come in lace (grain and shading cross it): tie them together
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)) & use
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return False, none
    areas = np.bincount(labels.ravel(), weights=grid.cell_mm2.ravel(), minlength=n)
    x0, y0 = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1 = x0 + stats[:, cv2.CC_STAT_WIDTH]
    y1 = y0 + stats[:, cv2.CC_STAT_HEIGHT]
    border = (x0 <= 1) | (y0 <= 1) | (x1 >= sw - 1) | (y1 >= sh - 1)
    deep = np.minimum(x1 - x0, y1 - y0) >= cfg.min_depth * sw
    big = [i for i in range(1, n) if deep[i]
           and areas[i] >= (cfg.min_area_mm2 if border[i] else cfg.min_area_inside_mm2)]
    if not big:
        return False, none
    return True, np.isin(labels, big).astype(np.uint8)


@dataclass(frozen=True)
class MemoryConfig:
    """Attributes:
    cell_mm: Grid of the remembered table.
    change: A cell changed when a channel differs from the memory by this share.
    loose_change: A cell changed at all (:attr:`TableMemory.changed_cells`, which confirms a
        hand seen in the frame alone) past this share.
    learn: How fast unchanged cells follow the table (slow light drift), per frame.
    absorb: How fast changed cells are taken in (a cup left on the table stops being a hand).
    min_area_mm2: Least changed area, not explained by pieces, that is a hand.
    light_trim: A cell is lit as the light's smooth fit says when its log brightness (any
        channel) is within this of the fit; the others (a hand, a piece moved) are left out
        of the fit.
    pool_mm: What the smooth fit leaves of a light change is followed in pools this wide
        (:func:`light_pools`; more than twice a hand); None: not.
    dark_level: Changes are measured against at least this grey level: where the view is darker
        (a floor beyond the table's edge) a level or two of flicker is no change.
    """

    cell_mm: float = 4.0
    change: float = 0.22
    loose_change: float = 0.08
    learn: float = 0.2
    absorb: float = 0.01
    min_area_mm2: float = 6000.0
    light_trim: float = 0.08
    pool_mm: float | None = 200.0
    dark_level: float = 48.0


def light_gain(ref: np.ndarray, now: np.ndarray, index: np.ndarray, trim: float
               ) -> np.ndarray:
    """How the light changed between two pictures of the same table, cell by cell.

    A lamp dimmed, switched off or moved scales the whole table and every piece on it
    together by a gain that varies smoothly over the table (per colour channel: the light's
    colour may change too). A hand is local and is no gain of what was there. The gain is
    fitted to the log ratio of the cells ``index`` (flat indices of the grid) as a quadratic
    surface per channel; cells far from the fit (a hand, a moved piece) are left out and the
    fit repeated.

    Args:
        ref: The remembered cells, float (rows, columns, 3).
        now: The frame's cells, same shape.
        index: Flat indices of the cells to fit on (the table where no piece lies).
        trim: Cells whose log ratio is more than this from the fit are left out.

    Returns:
        The gain (rows, columns, 3) with ``now * gain`` close to ``ref`` where only the light
        changed.
    """
    sh, sw, nc = now.shape
    lr = (np.log(ref.reshape(-1, nc)[index] + 1.0)
          - np.log(now.reshape(-1, nc)[index] + 1.0))
    if len(index) < 12:
        med = np.median(lr, axis=0) if len(index) else np.zeros(nc)
        return np.broadcast_to(np.exp(med).astype(np.float32), now.shape).copy()
    ys, xs = np.divmod(index, sw)

    def design(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u, v = x / max(sw - 1, 1) * 2.0 - 1.0, y / max(sh - 1, 1) * 2.0 - 1.0
        return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)

    a = design(xs.astype(np.float64), ys.astype(np.float64))
    fit = np.broadcast_to(np.median(lr, axis=0), lr.shape)
    coef = np.zeros((a.shape[1], nc))
    coef[0] = fit[0]
    for _ in range(3):
        err = np.abs(lr - fit).max(axis=1)
        keep = err < trim
        if np.count_nonzero(keep) < 2 * a.shape[1]:
            break
        coef, *_ = np.linalg.lstsq(a[keep], lr[keep], rcond=None)
        fit = a @ coef
    yy, xx = np.mgrid[0:sh, 0:sw]
    field = design(xx.astype(np.float64), yy.astype(np.float64)) @ coef
    return np.exp(field).astype(np.float32)


def light_pools(ref: np.ndarray, now: np.ndarray, use: np.ndarray, window_cells: int
                ) -> np.ndarray:
    """What a smooth gain leaves of a change of the light: pools of light (a lamp's glare on the
    table, gone when it is switched off) larger than a hand, as a further gain per cell.

    The log ratio of each channel is median-filtered over a window of ``window_cells`` (wider
    than twice a hand): a pool of light fills the window, a hand or an arm only a part of it,
    so the median follows the pool and passes the hand over.

    Args:
        ref: The remembered cells, float (rows, columns, 3), already re-levelled.
        now: The frame's cells, same shape.
        use: bool (rows, columns): the cells of the table (others count as unchanged).
        window_cells: Width of the median's window, odd.

    Returns:
        The gain (rows, columns, 3) with ``now * gain`` closer to ``ref`` where the light
        changed in pools.
    """
    lr = np.log(ref + 1.0) - np.log(now + 1.0)
    k = max(3, int(window_cells) | 1)
    # medianBlur takes wide windows on 8-bit pictures only: log ratios in steps of 1/64
    q = np.clip(np.rint(lr * 64.0) + 128.0, 0, 255).astype(np.uint8)
    if not use.all():  # the cells off the table (a printed sheet) take their neighbours' light
        q = cv2.inpaint(q, (~use).astype(np.uint8), 3, cv2.INPAINT_TELEA)
    med = cv2.medianBlur(q, min(k, 255)).astype(np.float32)
    return np.exp((med - 128.0) / 64.0).astype(np.float32)


class TableMemory:
    """The table as the last frames showed it, to see a hand that looks like the table.

    A single frame cannot tell a tan hand from an oak table, but a hand is a change: cells of
    the view that differ from the remembered table and that no detected piece explains. A
    change of the light is no hand: each frame's light is fitted as a smooth gain over the
    table (:func:`light_gain`) and the memory is re-levelled to it at once. Slow drifts are
    learnt; a change where pieces lie or lay (a piece moved) is taken in at once on a frame
    with no hand; any other change that stays (an object left lying) is absorbed in time.
    """

    def __init__(self, cfg: MemoryConfig | None = None) -> None:
        self.cfg = cfg or MemoryConfig()
        self._ref: np.ndarray | None = None
        self._pending: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self.changed_cells: np.ndarray | None = None
        """Grid cells that changed at all on the last frame (uint8 0/1); None before a memory."""

    def reset(self) -> None:
        """Forgets the table."""
        self._ref = None
        self._pending = None
        self.changed_cells = None

    def update(self, grid: HandGrid, frame_bgr: np.ndarray, explained: np.ndarray,
               valid: np.ndarray, cells: np.ndarray | None = None) -> tuple[bool, np.ndarray]:
        """:meth:`compare`, then :meth:`learn` from the frame (a hand when it saw one, which
        the frame alone did not show: this memory is the only cue)."""
        hand, mask = self.compare(grid, frame_bgr, explained, valid, cells)
        self.learn(hand)
        return hand, mask

    def compare(self, grid: HandGrid, frame_bgr: np.ndarray, explained: np.ndarray,
                valid: np.ndarray, cells: np.ndarray | None = None) -> tuple[bool, np.ndarray]:
        """Compares a frame with the memory (:meth:`learn` then learns from it).

        Args:
            grid: The frame's grid (the memory is kept on it).
            frame_bgr: The raw frame.
            explained: uint8 view mask of the pieces (where they lie, and where they lay when
                they may have moved).
            valid: uint8 view mask of the play area.
            cells: ``grid.cells_of(frame_bgr)`` when already made.

        Returns:
            ``(hand, cells)``: whether a large unexplained change is over the table, and the
            changed blobs as a cell mask (uint8 0/1). The first frame is never a hand.
        """
        cfg = self.cfg
        sw, sh = grid.size_wh
        none = np.zeros((sh, sw), np.uint8)
        small = (grid.cells_of(frame_bgr) if cells is None else cells).astype(np.float32)
        ok = grid.play_cells(valid)
        # a cell partly over a piece changes with it, even when its centre is off the piece
        ex = cv2.dilate((grid.sample(explained) > 0).astype(np.uint8), np.ones((3, 3), np.uint8)
                        ) > 0
        if self._ref is None or self._ref.shape != small.shape:
            self._pending = (small, small, np.zeros_like(ok), ex)
            self.changed_cells = None
            return False, none
        ref = self._ref
        if ok.any():
            bare = np.flatnonzero((ok & ~ex).ravel())
            if len(bare) < 12:
                bare = grid.play_index(valid)
            ref = ref / light_gain(ref, small, bare[::3], cfg.light_trim)
            if cfg.pool_mm:
                cell_mm = float(np.sqrt(np.median(grid.cell_mm2[ok])))
                ref = ref / light_pools(ref, small, ok, round(cfg.pool_mm / max(cell_mm, 1.0)))
        # (np.maximum: cv2.max with a number floors the first channel only)
        rel = (np.abs(small - ref) / np.maximum(ref, np.float32(cfg.dark_level))).max(axis=2)
        changed = (rel > cfg.change) & ok
        self.changed_cells = ((rel > cfg.loose_change) & ok).astype(np.uint8)
        self._pending = (small, ref, changed, ex)
        mask = (changed & ~ex).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels = cv2.connectedComponents(mask, connectivity=8)
        if n <= 1:
            return False, none
        areas = np.bincount(labels.ravel(), weights=grid.cell_mm2.ravel(), minlength=n)
        big = [i for i in range(1, n) if areas[i] >= cfg.min_area_mm2]
        if not big:
            return False, none
        return True, np.isin(labels, big).astype(np.uint8)

    def learn(self, hand: bool, seen: bool = False) -> None:
        """Learns from the frame last compared; ``hand``: a hand is over it (by any cue);
        ``seen``: the frame alone shows it (a hand, not an object left lying).

        With no hand, the light is re-levelled at once, slow drifts are learnt, and where pieces
        lie or lay a change is a piece moved: the table as it is now. Nothing else is learnt
        from a frame whose light a hand and its shadow disturb; only a change that no single
        frame calls a hand is absorbed, slowly (a cup left lying stops being a hand). A hand
        seen is never absorbed: a hand resting for a while would leave its ghost behind.
        """
        if self._pending is None:
            return
        small, ref, changed, ex = self._pending
        self._pending = None
        cfg = self.cfg
        if self._ref is None or self._ref.shape != small.shape:
            self._ref = small
        elif hand:
            if not seen:
                rate = np.where(changed, cfg.absorb, 0.0)[..., None].astype(np.float32)
                self._ref = self._ref + rate * (small - self._ref)
        else:
            rate = np.where(changed, np.where(ex, 1.0, cfg.absorb), cfg.learn)
            self._ref = ref + rate[..., None].astype(np.float32) * (small - ref)
