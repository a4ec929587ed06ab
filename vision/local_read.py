"""Live, the first still frame read only round what changed since the last reading.

A hand moves a coin and lifts off: the frame on which the table is judged shows the table of
the last hand-free reading with a piece or two moved. The cells of the detector's coarse grid
(:class:`vision.hand_grid.HandGrid`) that changed since that reading, past the detector's own
limits for a still table (``still_change`` levels and ``still_share`` of the value), say where:
the pieces within :attr:`LocalReadConfig.reach_mm` of a changed cell are read again, the rest
are kept from that reading. Round them a guard ring (:attr:`LocalReadConfig.guard_mm` more) is
read as well and its pieces must be the kept ones (the same kind, suit and face within
:attr:`LocalReadConfig.match_mm`): a piece there that appeared, vanished or moved means the
change was not where the cells said, and the frame is read in full. It is also read in full
when the change covers more than :attr:`LocalReadConfig.max_share` of the play area (the light
changed), when the table is pale (its view is made in full anyway), and after
:attr:`LocalReadConfig.max_in_row` local reads in a row.

This module only plans and merges; :class:`vision.detector.Detector` runs the stages on the
candidate blobs reaching into the read region (:func:`vision.prepare.prepare`'s ``region``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import Detections
from vision.hand_grid import HandGrid
from vision.topview import TopView


@dataclass(frozen=True)
class LocalReadConfig:
    """Attributes:
    reach_mm: Pieces (their top as seen) within this of a changed cell are read again.
    guard_mm: The ring this wide round them is read too; its pieces must be the kept ones.
    match_mm: A piece read again is a kept one within this distance (the same kind, suit and
        face).
    max_share: A change over this share of the play area (by area) is read in full.
    max_in_row: After this many local reads in a row, a frame is read in full.
    cell_mm: The distance map is made at about this scale (coarser is cheaper).
    """

    reach_mm: float = 45.0
    guard_mm: float = 40.0
    match_mm: float = 1.0
    max_share: float = 0.35
    max_in_row: int = 20
    cell_mm: float = 4.0


@dataclass(frozen=True, eq=False)
class Reading:
    """What a hand-free reading leaves for the next local read.

    Attributes:
        cells: The frame's cells (uint8 (rows, cols, 3), :meth:`HandGrid.cells_of`).
        final: Every piece of the reading.
        staged: The pieces the stages found and the namer kept (before the centre net's), of
            which the watch's mask is made.
        stage_mask: uint8 (H, W) view mask the stages drew for their pieces (before the
            namer's veto).
        pale: The table was pale.
        in_row: Local reads in a row that led to it (0: a full read).
        found: The pieces the centre net's stage found (in ``final``).
    """

    cells: np.ndarray
    final: Detections
    staged: Detections
    stage_mask: np.ndarray
    pale: bool
    in_row: int
    found: Detections


@dataclass(frozen=True, eq=False)
class Plan:
    """Where a local read reads.

    Attributes:
        dist_px: float32 (h, w) distance in mm from each cell of a coarse map of the view to
            the nearest changed cell.
        scale: View pixels per cell of ``dist_px``.
        region: uint8 (H, W) view mask of the pieces read again and the guard ring.
    """

    dist_px: np.ndarray
    scale: int
    region: np.ndarray

    def distance_mm(self, view: TopView, points_mm: np.ndarray) -> np.ndarray:
        """The distance (mm) from table points (N, 2) to the nearest change; inf off the
        view."""
        p = view.to_px(np.asarray(points_mm, float).reshape(-1, 2)) / self.scale
        h, w = self.dist_px.shape
        i, j = np.floor(p[:, 0]).astype(int), np.floor(p[:, 1]).astype(int)
        inside = (i >= 0) & (i < w) & (j >= 0) & (j < h)
        out = np.full(len(p), np.inf)
        out[inside] = self.dist_px[j[inside], i[inside]]
        return out


def changed_cells(cells: np.ndarray, before: np.ndarray, change: float, share: float
                  ) -> np.ndarray:
    """bool (rows, cols): the cells whose mean moved past ``change`` levels and ``share`` of
    its value in any channel (the detector's limits for a still table)."""
    diff = cv2.absdiff(cells, before)
    limit = np.maximum(change, share * before.astype(np.float32))
    return (diff > limit).any(axis=2)


def plan(cfg: LocalReadConfig, grid: HandGrid, view: TopView, valid: np.ndarray,
         cells: np.ndarray, last: Reading | None, change: float, share: float
         ) -> Plan | None:
    """Where the frame with ``cells`` is read, against the last hand-free reading; None: it is
    read in full (no reading to keep, a pale table, too many local reads in a row, nothing
    changed (then the stages have nothing to say) or a change over ``cfg.max_share``)."""
    if last is None or last.pale or last.in_row >= cfg.max_in_row or \
            last.cells.shape != cells.shape:
        return None
    play = grid.play_cells(valid)
    moved = changed_cells(cells, last.cells, change, share) & play
    if not moved.any():
        return None
    area = float(grid.cell_mm2[play].sum())
    if float(grid.cell_mm2[moved].sum()) > cfg.max_share * max(area, 1.0):
        return None
    s = view.px_per_mm
    scale = max(1, round(cfg.cell_mm * s))
    h, w = valid.shape
    hc, wc = -(-h // scale), -(-w // scale)
    seeds = np.full((hc, wc), 255, np.uint8)
    xs = grid.map_x[moved] / scale
    ys = grid.map_y[moved] / scale
    ok = (xs >= 0) & (xs < wc) & (ys >= 0) & (ys < hc)
    seeds[ys[ok].astype(int), xs[ok].astype(int)] = 0
    # each changed cell covers about its own width round its centre
    half_cell_mm = 0.5 * float(np.sqrt(np.median(grid.cell_mm2[moved])))
    dist = cv2.distanceTransform(seeds, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    dist_mm = np.maximum(dist * (scale / s) - half_cell_mm, 0.0).astype(np.float32)
    near = (dist_mm <= cfg.reach_mm + cfg.guard_mm).astype(np.uint8) * 255
    region = cv2.resize(near, (wc * scale, hc * scale), interpolation=cv2.INTER_NEAREST)[:h, :w]
    return Plan(dist_mm, scale, np.ascontiguousarray(region))


def _same(a: Detections, i: int, b: Detections, j: int) -> bool:
    return bool(a.kind[i] == b.kind[j] and a.suit[i] == b.suit[j] and a.face[i] == b.face[j])


def merge(cfg: LocalReadConfig, view: TopView, where: Plan, read: Detections,
          kept: Detections) -> Detections | None:
    """The pieces of a local read: those read within ``cfg.reach_mm`` of a change (new, moved
    or read again), the kept ones elsewhere; None when the guard ring disagrees (a piece read
    there that is no kept one, or a kept one there not read again: read the frame in full).

    A piece read again is matched to the nearest kept piece of its kind within
    ``cfg.match_mm`` (the same suit and face). Read pieces beyond the guard ring (parts of
    blobs reaching into it) are not looked at.
    """
    dr = where.distance_mm(view, read.seen_mm)
    dk = where.distance_mm(view, kept.seen_mm)
    guard = cfg.reach_mm + cfg.guard_mm
    pair_r = np.full(len(read), -1)
    pair_k = np.full(len(kept), -1)
    if len(read) and len(kept):
        d = np.hypot(read.centre_mm[:, None, 0] - kept.centre_mm[None, :, 0],
                     read.centre_mm[:, None, 1] - kept.centre_mm[None, :, 1])
        d[read.kind[:, None] != kept.kind[None, :]] = np.inf
        for flat in np.argsort(d, axis=None):
            i, j = divmod(int(flat), len(kept))
            if d[i, j] > cfg.match_mm:
                break
            if pair_r[i] < 0 and pair_k[j] < 0:
                pair_r[i], pair_k[j] = j, i
    take_r = np.zeros(len(read), bool)
    take_k = np.ones(len(kept), bool)
    for i in range(len(read)):
        j = pair_r[i]
        if j >= 0 and not _same(read, i, kept, j):
            if dr[i] > cfg.reach_mm and dk[j] > cfg.reach_mm:
                return None  # read otherwise in the guard ring
            j = -1
            pair_k[pair_r[i]] = -1
        if j < 0:
            if dr[i] <= cfg.reach_mm:
                take_r[i] = True  # new or moved
            elif dr[i] <= guard:
                return None  # a piece in the guard ring that was not there
        elif dr[i] <= cfg.reach_mm or dk[j] <= cfg.reach_mm:
            take_r[i], take_k[j] = True, False  # read again
    for j in range(len(kept)):
        if pair_k[j] < 0 and dk[j] <= guard:
            if dk[j] > cfg.reach_mm:
                return None  # a kept piece in the guard ring not read again
            take_k[j] = False  # gone or moved (its new place was read)
    return Detections.merge([read[take_r], kept[take_k]])
