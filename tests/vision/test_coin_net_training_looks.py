"""The centre net's harder training looks (session 12: coins with no peak under a glare or a
far, blurred camera): a glare's lobe washes a coin out where it lies, a camera's blur keeps
the level and the piece where they were, the crops keep their targets on their pieces under
every look, and a run that asks for none draws what it drew before they came."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from centre_sampler import only_choices, parse_only

from tabletop.render.variety import LIGHT_KINDS, TABLE_KINDS


def _coin_view():
    from train_centres import View

    top = np.full((300, 360, 3), 90, np.uint8)
    valid = np.ones((300, 360), np.uint8)
    yy, xx = np.mgrid[0:300, 0:360]
    top[(xx - 180) ** 2 + (yy - 150) ** 2 <= 25] = 200  # a coin at (180, 150)
    centres = np.array([[180.0, 150.0, 0, 1]], np.float32)
    return View({"top0": top, "valid0": valid}, 0, centres, 100.0, 1,
                {"table_family": "wood", "light": "soft", "clutter": "none"})


def test_glare_lobe_washes_out_the_piece_it_is_laid_over() -> None:
    from train_centres import glare_light

    for s in range(6):
        g = glare_light(120, 120, np.array([60.0, 60.0]), np.random.default_rng(s))
        peak = np.unravel_index(int(np.argmax(g)), g.shape)
        sigma_px = 90.0 / 2.0
        assert np.hypot(peak[0] - 60, peak[1] - 60) <= sigma_px * 1.5
        assert 60.0 <= g.max() <= 400.0 and g.min() >= 0.0


def test_camera_blur_keeps_the_level_and_the_piece_in_place() -> None:
    from train_centres import camera_blur

    img = np.full((80, 80, 3), 90.0, np.float32)
    img[37:44, 37:44] = 220.0
    for s in range(8):
        out = camera_blur(img, np.random.default_rng(s))
        assert out.shape == img.shape
        assert abs(float(out.mean()) - float(img.mean())) < 0.5
        assert np.count_nonzero((out[..., 0] > 95.0) & (out[..., 0] < 215.0)) >= 8  # soft
        ys, xs = np.nonzero(out[..., 0] > 100.0)
        w = out[ys, xs, 0] - 90.0
        cy, cx = np.average(ys, weights=w), np.average(xs, weights=w)
        assert abs(cy - 40.0) < 0.6 and abs(cx - 40.0) < 0.6  # no shift of the centre


def _coin_target_contrasts(augment: object, seed: int, channel: int
                           ) -> tuple[list[float], list[np.ndarray]]:
    """Six batches of four crops of the coin view drawn with ``augment``: for each crop whose
    coin target peaks, the input ``channel`` at the peak less 12 px to its side; and the
    batches' inputs."""
    from train_centres import STRIDE, sample

    v = _coin_view()
    rng = np.random.default_rng(seed)
    contrasts, batches = [], []
    for _ in range(6):
        xb, tb, _ = sample([v], rng, 4, augment=augment)
        batches.append(xb)
        for x, t in zip(xb, tb, strict=True):
            if t[0].max() < 0.5:
                continue
            y, x_ = np.unravel_index(np.argmax(t[0]), t[0].shape)
            py, px = y * STRIDE, x_ * STRIDE
            contrasts.append(float(x[channel, py, px] - x[channel, py,
                                                           px - 12 if px >= 12 else px + 12]))
    return contrasts, batches


def test_crops_under_blur_keep_their_targets_on_the_coin() -> None:
    from train_centres import Augment

    contrasts, _ = _coin_target_contrasts(Augment(blind=0.0, glare=0.0, blur=1.0), 7, 1)
    # blurred, turned, mirrored and exposed, the coin is still brighter there
    assert all(c > 0.2 for c in contrasts)
    assert len(contrasts) >= 6


def test_crops_under_glare_stay_finite_and_in_range() -> None:
    from train_centres import Augment, sample

    xb, tb, wb = sample([_coin_view()], np.random.default_rng(8), 6,
                        augment=Augment(blind=0.5, glare=1.0, blur=0.5))
    assert np.isfinite(xb).all() and np.isfinite(tb).all() and np.isfinite(wb).all()
    assert float(np.abs(xb[:, :6]).max()) <= 4.0


def test_no_harder_look_asked_draws_as_before() -> None:
    from train_centres import Augment, sample

    v = _coin_view()
    a = sample([v], np.random.default_rng(3), 3)
    b = sample([v], np.random.default_rng(3), 3, augment=Augment(glare=0.0, blur=0.0))
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)


def test_only_pins_each_seed_to_one_of_the_values_given() -> None:
    only = parse_only(["light=blind,glare", "table=marble,cloth-grey"])
    picks = [only_choices(s, only) for s in range(132500, 132600)]
    assert {p["light"] for p in picks} == {"blind", "glare"}
    assert {p["table"] for p in picks} == {"marble", "cloth-grey"}
    assert all(p["light"] in LIGHT_KINDS and p["table"] in TABLE_KINDS for p in picks)
    assert only_choices(132501, only) == only_choices(132501, only)
    with pytest.raises(ValueError, match="hand=yes"):
        parse_only(["hand=yes"])


def test_dim_room_darkens_warms_and_adds_noise() -> None:
    from train_centres import dim_room

    img = np.full((60, 60, 3), 120.0, np.float32)
    for s in range(6):
        out, gain = dim_room(img, np.random.default_rng(s))
        b, g, r = (float(out[..., c].mean()) for c in range(3))
        assert b < g < r <= 120.0 * 0.7 + 1.0 and r >= 120.0 * 0.35 - 1.0  # warm and dark
        assert abs(gain - (b + g + r) / 3 / 120.0) < 0.02
        assert 1.5 < float(out[..., 2].std()) < 7.0  # the camera's noise


def test_crops_in_a_dim_room_keep_their_targets_on_the_coin() -> None:
    from train_centres import Augment

    contrasts, batches = _coin_target_contrasts(Augment(blind=0.0, dim=1.0), 11, 0)
    assert all(np.isfinite(xb).all() for xb in batches)
    assert all(c > 0.2 for c in contrasts)
    assert len(contrasts) >= 6
