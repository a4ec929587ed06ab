"""Posts: found at their foot, to a fraction of a millimetre, whatever their shadow and top."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from tests.vision.helpers import calibration_of, pose
from vision import Detector, DetectorConfig
from vision.posts import FOOT, SIDE, TOP, PostConfig, fit_foot, post_outline, steepest
from vision.topview import TopView


def _errors(found: list[Piece], truth: list[Piece]) -> list[float]:
    """Distance from each true post to the nearest post found (inf: none)."""
    xy = np.array([[p.x_mm, p.y_mm] for p in found]).reshape(-1, 2)
    return [float(np.min(np.hypot(*(xy - [q.x_mm, q.y_mm]).T))) if len(xy) else math.inf
            for q in truth]


def _render_posts(truth: list[Piece], light_dir_deg: float, tilt_deg: float = 20.0,
                  **settings) -> tuple[list[Piece], Detector]:
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(Scene(tuple(truth)), render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=tilt_deg, image_size=(800, 450), hfov_deg=60),
        render.RenderSettings(seed=11, table="wood", light_dir_deg=light_dir_deg,
                              supersample=2, **settings))
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("post",)))
    return [p for p in det.detect(r.image).scene.pieces if p.kind == "post"], det


def test_posts_under_a_tilted_camera_are_found_at_their_foot() -> None:
    truth = [Piece("post", x, y) for x, y in
             ((-250.0, -120.0), (-90.0, 100.0), (40.0, -60.0), (160.0, 120.0), (270.0, -20.0))]
    found, _ = _render_posts(truth, light_dir_deg=135.0, shadow_strength=0.55,
                             light_elevation_deg=50.0)
    assert len(found) == len(truth)
    err = _errors(found, truth)
    assert max(err) < 0.7, err


def test_a_post_whose_shadow_points_at_the_camera_is_found_at_its_foot() -> None:
    # the light comes from beyond the posts (seen from the camera's nadir): each shadow falls
    # back over the near side of the foot, where the outline's near edge would be, and its
    # tip, with the table behind it, looks like a foot
    truth = [Piece("post", x, 140.0) for x in (-150.0, 0.0, 150.0)]
    probe, det = _render_posts(truth[:1], light_dir_deg=90.0)  # for the camera's nadir
    assert len(probe) == 1
    nadir = det.view.camera.nadir_mm
    away = math.degrees(math.atan2(140.0 - nadir[1], 0.0 - nadir[0]))
    found, _ = _render_posts(truth, light_dir_deg=away, shadow_strength=0.6,
                             light_elevation_deg=40.0)
    assert len(found) == len(truth)
    err = _errors(found, truth)
    assert max(err) < 0.7, err


def _drawn_post(view: TopView, cfg: PostConfig, foot_px: np.ndarray, top_level: float,
                blur: float = 1.0) -> np.ndarray:
    """A level image (table 100) of a post at ``foot_px``: dark wall, top face of
    ``top_level``, drawn at 8 times the resolution and shrunk (antialiased), then blurred."""
    h, w = view.valid.shape
    level = np.full((h, w), 100, np.uint8)
    out = post_outline(cfg, view, foot_px)
    r = cfg.radius_mm * view.px_per_mm
    x0, y0 = (int(v) - 40 for v in foot_px)  # a window round the post
    z = 8

    def px(p: np.ndarray) -> np.ndarray:
        return np.round((p - [x0, y0] + 0.5) * z - 0.5).astype(np.int32)

    ring = np.c_[np.cos(a), np.sin(a)]
    big = np.full((80 * z, 80 * z), 100, np.uint8)
    cv2.fillConvexPoly(big, cv2.convexHull(np.r_[px(out.foot + r * ring),
                                                 px(out.top + r * out.k * ring)]), 25)
    cv2.circle(big, tuple(int(c) for c in px(out.top[None])[0]), round(r * out.k * z),
               top_level, -1)
    patch = cv2.resize(big, (80, 80), interpolation=cv2.INTER_AREA).astype(np.float32)
    level[y0:y0 + 80, x0:x0 + 80] = np.clip(cv2.GaussianBlur(patch, (0, 0), blur), 0, 255)
    return level


a = np.linspace(0, 2 * math.pi, 180, endpoint=False)


def _view(centre_mm: np.ndarray) -> TopView:
    """The top view (1 px per mm) of 200 mm round ``centre_mm``, from a camera 800 mm up,
    tilted 20 degrees."""
    K, R, t = pose(height_mm=800.0, tilt_deg=20.0, size=(800, 450))
    x, y = centre_mm
    return TopView(calibration_of(K, R, t, (800, 450)), px_per_mm=1.0,
                   area_mm=(x - 100, y - 100, x + 100, y + 100))


@pytest.mark.parametrize("top_level", [10, 70, 230])  # darker than the wall, grey, shining
def test_the_outline_fit_finds_a_drawn_post_from_a_few_pixels_off(top_level: int) -> None:
    foot_mm = np.array([150.0, 20.0])  # 320 mm from the nadir
    view = _view(foot_mm)
    cfg = PostConfig(radius_mm=5.0, height_mm=40.0)
    foot = view.to_px(foot_mm[None])[0] + [0.3, -0.2]
    level = _drawn_post(view, cfg, foot, top_level)
    for start in ([3.0, 0.0], [0.0, -3.0], [-2.0, 2.0], [2.5, 2.5]):
        f = fit_foot(cfg, level, view, foot + start)
        assert np.hypot(*(f - foot)) < 0.25, (start, f - foot)


def test_the_outline_has_its_parts_where_the_camera_says() -> None:
    foot_mm = np.array([200.0, -50.0])
    view = _view(foot_mm)
    cfg = PostConfig(radius_mm=5.0, height_mm=40.0)
    out = post_outline(cfg, view, view.to_px(foot_mm[None])[0])
    top_mm = view.to_mm(out.top[None])[0]
    assert top_mm == pytest.approx(view.camera.seen_at(foot_mm[None], 40.0)[0], abs=1e-6)
    dist = float(np.hypot(*(foot_mm - view.camera.nadir_mm)))
    assert out.length == pytest.approx(dist * 40.0 / (view.camera.height_mm - 40.0), rel=1e-6)
    r = 5.0 * view.px_per_mm
    on_foot = np.hypot(*(out.points[out.part == FOOT] - out.foot).T)
    on_top = np.hypot(*(out.points[out.part == TOP] - out.top).T)
    assert on_foot == pytest.approx(r) and on_top == pytest.approx(r * out.k)
    # the foot's near half faces the nadir, the top's far half away from it (the sides
    # diverge a little: the top is seen larger)
    slack = r * (out.k - 1.0) / out.length + 1e-9
    assert np.all(out.normals[out.part == FOOT] @ out.axis <= slack)
    assert np.all(out.normals[out.part == TOP] @ out.axis >= slack - 2e-9)
    # the sides are straight, r to r * k from the axis
    side = out.points[out.part == SIDE] - out.foot
    across = np.abs(side @ np.array([-out.axis[1], out.axis[0]]))
    assert np.all((across > r - 1e-6) & (across < r * out.k + 1e-6))


def test_steepest_finds_a_blurred_step_to_a_fraction_of_a_sample() -> None:
    x = np.arange(0, 20, 1.0)
    prof = np.array([100 / (1 + np.exp(-(x - c) / 0.8)) for c in (8.3, 11.7)])
    pos, rise, inside = steepest(prof, np.ones(2), 1.0, 2, 17)
    assert pos == pytest.approx([8.3, 11.7], abs=0.05)
    assert np.all(inside) and np.all(rise > 20)
    pos, _, _ = steepest(prof[:, ::-1], -np.ones(2), 1.0, 2, 17)  # falls, looked for as falls
    assert pos == pytest.approx([19 - 8.3, 19 - 11.7], abs=0.05)


def _leaning_over_tiles():
    """Two posts, each with a tile just beyond it (away from the camera): each post's top is
    seen over its tile's edge. Returns (posts, tiles, detected scene)."""
    posts = [Piece("post", x, y) for x, y in ((-200.0, -80.0), (150.0, -100.0))]
    _, det = _render_posts(posts[:1], light_dir_deg=200.0)  # for the camera's nadir
    nadir = det.view.camera.nadir_mm
    tiles = []
    for p in posts:
        u = np.array([p.x_mm, p.y_mm]) - nadir
        u /= np.hypot(*u)
        c = np.array([p.x_mm, p.y_mm]) + (5.0 + 2.0 + 25.4) * u
        tiles.append(Piece.tile(float(c[0]), float(c[1]), math.degrees(math.atan2(u[1], u[0])),
                                "down"))
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(Scene((*posts, *tiles)), render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=20.0, image_size=(800, 450), hfov_deg=60),
        render.RenderSettings(seed=11, table="wood", light_dir_deg=200.0, supersample=2))
    res = Detector(r.calibration(), config=DetectorConfig(kinds=("tile", "coin", "post"))
                   ).detect(r.image)
    return posts, tiles, res.scene


