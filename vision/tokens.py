"""Tokens: pieces carrying an ArUco marker (``DICT_4X4_250``), reported with the marker's id.

Markers are read in the raw frame (its full resolution) and in it divided by its local white
(a blind's stripe across a marker), both also enlarged twice where tokens are seen small (a
far or wide camera); a square ArUco found but could not name is read again from the middles of
its cells (:func:`read_bits`: a small, tilted, blurred marker). A reading is a token only where
it looks like one (:func:`token_shaped`, :func:`looks_printed`: a gingham's dark check, wood
grain, a marker read a cell off are none), and the readings of one place are one token named
by the id most of them read (:func:`merged`). Centres are moved onto the table plane through
the calibration and corrected for the token's thickness. Ids of the calibration
mat and of the Jungle board's corners are not pieces and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from tabletop.markers import ARUCO_DICTIONARY, JUNGLE_TOKEN_IDS, TOKEN_IDS
from vision.detections import Detections
from vision.token_bits import blur_read, cell_levels, soft_read
from vision.token_squares import candidate_squares, fitted_square
from vision.topview import CameraGeometry


@dataclass(frozen=True)
class TokenConfig:
    """Attributes:
    thickness_mm: A token's thickness.
    ids: The marker ids that are tokens.
    side_mm: A token's side.
    min_side_px: Tokens seen smaller than this (their side in the frame at its centre) are
        also read in the frame enlarged twice: ArUco's thresholds and cell sampling lose
        markers of a few pixels a cell (a far or wide camera).
    marker_mm: The printed marker's side, its black border included (a 24 mm marker in a
        3 mm white margin on a 30 mm token).
    squares: Also read the marker squares found without ArUco's contour stage, and ArUco's
        unnamed squares, with their corners fitted to the marker's edges
        (:mod:`vision.token_squares`): markers of 2.5-4 pixels a cell.
    """

    thickness_mm: float = 3.0
    ids: tuple[int, ...] = (*JUNGLE_TOKEN_IDS, *TOKEN_IDS)
    side_mm: float = 30.0
    min_side_px: float = 40.0
    marker_mm: float = 24.0
    squares: bool = True


_DETECTOR: cv2.aruco.ArucoDetector | None = None


def _detector() -> cv2.aruco.ArucoDetector:
    global _DETECTOR
    if _DETECTOR is None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        _DETECTOR = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    return _DETECTOR


def side_px(calibration: Calibration, side_mm: float) -> float:
    """How many frame pixels a length of ``side_mm`` on the table spans at the frame's centre."""
    w, h = calibration.image_size
    centre = calibration.to_table(np.array([[w / 2.0, h / 2.0]]))[0]
    ends = calibration.to_image(centre + np.array([[0.0, 0.0], [side_mm, 0.0],
                                                   [0.0, side_mm]])).reshape(-1, 2)
    return float(min(np.hypot(*(ends[1] - ends[0])), np.hypot(*(ends[2] - ends[0]))))


def flattened(grey: np.ndarray, cell_px: float) -> np.ndarray:
    """The frame divided by its local white (the brightest within about a marker's cell,
    smoothed): a blind's stripe or a lamp's edge across a marker no longer turns its white
    cells in the shade black, while each cell keeps its contrast with its neighbours."""
    k = max(5, round(2 * cell_px) | 1)
    white = cv2.GaussianBlur(cv2.dilate(grey, np.ones((k, k), np.uint8)), (0, 0), k / 2.0)
    return cv2.divide(grey, cv2.max(white, 1), scale=200)


MARKER_CELLS = 6
"""Cells across a 4x4 marker, its black border included."""


def marker_cells(grey: np.ndarray, corners_px: np.ndarray, margin_cells: int = 1,
                 cell_px: int = 8) -> np.ndarray:
    """The square round a marker (``corners_px`` (4, 2), in ArUco's order) warped upright to
    ``cell_px`` pixels a cell, ``margin_cells`` of its surroundings on each side (float32)."""
    m, n = margin_cells, MARKER_CELLS
    size = (n + 2 * m) * cell_px
    lo, hi = m * cell_px, (n + m) * cell_px
    dst = np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    H = cv2.getPerspectiveTransform(np.float32(corners_px), dst)
    return cv2.warpPerspective(grey, H, (size, size), flags=cv2.INTER_LINEAR).astype(np.float32)


def _levels(w: np.ndarray, c: int, m: int) -> tuple[float, float]:
    """The black border's and the white cells' levels of a marker warped by
    :func:`marker_cells` (``c`` pixels a cell, ``m`` cells of margin)."""
    n = MARKER_CELLS
    inner = w[m * c:(n + m) * c, m * c:(n + m) * c]
    cells = inner.reshape(n, c, n, c)[:, 2:-2, :, 2:-2].mean(axis=(1, 3))
    black = float(np.median(np.concatenate([cells[0], cells[-1], cells[1:-1, 0],
                                            cells[1:-1, -1]])))
    bits = cells[1:-1, 1:-1].ravel()
    whites = bits[bits > (black + bits.max()) / 2]
    return black, float(np.median(whites)) if len(whites) else float(bits.max())


