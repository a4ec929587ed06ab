"""The pipeline: a frame in, a scene of pieces in table millimetres out.

It only composes the stages (each ``detect_x(cfg, prepared, ...) -> Detections`` with its
configuration passed in); :func:`timed` measures each one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import cv2
import numpy as np

from calibration.model import Calibration
from tabletop.pieceset import PieceSet
from tabletop.scene import Scene
from vision.centre_proposals import CentreProposalConfig, propose_centres
from vision.centres import CentreFinder
from vision.coin_unround import unround_unsure
from vision.coins import CoinConfig, detect_coins
from vision.detections import Detections
from vision.hand_lying import LyingObjects, StillLimits
from vision.hands import HandConfig, HandGrid, MemoryConfig, TableMemory, detect_hands
from vision.io import as_bgr
from vision.local_read import LocalReadConfig, Plan, Reading, changed_cells
from vision.local_read import merge as merge_local
from vision.local_read import plan as plan_local
from vision.namer import Namer, NamerConfig, name_detections
from vision.normalise import TableColour
from vision.post_cloth import PostClothConfig, drop_cloth_posts
from vision.post_domes import PostDomeConfig, drop_dome_posts
from vision.post_feet import PostFootConfig, feet_below_tops
from vision.post_neighbours import PostNeighbourConfig, neighbour_posts
from vision.post_reading import read_posts
from vision.post_shadows import PostShadowConfig, drop_post_shadows
from vision.posts import PostConfig
from vision.prepare import PrepareConfig, Prepared, prepare
from vision.proposals import ProposalConfig, explained_mask, propose
from vision.reading_memo import MemoConfig, ReadingMemo
from vision.segments import SegmentConfig, detect_segments
from vision.sheets import SheetConfig, find_sheets, sheet_mask, sheets_from_calibration
from vision.tiles import TileConfig, detect_tiles
from vision.tokens import TokenConfig, detect_tokens
from vision.topview import TopView, halve

T = TypeVar("T")

ALL_KINDS: tuple[str, ...] = ("tile", "coin", "post", "segment", "token")

GAME_KINDS: dict[str, tuple[str, ...]] = {
    "worm-derby": ("tile", "coin"),  # no posts: a shadow read as one would only be noise
    "worm-up": ("tile", "coin", "post", "segment"),
    "jungle": ("tile", "coin", "token"),
}
"""What each game puts on the table (detecting less is faster and gives fewer phantoms)."""


@dataclass(frozen=True)
class DetectorConfig:
    """Everything the pipeline can be told.

    Attributes:
        px_per_mm: Scale of the top view; None: the camera's own resolution at the image
            centre, kept within [1, 2].
        area_mm: ``(x0, y0, x1, y1)`` play area on the table; None: the image's footprint.
        kinds: Which kinds of piece to look for.
        prepare, tiles, coins, posts, segments, tokens, hands: Each stage's configuration.
        memory: How the detector remembers the empty table from frame to frame, to see hands
            that look like the table; None: each frame alone.
        sheets: How printed sheets (the calibration mat, the Jungle board) are found and
            masked out of the play area; None: never looked for.
        still_change: A frame whose every cell (the coarse grid of :class:`HandGrid`) is
            within this many grey levels, or this share of its value (``still_share``), of the
            last fully detected frame shows the same table: its result is reused (a few
            milliseconds instead of a detection). None: every frame is detected in full.
        still_share: See ``still_change``.
        namer: The learned stage that names each candidate (and drops what is no piece);
            None: the hand-made stages' reading stands.
        proposals: With the namer: pieces in parts of the bright mask the stages left
            unexplained, found by the namer and fitted as the stages fit theirs. Off by
            default: the centre net finds every piece they found (the same figures on the
            devscenes and on 28 renders, seeds 91000-91027, with and without them) at a
            fraction of their cost.
        centres: With the namer: pieces where the learned centre net (a heat map of piece
            centres over the whole view) sees them and nothing was found, fitted as the
            stages fit theirs and judged by the namer (still frames only).
        post_neighbours: Round every post found, a post touching it (at any angle) is looked
            for one diameter away and stands where the post judge is sure of it
            (:mod:`vision.post_neighbours`); None: never.
        post_feet: On a table whose posts are read in the unlikeness, each post's foot is
            placed below its lit top where that is found (:mod:`vision.post_feet`); None:
            never.
        post_domes: No post stands inside a segment or a coin found, and one touching a
            segment stands only where the post judge, reading it again, is sure of it (a
            dome's shadow under a hard lamp; a coin casts none, :mod:`vision.post_domes`);
            None: never.
        post_cloth: No post, however sure the judge, stands where its place repeats the
            table's pattern (a checked cloth's square, :mod:`vision.post_cloth`); None:
            only the readings the judge is not sure of are asked (:mod:`vision.posts`).
        post_shadows: A post read where another post's shadow lies (joined to a darker post
            by a band dark all the way, and lighter than it) is dropped
            (:mod:`vision.post_shadows`); None: never.
        reading_memo: With ``still_change``: the per-piece readings of the last fully
            detected frame (the namer's probabilities, the coin judge's votes, a coin's face,
            a tile's polish, its judge's features and its face) are taken again for pieces
            found at the same place where the frame's cells under their patches did not
            change past ``still_change`` / ``still_share`` (:mod:`vision.reading_memo`);
            None: every piece is read again on every frame.
        watch_first: Live (with ``memory``): a changed frame is first watched for a hand
            (against the last pieces found); a frame with a hand is never judged, so the
            piece stages are skipped and the last pieces are passed on with the hand flag. The
            watch then keeps up with the camera, and a table that becomes still is read at
            once.
        local_read: Live (with ``still_change`` and the namer), a frame read after the last
            hand-free reading is read only round the cells that changed since
            (:mod:`vision.local_read`; Worm Derby's kinds, tiles and coins, only); None: every
            frame is read in full.
    """

    px_per_mm: float | None = None
    area_mm: tuple[float, float, float, float] | None = None
    kinds: tuple[str, ...] = ALL_KINDS
    prepare: PrepareConfig = field(default_factory=PrepareConfig)
    tiles: TileConfig = field(default_factory=TileConfig)
    coins: CoinConfig = field(default_factory=CoinConfig)
    posts: PostConfig = field(default_factory=PostConfig)
    segments: SegmentConfig = field(default_factory=SegmentConfig)
    tokens: TokenConfig = field(default_factory=TokenConfig)
    hands: HandConfig = field(default_factory=HandConfig)
    memory: MemoryConfig | None = field(default_factory=MemoryConfig)
    sheets: SheetConfig | None = field(default_factory=SheetConfig)
    still_change: float | None = 5.0
    still_share: float = 0.04
    namer: NamerConfig | None = field(default_factory=NamerConfig)
    proposals: ProposalConfig | None = None
    post_neighbours: PostNeighbourConfig | None = field(default_factory=PostNeighbourConfig)
    post_feet: PostFootConfig | None = field(default_factory=PostFootConfig)
    post_domes: PostDomeConfig | None = field(default_factory=PostDomeConfig)
    post_cloth: PostClothConfig | None = field(default_factory=PostClothConfig)
    post_shadows: PostShadowConfig | None = field(default_factory=PostShadowConfig)
    centres: CentreProposalConfig | None = field(default_factory=CentreProposalConfig)
    reading_memo: MemoConfig | None = field(default_factory=MemoConfig)
    watch_first: bool = True
    local_read: LocalReadConfig | None = field(default_factory=LocalReadConfig)

    @classmethod
    def for_game(cls, game: str | None, **kw: Any) -> DetectorConfig:
        """The configuration looking only for the kinds a game uses (all when None)."""
        kinds = GAME_KINDS.get(game or "", ALL_KINDS)
        return cls(kinds=kinds, **kw)

    def with_pieces(self, pieces: PieceSet) -> DetectorConfig:
        """The stages told the sizes and colours of a piece set."""
        inks = tuple((k, pieces.suit_rgb(k)) for k in pieces.suit_colours)
        from tabletop.pieceset import hex_to_rgb
        seg = tuple((k, hex_to_rgb(v)) for k, v in pieces.segment_colours.items())
        return replace(
            self,
            tiles=replace(self.tiles, side_mm=pieces.tile_mm,
                          thickness_mm=pieces.tile_thickness_mm, suit_inks=inks),
            coins=replace(self.coins, radius_mm=pieces.coin_radius_mm,
                          thickness_mm=pieces.coin_thickness_mm, suit_inks=inks),
            posts=replace(self.posts, radius_mm=pieces.post_diameter_mm / 2,
                          height_mm=pieces.post_height_mm),
            segments=replace(self.segments, diameter_mm=pieces.segment_diameter_mm,
                             height_mm=pieces.segment_height_mm, colours=seg),
            tokens=replace(self.tokens, thickness_mm=pieces.token_thickness_mm),
            centres=None if self.centres is None else replace(self.centres, reach_mm=(
                ("segment", pieces.segment_diameter_mm / 2 + 2.0),
                ("token", 0.6 * pieces.token_mm))),
        )


@dataclass(frozen=True, eq=False)
class FrameResult:
    """What one frame showed.

    Attributes:
        scene: The pieces in table mm (the hand flag set).
        centres_px: (N, 2) raw image pixels where each scene piece is seen (its top), same
            order as ``scene.pieces``, for drawing.
        timings_ms: Stage name -> milliseconds.
        detections: The same pieces as a :class:`Detections` value.
        hand_outlines_px: Outlines (each (K, 2) raw image pixels) of hands over the table.
    """

    scene: Scene
    centres_px: np.ndarray
    timings_ms: dict[str, float]
    detections: Detections
    hand_outlines_px: tuple[np.ndarray, ...] = ()

    @property
    def hand(self) -> bool:
        """True when a hand is over the table."""
        return self.scene.hand


def timed(timings: dict[str, float], name: str, fn: Callable[..., T], *args: Any,
          **kw: Any) -> T:
    """Runs ``fn(*args, **kw)`` and adds its wall time in ms to ``timings[name]``."""
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    timings[name] = timings.get(name, 0.0) + (time.perf_counter() - t0) * 1000.0
    return out


class Detector:
    """Finds the pieces on a calibrated table, frame after frame.

    Building it makes the top-view warp tables (a fraction of a second); each :meth:`detect`
    then reuses them. A frame that shows the same table as the last fully detected one (every
    cell of a coarse grid within noise of it) gets that frame's result again at once
    (``config.still_change``): on a still table, most frames cost a few milliseconds. It
    remembers the empty table across frames (:class:`TableMemory`) to see hands; use one
    detector per camera, or ``config.memory=None`` for unrelated images.
    """

    def __init__(self, calibration: Calibration, pieces: PieceSet | None = None,
                 config: DetectorConfig | None = None) -> None:
        self.calibration = calibration
        self.pieces = pieces or PieceSet()
        self.config = (config or DetectorConfig()).with_pieces(self.pieces)
        self.view = TopView(calibration, self.config.px_per_mm, self.config.area_mm)
        self.memory = TableMemory(self.config.memory) if self.config.memory else None
        self.hand_grid = HandGrid(calibration, self.view, self.config.hands.cells_across)
        lying = self.config.hands.lying
        self.lying = (LyingObjects(lying, StillLimits(
            5.0 if self.config.still_change is None else self.config.still_change,
            self.config.still_share)) if lying is not None and self.memory is not None else None)
        """Objects left lying (:mod:`vision.hand_lying`), live only."""
        self._static_sheets = sheets_from_calibration(calibration) if self.config.sheets else []
        self._seen_sheets: dict[str, np.ndarray] = {}
        self._frames = 0
        self._valid = self._play_area()
        self._last: FrameResult | None = None
        self._last_cells: np.ndarray | None = None
        self._last_explained: np.ndarray | None = None
        self._hand_cells: np.ndarray | None = None  # the last frame's hand, when it had one
        self._followed = 0  # frames in a row whose hand only the memory saw
        self._table: TableColour | None = None  # the last frame's table colour (its bands)
        self._cue: tuple[bool, np.ndarray] | None = None  # the last frame alone's hand cue
        self._reuse: tuple[bool, np.ndarray] | None = None  # a cue _watch takes instead
        self._base: Reading | None = None  # the last hand-free reading (for a local read)
        self._base_valid: np.ndarray | None = None  # the play area it was read in
        self.local_reads = 0
        """Frames read locally (:mod:`vision.local_read`) so far."""
        self.local_refused = 0
        """Local reads whose guard ring disagreed (the frame then read in full) so far."""
        self.last_plan: Plan | None = None
        """Where the last frame read was read, when it was read locally (else None)."""
        self.namer = Namer(self.config.namer) if self.config.namer else None
        cfg = self.config
        self.memo = (ReadingMemo(cfg.reading_memo, calibration, self.hand_grid,
                                 cfg.still_change, cfg.still_share)
                     if self.namer is not None and cfg.reading_memo is not None
                     and cfg.still_change is not None else None)
        if self.namer is not None:
            self.namer.memo = self.memo
        self.centres = (CentreFinder(self.config.centres.finder, calibration,
                                     self.view.area_mm)
                        if self.config.centres and self.namer else None)

    @property
    def sheets_mm(self) -> tuple[np.ndarray, ...]:
        """The printed sheets masked out of the play area, each (4, 2) table mm."""
        return (*self._static_sheets, *self._seen_sheets.values())

    def _play_area(self) -> np.ndarray:
        sheets = self.sheets_mm
        if not sheets or self.config.sheets is None:
            return self.view.valid
        h, w = self.view.valid.shape
        mask = sheet_mask(list(sheets), self.view.to_px, (h, w),
                          self.config.sheets.margin_mm * self.view.px_per_mm)
        return cv2.bitwise_and(self.view.valid, cv2.bitwise_not(mask))

    def _look_for_sheets(self, frame: np.ndarray) -> None:
        """Finds the sheets' markers on the first frame and every few frames after.

        A sheet once seen stays masked while its markers are hidden (a hand over the mat).
        """
        cfg = self.config.sheets
        if cfg is None:
            return
        if self._frames % max(1, cfg.every_frames) == 0:
            found = find_sheets(frame, self.calibration, cfg.max_residual_mm)
            if found:
                self._seen_sheets.update(found)
                self._valid = self._play_area()
        self._frames += 1

    def detect(self, frame_bgr: np.ndarray) -> FrameResult:
        """Detects every piece in one raw camera frame.

        Raises:
            FrameError: not an 8-bit image.
            ResolutionMismatch: the frame is not of the calibrated size.
        """
        cfg = self.config
        frame = as_bgr(frame_bgr)
        self.calibration.check_image_size((frame.shape[1], frame.shape[0]), "the frame")
        tm: dict[str, float] = {}
        t_all = time.perf_counter()
        half = halve(frame)
        half_bgr = half
        cells = self.hand_grid.cells_of(frame, half)
        if self._unchanged(cells):
            return self._again(t_all)
        alone: tuple[bool, np.ndarray] | None = None  # the frame alone's hand cue, once made
        if cfg.watch_first and self.memory is not None and self._last_explained is not None:
            watched = self._watch(frame, self._last_explained, cells, tm)
            alone = self._cue
            # the frame alone shows the hand the memory sees, or the memory alone sees a change
            # where the last frame's hand was, reaching in from the border: still that hand (a
            # tan hand on oak, an arm lifting out of view), not a new still table
            follow = None if watched[2] or not watched[0] else self._follow_hand(watched[1])
            if watched[0] and (watched[2] or follow is not None):
                self.memory.learn(True, seen=watched[2])
                assert self._last is not None
                self._frames += 1
                self._last_cells = None  # the next frame is watched again
                hcells = watched[1] if follow is None else follow
                self._hand_cells = hcells
                self._followed = 0 if follow is None else self._followed + 1
                self._see_lying(cells, hcells)
                last = self._last
                tm["total"] = (time.perf_counter() - t_all) * 1000.0
                return FrameResult(Scene(last.scene.pieces, hand=True), last.centres_px, tm,
                                   last.detections, self.hand_grid.outlines_px(hcells))
        timed(tm, "sheets", self._look_for_sheets, frame)
        if self.memo is not None:  # the last frame read in full is what readings are kept of
            self.memo.see(cells)
        where = timed(tm, "local_plan", self._local_plan, cells)
        staged = None
        if where is not None:
            prep, dets, raw = self._stages(frame, half_bgr, tm, where.region)
            staged = self._local_staged(where, prep, dets, raw)
            if staged is None:
                where = None
        if staged is None:
            prep, dets, raw = self._stages(frame, half_bgr, tm)
            explained = raw if self.namer is None else self._of_pieces(raw, dets)
        else:
            dets, raw, explained = staged
        stage_dets, found = dets, Detections.empty()
        # where pieces lie now or lay before: a change there is a piece moved, not a hand
        lay = explained if self._last_explained is None else \
            cv2.bitwise_or(explained, self._last_explained)
        self._reuse = alone  # (the pieces found since only take cells from the cue's table)
        hand, hcells, seen = self._watch(frame, lay, cells, tm)
        self._hand_cells, self._followed = (hcells if hand else None), 0
        if self.memory is not None and not hand:  # one camera's frames: the bands of its
            self._table = prep.table  # light are kept (fitted with no hand in the way)
        if self.memory is not None:
            self.memory.learn(hand, seen)
        if self.namer is not None:
            if cfg.proposals is not None and not hand:  # a hand frame is never judged
                more = timed(tm, "proposals", propose, self.namer, frame, self.calibration,
                             prep, dets, cfg.coins, cfg.tiles, cfg.proposals, cfg.kinds)
                dets = Detections.merge([dets, more])
            if self.centres is not None and cfg.centres is not None:
                # a frame with a hand is never judged, but one cue may call a mug, a phone or
                # glare a hand: the net reads the table anyway, under the hand's cells too (a
                # hand hides what lies under it: what is seen there whole is a piece;
                # ``HandConfig.keep_pieces``; posts under a hand are left out below)
                # (a hand frame's faint coin peaks and weak rims are not fitted: its knuckles
                # and nails give many, and what is found there would be never judged)
                centres = (replace(cfg.centres, faint_coin=None, weak_rim=None) if hand
                           else cfg.centres)
                known = dets
                if where is not None:  # the kept pieces the net found, beyond the region
                    known = Detections.merge([dets, self._beyond(where, self._base.found)])
                more = timed(tm, "centres", propose_centres, self.centres, self.namer, frame,
                             self.calibration, prep, known, cfg.coins, cfg.tiles, centres,
                             cfg.kinds, half_bgr, posts=cfg.posts)
                if hand and len(more) and not cfg.hands.keep_pieces:
                    more = more[~self.hand_grid.covers(
                        hcells, self.calibration.to_image(more.seen_mm).reshape(-1, 2))]
                if where is not None:  # only the region is read; the rest is kept
                    more = Detections.merge([self._within(where, more),
                                             self._beyond(where, self._base.found)])
                found = more
                dets = Detections.merge([dets, more])
        if "post" in cfg.kinds and cfg.post_neighbours is not None and (
                dets.kind == "post").any():
            more = timed(tm, "post_neighbours", self._post_neighbours, prep, frame, dets)
            dets = Detections.merge([dets, more])
        if "post" in cfg.kinds and cfg.post_feet is not None:
            dets = timed(tm, "post_feet", feet_below_tops, cfg.post_feet, cfg.posts, prep,
                         frame, dets)
        if "post" in cfg.kinds and cfg.post_domes is not None:
            dets = timed(tm, "post_domes", self._post_domes, prep, frame, dets)
        if "post" in cfg.kinds and cfg.post_cloth is not None:
            dets = timed(tm, "post_cloth", drop_cloth_posts, cfg.post_cloth, cfg.posts, prep,
                         frame, dets)
        if "post" in cfg.kinds and cfg.post_shadows is not None:
            dets = timed(tm, "post_shadows", drop_post_shadows, cfg.posts, cfg.post_shadows,
                         prep, frame, dets)
        centres_px = self.calibration.to_image(dets.seen_mm).reshape(-1, 2)
        if hand and len(dets):  # a hand's shaded folds look like posts: none under a hand
            under = self.hand_grid.covers(hcells, centres_px)
            keep = ~(under & (dets.kind == "post"))
            dets, centres_px = dets[keep], centres_px[keep]
        if not hand and cfg.local_read is not None:
            self._base_valid = self._valid
            self._base = Reading(cells, dets, stage_dets, raw, prep.pale,
                                 0 if where is None else self._base.in_row + 1, found)
            if where is not None and self.memo is not None:
                guard = cfg.local_read.reach_mm + cfg.local_read.guard_mm
                self.memo.carry(lambda p: where.distance_mm(self.view, p) > guard)
        self.last_plan = where
        if where is not None:
            self.local_reads += 1
        self._see_lying(cells, hcells if hand else None)
        scene = Scene(dets.to_pieces(), hand=hand)
        outlines = self.hand_grid.outlines_px(hcells) if hand else ()
        tm["total"] = (time.perf_counter() - t_all) * 1000.0
        result = FrameResult(scene, centres_px, tm, dets, outlines)
        # a frame with a hand is watched again when it comes back (the memory may have learnt
        # that the hand was the table: the first frame cannot confirm what it sees)
        self._last, self._last_cells, self._last_explained = (result, None if hand else cells,
                                                               explained)
        return result

    def recheck(self, frame_bgr: np.ndarray) -> FrameResult | None:
        """The last result again when ``frame_bgr`` shows the same table as the last fully
        detected frame (every cell of the coarse grid within noise of it), else None: a few
        milliseconds, nothing learnt. Live, the frames that came while a frame was being
        detected are rechecked in order before the newest is detected: each one that shows
        the same table is one more still frame seen (the stabiliser's evidence) instead of
        being dropped unseen."""
        frame = as_bgr(frame_bgr)
        self.calibration.check_image_size((frame.shape[1], frame.shape[0]), "the frame")
        t_all = time.perf_counter()
        if self._last is None or not self._unchanged(self.hand_grid.cells_of(frame,
                                                                                halve(frame))):
            return None
        return self._again(t_all)

    def _again(self, t_all: float) -> FrameResult:
        """The last result, for a frame that shows the same table (timed from ``t_all``)."""
        assert self._last is not None
        self._frames += 1
        last = self._last
        ms = (time.perf_counter() - t_all) * 1000.0
        return FrameResult(last.scene, last.centres_px, {"still": ms, "total": ms},
                           last.detections, last.hand_outlines_px)

    def _local_plan(self, cells: np.ndarray) -> Plan | None:
        """Where this frame is read (:func:`vision.local_read.plan`); None: in full."""
        cfg = self.config
        if cfg.local_read is None or cfg.still_change is None or self.namer is None or \
                not set(cfg.kinds) <= {"tile", "coin"} or self._base_valid is not self._valid:
            return None  # (a sheet found since: the play area changed)
        return plan_local(cfg.local_read, self.hand_grid, self.view, self._valid, cells,
                          self._base, cfg.still_change, cfg.still_share)

    def _stages(self, frame: np.ndarray, half_bgr: np.ndarray, tm: dict[str, float],
                region: np.ndarray | None = None
                ) -> tuple[Prepared, Detections, np.ndarray]:
        """The frame prepared (only the candidate blobs reaching into ``region`` when given),
        the pieces its stages find (named, when there is a namer) and the view mask the
        stages drew for them."""
        cfg, s = self.config, self.view.px_per_mm
        prep = timed(tm, "prepare", prepare, cfg.prepare, self.view, frame, self._valid,
                     everywhere="segment" in cfg.kinds,  # segments are read from all the view
                     half_bgr=half_bgr, last=self._table, region=region)
        parts: list[Detections] = []
        h, w = prep.bright.shape
        explained = np.zeros((h, w), np.uint8)
        if "token" in cfg.kinds:
            tokens = timed(tm, "tokens", detect_tokens, cfg.tokens, frame, self.calibration,
                           self.view.camera)
            parts.append(tokens)
            half = 0.6 * self.pieces.token_mm * s
            for c in self.view.to_px(tokens.seen_mm):
                cv2.rectangle(explained, (int(c[0] - half), int(c[1] - half)),
                              (int(c[0] + half), int(c[1] + half)), 255, -1)
        if "tile" in cfg.kinds:
            tiles, tmask = timed(tm, "tiles", detect_tiles, cfg.tiles, prep, self.memo)
            parts.append(tiles)
            explained = cv2.bitwise_or(explained, tmask)
        else:
            tmask = None
        if "segment" in cfg.kinds:
            segs = timed(tm, "segments", detect_segments, cfg.segments, prep, explained)
            parts.append(segs)
            r = round((cfg.segments.diameter_mm / 2 + 2) * s)
            for c in self.view.to_px(segs.seen_mm):
                cv2.circle(explained, (round(c[0]), round(c[1])), r, 255, -1)
        if "coin" in cfg.kinds:
            coins = timed(tm, "coins", detect_coins, cfg.coins, prep, explained)
            parts.append(coins)
            r = round((cfg.coins.radius_mm + 1.5) * s)
            for c in self.view.to_px(coins.seen_mm):
                cv2.circle(explained, (round(c[0]), round(c[1])), r, 255, -1)
        if "post" in cfg.kinds:
            posts = timed(tm, "posts", read_posts, cfg.posts, prep, explained, tmask)
            parts.append(posts)
            self._draw_posts(explained, posts)
        dets = Detections.merge(parts)
        if self.namer is not None:
            dets = timed(tm, "namer", name_detections, self.namer, frame, self.calibration,
                         dets)
            dets = unround_unsure(self.namer, frame, self.calibration, self.view, prep.shade,
                                  dets, cfg.coins.radius_mm, cfg.coins.unround_votes)
        return prep, dets, explained

    def _local_staged(self, where: Plan, prep: Prepared, dets: Detections, raw: np.ndarray
                      ) -> tuple[Detections, np.ndarray, np.ndarray] | None:
        """A local read's stage pieces merged with the last reading's
        (:func:`vision.local_read.merge`), the stages' mask (the region's from this frame,
        the rest the last reading's) and the watch's mask made of them as a full read makes
        it; None when the read is refused (a pale table, the guard ring disagrees)."""
        cfg, base = self.config, self._base
        assert cfg.local_read is not None and base is not None
        if prep.pale:
            return None
        merged = merge_local(cfg.local_read, self.view, where, self._within(where, dets),
                             base.staged)
        if merged is None:
            self.local_refused += 1
            return None
        region = where.region > 0
        raw = np.where(region, raw, base.stage_mask).astype(np.uint8)
        return merged, raw, self._of_pieces(raw, merged)

    def _within(self, where: Plan, dets: Detections) -> Detections:
        """The pieces of ``dets`` within the local read's region (the guard ring's edge)."""
        cfg = self.config.local_read
        assert cfg is not None
        return dets[where.distance_mm(self.view, dets.seen_mm) <= cfg.reach_mm + cfg.guard_mm]

    def _beyond(self, where: Plan, dets: Detections) -> Detections:
        """The pieces of ``dets`` beyond the local read's region."""
        cfg = self.config.local_read
        assert cfg is not None
        return dets[where.distance_mm(self.view, dets.seen_mm) > cfg.reach_mm + cfg.guard_mm]

    def _watch(self, frame: np.ndarray, explained: np.ndarray, cells: np.ndarray,
               tm: dict[str, float]) -> tuple[bool, np.ndarray, bool]:
        """Whether a hand is over the table (one frame's cues, confirmed live by the table
        memory), its cells, and whether the frame alone shows it (a change against the
        memory alone may be pieces that moved where ``explained`` does not know them yet).
        The memory only compares: the caller has it learn once the frame is decided."""
        cfg = self.config
        reuse, self._reuse = self._reuse, None
        moved, mcells = False, None
        if self.memory is not None:
            if reuse is not None:  # the frame was compared: only more of it is explained
                moved, mcells = timed(tm, "memory", self.memory.recompare, self.hand_grid,
                                      explained)
            else:
                moved, mcells = timed(tm, "memory", self.memory.compare, self.hand_grid, frame,
                                      explained, self._valid, cells)
        if reuse is not None:  # this frame's cue, made by the watch before its pieces
            hand, hcells = reuse
        else:  # (what never moved against the memory is the table: not judged)
            live = {} if self.memory is None else {"moving": self.memory.changed_cells}
            hand, hcells = timed(tm, "hands", detect_hands, cfg.hands, self.hand_grid, frame,
                                 explained, self._valid, cells, **live)
        self._cue = (hand, hcells)
        if self.memory is not None:
            changed = self.memory.changed_cells
            if hand and changed is not None:  # live: what never moves is the table itself
                n_hand = max(1, int(np.count_nonzero(hcells)))
                moving = hcells & changed
                # a share of what looks foreign, or an arm's area of it (the rest may be a
                # floor beyond the table's edge, foreign and still)
                if np.count_nonzero(moving) < cfg.hands.confirm_share * n_hand and float(
                        np.sum(self.hand_grid.cell_mm2[moving > 0])) < cfg.hands.min_area_mm2:
                    hand, hcells = False, np.zeros_like(hcells)
            if moved and mcells is not None:
                return True, hcells | mcells, hand
        return hand, hcells, hand

    def _see_lying(self, cells: np.ndarray, hand_cells: np.ndarray | None) -> None:
        """Tells the watch of objects left lying what this frame decided (its hand's cells,
        None: no hand); the memory leaves those it holds out from the next frame on."""
        if self.lying is None or self.memory is None:
            return
        self.lying.see(cells, hand_cells, self.memory.changed_cells,
                       self.hand_grid.rim_cells(self._valid), self.hand_grid.cell_mm2)
        self.memory.left_out = self.lying.left_out

    def _of_pieces(self, explained: np.ndarray, dets: Detections) -> np.ndarray:
        """A view mask of the stages' pieces kept only round the pieces of ``dets`` (each
        piece's own reach: a tile's half diagonal, a coin's or a segment's radius, a post's
        lean, and a margin); what the namer dropped explains nothing."""
        if not explained.any():
            return explained
        cfg, s = self.config, self.view.px_per_mm
        reach = {"tile": 0.75 * cfg.tiles.side_mm, "coin": cfg.coins.radius_mm,
                 "segment": cfg.segments.diameter_mm / 2,
                 "token": 0.75 * self.pieces.token_mm}
        near = np.zeros_like(explained)
        for kind, c in zip(dets.kind, self.view.to_px(dets.seen_mm).reshape(-1, 2),
                           strict=True):
            if kind in reach:
                cv2.circle(near, (round(c[0]), round(c[1])), round((reach[kind] + 3) * s),
                           255, -1)
        posts = dets[dets.kind == "post"]
        if len(posts):
            self._draw_posts(near, posts)
        return cv2.bitwise_and(explained, near)

    def _follow_hand(self, changed: np.ndarray) -> np.ndarray | None:
        """The cells of a change only the memory sees (uint8 (rows, cols)) that are still the
        last frame's hand: its blobs that overlap that hand's cells (grown by a cell) and reach
        the edge of the play area (an arm comes from beyond it), when they are an arm's area
        (``hands.min_area_mm2``); None when there are none, when the last frame had no hand, or
        after ``hands.follow_frames`` such frames in a row (then a frame is read in full:
        pieces moved in a block are no arm)."""
        last, cfg = self._hand_cells, self.config.hands
        if last is None or self._followed >= cfg.follow_frames or not changed.any():
            return None
        near = cv2.dilate(last.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        rim = self.hand_grid.rim_cells(self._valid)
        n, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        keep = [i for i in range(1, n) if (near & (labels == i)).any()
                and (rim & (labels == i)).any()]
        if not keep:
            return None
        cells = np.isin(labels, keep)
        if float(self.hand_grid.cell_mm2[cells].sum()) < cfg.min_area_mm2:
            return None
        return cells.astype(np.uint8)

    def _unchanged(self, cells: np.ndarray) -> bool:
        """True when a frame's cells all match the last fully detected frame's."""
        cfg = self.config
        last = self._last_cells
        if cfg.still_change is None or last is None or last.shape != cells.shape:
            return False
        return not bool(changed_cells(cells, last, cfg.still_change, cfg.still_share).any())

    def _post_neighbours(self, prep: Prepared, frame: np.ndarray, dets: Detections
                         ) -> Detections:
        """Posts touching the posts of ``dets`` (:mod:`vision.post_neighbours`); the other
        pieces found are what their edges are not looked for against."""
        cfg = self.config
        assert cfg.post_neighbours is not None
        margin = CentreProposalConfig().margin_mm if cfg.centres is None else \
            cfg.centres.margin_mm
        against = explained_mask(prep, dets[dets.kind != "post"], cfg.coins.radius_mm,
                                 cfg.tiles.side_mm, margin)
        return neighbour_posts(cfg.post_neighbours, cfg.posts, prep, frame, dets, against)

    def _post_domes(self, prep: Prepared, frame: np.ndarray, dets: Detections) -> Detections:
        """``dets`` without the posts in or touching a segment or a coin that the judge is not
        sure of (:mod:`vision.post_domes`)."""
        cfg = self.config
        assert cfg.post_domes is not None
        radii = {"segment": cfg.segments.diameter_mm / 2, "coin": cfg.coins.radius_mm}
        if not np.isin(dets.kind, (*cfg.post_domes.kinds, "tile")).any() or not (
                dets.kind == "post").any():
            return dets
        margin = CentreProposalConfig().margin_mm if cfg.centres is None else \
            cfg.centres.margin_mm
        against = explained_mask(prep, dets[dets.kind != "post"], cfg.coins.radius_mm,
                                 cfg.tiles.side_mm, margin)
        return drop_dome_posts(cfg.post_domes, cfg.posts, prep, frame, dets, radii,
                               cfg.tiles.side_mm, against)

    def _draw_posts(self, mask: np.ndarray, posts: Detections) -> None:
        cam, s = self.view.camera, self.view.px_per_mm
        r = round((self.config.posts.radius_mm + 2) * s)
        for foot in posts.centre_mm:
            top = cam.seen_at(foot[None], self.config.posts.height_mm)[0]
            a, b = self.view.to_px(np.array([foot, top]))
            cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255, 2 * r)
