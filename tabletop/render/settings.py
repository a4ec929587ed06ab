"""What a render looks like apart from the scene and the camera: :class:`RenderSettings`, and
:class:`Decal` (a flat printed sheet lying on the table)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop.render.errors import RenderError
from tabletop.render.lights import Blind, Daylight, Lamp
from tabletop.render.materials import MATERIALS

if TYPE_CHECKING:
    from tabletop.render.edge import TableEdge

TABLES: tuple[str, ...] = ("wood", "cloth", "felt", "linen")
"""The renderer's first table surfaces (what :meth:`RenderSettings.random` draws from)."""

SURFACES: tuple[str, ...] = TABLES + tuple(k for k in MATERIALS if k not in TABLES)
"""Every table surface the renderer can draw (:data:`TABLES` and
:data:`~tabletop.render.materials.MATERIALS`)."""

DEFAULT_TABLES = 4
"""How many different tables of each kind ``seed`` picks from when ``table_seed`` is None."""


def _check_range(name: str, value: float, lo: float, hi: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RenderError(f"{name} must be a number, not {value!r}")
    if not lo <= value <= hi:
        raise RenderError(f"{name} must be in [{lo}, {hi}], not {value}")


_EXTRAS = ("lamps", "blind", "daylight", "table_edge")


@dataclass(frozen=True)
class RenderSettings:
    """Light, table, hand and camera degradations of one render.

    Attributes:
        seed: Seeds every random choice (noise, hand pose, symbol rotations): same seed, same bytes.
        table: One of :data:`SURFACES`.
        table_seed: Seeds the table's texture alone, so a sequence of frames can share one
            table and differ in noise. None: one of :data:`DEFAULT_TABLES` tables picked by
            ``seed`` (textures are cached, so runs over many seeds stay fast; the planks' or
            weave's direction still follows ``seed``).
        table_angle_deg: Direction of the wood's planks or the cloth's weave (None: from the seed).
        light_dir_deg: Azimuth the light comes from, in the table frame (0 = from +x, 90 = from +y).
        light_elevation_deg: Height of the light above the horizon (90 = straight above).
        shadow_strength: How much light a shadow takes away, 0-1.
        shadow_softness_px: Extra blur of shadow edges (a bigger lamp), pixels.
        ambient: Share of light that is not directional (lights faces turned away), 0-1.
        exposure: Overall brightness factor.
        colour_temp_k: Colour of the light (white balance error), kelvin; 5500 is neutral.
        light_falloff: Brightness lost toward the far edge of the light pool, 0-1.
        glare: Strength of the lamp's mirror image on a glossy table and flat tops (0: matte).
        glare_shininess: Sharpness of that highlight (bigger: a smaller spot).
        noise_sigma: Sensor noise (standard deviation at mid-grey, 8-bit levels).
        blur_px: Optical blur (Gaussian sigma, pixels).
        motion_blur_px: Length of a straight camera-shake blur (pixels), 0 for none.
        motion_blur_angle_deg: Its direction in the image (None: from the seed).
        jpeg_quality: JPEG round trip at this quality, or None for none.
        vignette: Brightness lost in the image corners, 0-1.
        hand: Whether a hand and forearm reach over the table.
        hand_target_mm: Where the hand's fingertips are (None: from the seed, near a piece).
        hand_from_deg: Azimuth (table frame) the arm comes from (None: from the seed, the side
            nearest the camera wins most often).
        hand_height_mm: Height of the fingertips above the table.
        supersample: Rays per pixel side for the pieces (antialiasing); 1-4.
        lamps: Extra lamps (:class:`~tabletop.render.lights.Lamp`), each with its own shadows;
            the main lamp (``light_*``) keeps the rest of the direct light.
        blind: The striped shade of a window blind on the main lamp's light, or None.
        daylight: A window's light falling off across the table, or None.
        table_edge: Where the table ends (:class:`~tabletop.render.edge.TableEdge`; the floor
            beyond), or None.
    """

    seed: int = 0
    table: str = "wood"
    table_seed: int | None = None
    table_angle_deg: float | None = None
    light_dir_deg: float = 135.0
    light_elevation_deg: float = 60.0
    shadow_strength: float = 0.45
    shadow_softness_px: float = 1.5
    ambient: float = 0.45
    exposure: float = 1.0
    colour_temp_k: float = 5000.0
    light_falloff: float = 0.12
    glare: float = 0.0
    glare_shininess: float = 80.0
    noise_sigma: float = 2.5
    blur_px: float = 0.6
    motion_blur_px: float = 0.0
    motion_blur_angle_deg: float | None = None
    jpeg_quality: int | None = 85
    vignette: float = 0.25
    hand: bool = False
    hand_target_mm: tuple[float, float] | None = None
    hand_from_deg: float | None = None
    hand_height_mm: float = 35.0
    supersample: int = 2
    lamps: tuple[Lamp, ...] = ()
    blind: Blind | None = None
    daylight: Daylight | None = None
    table_edge: TableEdge | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise RenderError(f"seed must be an integer, not {self.seed!r}")
        if self.table not in SURFACES:
            raise RenderError(f"table must be one of {', '.join(SURFACES)}, not {self.table!r}")
        _check_range("light_elevation_deg", self.light_elevation_deg, 5.0, 90.0)
        _check_range("light_dir_deg", self.light_dir_deg, -360.0, 720.0)
        _check_range("shadow_strength", self.shadow_strength, 0.0, 1.0)
        _check_range("shadow_softness_px", self.shadow_softness_px, 0.0, 50.0)
        _check_range("ambient", self.ambient, 0.0, 1.0)
        _check_range("exposure", self.exposure, 0.05, 5.0)
        _check_range("colour_temp_k", self.colour_temp_k, 2000.0, 12000.0)
        _check_range("light_falloff", self.light_falloff, 0.0, 0.9)
        _check_range("glare", self.glare, 0.0, 3.0)
        _check_range("glare_shininess", self.glare_shininess, 2.0, 5000.0)
        _check_range("noise_sigma", self.noise_sigma, 0.0, 60.0)
        _check_range("blur_px", self.blur_px, 0.0, 30.0)
        _check_range("motion_blur_px", self.motion_blur_px, 0.0, 100.0)
        _check_range("vignette", self.vignette, 0.0, 0.95)
        _check_range("hand_height_mm", self.hand_height_mm, 5.0, 400.0)
        if self.jpeg_quality is not None:
            q = self.jpeg_quality
            if isinstance(q, bool) or not isinstance(q, int) or not 1 <= q <= 100:
                raise RenderError(f"jpeg_quality must be 1-100 or None, not {q!r}")
        if not isinstance(self.hand, bool):
            raise RenderError("hand must be True or False")
        if self.hand_target_mm is not None:
            object.__setattr__(self, "hand_target_mm",
                               tuple(float(v) for v in self.hand_target_mm))
        if not isinstance(self.supersample, int) or not 1 <= self.supersample <= 4:
            raise RenderError(f"supersample must be 1-4, not {self.supersample!r}")
        object.__setattr__(self, "lamps", tuple(self.lamps))
        if not all(isinstance(lp, Lamp) for lp in self.lamps):
            raise RenderError("lamps must be Lamp values")
        if sum(lp.share for lp in self.lamps) > 0.95:
            raise RenderError("the extra lamps' shares must leave the main lamp some light")
        if self.blind is not None and not isinstance(self.blind, Blind):
            raise RenderError("blind must be a Blind or None")
        if self.daylight is not None and not isinstance(self.daylight, Daylight):
            raise RenderError("daylight must be a Daylight or None")
        from tabletop.render.edge import TableEdge  # it draws with the table module

        if self.table_edge is not None and not isinstance(self.table_edge, TableEdge):
            raise RenderError("table_edge must be a TableEdge or None")

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON values (the light extras only when they are used)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _EXTRAS:
                if not value:
                    continue
                value = ([asdict(v) for v in value] if isinstance(value, tuple)
                         else asdict(value))
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @property
    def texture_seed(self) -> int:
        """The seed of the table texture."""
        return self.seed % DEFAULT_TABLES if self.table_seed is None else self.table_seed

    @classmethod
    def random(cls, seed: int, **kw: Any) -> RenderSettings:
        """Varied but plausible settings drawn from ``seed`` (table, light, camera faults), for
        tests that must not depend on one look; keyword arguments override the draw.

        >>> RenderSettings.random(3) == RenderSettings.random(3)
        True
        """
        rng = np.random.default_rng([seed, 4242])
        drawn: dict[str, Any] = {
            "seed": seed,
            "table": TABLES[int(rng.integers(len(TABLES)))],
            "light_dir_deg": float(rng.uniform(0.0, 360.0)),
            "light_elevation_deg": float(rng.uniform(35.0, 85.0)),
            "shadow_strength": float(rng.uniform(0.2, 0.6)),
            "shadow_softness_px": float(rng.uniform(0.5, 4.0)),
            "ambient": float(rng.uniform(0.3, 0.6)),
            "exposure": float(rng.uniform(0.8, 1.15)),
            "colour_temp_k": float(rng.uniform(3500.0, 6500.0)),
            "light_falloff": float(rng.uniform(0.0, 0.3)),
            "glare": float(rng.choice([0.0, 0.0, rng.uniform(0.2, 0.9)])),
            "glare_shininess": float(rng.uniform(30.0, 300.0)),
            "noise_sigma": float(rng.uniform(1.0, 5.0)),
            "blur_px": float(rng.uniform(0.3, 1.2)),
            "motion_blur_px": float(rng.choice([0.0, 0.0, 0.0, rng.uniform(2.0, 6.0)])),
            "jpeg_quality": int(rng.integers(70, 96)),
            "vignette": float(rng.uniform(0.05, 0.4)),
        }
        drawn.update(kw)
        return cls(**drawn)

    @classmethod
    def clean(cls, **kw: Any) -> RenderSettings:
        """Settings without noise, blur, vignette or JPEG (for exact measurements)."""
        base: dict[str, Any] = {"noise_sigma": 0.0, "blur_px": 0.0, "jpeg_quality": None,
                                "vignette": 0.0, "light_falloff": 0.0, "colour_temp_k": 5500.0}
        base.update(kw)
        return cls(**base)


@dataclass(frozen=True, eq=False)
class Decal:
    """A flat printed sheet lying on the table (the calibration mat, the Jungle board).

    Attributes:
        image_bgr: (H, W, 3) uint8 picture of the whole sheet, its top row toward world -y
            when ``angle_deg`` is 0.
        size_mm: (width, height) of the sheet.
        centre_mm: (x, y) of the sheet's centre on the table.
        angle_deg: Rotation from +x toward +y (clockwise in the default image).
    """

    image_bgr: np.ndarray
    size_mm: tuple[float, float]
    centre_mm: tuple[float, float] = (0.0, 0.0)
    angle_deg: float = 0.0

    def __post_init__(self) -> None:
        img = np.asarray(self.image_bgr)
        if img.ndim == 2:
            img = np.repeat(img[:, :, None], 3, axis=2)
        if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8 or min(img.shape[:2]) < 2:
            raise RenderError("a decal's image must be an (H, W, 3) uint8 array")
        object.__setattr__(self, "image_bgr", img)
        w, h = (float(v) for v in self.size_mm)
        if not (w > 0 and h > 0):
            raise RenderError(f"a decal's size must be positive, not {self.size_mm}")
        object.__setattr__(self, "size_mm", (w, h))
        object.__setattr__(self, "centre_mm", tuple(float(v) for v in self.centre_mm))
        object.__setattr__(self, "angle_deg", float(self.angle_deg))

    def corners_mm(self) -> np.ndarray:
        """The sheet's corners (4, 2) on the table: top-left, top-right, bottom-right,
        bottom-left (as the image reads)."""
        w, h = self.size_mm
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        a = math.radians(self.angle_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return local @ rot.T + np.asarray(self.centre_mm)

    @classmethod
    def of(cls, image_bgr: np.ndarray, size_mm: Sequence[float],
           centre_mm: Sequence[float] = (0.0, 0.0), angle_deg: float = 0.0) -> Decal:
        """Keyword-free constructor."""
        return cls(image_bgr, (float(size_mm[0]), float(size_mm[1])),
                   (float(centre_mm[0]), float(centre_mm[1])), angle_deg)
