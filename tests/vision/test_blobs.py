"""vision.blobs gives exactly the components of a full connected-components labelling."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.blobs import blobs


def _reference(mask: np.ndarray) -> set[tuple[int, int, int, int, int, bytes]]:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = set()
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        own = np.where(labels[y:y + h, x:x + w] == i, 255, 0).astype(np.uint8)
        out.add((x, y, w, h, a, own.tobytes()))
    return out


def _ours(mask: np.ndarray) -> set[tuple[int, int, int, int, int, bytes]]:
    out = set()
    for b in blobs(mask):
        own, x0, y0 = b.mask()
        assert (x0, y0) == (b.x, b.y)
        assert int(np.count_nonzero(own)) == b.area
        out.add((b.x, b.y, b.w, b.h, b.area, own.tobytes()))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_blobs_are_the_connected_components(seed: int) -> None:
    rng = np.random.default_rng(seed)
    noise = rng.random((90, 120))
    mask = np.where(cv2.GaussianBlur(noise, (0, 0), 1.0 + seed % 3) > 0.52, 255, 0).astype(
        np.uint8)
    assert _ours(mask) == _reference(mask)


def test_rings_and_what_lies_inside_them() -> None:
    mask = np.zeros((60, 60), np.uint8)
    cv2.circle(mask, (30, 30), 20, 255, 3)  # a ring (a worm closed in a loop)
    cv2.circle(mask, (30, 30), 5, 255, -1)  # a disc inside its hole
    mask[0, 0] = mask[59, 59] = 255  # lone pixels at the corners
    mask[10, 50:52] = 255  # diagonal neighbours belong together
    mask[11, 52] = 255
    assert _ours(mask) == _reference(mask)
    assert len(list(blobs(mask))) == 5


def test_small_boxes_are_skipped_and_points_are_the_pixels() -> None:
    mask = np.zeros((40, 40), np.uint8)
    mask[2:4, 2:4] = 255
    mask[10:30, 10:20] = 255
    found = list(blobs(mask, min_box_area=10))
    assert [(b.w, b.h) for b in found] == [(10, 20)]
    pts = found[0].points()
    assert len(pts) == 200 and pts[:, 0].min() == 10 and pts[:, 1].max() == 29
