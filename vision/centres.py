"""The learned candidate finder: a dense heat map of piece centres over the table.

The hand-made masks (:mod:`vision.prepare`) only see pieces brighter than a noise level, which
a patterned cloth, a white table or uneven light breaks. The centre net looks at the whole
coarse top view instead (:mod:`vision.centres_input`: light and table colour divided out) and
gives, for every kind it knows (:data:`vision.centres_net.KINDS`), a heat map whose peaks are
where such pieces' centres are seen (a coin's and a tile's top face, a post's foot). Its peaks
are candidates only: :mod:`vision.proposals` fits each exactly and lets the namer judge it, and
a candidate whose fit fails is dropped.

The weights (``vision/models/centres.onnx``, made by ``training/train_centres.py`` from the
project's renders, figures and thresholds in ``centres.json``) run through ``cv2.dnn``; it
runs on still frames only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.model import Calibration
from vision.centres_input import CHANNELS, MM_PER_PX, centre_input, coarse_view
from vision.centres_net import KINDS, STRIDE
from vision.centres_reuse import HeatReuse, ReuseConfig
from vision.errors import VisionError

MODEL = Path(__file__).resolve().parent / "models" / "centres.onnx"
"""The committed weights."""

_MULTIPLE = 8
"""The net's input sides must be multiples of this (three stride-2 steps)."""


@dataclass(frozen=True)
class CentresConfig:
    """Attributes:
    model: The ONNX weights (their JSON beside them).
    least: Per kind, the heat a peak needs to be a candidate; None: the thresholds chosen on
        the validation seeds (``centres.json``, ``thresholds``).
    post_least: The heat a post peak needs (None: as ``least`` says). Every post candidate
        is judged by the post judge (:mod:`vision.post_judge`), so a cooler peak than the
        net's own best threshold costs time, not precision.
    reuse: Frame after frame, the net reads again only the parts of the view that changed
        since it last read them (:mod:`vision.centres_reuse`); None: all of it every time.
    """

    model: Path = MODEL
    least: dict[str, float] | None = field(default=None)
    post_least: float | None = 0.2
    reuse: ReuseConfig | None = field(default_factory=ReuseConfig)


@dataclass(frozen=True)
class Peaks:
    """One kind's candidates: ``centre_mm`` (N, 2) table mm, ``score`` (N,) the heat."""

    centre_mm: np.ndarray
    score: np.ndarray


def local_maxima(z: np.ndarray, size: int, least: float) -> tuple[np.ndarray, np.ndarray]:
    """The samples of ``z`` largest in their ``size`` x ``size`` neighbourhood and at least
    ``least``: ((N, 2) int x, y, (N,) their values), the largest first (ties in row order)."""
    top = cv2.dilate(z, np.ones((size, size), np.uint8))
    ys, xs = np.nonzero((z >= top) & (z >= least))
    score = z[ys, xs].astype(float)
    order = np.argsort(-score, kind="stable")
    return np.c_[xs, ys][order], score[order]


