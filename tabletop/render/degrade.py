"""What a cheap webcam does to the light: uneven illumination, white balance, lens blur, camera
shake, vignetting, a soft highlight shoulder, sensor noise, 8-bit quantisation and JPEG."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tabletop.render.settings import RenderSettings


def line_kernel(length_px: float, angle_rad: float) -> np.ndarray:
    """A normalised straight-line blur kernel of about ``length_px``."""
    n = max(3, math.ceil(length_px) | 1)
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2.0
    dx, dy = math.cos(angle_rad) * length_px / 2.0, math.sin(angle_rad) * length_px / 2.0
    cv2.line(k, (round((c - dx) * 16), round((c - dy) * 16)),
             (round((c + dx) * 16), round((c + dy) * 16)), 1.0, 1, cv2.LINE_AA, 4)
    return k / max(float(k.sum()), 1e-6)


def white_balance(colour_temp_k: float) -> np.ndarray:
    """Per-channel (B, G, R) gains of a light of this colour temperature on a 5500 K camera."""
    d = (5500.0 - colour_temp_k) / 3000.0
    return np.array([1.0 - 0.16 * d, 1.0, 1.0 + 0.12 * d], np.float32)


def gain_map(size: tuple[int, int], settings: RenderSettings,
             light_px_dir: tuple[float, float]) -> np.ndarray:
    """Brightness over the image (H, W) float32: the lamp's light pool times the vignetting."""
    w, h = size
    sw, sh = max(8, w // 8), max(8, h // 8)
    x = (np.arange(sw, dtype=np.float32) + 0.5) * (w / sw)
    y = (np.arange(sh, dtype=np.float32) + 0.5) * (h / sh)
    gain = np.ones((sh, sw), np.float32)
    if settings.light_falloff > 0:
        cx = w / 2.0 + light_px_dir[0] * 0.35 * w
        cy = h / 2.0 + light_px_dir[1] * 0.35 * h
        r2 = ((x[None, :] - cx) ** 2 + (y[:, None] - cy) ** 2) / (w * w + h * h)
        gain *= 1.0 - settings.light_falloff * np.minimum(r2, 1.5)
    if settings.vignette > 0:
        r2 = ((x[None, :] - w / 2.0) ** 2 + (y[:, None] - h / 2.0) ** 2) / ((w * w + h * h) / 4)
        gain *= 1.0 - settings.vignette * r2 * (0.6 + 0.4 * r2)
    return cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)


def illuminate(image: np.ndarray, settings: RenderSettings, light_px_dir: tuple[float, float],
               ) -> np.ndarray:
    """Light pool, vignetting, white balance and exposure (float32 BGR, in place)."""
    h, w = image.shape[:2]
    wb = white_balance(settings.colour_temp_k) * np.float32(settings.exposure * 1.08)
    if settings.light_falloff > 0 or settings.vignette > 0:
        key = (w, h, settings.light_falloff, settings.vignette, settings.colour_temp_k,
               settings.exposure, round(light_px_dir[0], 6), round(light_px_dir[1], 6))
        gain = _GAINS.get(key)
        if gain is None:
            g = gain_map((w, h), settings, light_px_dir)
            gain = cv2.merge([g * wb[0], g * wb[1], g * wb[2]])
            gain.setflags(write=False)
            if len(_GAINS) > 8:
                _GAINS.clear()
            _GAINS[key] = gain
        image *= gain
    else:
        image *= wb
    return image


_GAINS: dict[tuple, np.ndarray] = {}


def optics(image: np.ndarray, settings: RenderSettings, rng: np.random.Generator) -> np.ndarray:
    """Lens blur and camera shake."""
    if settings.blur_px > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), settings.blur_px)
    if settings.motion_blur_px >= 1.0:
        angle = settings.motion_blur_angle_deg
        a = math.radians(angle) if angle is not None else rng.uniform(0, math.pi)
        image = cv2.filter2D(image, -1, line_kernel(settings.motion_blur_px, a),
                             borderType=cv2.BORDER_REFLECT)
    return image


_BANK_PAD = 64
_BANKS: dict[tuple[int, int], np.ndarray] = {}


def _noise_bank(h: int, w: int) -> np.ndarray:
    """A fixed unit noise field a little bigger than the image, (H+pad, W+pad, 3) float32: a
    luminance part common to the channels plus a weaker colour part (made once per size)."""
    key = (h, w)
    if key not in _BANKS:
        rng = np.random.default_rng(20261122)
        lum = rng.standard_normal((h + _BANK_PAD, w + _BANK_PAD, 1), dtype=np.float32)
        chroma = rng.standard_normal((h + _BANK_PAD, w + _BANK_PAD, 3), dtype=np.float32)
        bank = 0.75 * lum + 0.45 * chroma
        bank.setflags(write=False)
        if len(_BANKS) > 3:
            _BANKS.clear()
        _BANKS[key] = bank
    return _BANKS[key]


def sensor(image: np.ndarray, settings: RenderSettings, rng: np.random.Generator) -> np.ndarray:
    """Highlight shoulder, signal-dependent noise, 8 bits and the JPEG round trip -> uint8.

    The noise is a window of a fixed noise field at an offset, flip and channel order drawn
    from the seed (fast, and still different in every frame).
    """
    knee = np.float32(0.82)
    hot = image > knee  # a soft shoulder above the knee, only where it is needed
    if hot.any():
        over = image[hot] - knee
        image[hot] = knee + over / (over * np.float32(1.0 / (1.0 - knee)) + np.float32(1.0))
    if settings.noise_sigma > 0:
        h, w = image.shape[:2]
        bank = _noise_bank(h, w)
        oy, ox = (int(v) for v in rng.integers(0, _BANK_PAD, 2))
        flip = int(rng.integers(4))
        noise = bank[oy:oy + h, ox:ox + w]
        if flip & 1:
            noise = noise[::-1]
        if flip & 2:
            noise = noise[:, ::-1]
        sigma = np.float32(settings.noise_sigma / 255.0)
        scale = image * np.float32(0.9 * sigma)
        scale += np.float32(0.55 * sigma)
        scale *= noise
        image += scale
    out = cv2.convertScaleAbs(image, alpha=255.0)
    if settings.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, settings.jpeg_quality])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
