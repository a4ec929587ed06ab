"""Jungle's marker tokens seen through the camera where it is hard: small in a wide view, in a
blind's stripes, in a dim warm room, beside a hand (rendered at fixed seeds)."""

from __future__ import annotations

import pytest

from tabletop.markers import JUNGLE_TOKEN_IDS
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig

TOKENS = tuple(Piece("token", -150.0 + 60.0 * (k % 6), -60.0 + 80.0 * (k // 6),
                     angle_deg=float(15 * k % 90), id=JUNGLE_TOKEN_IDS[k]) for k in range(12))


def _read(seed: int, height_mm: float = 800.0, **settings: object) -> dict[int, Piece]:
    render = pytest.importorskip("tabletop.render")
    r = render.render_scene(Scene(TOKENS), render.CameraPose.looking_at(
        (0, 0), height_mm=height_mm, tilt_deg=12, image_size=(1280, 720), hfov_deg=60),
        render.RenderSettings(seed=seed, supersample=2, **settings))  # type: ignore[arg-type]
    res = Detector(r.calibration(), config=DetectorConfig.for_game("jungle")).detect(r.image)
    return {p.id: p for p in res.scene.pieces if p.kind == "token"}  # type: ignore[misc]


def _all_read(found: dict[int, Piece], hidden: tuple[int, ...] = ()) -> None:
    for t in TOKENS:
        if t.id in hidden:
            continue
        assert t.id in found, t
        p = found[t.id]  # type: ignore[index]
        assert abs(p.x_mm - t.x_mm) < 2.0 and abs(p.y_mm - t.y_mm) < 2.0, (t, p)
    assert set(found) <= {t.id for t in TOKENS}


def test_small_tokens_in_a_wide_view_are_read() -> None:
    _all_read(_read(65921, height_mm=1900.0, table="cloth-green"))


def test_tokens_in_a_blinds_stripes_are_read() -> None:
    render = pytest.importorskip("tabletop.render")
    _all_read(_read(65922, table="oak", blind=render.Blind(period_mm=45.0, duty=0.5,
                                                           angle_deg=20.0, strength=0.6)))


def test_tokens_in_a_dim_warm_noisy_room_are_read() -> None:
    _all_read(_read(65923, table="walnut", exposure=0.45, colour_temp_k=2800.0,
                    noise_sigma=10.0))


def test_tokens_beside_a_hand_are_read_and_none_is_made_up() -> None:
    found = _read(65924, table="felt-green", hand=True, hand_target_mm=(150.0, 100.0),
                  hand_height_mm=40.0)
    assert set(found) <= {t.id for t in TOKENS}
    assert len(found) >= 9