def heat_peaks(heat: np.ndarray, least: float) -> tuple[np.ndarray, np.ndarray]:
    """The local maxima (3x3) of one heat map at least ``least``, each placed to a fraction of
    a sample by a parabola through the logs of its neighbours: ((N, 2) x, y in heat samples,
    (N,) heat)."""
    h = np.asarray(heat, np.float32)
    if h.size == 0:
        return np.zeros((0, 2)), np.zeros(0)
    big = cv2.dilate(h, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((h >= big) & (h >= least))
    if not len(xs):
        return np.zeros((0, 2)), np.zeros(0)
    hh, ww = h.shape

    def lg(y: np.ndarray, x: np.ndarray) -> np.ndarray:  # the log heat, the edge repeated
        v = h[np.clip(y, 0, hh - 1), np.clip(x, 0, ww - 1)]
        return np.log(np.maximum(v, np.float32(1e-6)))

    def shift(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        den = a - 2 * b + c
        return np.where(den < -1e-9, np.clip(0.5 * (a - c) / np.where(den < -1e-9, den, -1.0),
                                             -0.5, 0.5), 0.0)

    mid = lg(ys, xs)
    dx = shift(lg(ys, xs - 1), mid, lg(ys, xs + 1))
    dy = shift(lg(ys - 1, xs), mid, lg(ys + 1, xs))
    return np.column_stack([xs + dx, ys + dy]), h[ys, xs]


def heat_to_view_px(points: np.ndarray) -> np.ndarray:
    """Heat-map sample coordinates -> the coarse view's pixel coordinates."""
    return np.asarray(points, float) * STRIDE + (STRIDE - 1) / 2.0


def view_px_to_heat(points: np.ndarray) -> np.ndarray:
    """Inverse of :func:`heat_to_view_px`."""
    return (np.asarray(points, float) - (STRIDE - 1) / 2.0) / STRIDE


def padded(x: np.ndarray) -> np.ndarray:
    """The input (C, H, W) with zeros (no view) below and right up to multiples of 8."""
    c, h, w = x.shape
    hp, wp = -(-h // _MULTIPLE) * _MULTIPLE, -(-w // _MULTIPLE) * _MULTIPLE
    if (hp, wp) == (h, w):
        return x
    out = np.zeros((c, hp, wp), np.float32)
    out[:, :h, :w] = x
    return out


class CentreFinder:
    """The loaded centre net and its coarse view of one calibration (one per detector:
    ``cv2.dnn`` nets are not shared across threads)."""

    def __init__(self, cfg: CentresConfig, calibration: Calibration,
                 area_mm: tuple[float, float, float, float] | None = None) -> None:
        path = Path(cfg.model)
        try:
            meta = json.loads(path.with_suffix(".json").read_text())
            self.net = cv2.dnn.readNetFromONNX(str(path))
        except (OSError, ValueError, cv2.error) as e:
            raise VisionError(f"{path}: cannot load the centre net's weights ({e})") from None
        if (tuple(meta.get("kinds", ())) != KINDS or meta.get("stride") != STRIDE
                or meta.get("channels") != CHANNELS or meta.get("mm_per_px") != MM_PER_PX):
            raise VisionError(f"{path}: weights made for other kinds or another input")
        least = cfg.least if cfg.least is not None else meta.get("thresholds", {})
        missing = [k for k in KINDS if k not in least]
        if missing:
            raise VisionError(f"{path}: no threshold for {', '.join(missing)}")
        self.least = {k: float(least[k]) for k in KINDS}
        if cfg.post_least is not None:
            self.least["post"] = float(cfg.post_least)
        self.view = coarse_view(calibration, area_mm)
        self.last_input: np.ndarray | None = None  # the input of the last heat map made
        self._input: np.ndarray | None = None  # its padded buffer, kept from frame to frame
        self.reuse = HeatReuse(cfg.reuse) if cfg.reuse is not None else None

    def heat(self, frame_bgr: np.ndarray, half_bgr: np.ndarray | None = None) -> np.ndarray:
        """The heat maps, float32 (len(KINDS), H / STRIDE, W / STRIDE) over the coarse view."""
        h, w = self.view.valid.shape
        if self._input is None:  # the padded input, made once: each frame writes its corner
            self._input = padded(np.zeros((CHANNELS, h, w), np.float32))
        self.last_input = centre_input(self.view, frame_bgr, half_bgr, out=self._input)
        out = (self._forward(self._input) if self.reuse is None
               else self.reuse.heat(self._input, self._forward))
        return out[:, :-(-h // STRIDE), :-(-w // STRIDE)]

    def _forward(self, x: np.ndarray) -> np.ndarray:
        """The net's heat (K, h / STRIDE, w / STRIDE) of a padded input (C, h, w)."""
        self.net.setInput(np.ascontiguousarray(x[None]))
        return self.net.forward()[0]

    def find(self, frame_bgr: np.ndarray, half_bgr: np.ndarray | None = None
             ) -> dict[str, Peaks]:
        """Each kind's candidates in table mm."""
        heat = self.heat(frame_bgr, half_bgr)
        out: dict[str, Peaks] = {}
        for i, kind in enumerate(KINDS):
            pts, score = heat_peaks(heat[i], self.least[kind])
            mm = self.view.to_mm(heat_to_view_px(pts)) if len(pts) else np.zeros((0, 2))
            out[kind] = Peaks(mm, np.asarray(score, float))
        return out
