"""Light beyond the one lamp: more lamps (each with its own direction, colour and shadows), the
striped shade of a window blind and the daylight gradient from a window.

All three are optional parts of :class:`~tabletop.render.settings.RenderSettings`; when absent the
render is exactly the one-lamp picture.

- :class:`Lamp`: an extra lamp. Its ``share`` of the direct light is taken from the main lamp (the
  settings' ``light_dir_deg``); a shadow of one lamp takes away only that lamp's share, tinted by
  the other lamps' colours.
- :class:`Blind`: bands of light and shade thrown through a slatted blind, on the table and on
  the pieces (each at its own height, its band shifted along the main lamp's light); a band
  takes ``strength`` of all the light there (a simplification when there are more lamps).
- :class:`Daylight`: a window's light falling off across the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.errors import RenderError


def _check(name: str, value: float, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RenderError(f"{name} must be a number, not {value!r}")
    if not lo <= value <= hi:
        raise RenderError(f"{name} must be in [{lo}, {hi}], not {value}")
    return float(value)


@dataclass(frozen=True)
class Lamp:
    """An extra lamp.

    Attributes:
        dir_deg: Azimuth it shines from (table frame, 0 = from +x).
        elevation_deg: Height above the horizon.
        colour_temp_k: Its colour, kelvin (the camera stays balanced for the main lamp).
        share: Its part of the direct light, 0-0.9 (the main lamp keeps the rest).
    """

    dir_deg: float
    elevation_deg: float
    colour_temp_k: float = 5000.0
    share: float = 0.4

    def __post_init__(self) -> None:
        _check("lamp dir_deg", self.dir_deg, -360.0, 720.0)
        _check("lamp elevation_deg", self.elevation_deg, 5.0, 90.0)
        _check("lamp colour_temp_k", self.colour_temp_k, 2000.0, 12000.0)
        _check("lamp share", self.share, 0.0, 0.9)


@dataclass(frozen=True)
class Blind:
    """The shade of a slatted blind (bands cast along the main lamp's light).

    Attributes:
        period_mm: Distance between two shade bands on the table.
        duty: Share of each period in shade, 0.1-0.9.
        angle_deg: Direction the bands run along (table frame).
        strength: How much light a band takes away, 0-1.
        softness_mm: Width of a band's soft edge.
        phase_mm: Offset of the bands across their direction.
    """

    period_mm: float = 60.0
    duty: float = 0.5
    angle_deg: float = 0.0
    strength: float = 0.5
    softness_mm: float = 3.0
    phase_mm: float = 0.0

    def __post_init__(self) -> None:
        _check("blind period_mm", self.period_mm, 5.0, 1000.0)
        _check("blind duty", self.duty, 0.1, 0.9)
        _check("blind angle_deg", self.angle_deg, -360.0, 720.0)
        _check("blind strength", self.strength, 0.0, 1.0)
        _check("blind softness_mm", self.softness_mm, 0.0, 100.0)
        _check("blind phase_mm", self.phase_mm, -1e5, 1e5)

    def factor(self, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
        """Light left at table points (the band pattern on the plane z = 0), float32 in
        [1 - strength, 1]; 1 where a coordinate is NaN."""
        a = math.radians(self.angle_deg)
        across = -math.sin(a) * x_mm + math.cos(a) * y_mm + self.phase_mm
        t = np.mod(across, self.period_mm)  # 0 .. period; shade in [0, duty * period)
        shade_w = self.duty * self.period_mm
        # distance to the nearest band edge, positive inside a shade band
        signed = np.where(t < shade_w, np.minimum(t, shade_w - t),
                          -np.minimum(t - shade_w, self.period_mm - t))
        soft = max(self.softness_mm, 1e-3)
        shade = np.clip(0.5 + signed / soft, 0.0, 1.0)
        out = 1.0 - self.strength * shade
        return np.where(np.isfinite(out), out, 1.0).astype(np.float32)

    def factor_at(self, x_mm: np.ndarray, y_mm: np.ndarray, z_mm: float,
                  light: np.ndarray) -> np.ndarray:
        """:meth:`factor` for points at height ``z_mm``: the band they are in is the one their
        shadow along ``light`` (unit vector toward the lamp) falls in."""
        k = z_mm / max(float(light[2]), 1e-3)
        return self.factor(x_mm - k * float(light[0]), y_mm - k * float(light[1]))


@dataclass(frozen=True)
class Daylight:
    """A window's light falling off across the table.

    Attributes:
        from_deg: Azimuth of the window (table frame): the bright side.
        strength: Brightness lost at the far side of ``width_mm``, 0-0.9.
        width_mm: Distance over which it falls off.
        centre_mm: A point of the table at mid-brightness.
    """

    from_deg: float = 0.0
    strength: float = 0.5
    width_mm: float = 900.0
    centre_mm: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        _check("daylight from_deg", self.from_deg, -360.0, 720.0)
        _check("daylight strength", self.strength, 0.0, 0.9)
        _check("daylight width_mm", self.width_mm, 50.0, 1e5)
        object.__setattr__(self, "centre_mm", tuple(float(v) for v in self.centre_mm))

    def gain(self, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
        """Brightness at table points, float32 in [1 - strength, 1 + strength / 2]."""
        a = math.radians(self.from_deg)
        s = (math.cos(a) * (x_mm - self.centre_mm[0]) + math.sin(a) * (y_mm - self.centre_mm[1]))
        t = np.clip(0.5 - s / self.width_mm, 0.0, 1.0)  # 0 at the window, 1 far away
        g = 1.0 + 0.5 * self.strength - 1.5 * self.strength * t ** 1.3
        return np.where(np.isfinite(g), g, 1.0).astype(np.float32)


def lamp_gains(main_temp_k: float, lamps: tuple[Lamp, ...]) -> list[np.ndarray]:
    """(B, G, R) weight of the main lamp and each extra lamp (they sum to about 1 per channel
    for lamps of the main lamp's colour)."""
    from tabletop.render.degrade import white_balance

    main_share = max(0.05, 1.0 - sum(lp.share for lp in lamps))
    total = main_share + sum(lp.share for lp in lamps)
    ref = white_balance(main_temp_k)
    out = [np.full(3, main_share / total, np.float32)]
    for lp in lamps:
        tint = white_balance(lp.colour_temp_k) / ref
        out.append((tint / tint[1] * (lp.share / total)).astype(np.float32))
    return out


def blind_on_plane(blind: Blind, pose: CameraPose, roi: tuple[int, int, int, int],
                   z_mm: float, light: np.ndarray) -> np.ndarray:
    """The blind's factor seen through each pixel of ``roi`` on the plane ``z = z_mm`` (the top
    of a piece), (h, w) float32."""
    x0, y0, x1, y1 = roi
    u, v = np.meshgrid(np.arange(x0, x1, dtype=np.float64), np.arange(y0, y1, dtype=np.float64))
    d = pose.rays(u, v)
    c = pose.centre_mm
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(d[..., 2] < -1e-9, (z_mm - c[2]) / d[..., 2], np.nan)
    return blind.factor_at(c[0] + s * d[..., 0], c[1] + s * d[..., 1], z_mm, light)