def looks_printed(grey: np.ndarray, corners_px: np.ndarray, flat: np.ndarray | None = None,
                  min_contrast: float = 0.15, min_quiet: float = 0.5) -> bool:
    """Whether a read marker looks like one printed on a token: in the frame ``grey``, its
    white cells stand out from its black border by at least ``min_contrast`` of their level;
    in it flattened (``flat``, :func:`flattened`; the frame itself when None: a blind's stripe
    across the margin), at least ``min_quiet`` of a ring half a cell outside it is as light as
    its white cells (the token's white margin). A dark check of a gingham cloth among lighter
    ones, wood grain, or a real marker read a cell off (its ring on the black border) is
    none."""
    c, m = 8, 1
    black, white = _levels(marker_cells(grey, corners_px, m, c), c, m)
    if white - black < min_contrast * max(white, 1.0):
        return False
    w = marker_cells(grey if flat is None else flat, corners_px, m, c)
    if flat is not None:
        black, white = _levels(w, c, m)
    size = w.shape[0]
    a, b = round(0.25 * c), round(0.75 * c)  # from 0.75 to 0.25 of a cell outside
    ring = np.concatenate([w[a:b, a:size - a].ravel(), w[size - b:size - a, a:size - a].ravel(),
                           w[a:size - a, a:b].ravel(), w[a:size - a, size - b:size - a].ravel()])
    return float(np.mean(ring > (black + white) / 2)) >= min_quiet


def readings(grey: np.ndarray, flat: np.ndarray, enlarge: bool
             ) -> tuple[list[tuple[int, np.ndarray]], list[np.ndarray]]:
    """Every (marker id, (4, 2) frame corners) read in each view, in the views' order: the
    frame, it flattened (``flat``), and with ``enlarge`` both enlarged twice; and the (4, 2)
    frame corners of the squares ArUco found but could not name (see :func:`read_bits`)."""
    views = [(grey, 1.0), (flat, 1.0)]
    if enlarge:
        views += [(cv2.resize(v, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), 2.0)
                  for v, _ in list(views)]
    out: list[tuple[int, np.ndarray]] = []
    unnamed: list[np.ndarray] = []
    for img, f in views:
        corners, ids, rejected = _detector().detectMarkers(img)
        for i, v in enumerate([] if ids is None else ids.ravel()):
            # pixel centres: x_big = 2 x + 0.5
            out.append((int(v), (corners[i].reshape(4, 2) - (f - 1) / 2) / f))
        unnamed += [(r.reshape(4, 2) - (f - 1) / 2) / f for r in rejected]
    return out, unnamed


def read_bits(grey: np.ndarray, corners_px: np.ndarray, min_margin: float = 0.2
              ) -> int | None:
    """The id of a square ArUco found but could not name (its cells a few blurred pixels:
    a small token tilted, a soft lens), read from the middles of its 4x4 inner cells against
    a threshold halfway from its black border to the white margin round it; None unless every
    cell is at least ``min_margin`` of that span from the threshold (the border's cells all
    below it) and the bits are exactly a marker of the dictionary in some rotation."""
    c, m, n = 8, 1, MARKER_CELLS
    w = marker_cells(grey, corners_px, m, c)
    inner = w[m * c:(n + m) * c, m * c:(n + m) * c]
    cells = inner.reshape(n, c, n, c)[:, 3:-3, :, 3:-3].mean(axis=(1, 3))
    black = float(np.median(np.concatenate([cells[0], cells[-1], cells[1:-1, 0],
                                            cells[1:-1, -1]])))
    size = w.shape[0]
    a, b = round(0.25 * c), round(0.75 * c)
    ring = np.concatenate([w[a:b, a:size - a].ravel(), w[size - b:size - a, a:size - a].ravel(),
                           w[a:size - a, a:b].ravel(), w[a:size - a, size - b:size - a].ravel()])
    white = float(np.median(ring))
    span = white - black
    if span <= 0:
        return None
    bits = cells[1:-1, 1:-1]
    thr = (black + white) / 2
    if float(np.abs(bits - thr).min()) < min_margin * span:
        return None
    border = np.concatenate([cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]])
    if float(border.max()) > thr - min_margin * span:
        return None
    ok, idx, _ = _detector().getDictionary().identify((bits > thr).astype(np.uint8), 0.0)
    return int(idx) if ok else None