def test_a_post_leaning_over_a_tile_is_found_at_its_foot() -> None:
    # each post's top is seen over the edge of a tile just beyond it: those edges are the
    # tile's, not the post's
    posts, _, scene = _leaning_over_tiles()
    found = [p for p in scene.pieces if p.kind == "post"]
    assert len(found) == len(posts)
    err = _errors(found, posts)
    assert max(err) < 0.7, err


def test_a_tile_a_post_leans_over_is_found_where_it_lies() -> None:
    # the post's top takes a notch out of the tile's pale blob (wider still once coins are
    # opened away): the tile is found from its blob as it is
    _, tiles, scene = _leaning_over_tiles()
    found = [p for p in scene.pieces if p.kind == "tile"]
    assert len(found) == len(tiles)
    assert max(_errors(found, tiles)) < 1.0


def test_two_touching_posts_are_two_posts() -> None:
    # pairs of posts side by side (across the direction away from the camera, so that each
    # is seen whole), touching: each pair makes one dark blob twice as wide as a post
    render = pytest.importorskip("tabletop.render")
    pose_ = render.CameraPose.looking_at((0, 0), height_mm=800, tilt_deg=20.0,
                                         image_size=(1280, 720), hfov_deg=60)
    probe = render.render_scene(Scene((Piece("post", 0.0, 0.0),)), pose_,
                                render.RenderSettings(seed=20401, table="oak", supersample=2))
    nadir = Detector(probe.calibration()).view.camera.nadir_mm
    truth = []
    for x, y in ((-250.0, -120.0), (-90.0, 100.0), (40.0, -60.0), (160.0, 120.0),
                 (270.0, -20.0)):
        u = np.array([x, y]) - nadir
        v = np.array([-u[1], u[0]]) / np.hypot(*u)
        truth += [Piece("post", x, y), Piece("post", x + 10.1 * v[0], y + 10.1 * v[1])]
    r = render.render_scene(Scene(tuple(truth)), pose_, render.RenderSettings(
        seed=20402, table="oak", light_dir_deg=135.0, shadow_strength=0.5,
        light_elevation_deg=50.0, supersample=2))
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("post",)))
    found = [p for p in det.detect(r.image).scene.pieces if p.kind == "post"]
    assert len(found) == len(truth)
    err = _errors(found, truth)
    assert max(err) < 1.0, err


@pytest.mark.parametrize("light_dir_deg", [30.0, 160.0, 250.0])
def test_a_posts_long_shadow_is_not_a_post(light_dir_deg: float) -> None:
    # a low hard lamp: each post's shadow is a dark stripe two or three times its length,
    # touching its foot; it lies on the table and has no top
    truth = [Piece("post", x, y) for x, y in
             ((-220.0, -100.0), (-60.0, 110.0), (60.0, -80.0), (200.0, 90.0))]
    found, _ = _render_posts(truth, light_dir_deg=light_dir_deg, shadow_strength=0.7,
                             light_elevation_deg=22.0)
    assert len(found) == len(truth)
    assert max(_errors(found, truth)) < 1.0
