"""Worm Up! segments found by their outline where their colour is the table's own: a row of
shaded red domes on a red cloth (the colour mask holds cloth and domes alike) gives one centre
per dome at the dome's place; a cloth's square checks of a segment's size give none."""

from __future__ import annotations

import cv2
import numpy as np

from vision.segment_domes import DomeConfig, circle_votes, dome_centres

R = 10.0


def _red_cloth(h: int = 120, w: int = 200, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.zeros((h, w, 3), np.float32)
    img[...] = (45, 50, 200)  # BGR: a red cloth
    img += rng.normal(0, 4, img.shape)
    return img


def _dome(img: np.ndarray, cx: float, cy: float, r: float) -> None:
    """A lit red half-sphere: brightest at its middle, darker to its rim than the cloth."""
    yy, xx = np.mgrid[:img.shape[0], :img.shape[1]]
    d = np.hypot(xx - cx, yy - cy) / r
    inside = d < 1
    shade = np.sqrt(np.clip(1 - d ** 2, 0, 1))  # a sphere's cosine to a lamp overhead
    colour = np.array([40, 45, 215], np.float32)
    img[inside] = colour * (0.45 + 0.65 * shade[inside, None])


def test_segment_domes_red_domes_on_a_red_cloth_are_found_one_a_dome():
    img = _red_cloth()
    truth = [(40.0 + 2 * R * k + 0.3 * k, 60.0) for k in range(6)]
    for x, y in truth:
        _dome(img, x, y, R)
    bgr = np.clip(img, 0, 255).astype(np.uint8)
    coloured = np.full(bgr.shape[:2], 255, np.uint8)  # the whole cloth is of a segment's colour
    centres, edges = dome_centres(DomeConfig(), bgr, coloured, R)
    assert len(centres) == len(truth), centres
    for x, y in truth:
        assert np.min(np.hypot(*(centres - [x, y]).T)) < 2.0
    assert len(edges)


def test_segment_domes_square_checks_of_a_segments_size_are_no_domes():
    img = _red_cloth()
    for y in range(0, 120, 40):
        for x in range(0, 200, 40):
            img[y:y + 20, x:x + 20] = (200, 200, 210)  # a gingham's pale checks
    bgr = np.clip(img, 0, 255).astype(np.uint8)
    coloured = np.full(bgr.shape[:2], 255, np.uint8)
    centres, _ = dome_centres(DomeConfig(), bgr, coloured, R)
    assert len(centres) == 0, centres


def test_segment_domes_nothing_searched_where_no_pixel_is_coloured():
    img = _red_cloth()
    _dome(img, 60.0, 60.0, R)
    bgr = np.clip(img, 0, 255).astype(np.uint8)
    centres, _ = dome_centres(DomeConfig(), bgr, np.zeros(bgr.shape[:2], np.uint8), R)
    assert len(centres) == 0


def test_segment_domes_votes_peak_at_a_rings_centre_whichever_side_is_brighter():
    for inner, outer in ((220, 60), (60, 220)):
        img = np.full((60, 60), outer, np.uint8)
        yy, xx = np.mgrid[:60, :60]
        img[np.hypot(xx - 28, yy - 31) < R] = inner
        gx = np.zeros((60, 60), np.float32)
        gy = np.zeros((60, 60), np.float32)
        gx[...] = cv2.Sobel(img, cv2.CV_32F, 1, 0)
        gy[...] = cv2.Sobel(img, cv2.CV_32F, 0, 1)
        v = circle_votes(cv2.Canny(img, 50, 100), gx, gy, R)
        y, x = np.unravel_index(int(np.argmax(v)), v.shape)
        assert abs(int(x) - 28) <= 1 and abs(int(y) - 31) <= 1


def test_segment_domes_peaks_kept_are_apart_and_every_other_maximum_lies_by_a_better_one():
    from vision.segment_domes import apart_peaks

    rng = np.random.default_rng(5)
    votes = cv2.GaussianBlur(rng.random((80, 120)).astype(np.float32), (0, 0), 2.0)
    ok = rng.random((80, 120)) < 0.7
    kept = apart_peaks(votes, ok, 12.0)
    assert len(kept) >= 10
    d = np.hypot(*(kept[:, None] - kept[None]).transpose(2, 0, 1))
    assert (d[~np.eye(len(kept), dtype=bool)] >= 12.0).all()
    v_kept = votes[kept[:, 1].astype(int), kept[:, 0].astype(int)]
    assert (np.diff(v_kept) <= 0).all()  # best first
    held = np.where(ok, votes, 0).astype(np.float32)
    ys, xs = np.nonzero(ok & (held >= cv2.dilate(held, np.ones((3, 3), np.uint8))))
    for x, y in zip(xs, ys, strict=True):  # each maximum left out: a better one kept near it
        near = np.hypot(kept[:, 0] - x, kept[:, 1] - y) < 12.0
        assert near.any() and (v_kept[near] >= votes[y, x]).any()


def test_segment_domes_edge_points_match_the_near_centres_as_against_all_of_them():
    from vision.segments import nearest_two

    rng = np.random.default_rng(8)
    pts = np.round(rng.uniform(0, 300, (3000, 2)))
    cs = rng.uniform(0, 300, (150, 2))
    near, first, second = nearest_two(pts, np.argsort(pts[:, 0], kind="stable"), cs, 13.5)
    d = np.hypot(*(pts[:, None] - cs[None]).transpose(2, 0, 1))
    nd = np.sort(d, axis=1)
    within = nd[:, 0] <= 13.5
    assert within.any() and (~within).any()
    assert (near[within] == np.argmin(d, axis=1)[within]).all() and (near[~within] == -1).all()
    assert np.allclose(first[within], nd[within, 0]) and np.isinf(first[~within]).all()
    two = nd[:, 1] <= 13.5
    assert np.allclose(second[two], nd[two, 1]) and np.isinf(second[~two]).all()


def test_segment_domes_a_cloth_of_rings_gives_a_centre_fitted_on_each_ring():
    """A cloth of rings of a segment's size (a gingham's checks read as a thousand candidates)
    each found and fitted to its own ring (the fit matches points to the centres near them)."""
    from vision.segments import refine_centres

    img = np.full((400, 400), 200, np.uint8)
    for y in range(15, 400, 24):
        for x in range(15, 400, 24):
            cv2.circle(img, (x, y), 10, 60, 2)
    bgr = cv2.merge([img // 4, img // 3, img])
    cs, pts = dome_centres(DomeConfig(), bgr, np.full(img.shape, 255, np.uint8), R)
    assert len(cs) >= 250 and len(pts) > 10000
    fitted = np.array(refine_centres(list(cs), pts, R))
    assert fitted.shape == cs.shape and np.isfinite(fitted).all()
    assert np.median(np.hypot(*(fitted - np.round((fitted - 15) / 24) * 24 - 15).T)) < 1.0
