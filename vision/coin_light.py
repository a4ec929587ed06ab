"""A coin's top face under a blind: lit by the band its shadow falls in, not the table's under it.

Step 2 divides the view by the blind's bands as measured on the table (:mod:`vision.bands`). A
coin's top face lies a coin's thickness above the table, and the band that lights it is the one
where a point of it would cast its shadow: the bands on the face are shifted from the table's
by the thickness times the light's slope (2-9 mm: a lamp 20-55 degrees up), and the camera's
parallax shifts them again. Where a band's edge crosses a coin, the view divided by the
table's bands shows its face in two halves, one a band's contrast brighter than the other
(a cream coin on pale marble: a bright crescent beside a face darker than the table), and the
rim fits (:func:`vision.centre_proposals.coin_fits`) find no circle, or one 2-4 mm off.

The light's slope is one for the whole frame and unknown, but a coin's face is flat: the
shift across the bands is the one (searched in :attr:`CoinLightConfig.step_mm` steps over
:attr:`CoinLightConfig.lean_mm` each way) that leaves the faces of the frame's coin candidates
the least spread (the mean absolute deviation of their log shade within
:attr:`CoinLightConfig.inner` of a radius, each candidate's relative to its own spread with the
table's bands), and it is used only where it takes away at least
:attr:`CoinLightConfig.least_gain` of that spread: with no band's edge across any face every
shift leaves the same. Each candidate's face (its disc) is then divided by the bands at its
height and multiplied by the table's there, in the grey shade and in colour: the far rim is then
the face against the table under the same light. No bands (no blind): nothing is done.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.bands import Bands
from vision.prepare import Prepared
from vision.topview import TopView


@dataclass(frozen=True)
class CoinLightConfig:
    """Attributes:
    lean_mm: The shift of the bands on a coin's face from the table's, searched this far
        each way across the bands (a coin 3.2 mm thick under a lamp 20 degrees up: 8.7 mm)...
    step_mm: ...in steps of this.
    inner: A face's spread is read within this share of its radius (its rim and wall left
        out).
    least_gain: The shift is used where it takes away at least this share of the faces'
        spread (the mean over the candidates of each one's share).
    face: A candidate's face is relit within this many radii of its centre.
    """

    lean_mm: float = 9.0
    step_mm: float = 0.5
    inner: float = 0.75
    least_gain: float = 0.1
    face: float = 1.0


def band_gain(bands: Bands, u_px: np.ndarray) -> np.ndarray:
    """The bands' gain at positions ``u_px`` across them (view pixels along
    ``bands.normal_xy`` from (0, 0)), as :meth:`vision.bands.Bands.at_rect` reads it."""
    idx = (np.asarray(u_px, np.float64) - bands.start_px) / bands.bin_px - 0.5
    return np.interp(idx, np.arange(len(bands.gain)), bands.gain.astype(np.float64))


def _across(bands: Bands, pts: np.ndarray) -> np.ndarray:
    nx, ny = bands.normal_xy
    return pts[..., 0] * nx + pts[..., 1] * ny


def _parallax(view: TopView, centres_px: np.ndarray, thickness_mm: float) -> np.ndarray:
    """(N, 2) view pixels from each top face's centre to the table point under it."""
    cam = view.camera
    feet = view.to_px(cam.foot_of(view.to_mm(centres_px), thickness_mm))
    return feet - np.asarray(centres_px, float).reshape(-1, 2)


def _disc(r: float) -> np.ndarray:
    k = int(np.ceil(r))
    dy, dx = np.mgrid[-k:k + 1, -k:k + 1]
    keep = dx * dx + dy * dy <= r * r
    return np.column_stack([dx[keep], dy[keep]]).astype(np.float64)


def face_shift_px(cfg: CoinLightConfig, bands: Bands, view: TopView, shade: np.ndarray,
                  centres_px: np.ndarray, r: float, thickness_mm: float) -> float | None:
    """The shift across the bands (view pixels along ``bands.normal_xy``, the light's part,
    parallax apart) of the bands on the coins' faces from the table's, or None: no shift
    takes away ``cfg.least_gain`` of the faces' spread (or no candidate to read)."""
    c = np.asarray(centres_px, float).reshape(-1, 2)
    if not len(c):
        return None
    h, w = shade.shape
    offs = _disc(cfg.inner * r)
    pts = c[:, None, :] + offs[None]  # (N, M, 2)
    xi, yi = np.rint(pts[..., 0]).astype(int), np.rint(pts[..., 1]).astype(int)
    inside = ((xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)).all(axis=1)
    if not inside.any():
        return None
    c, pts, xi, yi = c[inside], pts[inside], xi[inside], yi[inside]
    logs = np.log(np.maximum(shade[yi, xi].astype(np.float64), 1e-3))  # (N, M)
    u = _across(bands, pts)
    g_table = np.log(band_gain(bands, u))
    u_under = u + _across(bands, _parallax(view, c, thickness_mm))[:, None]
    s = view.px_per_mm
    shifts = np.arange(-cfg.lean_mm, cfg.lean_mm + 1e-9, cfg.step_mm) * s

    def spread(v: np.ndarray) -> np.ndarray:
        return np.mean(np.abs(v - np.median(v, axis=-1, keepdims=True)), axis=-1)

    total = float(np.sum(spread(logs)))
    if total <= 1e-6:  # flat faces: nothing to take away
        return None
    left = np.empty(len(shifts))
    for k, d in enumerate(shifts):
        v = logs + g_table - np.log(band_gain(bands, u_under - d))
        left[k] = float(np.sum(spread(v)) / total)
    best = int(np.argmin(left))
    if left[best] > 1.0 - cfg.least_gain:
        return None
    return float(shifts[best])


