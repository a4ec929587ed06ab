"""The angle polish's fast paths (vision/square_polish.py) give what the plain forms give: the
Gauss-Newton step with the sides' offsets eliminated is the full normal equations' step, the
four sides' own turns in one pass are each side's alone, several squares' supports in one
pass are each square's alone."""

from __future__ import annotations

import math

import numpy as np

from vision.square_polish import EdgePoints, _side_turns, _tukey, fit_lines, support


def _square_points(rng: np.random.Generator, angle: float, side: float, per_side: int,
                   outliers: int) -> EdgePoints:
    """Points on a square's four sides (noisy), some of them far off (a coin on a side)."""
    pts, sides = [], []
    for k in range(4):
        th = angle + k * math.pi / 2
        n = np.array([math.cos(th), math.sin(th)])
        t = np.array([-n[1], n[0]])
        along = np.linspace(-0.42, 0.42, per_side) * side
        across = side / 2 + rng.normal(0.0, 0.15, per_side)
        across[rng.choice(per_side, outliers, replace=False)] += rng.uniform(2.0, 4.0, outliers)
        pts.append(along[:, None] * t + across[:, None] * n)
        sides.append(np.full(per_side, k))
    p = np.concatenate(pts) + np.array([40.0, 40.0])
    k = np.concatenate(sides)
    return EdgePoints(p, k, np.ones(len(k)), per_side)


def _fit_full(e: EdgePoints, ref: np.ndarray, angle: float, use: np.ndarray,
              iterations: int = 8, floor_px: float = 0.12) -> tuple[float, np.ndarray]:
    """The same fit solving the full (1 + sides) normal equations at each step."""
    p = e.points_px - ref
    k = e.sides
    sel = use[k]
    a = angle
    offs = np.full(4, np.nan)
    for s in range(4):
        if use[s] and np.any(k == s):
            th = a + s * math.pi / 2
            offs[s] = float(np.median(p[k == s] @ np.array([math.cos(th), math.sin(th)])))
    w = sel.astype(float)
    for it in range(iterations):
        th = a + k * (math.pi / 2)
        c, s_ = np.cos(th), np.sin(th)
        res = c * p[:, 0] + s_ * p[:, 1] - np.nan_to_num(offs[k])
        if it:
            mad = 1.4826 * float(np.median(np.abs(res[sel & (w > 0)])))
            w = _tukey(res, 4.685 * max(mad, floor_px)) * sel
        dres = -s_ * p[:, 0] + c * p[:, 1]
        cols = [dres] + [-(k == s).astype(float) for s in range(4)]
        jac = np.stack(cols, axis=1)[:, [0, *(1 + np.flatnonzero(use))]]
        step = np.linalg.solve((jac * w[:, None]).T @ jac, -(jac * w[:, None]).T @ res)
        a += float(step[0])
        offs[np.flatnonzero(use)] += step[1:]
        if abs(step[0]) < 1e-7 and np.all(np.abs(step[1:]) < 1e-4):
            break
    return a, offs


def test_tile_angle_fit_step_with_offsets_eliminated_is_the_full_systems_step() -> None:
    rng = np.random.default_rng(4)
    for trial in range(12):
        angle = float(rng.uniform(0, math.pi / 2))
        e = _square_points(rng, angle, 50.0, 41, outliers=4)
        use = np.ones(4, bool)
        if trial % 3 == 1:
            use[trial % 4] = False  # a side left out
        start = angle + math.radians(float(rng.uniform(-2.0, 2.0)))
        ref = np.array([40.0, 40.0]) + rng.uniform(-1.0, 1.0, 2)
        got = fit_lines(e, ref, start, use)
        a, offs = _fit_full(e, ref, start, use)
        assert abs(got.angle - a) < 1e-9
        assert np.allclose(got.offsets[use], offs[use], atol=1e-7)
        assert np.isnan(got.offsets[~use]).all()
        assert abs(math.degrees(got.angle - angle)) < 0.2  # and the fit itself holds


def _side_turn_alone(pts: np.ndarray, w: np.ndarray, angle: float) -> tuple[float, float]:
    """One side's turn and its standard error from its own points (the plain form)."""
    t = np.array([-math.sin(angle), math.cos(angle)])
    n = np.array([math.cos(angle), math.sin(angle)])
    u, v = pts @ t, pts @ n
    sw = w.sum()
    um, vm = (w * u).sum() / sw, (w * v).sum() / sw
    suu = (w * (u - um) ** 2).sum()
    slope = (w * (u - um) * (v - vm)).sum() / suu
    resid = v - vm - slope * (u - um)
    dof = max(1.0, float((w > 0.3).sum()) - 2.0)
    sigma = math.sqrt(max((w * resid ** 2).sum() / dof, 1e-6))
    return -math.atan(slope), sigma / math.sqrt(suu)


def test_tile_angle_side_turns_in_one_pass_are_each_sides_own() -> None:
    rng = np.random.default_rng(9)
    angle = 0.4
    e = _square_points(rng, angle + 0.01, 50.0, 31, outliers=0)
    # one side turned a degree more: its own turn shows it
    on = e.sides == 1
    c = e.points_px[on].mean(axis=0)
    r = math.radians(1.0)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    pts = e.points_px.copy()
    pts[on] = (pts[on] - c) @ rot.T + c
    w = rng.uniform(0.5, 1.0, len(pts))
    turns, ses = _side_turns(pts, e.sides, w, angle)
    for k in range(4):
        t1, s1 = _side_turn_alone(pts[e.sides == k], w[e.sides == k], angle + k * math.pi / 2)
        assert abs(turns[k] - t1) < 1e-12
        assert abs(ses[k] - s1) < 1e-12
    assert abs(abs(math.degrees(turns[1] - turns[0])) - 1.0) < 0.15


def test_tile_angle_side_turns_of_a_side_without_points_are_unmeasured() -> None:
    e = _square_points(np.random.default_rng(1), 0.2, 50.0, 21, outliers=0)
    keep = e.sides != 3
    turns, ses = _side_turns(e.points_px[keep], e.sides[keep], np.ones(int(keep.sum())), 0.2)
    assert turns[3] == 0.0 and math.isinf(ses[3])
    assert np.isfinite(ses[:3]).all()


def test_tile_angle_support_of_several_squares_is_each_squares_alone() -> None:
    rng = np.random.default_rng(2)
    win = rng.uniform(0.0, 1.0, (90, 90, 3)).astype(np.float32)
    win[25:65, 25:65] += 1.0
    centres = np.array([[44.5, 44.5], [46.0, 43.0], [40.0, 50.0]])
    angles = np.array([0.0, 0.03, -0.2])
    together = support(win, centres, angles, 40.0)
    alone = [float(support(win, c[None], np.array([a]), 40.0)[0])
             for c, a in zip(centres, angles, strict=True)]
    assert np.allclose(together, alone, rtol=0, atol=1e-5)
    assert together[0] > together[2]  # the square on the face's edges has the most
