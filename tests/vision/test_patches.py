"""Patches of the table at a fixed millimetre scale (the learned namer's input)."""

from __future__ import annotations

import numpy as np

from tabletop.render import CameraPose, RenderSettings, render_scene
from tabletop.scene import Piece, Scene
from vision.patches import PATCH_MM, PATCH_PX, normalise_patches, sample_patches, table_patches


def _rendered(tilt_deg: float, dist: tuple[float, ...] | None = None):
    scene = Scene((Piece("coin", 40.0, -30.0, suit="moons"),))
    pose = CameraPose.looking_at((0.0, 0.0), height_mm=850.0, tilt_deg=tilt_deg,
                                 image_size=(640, 360), hfov_deg=60.0, dist=dist)
    return render_scene(scene, pose, RenderSettings.clean(table="felt", seed=3))


def test_patch_is_centred_on_the_point_it_is_cut_around() -> None:
    """The coin's pale top fills the middle of its patch and is symmetric about it."""
    for tilt, dist in ((0.0, None), (20.0, None), (10.0, (-0.15, 0.02, 0.0, 0.0, 0.0))):
        r = _rendered(tilt, dist)
        raw = sample_patches(np.ascontiguousarray(r.image), r.calibration(), [[40.0, -30.0]])
        grey = raw[0].astype(float).mean(axis=2)
        pale = grey > 0.5 * (grey.max() + np.median(grey))
        ys, xs = np.nonzero(pale)
        s_mm = PATCH_MM / PATCH_PX
        cx, cy = (xs.mean() + 0.5) * s_mm - PATCH_MM / 2, (ys.mean() + 0.5) * s_mm - PATCH_MM / 2
        assert abs(cx) < 1.5 and abs(cy) < 2.5, (tilt, dist, cx, cy)  # tilt: the top leans
        width_mm = (xs.max() - xs.min() + 1) * s_mm
        assert 15.0 < width_mm < 23.0  # a 19.05 mm coin


def test_patch_channels_do_not_depend_on_the_light() -> None:
    """A patch over its own table colour reads the same under a dimmer light."""
    rng = np.random.default_rng(1)
    raw = rng.integers(40, 200, (3, PATCH_PX, PATCH_PX, 3)).astype(np.uint8)
    dim = (raw.astype(float) * 0.5).round().astype(np.uint8)
    a, b = normalise_patches(raw, 120.0), normalise_patches(dim, 60.0)
    assert np.abs(a - b).mean() < 0.05


def test_no_centres_no_patches() -> None:
    r = _rendered(0.0)
    assert table_patches(np.ascontiguousarray(r.image), r.calibration(), []).shape == (
        0, 6, PATCH_PX, PATCH_PX)
