"""A marker's id read softly from its cells: every cell's level against the halfway between
its black border and the white margin round it (-1 black, +1 white), correlated with each
marker of the dictionary in each rotation; the best is the id where it beats every other id
by a clear gap and differs from the cells' own reading only in a cell that was unsure (a
blurred marker of three pixels a cell, a cell half its neighbour's colour)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from tabletop.markers import ARUCO_DICTIONARY

MARKER_CELLS = 6
"""Cells across a 4x4 marker, its black border included."""


@dataclass(frozen=True)
class SoftReadConfig:
    """Attributes:
    min_gap: The best id's correlation (a sum over 16 cells of levels in -1..1) must beat
        every other id's, in any rotation, by this much.
    max_flips: Cells at most where the best id differs from the cells' own reading...
    flip_level: ...each of them within this of halfway (an unsure cell).
    border_level: Every border cell at most this level (black).
    min_span: The white margin at least this much of its own level above the black border.
    """

    min_gap: float = 3.0
    max_flips: int = 1
    flip_level: float = 0.35
    border_level: float = -0.4
    min_span: float = 0.1


@lru_cache(maxsize=1)
def codebook() -> tuple[np.ndarray, np.ndarray]:
    """Every marker of the dictionary in its four rotations: (ids (4 n,), bits (4 n, 16) as
    -1 black / +1 white)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    ids, rows = [], []
    for k in range(len(d.bytesList)):
        inner = cv2.aruco.generateImageMarker(d, k, MARKER_CELLS, borderBits=1)[1:-1, 1:-1]
        for r in range(4):
            ids.append(k)
            rows.append(np.where(np.rot90(inner, r) > 127, 1.0, -1.0).ravel())
    return np.array(ids), np.array(rows)


def cell_levels(w: np.ndarray, c: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """From a marker warped upright (``c`` pixels a cell, ``m`` cells of margin; see
    ``tokens.marker_cells``): the mean of the middle half of each of its 6 x 6 cells, and the
    ring half a cell outside it (its white margin), flattened."""
    n = MARKER_CELLS
    inner = w[m * c:(n + m) * c, m * c:(n + m) * c]
    q = c // 4
    cells = inner.reshape(n, c, n, c)[:, q:c - q, :, q:c - q].mean(axis=(1, 3))
    size = w.shape[0]
    a, b = m * c - round(0.75 * c), m * c - round(0.25 * c)
    ring = np.concatenate([w[a:b, a:size - a].ravel(), w[size - b:size - a, a:size - a].ravel(),
                           w[a:size - a, a:b].ravel(), w[a:size - a, size - b:size - a].ravel()])
    return cells, ring


def soft_read(cells: np.ndarray, ring: np.ndarray, cfg: SoftReadConfig = SoftReadConfig()
              ) -> int | None:
    """The id of a marker whose 6 x 6 cell levels are ``cells`` and whose white margin's
    levels are ``ring`` (:func:`cell_levels`), or None (see the module)."""
    border = np.concatenate([cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]])
    black, white = float(np.median(border)), float(np.median(ring))
    span = white - black
    if span < cfg.min_span * max(white, 1.0):
        return None
    z = np.clip((cells - (black + white) / 2) / (span / 2), -1.5, 1.5)
    if float(np.concatenate([z[0], z[-1], z[1:-1, 0], z[1:-1, -1]]).max()) > cfg.border_level:
        return None
    bits = z[1:-1, 1:-1].ravel()
    ids, book = codebook()
    scores = book @ bits
    best = int(np.argmax(scores))
    others = scores[ids != ids[best]]
    if scores[best] - float(others.max()) < cfg.min_gap:
        return None
    flips = np.sign(bits) != book[best]
    if int(flips.sum()) > cfg.max_flips or (
            flips.any() and float(np.abs(bits[flips]).max()) > cfg.flip_level):
        return None
    return int(ids[best])


@dataclass(frozen=True)
class BlurReadConfig:
    """Attributes:
    min_ratio: The best id's squared residual times this is at most every other id's.
    max_rms: The best id's RMS residual at most this share of its fitted black-to-white.
    """

    min_ratio: float = 3.0
    max_rms: float = 0.12


@lru_cache(maxsize=1)
def _blur_design() -> tuple[np.ndarray, np.ndarray]:
    """For every codeword (:func:`codebook`): the 8 x 8 grid of a marker, its margin white
    (+1), border black (-1), and the features of each of its 6 x 6 cells under a blur of a
    cell's reach: 1, the cell, its left and right, up and down, and two diagonal pairs
    ((4 n, 36, 6)); and the ids."""
    ids, book = codebook()
    g = np.ones((len(ids), 8, 8))
    g[:, 1:7, 1:7] = -1.0
    g[:, 2:6, 2:6] = book.reshape(-1, 4, 4)
    c = g[:, 1:7, 1:7]
    feats = [np.ones_like(c), c, g[:, 1:7, 0:6] + g[:, 1:7, 2:8], g[:, 0:6, 1:7] + g[:, 2:8, 1:7],
             g[:, 0:6, 0:6] + g[:, 2:8, 2:8], g[:, 0:6, 2:8] + g[:, 2:8, 0:6]]
    return np.stack([f.reshape(len(ids), 36) for f in feats], axis=2), ids


def blur_read(cells: np.ndarray, cfg: BlurReadConfig = BlurReadConfig()) -> int | None:
    """The id of a blurred marker (motion or focus: its cells mixed with their neighbours)
    from its 6 x 6 cell levels ``cells``: each codeword's grid, blurred by the 3 x 3 kernel
    (symmetric about its middle) and levels that fit the cells best by least squares; the id
    whose fit is clearly the best (see :class:`BlurReadConfig`), its kernel's middle the
    largest, or None."""
    X, ids = _blur_design()
    y = cells.reshape(36).astype(np.float64)
    XtX = np.einsum("nki,nkj->nij", X, X) + 1e-6 * np.eye(6)
    Xty = np.einsum("nki,k->ni", X, y)
    coef = np.linalg.solve(XtX, Xty[..., None])[..., 0]
    res = y[None] - np.einsum("nki,ni->nk", X, coef)
    sse = (res ** 2).sum(axis=1)
    best = int(np.argmin(sse))
    k = coef[best]
    if k[1] <= 0 or k[1] <= float(np.abs(k[2:]).max()):
        return None
    span = 2 * float(k[1:].sum())  # white minus black of a cell among its own kind
    if span <= 0 or np.sqrt(sse[best] / 36) > cfg.max_rms * span:
        return None
    if cfg.min_ratio * sse[best] > float(sse[ids != ids[best]].min()):
        return None
    return int(ids[best])
