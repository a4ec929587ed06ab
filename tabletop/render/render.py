"""``render_scene``: a scene of pieces in table millimetres, as an overhead webcam sees it, with the
exact pixel positions of every piece (:class:`PieceTruth`) and calibration points."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tabletop.calibration import Calibration, Lens
from tabletop.pieceset import PieceSet
from tabletop.render.camera import CameraPose
from tabletop.render.degrade import illuminate, optics, sensor
from tabletop.render.errors import RenderError
from tabletop.render.glare import glare_map
from tabletop.render.hand import draw_hand, hand_capsules
from tabletop.render.lights import blind_on_plane, lamp_gains
from tabletop.render.pieces import piece_height_mm, shape_of
from tabletop.render.raytrace import (
    Lamps,
    Layer,
    composite,
    light_vector,
    trace,
    visible_fractions,
)
from tabletop.render.settings import Decal, RenderSettings
from tabletop.render.shadows import apply_lamp_shadows, shadow_masks
from tabletop.render.shapes import Shape
from tabletop.render.table import draw_decal, draw_table, table_view
from tabletop.scene import Piece, Scene

OCCLUDED_BELOW = 0.95
"""A piece whose top face is less visible than this is ``occluded``."""


@dataclass(frozen=True)
class PieceTruth:
    """Where one scene piece is in the image (exact, from the camera model).

    Attributes:
        centre_px: (u, v) raw pixel of the footprint's centre on the table (z = 0).
        top_px: (u, v) raw pixel of the centre of its top face (z = height).
        visible_fraction: Share of its top face in view (0 outside the image or hidden).
        occluded: True when less than :data:`OCCLUDED_BELOW` of its top is in view.
        height_mm: Height of its top above the table.
        kind: The piece's kind.
    """

    centre_px: tuple[float, float]
    top_px: tuple[float, float]
    visible_fraction: float
    occluded: bool
    height_mm: float
    kind: str

    def __getitem__(self, key: str) -> Any:
        """Dict-style access (``truth["centre_px"]``)."""
        return getattr(self, key)

    def to_json(self) -> dict[str, Any]:
        """JSON object (pixel values rounded to 1e-4)."""
        return {"kind": self.kind,
                "centre_px": [round(self.centre_px[0], 4), round(self.centre_px[1], 4)],
                "top_px": [round(self.top_px[0], 4), round(self.top_px[1], 4)],
                "height_mm": self.height_mm, "visible_fraction": self.visible_fraction,
                "occluded": self.occluded}


@dataclass(frozen=True, eq=False)
class Rendered:
    """One rendered frame and its ground truth.

    Attributes:
        image: (H, W, 3) uint8 BGR (read-only; copy it to draw on it).
        truth: One :class:`PieceTruth` per scene piece, in scene order.
        calibration_points: ``[{"pixel": [u, v], "world": [x, y]}, ...]`` on the table, raw
            pixels (the contract's POINTS.json).
        hand_mask: (H, W) bool, where the hand and arm are.
        pose: The camera.
        settings: The render settings.
        scene: The scene drawn.
        distractors: Things on the table that are not pieces (``{"kind", "centre_mm",
            "size_mm", ...}``), when the caller says what it laid there.
        conditions: The kind of table, light and clutter (``{"table": ..., ...}``), when the
            caller drew them (:mod:`tabletop.render.variety`); None otherwise.
    """

    image: np.ndarray
    truth: tuple[PieceTruth, ...]
    calibration_points: list[dict[str, list[float]]]
    hand_mask: np.ndarray
    pose: CameraPose
    settings: RenderSettings
    scene: Scene
    distractors: tuple[dict[str, Any], ...] = ()
    conditions: Mapping[str, str] | None = None

    def calibration(self) -> Calibration:
        """The exact calibration of this view (with the lens when the pose has distortion)."""
        H = np.linalg.inv(self.pose.table_homography)
        lens = None
        if self.pose.dist is not None:
            lens = Lens(self.pose.image_size, self.pose.K, self.pose.dist, 0.0)
        return Calibration(self.pose.image_size, H / H[2, 2], lens, 0.0,
                           {"source": "tabletop.render (exact)"})

    def truth_json(self, image_name: str | None = None) -> dict[str, Any]:
        """Ground truth in the manner of ``../shared/devscenes``: camera, points, pieces (and the
        distractors and conditions when :attr:`conditions` is set)."""
        w, h = self.pose.image_size
        pieces = []
        for p, t in zip(self.scene.pieces, self.truth, strict=True):
            pieces.append({**p.to_json(), "height_mm": t.height_mm,
                           "pixel_base": list(t.to_json()["centre_px"]),
                           "pixel_top": list(t.to_json()["top_px"]),
                           "occluded": t.occluded, "visible_fraction": t.visible_fraction})
        out = {"image": image_name, "width": w, "height": h, "camera": self.pose.to_json(),
               "calibration_points": self.calibration_points, "pieces": pieces,
               "hand": bool(self.hand_mask.any()), "settings": self.settings.to_json()}
        if self.conditions is not None:
            out["distractors"] = [dict(d) for d in self.distractors]
            out["conditions"] = dict(self.conditions)
        return out


def calibration_points(pose: CameraPose, n_across: int = 7, n_down: int = 5,
                       inset: float = 0.06) -> list[dict[str, list[float]]]:
    """Table points at whole millimetres spread over the view, with their raw pixels."""
    w, h = pose.image_size
    us = np.linspace(inset * w, (1 - inset) * w, n_across)
    vs = np.linspace(inset * h, (1 - inset) * h, n_down)
    u, v = np.meshgrid(us, vs)
    x, y = pose.pixels_to_table(u.ravel(), v.ravel())
    out = []
    for xm, ym in zip(np.round(x), np.round(y), strict=True):
        if not (math.isfinite(xm) and math.isfinite(ym)):
            continue
        px = pose.project_table([[xm, ym]])[0]
        if 0 <= px[0] <= w - 1 and 0 <= px[1] <= h - 1:
            out.append({"pixel": [float(px[0]), float(px[1])], "world": [float(xm), float(ym)]})
    return out


_LAYERS: OrderedDict[tuple, Layer | None] = OrderedDict()
_LAYER_CACHE_SIZE = 512


def _traced(piece: Piece, index: int, shape: Shape, pieces: PieceSet, pose: CameraPose,
            light: np.ndarray, settings: RenderSettings, lamps: Lamps | None = None,
            ) -> Layer | None:
    """Traces a piece, or reuses its layer from an earlier frame with the same camera and light
    (a sequence of frames mostly shows pieces that have not moved)."""
    key: tuple = (pose.key(), tuple(np.round(light, 12)), settings.ambient,
                  settings.supersample, piece, index, repr(pieces))
    if lamps is not None:
        key += tuple((tuple(np.round(v, 12)), tuple(np.round(g, 9))) for v, g in lamps)
    if key in _LAYERS:
        _LAYERS.move_to_end(key)
        return _LAYERS[key]
    layer = trace(shape, pose, light, settings.ambient, settings.supersample, lamps)
    _LAYERS[key] = layer
    while len(_LAYERS) > _LAYER_CACHE_SIZE:
        _LAYERS.popitem(last=False)
    return layer


def _hand_target(scene: Scene, pose: CameraPose, rng: np.random.Generator) -> tuple[float, float]:
    w, h = pose.image_size
    inside = []
    for p in scene.pieces:
        u, v = pose.project_table([[p.x_mm, p.y_mm]])[0]
        if 0.1 * w < u < 0.9 * w and 0.1 * h < v < 0.9 * h:
            inside.append(p)
    if inside:
        p = inside[int(rng.integers(len(inside)))]
        return (p.x_mm + rng.uniform(-15, 15), p.y_mm + rng.uniform(-15, 15))
    x, y = pose.pixels_to_table(np.array([rng.uniform(0.25, 0.75) * w]),
                                np.array([rng.uniform(0.25, 0.75) * h]))
    return (float(x[0]), float(y[0]))


def _light_direction_px(pose: CameraPose, light: np.ndarray) -> tuple[float, float]:
    w, h = pose.image_size
    x, y = pose.pixels_to_table(np.array([(w - 1) / 2.0]), np.array([(h - 1) / 2.0]))
    norm = math.hypot(light[0], light[1])
    if norm < 1e-6 or not math.isfinite(float(x[0])):
        return (0.0, 0.0)
    a = np.array([[x[0], y[0]], [x[0] + 200 * light[0] / norm, y[0] + 200 * light[1] / norm]])
    p = pose.project_table(a)
    d = p[1] - p[0]
    n = float(np.hypot(*d))
    return (float(d[0] / n), float(d[1] / n)) if n > 0 else (0.0, 0.0)


def _under_blind(layer: Layer | None, shape: Shape, pose: CameraPose, settings: RenderSettings,
                 light: np.ndarray) -> Layer | None:
    """A layer's colour with the blind's bands at its top's height (a new layer)."""
    if layer is None or settings.blind is None:
        return layer
    f = blind_on_plane(settings.blind, pose, layer.roi, shape.height_mm, light)
    return replace(layer, colour=layer.colour * f[..., None])


def render_scene(scene: Scene, pose: CameraPose, settings: RenderSettings | None = None,
                 pieces: PieceSet | None = None, decals: Iterable[Decal] = (),
                 props: Iterable[Shape] = ()) -> Rendered:
    """Draws ``scene`` as the camera ``pose`` sees it.

    Args:
        scene: Pieces in table millimetres.
        pose: The camera.
        settings: Light, table, hand, degradations (default :class:`RenderSettings`).
        pieces: Sizes and colours (default :class:`PieceSet`).
        decals: Printed sheets lying flat on the table, under the pieces.
        props: Solids on the table that are not pieces (a mug, a phone, dice): drawn, casting
            shadows and hiding what is behind them, but not in the truth.

    Returns:
        The image with its ground truth.

    Raises:
        RenderError: an argument of the wrong type.
    """
    if not isinstance(scene, Scene):
        raise RenderError(f"render_scene draws a Scene, not {type(scene).__name__}")
    if not isinstance(pose, CameraPose):
        raise RenderError(f"render_scene needs a CameraPose, not {type(pose).__name__}")
    settings = settings or RenderSettings()
    pieces = pieces or PieceSet()
    decals = list(decals)
    for d in decals:
        if not isinstance(d, Decal):
            raise RenderError(f"decals must be Decal values, not {type(d).__name__}")
    props = list(props)
    for sh in props:
        if not isinstance(sh, Shape):
            raise RenderError(f"props must be Shape values, not {type(sh).__name__}")
    rng = np.random.default_rng(settings.seed)
    table_rng = np.random.default_rng([settings.seed if settings.table_seed is None
                                       else settings.table_seed, 1])
    angle = settings.table_angle_deg
    if angle is None:
        angle = float(table_rng.choice([0.0, 90.0]) + table_rng.uniform(-25.0, 25.0))
    image = draw_table(pose, settings.table, settings.texture_seed, angle)  # a new array
    for d in decals:
        draw_decal(image, pose, d)
    if settings.table_edge is not None:
        settings.table_edge.lay_floor(image, pose, settings.texture_seed)
    light = light_vector(settings.light_dir_deg, settings.light_elevation_deg)
    shapes = [shape_of(p, i, pieces) for i, p in enumerate(scene.pieces)]
    lamps: Lamps | None = None
    if settings.lamps:
        gains = lamp_gains(settings.colour_temp_k, settings.lamps)
        lamps = tuple([(light, gains[0])] + [
            (light_vector(lp.dir_deg, lp.elevation_deg), g)
            for lp, g in zip(settings.lamps, gains[1:], strict=True)])
    view = table_view(pose) if settings.blind or settings.daylight else None
    if settings.blind is not None and view is not None:
        image *= settings.blind.factor(view.x_mm, view.y_mm)[..., None]
    if lamps is None:
        shadow_masks(shapes + props, pose, light, settings.shadow_softness_px).apply(
            image, settings.shadow_strength)
    else:
        apply_lamp_shadows(image, shapes + props, pose, lamps, settings.shadow_softness_px,
                           settings.shadow_strength)
    layers = [_traced(p, i, shape, pieces, pose, light, settings, lamps)
              for i, (p, shape) in enumerate(zip(scene.pieces, shapes, strict=True))]
    prop_layers = [trace(sh, pose, light, settings.ambient, settings.supersample, lamps)
                   for sh in props]
    if settings.blind is not None:
        drawn = [_under_blind(ly, sh, pose, settings, light)
                 for ly, sh in zip(layers + prop_layers, shapes + props, strict=True)]
    else:
        drawn = layers + prop_layers
    composite(image, [ly for ly in drawn if ly is not None])
    if settings.daylight is not None and view is not None:
        image *= settings.daylight.gain(view.x_mm, view.y_mm)[..., None]
    w, h = pose.image_size
    occluder = np.zeros((h, w), np.float32)
    if settings.hand:
        target = settings.hand_target_mm or _hand_target(scene, pose, rng)
        from_deg = settings.hand_from_deg
        if from_deg is None:
            near = math.degrees(math.atan2(pose.R[1, 1], pose.R[1, 0]))  # image-down azimuth
            from_deg = near + rng.uniform(-70.0, 70.0)
        thumb = 1.0 if rng.uniform() < 0.8 else -1.0
        caps = hand_capsules(target, from_deg, settings.hand_height_mm, thumb)
        hand = draw_hand(pose, caps, light, settings.ambient, rng,
                         blur_len_px=rng.uniform(2.0, 7.0),
                         shadow_softness_px=4.0 + 2.0 * settings.shadow_softness_px)
        hand.lay_onto(image, 0.9 * settings.shadow_strength)
        occluder = hand.alpha_full(pose.image_size)
    if settings.glare > 0:
        spot = glare_map(pose, light, settings.glare_shininess) * np.float32(settings.glare)
        if settings.hand:
            spot = spot * (1.0 - occluder)
        image += spot[..., None]
    fractions = visible_fractions(layers + prop_layers, occluder)[:len(layers)]
    image = illuminate(image, settings, _light_direction_px(pose, light))
    image = optics(image, settings, rng)
    out = sensor(image, settings, rng)
    out.setflags(write=False)
    truth = []
    for p, f in zip(scene.pieces, fractions, strict=True):
        hgt = piece_height_mm(p, pieces)
        c, t = pose.project([[p.x_mm, p.y_mm, 0.0], [p.x_mm, p.y_mm, hgt]])
        truth.append(PieceTruth((float(c[0]), float(c[1])), (float(t[0]), float(t[1])), f,
                                f < OCCLUDED_BELOW, hgt, p.kind))
    hand_mask = occluder > 0.5
    hand_mask.setflags(write=False)
    return Rendered(out, tuple(truth), calibration_points(pose), hand_mask, pose, settings,
                    scene)


def default_pose_for(scene: Scene, height_mm: float = 900.0, tilt_deg: float = 10.0,
                     yaw_deg: float = 0.0, image_size: Sequence[int] = (1280, 720),
                     hfov_deg: float = 60.0) -> CameraPose:
    """A camera looking at the middle of the scene's pieces (the origin for an empty scene)."""
    if len(scene):
        c = scene.centres_mm()
        target = ((c[:, 0].min() + c[:, 0].max()) / 2.0, (c[:, 1].min() + c[:, 1].max()) / 2.0)
    else:
        target = (0.0, 0.0)
    return CameraPose.looking_at(target, height_mm, tilt_deg, yaw_deg, image_size, hfov_deg)
