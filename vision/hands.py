"""Hands and arms: a large blob unlike the table that no piece explains.

Two cues. On any frame alone (:func:`detect_hands`): regions of the raw frame that differ
from the table around it in colour, brightness or grain and that no detected piece explains,
each judged by a learned forest (:mod:`vision.hand_judge`: an arm reaching in from the border,
or a mug, a page, a glare, a blind's stripe, a plank), the hand's own cells then kept by a
second one (:mod:`vision.hand_cells`). In live use, also a change against the remembered empty
table (:class:`TableMemory`), which sees a hand that looks like the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.hand_cells import HandCellsConfig, cells_for
from vision.hand_edges import EdgeTestConfig, beyond_edge
from vision.hand_features import (
    FEATURES,
    Foreign,
    ForeignConfig,
    blob_features,
    candidate_blobs,
    foreign_cells,
)
from vision.hand_grid import HandGrid
from vision.hand_judge import HandJudgeConfig, judge_for
from vision.hand_lying import LyingConfig
from vision.hand_maps import HandMaps, hand_maps
from vision.hand_roots import RootTestConfig, narrow_root
from vision.hand_sheets import SheetTestConfig, is_sheet


@dataclass(frozen=True)
class HandConfig:
    """Attributes:
    cells_across: The raw frame is looked at on a grid this many cells wide.
    foreign: How cells unlike the table are scored and gathered into candidate blobs.
    judge: The learned judge of the candidate blobs (:mod:`vision.hand_judge`); None: the
        hand-set rules below (a blob large enough, from the border or very large inside).
    sheet: Each blob the judge (or the rules) passes is a hand only if its face is not as even
        as a sheet's (:mod:`vision.hand_sheets`: a page, a notebook, a card, most of all a
        white one under a lamp's glare); None: no such test.
    edge: On a frame read alone (no table memory), each blob passed is a hand only if it does
        not lie beyond a straight step across the whole view (:mod:`vision.hand_edges`: the
        floor beyond the table's edge); live the memory keeps what never moved out of the
        blobs already (``moving_only``), so the test is not made there; None: never.
    root: Each blob passed (by the judge or the rules) that meets the frame's border is a hand
        only if it meets it over a wrist's width at least (:mod:`vision.hand_roots`: an arm
        comes in from beyond the view; a mug's shadow or a stripe tying a thing inside the
        view to the border is a lace); None: no such test.
    min_area_mm2: Rules: least area of a foreign blob entering from the frame's border; live:
        the changed area that confirms a hand whatever its share.
    min_area_inside_mm2: Rules: least area of a foreign blob that does not reach the border.
    min_depth: Rules: least width and height (share of the grid's width) of a blob's bounding
        box: an arm reaches into the frame, a strip along the border (vignetting) does not.
    cells: The learned reader of which cells of a hand's blob are the hand
        (:mod:`vision.hand_cells`): pieces beside the hand (not under it) and its shadow stay
        out of it; None: ``hug``.
    hug: Without ``cells``, a hand's cells are those of its blob that are foreign on their own
        (each cell's own score past this share of the blob's threshold), closed by a cell;
        None: the whole blob.
    min_part_mm2: Least area of a part of a hand's cells once the cells round the found
        pieces are left out (what is smaller is a piece's rim, not the hand).
    confirm_share: In live use (a remembered table), a foreign blob is a hand only when at
        least this share of it has changed against the memory: a plank or a glare that looks
        foreign but never moves is the table.
    follow_frames: Live, a change only the memory sees, over the last frame's hand and reaching
        in from the play area's edge (a tan hand on oak, an arm lifting out of view), is still
        that hand for at most this many frames in a row; then a frame is read in full (pieces
        moved in a block are no arm). 0: such a change is always read in full.
    rules_cross_once: The hand-set rules pass only a blob that crosses the frame's border once
        (an arm; a blind's stripe, a plank or a sheet's edge runs from border to border).
    moving_only: Live (a remembered table), the foreign cells are cut to those that changed
        against the memory, grown by ``moving_grow`` cells, before they make blobs: what never
        moved (a floor beyond the table's edge, a blind's stripes, a plank) is the table, and an
        arm that moves is cut from the stripe or the floor it crosses, not judged with it.
    moving_grow: See ``moving_only``.
    keep_pieces: A frame called a hand (never judged) keeps the coins and tiles the centre net
        finds under the hand's cells (each placed by its own rim or edges, kept by the namer
        and the judges; a hand frame's faint peaks and weak rims are not fitted): a hand hides
        what lies under it, so what is seen there whole is a piece, and a mug, a shadow or a
        stripe called a hand no longer takes the table's pieces with it. On 21 renders with a
        hand (tuning seeds 462500-462523) the net found 22 pieces under the hand's cells, all
        of them true. False: they are left out (posts under a hand always are).
    rules_max_chroma_z: Beside the judge, the hand-set rules overrule it only for a blob whose
        colour is near the table's (its chroma off the table's by less than this many of the
        table's own spreads, feature ``chroma_z``) and that reaches in from the frame's border:
        they are there for a hand the judge cannot see well because it looks like the table (a
        tan hand on oak); a blob whose colour stands out (a page, a phone, a cloth's check, a
        glossy table's shade) the judge sees plainly, and its word stands. None: any blob the
        rules pass.
    rules_min_chroma_z: ... and not for a blob of the table's own chroma (under this): a shade
        of the table itself, a blind's stripe or a shadow, is the table in less light; skin,
        even a tan hand on oak, has a chroma of its own. On 500 frames the committed judge
        never saw (``training/README.md``, session 11) the rules made 48 false hands of 269
        hand-free frames, 34 with both bounds (the trees alone 31; upper bounds from 1.0 to
        2.0 gave 33 to 36, lower bounds from 0.3 to 0.5 the same), 5 hands missed either way
        (7 without the rules): of the 244 hands' blobs 15 have a chroma under 0.45, and the
        trees see all of them but three they score under 0.25 anyway. The sample playthrough's
        hand only the rules keep (frame 022) has 0.71; the blind's stripe of render 63023
        (``tests/vision/test_tile_tables.py``) 0.26.
    lying: Live (a remembered table), a blob called a hand that stays unchanged for a few
        frames and whose change does not meet the play area's rim over a wrist (no arm
        reaches in to it: a mug, a phone, a sheet set down) is an object left lying, and no
        longer holds the game (:mod:`vision.hand_lying`); None: a hand until it goes.
    """

    cells_across: int = 160
    foreign: ForeignConfig = field(default_factory=ForeignConfig)
    judge: HandJudgeConfig | None = field(default_factory=HandJudgeConfig)
    sheet: SheetTestConfig | None = field(default_factory=SheetTestConfig)
    edge: EdgeTestConfig | None = field(default_factory=EdgeTestConfig)
    root: RootTestConfig | None = field(default_factory=RootTestConfig)
    min_area_mm2: float = 6000.0
    min_area_inside_mm2: float = 40000.0
    min_depth: float = 0.035
    cells: HandCellsConfig | None = field(default_factory=HandCellsConfig)
    hug: float | None = 0.8
    min_part_mm2: float = 1500.0
    confirm_share: float = 0.2
    follow_frames: int = 6
    rules_cross_once: bool = True
    moving_only: bool = True
    moving_grow: int = 2
    keep_pieces: bool = True
    rules_max_chroma_z: float | None = 1.5
    rules_min_chroma_z: float = 0.4
    lying: LyingConfig | None = field(default_factory=LyingConfig)


def detect_hands(cfg: HandConfig, grid: HandGrid, frame_bgr: np.ndarray, explained: np.ndarray,
                 valid: np.ndarray, cells: np.ndarray | None = None,
                 moving: np.ndarray | None = None) -> tuple[bool, np.ndarray]:
    """Whether a hand or arm is over the table in one raw frame alone, and its cells.

    Each cell of a coarse grid over the raw frame is compared with the table around it (a
    wide median, which a hand does not fill): its colour (chromaticity) and brightness, and,
    on a grained table (wood), its smoothness. Cells of detected pieces and outside the play
    area are left out. Blobs of foreign cells are candidates (:mod:`vision.hand_features`);
    the learned judge (:mod:`vision.hand_judge`) tells a hand or an arm from a mug, a page, a
    glare, a blind's stripe or the floor beyond the table by the blob's size, reach from the
    border, shape, colour, grain and shading against the table's.

    Args:
        cfg: Thresholds and the judge.
        grid: The frame's grid (built once per calibration).
        frame_bgr: The raw frame.
        explained: uint8 view mask of the detected pieces (with a margin).
        valid: uint8 view mask of the play area.
        cells: ``grid.cells_of(frame_bgr)`` when already made.
        moving: Live, the cells changed against the remembered table (uint8 or bool (rows,
            cols)): a blob of which less than ``cfg.confirm_share`` and less than
            ``cfg.min_area_mm2`` has changed never moves (a plank, a glare, a blind's stripe,
            the floor): the table, not judged. None: every blob is judged.

    Returns:
        ``(hand, cells)``: the flag and the hand's cells of the grid (uint8 0/1, (rows, cols)).
    """
    return hands_of_maps(cfg, hand_maps(grid, frame_bgr, explained, valid, cells), moving)


def hands_of_maps(cfg: HandConfig, maps: HandMaps, moving: np.ndarray | None = None
                  ) -> tuple[bool, np.ndarray]:
    """:func:`detect_hands` on a frame's maps already made (``training/hands_check.py`` reads
    kept maps with it, as the detector would)."""
    none = np.zeros(maps.use.shape, np.uint8)
    fg = foreign_cells(cfg.foreign, maps)
    if fg is None:
        return False, none
    within = None
    if moving is not None and cfg.moving_only:
        k = 2 * cfg.moving_grow + 1
        within = cv2.dilate((moving > 0).astype(np.uint8), np.ones((k, k), np.uint8)) > 0
    labels, ids = candidate_blobs(cfg.foreign, maps, fg, within)
    if moving is not None:
        ids = [i for i in ids if _moves(cfg, maps, labels == i, moving)]
    if not ids:
        return False, none
    votes: dict[int, float] = {}  # the judge's share of votes of each blob
    feats = (np.array([blob_features(maps, fg, labels == i) for i in ids])
             if cfg.judge is not None or cfg.root is not None else None)
    if cfg.judge is None:
        hands = [i for i in ids if by_rules(cfg, maps, labels == i)]
    else:
        assert feats is not None
        s = judge_for(cfg.judge).scores(feats)
        loose = cfg.judge.rules_min_score
        may = overrulable(cfg, feats)
        hands = [i for i, v, m in zip(ids, s, may, strict=True) if v >= cfg.judge.min_score or (
            loose is not None and m and v >= loose and by_rules(cfg, maps, labels == i))]
        votes = {i: float(v) for i, v in zip(ids, s, strict=True)}
    if cfg.root is not None and hands:
        assert feats is not None
        at = [ids.index(i) for i in hands]
        narrow = narrow_root(cfg.root, feats[at], np.array([votes.get(i, 0.0) for i in hands]))
        hands = [i for i, n in zip(hands, narrow, strict=True) if not n]
    if cfg.sheet is not None:
        hands = [i for i in hands if not is_sheet(cfg.sheet, maps, labels == i)]
    if cfg.edge is not None and moving is None:
        sure = cfg.edge.judge_sure
        hands = [i for i in hands if (sure is not None and votes.get(i, 0.0) >= sure)
                 or not beyond_edge(cfg.edge, maps, labels == i)]
    if not hands:
        return False, none
    return True, hug(cfg, fg, np.isin(labels, hands), maps).astype(np.uint8)


def _moves(cfg: HandConfig, maps: HandMaps, blob: np.ndarray, moving: np.ndarray) -> bool:
    """Whether enough of a blob changed against the memory to be a hand (see
    :func:`detect_hands`)."""
    on = blob & (moving > 0)
    n = np.count_nonzero(on)
    return bool(n >= cfg.confirm_share * max(1, np.count_nonzero(blob))
                or float(maps.cell_mm2[on].sum()) >= cfg.min_area_mm2)


def overrulable(cfg: HandConfig, features: np.ndarray) -> np.ndarray:
    """Which blobs (rows of :func:`vision.hand_features.blob_features`) the hand-set rules may
    call a hand against the judge (see ``HandConfig.rules_max_chroma_z`` and
    ``rules_min_chroma_z``): those reaching in from the frame's border whose colour is near the
    table's but not the table's own in shade; bool (N,)."""
    f = np.asarray(features, np.float32).reshape(-1, len(FEATURES))
    if cfg.rules_max_chroma_z is None:
        return np.ones(len(f), bool)
    chroma = f[:, FEATURES.index("chroma_z")]
    return (f[:, FEATURES.index("border")] > 0) & (chroma < cfg.rules_max_chroma_z) & (
        chroma >= cfg.rules_min_chroma_z)


def by_rules(cfg: HandConfig, maps: HandMaps, blob: np.ndarray) -> bool:
    """The hand-set rules: a blob large enough, deep enough, and from the border unless huge."""
    sh, sw = blob.shape
    ys, xs = np.nonzero(blob)
    border = xs.min() <= 1 or ys.min() <= 1 or xs.max() >= sw - 2 or ys.max() >= sh - 2
    deep = min(xs.max() - xs.min() + 1, ys.max() - ys.min() + 1) >= cfg.min_depth * sw
    area = float(maps.cell_mm2[blob].sum())
    if cfg.rules_cross_once and border and _border_runs(blob) > 1:
        return False
    return bool(deep and area >= (cfg.min_area_mm2 if border else cfg.min_area_inside_mm2))


def _border_runs(blob: np.ndarray) -> int:
    """How many separate runs of a blob's cells lie on the grid's border (two cells deep)."""
    edge = np.zeros(blob.shape, bool)
    edge[:2], edge[-2:], edge[:, :2], edge[:, -2:] = True, True, True, True
    return int(cv2.connectedComponents((blob & edge).astype(np.uint8), connectivity=8)[0]) - 1


def hug(cfg: HandConfig, fg: Foreign, blobs: np.ndarray, maps: HandMaps | None = None
        ) -> np.ndarray:
    """The cells of the hands' blobs (bool (rows, cols)) that are the hand: as the learned
    reader says (``cfg.cells``), or else those foreign on their own (a blob's score is smoothed
    over 3x3 cells, which reaches a cell past the hand's outline), closed by a cell (an arm's
    cells come in lace). With the pieces known (``maps.pieces``), the cells round them (a
    piece's rim that a cell half covers looks foreign) are no hand, and what is left of a blob
    that small is dropped (a lace along a worm of coins beside the fingers)."""
    if cfg.cells is not None:
        cells = cells_for(cfg.cells).hand_of(fg, blobs)
        return cells if maps is None else _off_pieces(cfg, maps, cells)
    if cfg.hug is None:
        return blobs
    own = blobs & (fg.raw > cfg.hug * cfg.foreign.threshold)
    own = cv2.morphologyEx(own.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return (own > 0) & blobs


def _off_pieces(cfg: HandConfig, maps: HandMaps, cells: np.ndarray) -> np.ndarray:
    """``cells`` without the ring of cells round the found pieces, and without the parts then
    left smaller than ``cfg.min_part_mm2``; the hand's cells as they were when nothing is left."""
    if maps.pieces is None or not maps.pieces.any():
        return cells
    ring = cv2.dilate(maps.pieces.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    left = (cells & ~ring).astype(np.uint8)
    n, labels = cv2.connectedComponents(left, connectivity=8)
    if n <= 1:
        return cells
    areas = np.bincount(labels.ravel(), weights=maps.cell_mm2.ravel(), minlength=n)
    keep = [i for i in range(1, n) if areas[i] >= cfg.min_part_mm2]
    return np.isin(labels, keep) if keep else cells


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
    full = _quadratic_design(sh, sw)
    a = full[index]
    fit = np.broadcast_to(np.median(lr, axis=0), lr.shape)
    coef = np.zeros((a.shape[1], nc))
    coef[0] = fit[0]
    for _ in range(3):
        err = np.abs(lr - fit).max(axis=1)
        keep = err < trim
        if np.count_nonzero(keep) < 2 * a.shape[1]:
            break
        coef = _least_squares(a[keep], lr[keep])
        fit = a @ coef
    return np.exp(full @ coef).astype(np.float32).reshape(sh, sw, nc)


def _least_squares(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The least-squares ``x`` of ``a @ x = b`` by the normal equations (a quadratic surface on
    coordinates from -1 to 1 is well conditioned; a fraction of ``lstsq``'s cost), or by
    ``lstsq`` when they are singular."""
    try:
        return np.linalg.solve(a.T @ a, a.T @ b)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(a, b, rcond=None)[0]


_DESIGNS: dict[tuple[int, int], np.ndarray] = {}


def _quadratic_design(sh: int, sw: int) -> np.ndarray:
    """The terms of a quadratic surface (1, u, v, u², uv, v², u and v from -1 to 1 across the
    grid) at each cell of a ``sh`` x ``sw`` grid, float64 (sh * sw, 6); made once per size."""
    d = _DESIGNS.get((sh, sw))
    if d is None:
        yy, xx = np.mgrid[0:sh, 0:sw]
        u = xx.ravel().astype(np.float64) / max(sw - 1, 1) * 2.0 - 1.0
        v = yy.ravel().astype(np.float64) / max(sh - 1, 1) * 2.0 - 1.0
        d = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)
        d.setflags(write=False)
        _DESIGNS[(sh, sw)] = d
    return d


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
        self.left_out: np.ndarray | None = None
        """Grid cells of objects left lying (bool (rows, cols), :mod:`vision.hand_lying`):
        never a change, and not learnt (the table under the object is kept); None: none."""

    def reset(self) -> None:
        """Forgets the table."""
        self._ref = None
        self._pending = None
        self.changed_cells = None
        self.left_out = None

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
        if self.left_out is not None and self.left_out.shape == ok.shape:
            ok = ok & ~self.left_out  # an object left lying: no change, nor the light's
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
        off = np.abs(small - ref) / np.maximum(ref, np.float32(cfg.dark_level))
        rel = np.maximum(np.maximum(off[..., 0], off[..., 1]), off[..., 2])
        changed = (rel > cfg.change) & ok
        self.changed_cells = ((rel > cfg.loose_change) & ok).astype(np.uint8)
        self._pending = (small, ref, changed, ex)
        return self._decide(grid, changed, ex)

    def recompare(self, grid: HandGrid, explained: np.ndarray) -> tuple[bool, np.ndarray]:
        """The frame last compared decided again with more of it explained (the pieces found
        in it since, where a change is a piece moved): :meth:`compare`'s answer without fitting
        its light again (a fraction of its cost); :meth:`learn` then takes them in too."""
        sw, sh = grid.size_wh
        if self._pending is None:
            return False, np.zeros((sh, sw), np.uint8)
        small, ref, changed, ex = self._pending
        ex = ex | (cv2.dilate((grid.sample(explained) > 0).astype(np.uint8),
                              np.ones((3, 3), np.uint8)) > 0)
        self._pending = (small, ref, changed, ex)
        return self._decide(grid, changed, ex)

    def _decide(self, grid: HandGrid, changed: np.ndarray, ex: np.ndarray
                ) -> tuple[bool, np.ndarray]:
        """Whether the changed cells no piece explains make a hand's area, and those blobs."""
        sw, sh = grid.size_wh
        none = np.zeros((sh, sw), np.uint8)
        mask = (changed & ~ex).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels = cv2.connectedComponents(mask, connectivity=8)
        if n <= 1:
            return False, none
        areas = np.bincount(labels.ravel(), weights=grid.cell_mm2.ravel(), minlength=n)
        big = [i for i in range(1, n) if areas[i] >= self.cfg.min_area_mm2]
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
            if self.left_out is not None and self.left_out.shape == rate.shape:
                rate = np.where(self.left_out, 0.0, rate)  # the table under it is kept
            self._ref = ref + rate[..., None].astype(np.float32) * (small - ref)
