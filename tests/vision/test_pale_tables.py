"""Pieces on a pale cloth: cream coins barely brighter than the table, tile edges beside the
cloth's bright threads, black ink tinted by a warm light."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.suits import classify_ink
from vision.tiles import _Block, refine_block

INKS = {k: PieceSet().suit_rgb(k) for k in ("suns", "moons", "crowns", "arms")}


@pytest.mark.parametrize(("table_seed", "exposure"), [(0, 1.0), (0, 1.2), (1, 1.0), (1, 1.2)])
def test_coins_on_a_pale_linen_table_are_found(table_seed: int, exposure: float) -> None:
    render = pytest.importorskip("tabletop.render")
    suits = ("suns", "moons", "crowns", "arms")
    pieces = [Piece("coin", 19.06 * i - 60, -40.0, suit=s) for i, s in enumerate(suits)]
    pieces += [Piece("coin", 60.0, 60.0, suit="moons"), Piece("coin", -90.0, 70.0, suit="crowns"),
               Piece("coin", 100.0, -60.0, suit="suns"),
               Piece.tile(-10.0, 70.0, 20.0, "up", "arms")]
    r = render.render_scene(Scene(tuple(pieces)), render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=12, image_size=(800, 450), hfov_deg=55),
        render.RenderSettings(seed=3, table="linen", table_seed=table_seed, exposure=exposure,
                              noise_sigma=3.0, supersample=2))
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-derby")).detect(r.image)
    coins = [p for p in res.scene.pieces if p.kind == "coin"]
    truth = [p for p in pieces if p.kind == "coin"]
    assert len(coins) == len(truth)
    for q in truth:  # every coin once, where it is, with its suit
        p = min(coins, key=lambda p: math.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm))
        assert math.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm) < 1.5
        assert p.suit == q.suit
    assert [p.kind for p in res.scene.pieces].count("tile") == 1


@pytest.mark.parametrize("rel", [(0.59, 0.55, 0.50), (0.60, 0.56, 0.49), (0.58, 0.53, 0.47)])
def test_black_ink_under_a_warm_light_is_black(rel: tuple[float, float, float]) -> None:
    # a pale body's red channel dimmed by the camera's highlight roll-off tints black warm
    assert classify_ink(np.array(rel), INKS)[0] == "moons"


@pytest.mark.parametrize(("rel", "suit"), [((0.65, 0.73, 0.67), "crowns"),
                                           ((0.88, 0.61, 0.37), "suns"),
                                           ((0.55, 0.62, 0.80), "arms")])
def test_faded_inks_keep_their_suit(rel: tuple[float, float, float], suit: str) -> None:
    assert classify_ink(np.array(rel), INKS)[0] == suit


def _tile_shade(angle_deg: float, side: float, cloth: bool) -> np.ndarray:
    """A shade image (table 1.0) of a 1.3-bright square tile at (100, 100); ``cloth``: a pale
    patch of cloth (1.12) around it with brighter threads (1.2, past halfway from the table's
    mean to the face) a few pixels beside its edges."""
    yy, xx = np.mgrid[0:200, 0:200].astype(float)
    t = math.radians(angle_deg)
    u = (xx - 100) * math.cos(t) + (yy - 100) * math.sin(t)
    v = -(xx - 100) * math.sin(t) + (yy - 100) * math.cos(t)
    shade = np.full((200, 200), 1.12 if cloth else 1.0, np.float32)
    if cloth:
        for d in (side / 2 + 4, side / 2 + 9):
            shade[(np.abs(np.abs(u) - d) < 0.8) | (np.abs(np.abs(v) - d) < 0.8)] = 1.2
    shade[(np.abs(u) <= side / 2) & (np.abs(v) <= side / 2)] = 1.3
    return shade


def _refined(rough_deg: float, cloth: bool, side: float = 56.0) -> _Block | None:
    """A 7-degree tile at (100, 100) of a drawn shade, refined from a rough angle."""
    shade = _tile_shade(7.0, side, cloth=cloth)
    return refine_block(shade, np.zeros((200, 200), np.uint8),
                        _Block((100.0, 100.0), rough_deg, 1, 1, side), side, np.array([0.0, 0.0]))


def test_a_tile_edge_is_not_taken_from_the_cloth_beside_it() -> None:
    fine = _refined(6.0, cloth=True)
    assert fine is not None
    assert abs(fine.angle_px - 7.0) < 0.3
    assert math.hypot(fine.centre_px[0] - 100, fine.centre_px[1] - 100) < 0.5


def test_a_rough_tile_angle_off_by_more_than_five_degrees_is_refined() -> None:
    fine = _refined(0.0, cloth=False)
    assert fine is not None
    assert abs(fine.angle_px - 7.0) < 0.3


def test_a_sun_face_under_a_cool_light_is_not_read_as_a_back() -> None:
    # a sun's rays reach 0.3 of the side out on all four sides, where a back's lines were
    # looked for; under a cool light the orange ink's brightest channel is dim enough to count
    render = pytest.importorskip("tabletop.render")
    pieces = [Piece.tile(-60.0, 0.0, 25.0, "up", "suns"), Piece.tile(60.0, 0.0, 22.0, "down"),
              Piece.tile(0.0, 70.0, 3.0, "down"), Piece.tile(0.0, -70.0, 64.0, "up", "suns")]
    r = render.render_scene(Scene(tuple(pieces)), render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=10, image_size=(800, 450), hfov_deg=45),
        render.RenderSettings(seed=7002, table="cloth", light_dir_deg=120.0,
                              light_elevation_deg=42.0, exposure=0.79, colour_temp_k=6900.0,
                              noise_sigma=1.5, blur_px=0.5, jpeg_quality=81, vignette=0.23,
                              supersample=2))
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-derby")).detect(r.image)
    tiles = sorted((p for p in res.scene.pieces if p.kind == "tile"),
                   key=lambda p: (round(p.x_mm / 10), round(p.y_mm / 10)))
    assert [(p.face, p.suit) for p in tiles] == [
        ("up", "suns"), ("up", "suns"), ("down", None), ("down", None)]