@dataclass(frozen=True)
class CoinFaces:
    """The views the coin candidates' fits read (:func:`coin_faces`).

    Attributes:
        shade: float32 (H, W) grey shade, the faces relit.
        top: uint8 (H, W, 3) colour, the faces relit.
        table_shade: ``shade`` before the faces were relit (the table's bands divided out
            in the candidates' windows).
        shift_px: The bands' shift on the faces (:func:`face_shift_px`), or None: the faces
            are not relit.
    """

    shade: np.ndarray
    top: np.ndarray
    table_shade: np.ndarray
    shift_px: float | None


def coin_faces(cfg: CoinLightConfig, prep: Prepared, shade: np.ndarray, top: np.ndarray,
               centres_px: np.ndarray, r: float, thickness_mm: float, half_px: float
               ) -> CoinFaces:
    """``shade`` and ``top`` (:func:`vision.centre_proposals.local_views` of the coin
    candidates ``centres_px``, windows ``half_px`` each way) as the coins' fits read them.
    Under a blind (``prep.table`` has bands): the windows the prepared view did not make are
    divided by the table's colour with its bands, as the prepared view is (not by their own
    median, which leaves the stripes in), and where the faces show a shift of the bands
    (:func:`face_shift_px`) each face is relit (:func:`relit`). Otherwise ``shade`` and
    ``top`` as they are."""
    bands = None if prep.table is None else prep.table.bands
    c = np.asarray(centres_px, float).reshape(-1, 2)
    if bands is None or not len(c):
        return CoinFaces(shade, top, shade, None)
    assert prep.table is not None
    shade = shade.copy()
    for centre in c:
        rect = prep.unmade_window(centre, half_px)
        if rect is None:
            continue
        x0, y0, x1, y1 = rect
        grey = cv2.cvtColor(top[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
        table = cv2.cvtColor(prep.table.at_rect(x0, y0, x1, y1), cv2.COLOR_BGR2GRAY)
        shade[y0:y1, x0:x1] = grey / (table.astype(np.float32) + 1.0)
    shift = face_shift_px(cfg, bands, prep.view, shade, c, r, thickness_mm)
    if shift is None:
        return CoinFaces(shade, top, shade, None)
    lit, lit_top = relit(cfg, bands, prep.view, shade, top, c, r, thickness_mm, shift)
    return CoinFaces(lit, lit_top, shade, shift)


def relit(cfg: CoinLightConfig, bands: Bands, view: TopView, shade: np.ndarray,
          top: np.ndarray, centres_px: np.ndarray, r: float, thickness_mm: float,
          shift_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Copies of ``shade`` (float32 (H, W)) and ``top`` (uint8 (H, W, 3)) with each
    candidate's face (``cfg.face`` radii round its centre) divided by the bands at its
    height (shifted ``shift_px`` across them, and by the camera's parallax) and multiplied by
    the table's there."""
    shade, top = shade.copy(), top.copy()
    h, w = shade.shape
    c = np.asarray(centres_px, float).reshape(-1, 2)
    offs = _disc(cfg.face * r)
    under = _across(bands, _parallax(view, c, thickness_mm))
    done = np.zeros((h, w), bool)  # two touching candidates' discs meet: relit once
    for (cx, cy), du in zip(c, under, strict=True):
        xi = np.rint(cx + offs[:, 0]).astype(int)
        yi = np.rint(cy + offs[:, 1]).astype(int)
        ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        xi, yi = xi[ok], yi[ok]
        fresh = ~done[yi, xi]
        xi, yi = xi[fresh], yi[fresh]
        done[yi, xi] = True
        u = _across(bands, np.column_stack([xi, yi]).astype(np.float64))
        ratio = band_gain(bands, u) / band_gain(bands, u + du - shift_px)
        shade[yi, xi] = shade[yi, xi] * ratio.astype(np.float32)
        top[yi, xi] = np.clip(np.rint(top[yi, xi] * ratio[:, None]), 0, 255).astype(np.uint8)
    return shade, top
