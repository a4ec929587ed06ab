"""On a table nearly as dark as a post, posts are read in how unlike the table each pixel is."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.post_level import (
    PostLevelConfig,
    _unlike,
    dark_table,
    for_posts,
    post_channels,
    unlikeness,
)
from vision.posts import PostConfig
from vision.prepare import Prepared, prepare


def test_a_pixel_lighter_darker_or_of_another_tint_than_the_table_is_dark_in_the_unlikeness(
        ) -> None:
    norm = np.full((5, 5, 3), 100, np.uint8)
    lit, shade, tint = norm.copy(), norm.copy(), norm.copy()
    lit[:] = 170
    shade[:] = 30
    tint[..., 0] = 170  # bluer than a brown table: lighter in one channel only
    assert unlikeness(norm)[2, 2] == 100
    for other in (lit, shade, tint):
        assert unlikeness(other)[2, 2] == 30


def _render(table: str, posts: list[tuple[float, float]]):
    render = pytest.importorskip("tabletop.render")
    return render.render_scene(
        Scene(tuple(Piece("post", x, y) for x, y in posts)),
        render.CameraPose.looking_at((0, 0), height_mm=800, tilt_deg=20.0,
                                     image_size=(1280, 720), hfov_deg=60),
        render.RenderSettings(seed=30501, table=table, light_dir_deg=135.0,
                              shadow_strength=0.5, light_elevation_deg=55.0, supersample=2))


POSTS = [(-250.0, -120.0), (-90.0, 100.0), (40.0, -60.0), (160.0, 120.0), (270.0, -20.0)]


@pytest.mark.parametrize(("table", "dark"), [("felt-black", True), ("oak", False),
                                             ("felt-beige", False)])
def test_only_a_table_nearly_as_dark_as_a_post_is_read_in_the_unlikeness(table: str,
                                                                          dark: bool) -> None:
    r = _render(table, POSTS)
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("post",)))
    prep = prepare(det.config.prepare, det.view, r.image, det._valid)
    cfg = PostLevelConfig()
    assert dark_table(prep, cfg) is dark
    seen = for_posts(prep, cfg)
    assert (post_channels(prep, cfg) is None) is dark  # None: the unlikeness
    assert (seen is not prep) is (dark or table == "oak")  # oak: green and red only
    assert for_posts(prep, cfg) is seen  # made once per frame


def _feet(r, level: PostLevelConfig) -> np.ndarray:
    det = Detector(r.calibration(), config=DetectorConfig(
        kinds=("post",), posts=PostConfig(level=level)))
    return np.array([[p.x_mm, p.y_mm] for p in det.detect(r.image).scene.pieces
                     if p.kind == "post"]).reshape(-1, 2)


def _near(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each point of ``a`` to the nearest of ``b`` (inf: none)."""
    return np.array([float(np.min(np.hypot(*(b - p).T))) if len(b) else math.inf for p in a])


def test_posts_on_dark_wood_are_found_at_their_foot_where_the_level_alone_misses_them(
        ) -> None:
    # dark wood under a lamp: a post's wall is bluer and lighter than the wood in one channel,
    # darker in another; in the level alone (its largest channel) it is barely darker (both
    # ways, one post's foot is read 24 mm off, in its shadow)
    r = _render("dark-wood", POSTS)
    truth = np.array(POSTS)
    unlike = _feet(r, PostLevelConfig())
    plain = _feet(r, PostLevelConfig(dark_table=0.0))
    exact = [int(np.sum(_near(truth, f) < 1.5)) for f in (unlike, plain)]
    false = [int(np.sum(_near(f, truth) > 12.0)) for f in (unlike, plain)]
    assert exact[0] >= 3 and exact[0] > exact[1], exact
    assert false[0] <= false[1], false


def _grainy_black_table(noise: float) -> Prepared:
    """A near-black table's normalised view: the camera's grain divided by the table's few
    levels (sigma 25 a channel), and a post's wall, lighter than the table in one channel, a
    disc 8 px across at (150, 100)."""
    from types import SimpleNamespace

    import cv2

    rng = np.random.default_rng(3)
    h, w = 200, 300
    norm = np.clip(100 + rng.normal(0, 25, (h, w, 3)), 0, 255).astype(np.uint8)
    cv2.circle(norm, (150, 100), 8, (100, 100, 170), -1)
    z = np.zeros((h, w), np.uint8)
    return Prepared(SimpleNamespace(px_per_mm=1.5), norm, norm, z, z, z, noise,
                    z.astype(np.float32), np.full((h, w), 255, np.uint8), ((0, 0, w, h),))


def test_on_a_grainy_black_table_a_post_is_dark_against_the_noise_at_a_posts_scale() -> None:
    import cv2

    prep = _grainy_black_table(noise=25.0)
    disc = np.zeros(prep.level.shape, np.uint8)
    cv2.circle(disc, (150, 100), 6, 255, -1)
    away = cv2.bitwise_not(cv2.dilate(disc, np.ones((9, 9), np.uint8)))
    pixel = _unlike(prep, PostLevelConfig(noise_mm=0.0)).dark
    scaled = _unlike(prep, PostLevelConfig()).dark
    assert not pixel[disc > 0].any()  # 5 sigmas of the grain: nothing is dark
    assert (scaled[disc > 0] > 0).all()
    # the grain left dark comes in specks far smaller than a post's footprint
    n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_and(scaled, away))
    r_px = PostConfig().radius_mm * 1.5
    assert n == 1 or stats[1:, cv2.CC_STAT_AREA].max() < 0.5 * math.pi * r_px ** 2


@pytest.mark.parametrize(("table", "channels"), [("felt-blue", (0, 1)), ("felt-red", (2,)),
                                                 ("oak", (1, 2)), ("felt-beige", (0, 1, 2))])
def test_a_posts_level_is_the_largest_of_the_channels_its_table_is_bright_in(
        table: str, channels: tuple[int, ...]) -> None:
    r = _render(table, POSTS)
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("post",)))
    prep = prepare(det.config.prepare, det.view, r.image, det._valid)
    cfg = PostLevelConfig()
    assert post_channels(prep, cfg) == channels
    seen = for_posts(prep, cfg)
    assert (seen is prep) is (len(channels) == 3)  # a grey or beige table: the level as it is
    if seen is not prep:
        x0, y0, x1, y1 = prep.rois_px[0]  # inside (the blur at a rectangle's edge aside)
        inner = np.s_[y0 + 2:y1 - 2, x0 + 2:x1 - 2]
        assert (seen.level[inner] <= prep.level[inner]).all()


@pytest.mark.parametrize("table", ["felt-blue", "cloth-blue"])
def test_posts_on_a_blue_table_are_found_in_the_channels_the_table_is_bright_in(
        table: str) -> None:
    # a grey post divided by a blue felt's few levels of red is nearly the table's level in
    # red, the largest channel: in the level as it is two of the five posts are read nowhere
    r = _render(table, POSTS)
    truth = np.array(POSTS)
    bright = _feet(r, PostLevelConfig())
    every = _feet(r, PostLevelConfig(min_channel_share=0.0))
    assert (_near(truth, bright) < 1.5).all(), _near(truth, bright)
    assert int(np.sum(_near(truth, every) < 1.5)) < len(POSTS)
    assert not (_near(bright, truth) > 12.0).any()
