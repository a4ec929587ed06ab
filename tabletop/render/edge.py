"""The edge of the table: beyond it the camera sees the floor, far below and dark.

:class:`TableEdge` is an optional part of :class:`~tabletop.render.settings.RenderSettings`; the
table is the half-plane on the inner side of a straight edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.errors import RenderError
from tabletop.render.table import table_view


@dataclass(frozen=True)
class TableEdge:
    """A straight table edge.

    Attributes:
        point_mm: A point of the edge (table frame).
        off_deg: Direction (azimuth) pointing off the table, across the edge.
        floor_bgr: The floor's colour (B, G, R reflectance, dark: it is far below the lamp).
    """

    point_mm: tuple[float, float] = (0.0, 0.0)
    off_deg: float = 0.0
    floor_bgr: tuple[float, float, float] = (0.10, 0.10, 0.11)

    def __post_init__(self) -> None:
        p = tuple(float(v) for v in self.point_mm)
        b = tuple(float(v) for v in self.floor_bgr)
        if len(p) != 2 or not all(math.isfinite(v) for v in p):
            raise RenderError(f"table edge point_mm must be (x, y), not {self.point_mm!r}")
        if len(b) != 3 or not all(0.0 <= v <= 1.0 for v in b):
            raise RenderError(f"table edge floor_bgr must be 3 values in [0, 1], not {b!r}")
        if not math.isfinite(self.off_deg):
            raise RenderError(f"table edge off_deg must be a number, not {self.off_deg!r}")
        object.__setattr__(self, "point_mm", p)
        object.__setattr__(self, "floor_bgr", b)

    def beyond_mm(self, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
        """Signed distance past the edge (positive off the table)."""
        a = math.radians(self.off_deg)
        return (x_mm - self.point_mm[0]) * math.cos(a) + (y_mm - self.point_mm[1]) * math.sin(a)

    def lay_floor(self, image: np.ndarray, pose: CameraPose, seed: int) -> None:
        """Paints the floor beyond the edge and the edge's dark lip (float32 BGR, in place)."""
        view = table_view(pose)
        d = np.nan_to_num(self.beyond_mm(view.x_mm, view.y_mm), nan=1e6)
        px_per_mm = 0.5 * (view.ppm_min + view.ppm_max)
        soft = max(0.6 / px_per_mm, 0.3)  # an antialiased edge
        off = np.clip(d / soft + 0.5, 0.0, 1.0).astype(np.float32)
        if not off.any():
            return
        h, w = off.shape
        rng = np.random.default_rng([seed, 31337])
        coarse = rng.uniform(0.7, 1.3, (4, 6)).astype(np.float32)  # an unlit, blurred floor
        shade = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
        floor = np.asarray(self.floor_bgr, np.float32)[None, None, :] * shade[..., None]
        lip = np.exp(-((d + 1.5) / 1.2) ** 2).astype(np.float32)  # the rounded edge's shade
        image *= (1.0 - 0.5 * lip)[..., None]
        image *= (1.0 - off)[..., None]
        image += floor * off[..., None]