def merged(reads: list[tuple[int, np.ndarray]], cell_px: float) -> dict[int, np.ndarray]:
    """One id a place: readings whose centres lie within three cells of each other are one
    marker, named by the id most of them read (the first read of the ties); its corners are
    that id's first reading. An id read at two places keeps the first."""
    groups: list[tuple[np.ndarray, list[tuple[int, np.ndarray]]]] = []
    for k, q in reads:
        c = q.mean(axis=0)
        for centre, members in groups:
            if np.hypot(*(centre - c)) < 3 * cell_px:
                members.append((k, q))
                break
        else:
            groups.append((c, [(k, q)]))
    found: dict[int, np.ndarray] = {}
    for _, members in groups:
        ids = [k for k, _ in members]
        best = max(dict.fromkeys(ids), key=ids.count)
        found.setdefault(best, next(q for k, q in members if k == best))
    return found


def token_shaped(quad_mm: np.ndarray, side_mm: float, tolerance: float = 0.25) -> bool:
    """Whether a marker's corners on the table (mm) make a square that fits on a token of
    ``side_mm``: each side between 0.4 and 1.1 of it (a printed token's marker is 18 mm of
    32), the longest side and diagonal within ``tolerance`` of the shortest."""
    sides = np.linalg.norm(np.roll(quad_mm, -1, axis=0) - quad_mm, axis=1)
    diagonals = np.linalg.norm(quad_mm[[2, 3]] - quad_mm[[0, 1]], axis=1)
    return bool(sides.min() >= 0.4 * side_mm and sides.max() <= 1.1 * side_mm
                and sides.max() <= (1 + tolerance) * sides.min()
                and diagonals.max() <= (1 + tolerance) * diagonals.min())


def square_reads(grey: np.ndarray, flat: np.ndarray, calibration: Calibration,
                 cfg: TokenConfig, side: float, named: list[tuple[int, np.ndarray]],
                 unnamed: list[np.ndarray]) -> list[tuple[int, np.ndarray]]:
    """(id, corners) of the marker squares no reading named: ArUco's unnamed squares and the
    squares :func:`vision.token_squares.candidate_squares` finds, each with its corners
    fitted to the marker's edges (:func:`vision.token_squares.fitted_square`) and read by
    :func:`vision.token_bits.soft_read` (or, blurred, :func:`vision.token_bits.blur_read`)."""
    cell = side * cfg.marker_mm / (MARKER_CELLS * cfg.side_mm)
    img = flat.astype(np.float32)
    done = [q.mean(axis=0) for _, q in named]
    out: list[tuple[int, np.ndarray]] = []
    guesses = [*unnamed, *candidate_squares(grey, flat, calibration, cfg.marker_mm,
                                            cfg.side_mm, cell)]
    tried: list[np.ndarray] = []
    for guess in guesses:
        c = guess.mean(axis=0)
        if any(np.hypot(*(c - d)) < 3 * cell for d in done) or any(
                np.hypot(*(c - t)) < cell for t in tried):
            continue  # read already, or the same square guessed again (another view)
        if not token_shaped(calibration.to_table(guess), cfg.side_mm, tolerance=0.4):
            continue
        tried.append(c)
        q = fitted_square(img, guess, cell, calibration, cfg.marker_mm)
        if q is None or not token_shaped(calibration.to_table(q), cfg.side_mm):
            continue
        cells, ring = cell_levels(marker_cells(flat, q, 1, 8), 8, 1)
        k = soft_read(cells, ring)
        if k is None:
            k = blur_read(cells)
        if k is not None:
            out.append((k, q))
            done.append(q.mean(axis=0))
    return out


def detect_tokens(cfg: TokenConfig, frame_bgr: np.ndarray, calibration: Calibration,
                  camera: CameraGeometry) -> Detections:
    """Finds the marker-tagged tokens in a raw frame."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    side = side_px(calibration, cfg.side_mm)
    wanted = set(cfg.ids)
    flat = flattened(grey, side / 9.0)
    named, unnamed = readings(grey, flat, side < cfg.min_side_px)
    named += [(k, q) for q in unnamed if token_shaped(calibration.to_table(q), cfg.side_mm)
              and (k := read_bits(flat, q)) is not None]
    if cfg.squares:
        named += square_reads(grey, flat, calibration, cfg, side, named, unnamed)
    reads = [(k, q) for k, q in named
             if k in wanted and token_shaped(calibration.to_table(q), cfg.side_mm)
             and looks_printed(grey, q, flat)]
    found = merged(reads, side / 9.0)
    keep = sorted(found)
    if not keep:
        return Detections.empty()
    quads = [calibration.to_table(found[v]) for v in keep]
    seen = np.array([q.mean(axis=0) for q in quads])
    foot = camera.foot_of(seen, cfg.thickness_mm)
    return Detections.of(foot, ["token"] * len(keep), seen_mm=seen, marker_id=keep)
