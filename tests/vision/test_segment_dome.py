"""What says "a dome lit from above" to the segment judge
(``vision.segment_features.dome_features``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.segment_features import ANGLES, RINGS, disc_features, dome_features

R = 12.0


def lit_dome(light_deg: float, size: int = 80) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value, mask, level) of a dome of radius R at the middle, lit from ``light_deg``: its
    highlight off the middle towards the lamp, its shadow on the table away from it."""
    a = math.radians(light_deg)
    c = size / 2
    yy, xx = np.mgrid[:size, :size].astype(np.float32)
    lx, ly = math.cos(a), math.sin(a)
    level = np.ones((size, size), np.float32)
    sx, sy = c - 0.5 * R * lx, c - 0.5 * R * ly  # the shadow, cast away from the lamp
    level[(xx - sx) ** 2 + (yy - sy) ** 2 <= R * R] = 0.55
    d2 = (xx - c) ** 2 + (yy - c) ** 2
    inside = d2 <= R * R
    hx, hy = c + 0.35 * R * lx, c + 0.35 * R * ly
    shade = 120 + 110 * np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (0.3 * R) ** 2))
    value = np.where(inside, shade, 150 * level).astype(np.float32)
    level = np.where(inside, value / 150, level).astype(np.float32)
    mask = inside.astype(np.float32)
    return value, mask, level


def rings(img: np.ndarray) -> np.ndarray:
    """Samples (1, R, A) of an image on the feature rings round its middle."""
    from vision.sampling import bilinear

    a = np.arange(ANGLES) * 2 * np.pi / ANGLES
    rho = np.asarray(RINGS) * R
    c = img.shape[0] / 2
    pts = c + rho[:, None, None] * np.stack([np.cos(a), np.sin(a)], axis=1)[None]
    return bilinear(img, pts[None])


@pytest.mark.parametrize("light_deg", [0.0, 75.0, 160.0, 250.0])
def test_a_lit_dome_s_highlight_and_shadow_lie_on_opposite_sides(light_deg: float) -> None:
    value, mask, level = lit_dome(light_deg)
    shade = rings(value) / np.median(rings(value)[:, np.asarray(RINGS) <= 0.84])
    f = dome_features(shade, rings(mask), rings(level))
    cos, amp = f[0, -3], f[0, -2]
    assert cos > 0.9 and amp > 1e-3


def test_a_flat_patch_of_colour_has_no_highlight_nor_shadow() -> None:
    size = 80
    mask = np.zeros((size, size), np.float32)
    cv2.circle(mask, (40, 40), round(R), 1.0, -1)
    flat = np.full((size, size), 130.0, np.float32)
    f = dome_features(rings(flat) / 130.0, rings(mask), rings(np.ones_like(flat)))
    assert f[0, -2] < 1e-6  # no lean on either side: no pair to agree
    assert np.all(f[0, :2 * len(RINGS)] < 1e-3)


def test_a_bar_of_colour_is_not_covered_all_round_as_a_disc_is() -> None:
    disc = np.zeros((80, 80), np.float32)
    cv2.circle(disc, (40, 40), round(R), 1.0, -1)
    bar = np.zeros((80, 80), np.float32)
    cv2.line(bar, (0, 40), (79, 40), 1.0, 7)  # a pencil through the candidate
    ring = int(np.argmin(np.abs(np.asarray(RINGS) - 0.6)))
    n = len(RINGS)
    fd = dome_features(np.ones((1, n, ANGLES)), rings(disc), np.ones((1, n, ANGLES)))
    fb = dome_features(np.ones((1, n, ANGLES)), rings(bar), np.ones((1, n, ANGLES)))
    # the mask's second harmonic, then its least cover, on the ring at 0.6 radii
    assert fb[0, 2 * n + ring] > 0.3 > fd[0, 2 * n + ring]
    assert fd[0, 3 * n + ring] == 1.0 and fb[0, 3 * n + ring] == 0.0


def test_the_features_of_a_candidate_end_with_its_dome_features() -> None:
    value, mask, level = lit_dome(30.0)
    imgs = (value, mask, mask, mask, level)
    f = disc_features(imgs, np.array([[40.0, 40.0]]), R)
    assert f.shape[1] == 130 + 4 * len(RINGS) + 3
    assert f[0, -3] > 0.9
