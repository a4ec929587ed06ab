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


def _radial(w: int, h: int, centre: tuple[float, float], scale: float) -> np.ndarray:
    """(r / scale)^2 from a centre, computed small and upsampled (smooth anyway)."""
    sw, sh = max(8, w // 8), max(8, h // 8)
    x = (np.arange(sw, dtype=np.float32) + 0.5) * (w / sw) - centre[0]
    y = (np.arange(sh, dtype=np.float32) + 0.5) * (h / sh) - centre[1]
    r2 = (x[None, :] ** 2 + y[:, None] ** 2) / (scale * scale)
    return cv2.resize(r2, (w, h), interpolation=cv2.INTER_LINEAR)


def white_balance(colour_temp_k: float) -> np.ndarray:
    """Per-channel (B, G, R) gains of a light of this colour temperature on a 5500 K camera."""
    d = (5500.0 - colour_temp_k) / 3000.0
    return np.array([1.0 - 0.16 * d, 1.0, 1.0 + 0.12 * d], np.float32)


def illuminate(image: np.ndarray, settings: RenderSettings, light_px_dir: tuple[float, float],
               ) -> np.ndarray:
    """Light pool, white balance and exposure (float32 BGR, in place and returned)."""
    h, w = image.shape[:2]
    if settings.light_falloff > 0:
        diag = math.hypot(w, h)
        cx = w / 2.0 + light_px_dir[0] * 0.35 * w
        cy = h / 2.0 + light_px_dir[1] * 0.35 * h
        pool = 1.0 - settings.light_falloff * np.minimum(_radial(w, h, (cx, cy), diag), 1.5)
        image *= pool[..., None]
    image *= white_balance(settings.colour_temp_k) * np.float32(settings.exposure * 1.08)
    return image


def optics(image: np.ndarray, settings: RenderSettings, rng: np.random.Generator) -> np.ndarray:
    """Lens blur, camera shake and vignetting."""
    if settings.blur_px > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), settings.blur_px)
    if settings.motion_blur_px >= 1.0:
        angle = settings.motion_blur_angle_deg
        a = math.radians(angle) if angle is not None else rng.uniform(0, math.pi)
        image = cv2.filter2D(image, -1, line_kernel(settings.motion_blur_px, a),
                             borderType=cv2.BORDER_REFLECT)
    if settings.vignette > 0:
        h, w = image.shape[:2]
        r2 = _radial(w, h, (w / 2.0, h / 2.0), math.hypot(w, h) / 2.0)
        image *= (1.0 - settings.vignette * r2 * (0.6 + 0.4 * r2))[..., None]
    return image


_BANK_PAD = 64
_BANKS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _noise_bank(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Fixed white-noise fields a little bigger than the image (made once per size)."""
    key = (h, w)
    if key not in _BANKS:
        rng = np.random.default_rng(20261122)
        lum = rng.standard_normal((h + _BANK_PAD, w + _BANK_PAD), dtype=np.float32)
        chroma = rng.standard_normal((h + _BANK_PAD, w + _BANK_PAD, 3), dtype=np.float32)
        if len(_BANKS) > 3:
            _BANKS.clear()
        _BANKS[key] = (lum, chroma)
    return _BANKS[key]


def sensor(image: np.ndarray, settings: RenderSettings, rng: np.random.Generator) -> np.ndarray:
    """Highlight shoulder, signal-dependent noise, 8 bits and the JPEG round trip -> uint8.

    The noise is a window of a fixed noise field at an offset, flip and channel order drawn
    from the seed (fast, and still different in every frame).
    """
    knee = np.float32(0.82)
    over = np.maximum(image - knee, np.float32(0.0))
    over /= over * np.float32(1.0 / (1.0 - knee)) + np.float32(1.0)
    image = np.minimum(image, knee)
    image += over
    if settings.noise_sigma > 0:
        h, w = image.shape[:2]
        lum, chroma = _noise_bank(h, w)
        oy, ox = (int(v) for v in rng.integers(0, _BANK_PAD, 2))
        flip = int(rng.integers(4))
        order = rng.permutation(3)
        n_l = lum[oy:oy + h, ox:ox + w]
        n_c = chroma[oy:oy + h, ox:ox + w][:, :, order]
        if flip & 1:
            n_l, n_c = n_l[::-1], n_c[::-1]
        if flip & 2:
            n_l, n_c = n_l[:, ::-1], n_c[:, ::-1]
        sigma = np.float32(settings.noise_sigma / 255.0)
        noise = cv2.addWeighted(np.ascontiguousarray(n_c), 0.45,
                                cv2.merge([np.ascontiguousarray(n_l)] * 3), 0.75, 0.0)
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
