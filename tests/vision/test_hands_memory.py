"""The live table memory (:class:`vision.hands.TableMemory`) through the detector: a change of
the light is no hand, nor are pieces moved under a hand once it has gone; a hand is."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig
from vision.hands import light_gain

render = pytest.importorskip("tabletop.render")

POSE = render.CameraPose.looking_at((0, 0), height_mm=950, tilt_deg=12, image_size=(1280, 720),
                                    hfov_deg=62)
"""The camera of ``bench/bench_trust.py``."""
LAMP_OFF = {"exposure": 0.55, "shadow_strength": 0.18, "ambient": 0.8,
            "light_elevation_deg": 22.0, "colour_temp_k": 6500.0, "light_falloff": 0.0}
"""Window light only (as ``bench/bench_trust.py`` switches the lamp off between turns)."""


def _worm(x0: float) -> Scene:
    coins = [Piece("coin", x0 + 19.05 * i, 20.0, suit="suns") for i in range(5)]
    return Scene((Piece.tile(-90.0, -60.0, 10.0, "down"), *coins))


def _frame(scene: Scene, k: int, hand: bool = False, **light: float) -> np.ndarray:
    return render.render_scene(scene, POSE, render.RenderSettings(
        seed=70 + k, table="felt-blue", table_seed=3, hand=hand, supersample=1,
        hand_target_mm=(scene.pieces[-1].x_mm, 20.0), hand_height_mm=25.0, **light)).image


def _hands(frames: list[np.ndarray], repeat: int = 3) -> list[bool]:
    """Each frame's hand flag (each frame shown ``repeat`` times, as a replay does: the last
    showing's flag)."""
    cal = render.render_scene(Scene.empty(), POSE, render.RenderSettings(supersample=1))
    det = Detector(cal.calibration(), config=DetectorConfig.for_game("worm-derby"))
    out = []
    for f in frames:
        for _ in range(repeat):
            hand = det.detect(f).scene.hand
        out.append(hand)
    return out


def test_a_lamp_switched_off_between_turns_is_not_a_hand() -> None:
    before, after = _worm(-60.0), _worm(-60.0 + 2 * 19.05)
    lamp = {"light_falloff": 0.5}
    seen = _hands([_frame(before, 0, **lamp), _frame(before, 1, **lamp),
                   _frame(after, 2, hand=True, **LAMP_OFF), _frame(after, 3, **LAMP_OFF),
                   _frame(after, 4, **LAMP_OFF)])
    assert seen == [False, False, True, False, False]


def test_pieces_moved_under_a_hand_are_not_a_hand_once_it_has_gone() -> None:
    scenes = [_worm(-150.0 + 4 * 19.05 * k) for k in range(4)]
    frames = [_frame(scenes[0], 0)]
    for k, s in enumerate(scenes[1:], start=1):
        frames += [_frame(s, 10 * k, hand=True), _frame(s, 10 * k + 1)]
    assert _hands(frames) == [False] + [True, False] * 3


def test_a_hand_resting_over_the_table_leaves_no_ghost() -> None:
    scene = _worm(-60.0)
    frames = [_frame(scene, 0)] + [_frame(scene, 1, hand=True)] * 12 + [_frame(scene, 2)]
    seen = _hands(frames, repeat=1)
    assert seen[0] is False and all(seen[1:13]) and seen[13] is False


def test_the_light_gain_is_smooth_and_leaves_a_hand_out() -> None:
    yy, xx = np.mgrid[0:60, 0:100].astype(np.float32)
    table = np.dstack([120 + 0 * xx, 90 + 0 * xx, 60 + 0 * xx]).astype(np.float32)
    dim = 0.5 + 0.3 * (xx / 100.0) ** 2 - 0.1 * yy / 60.0  # a lamp's falloff, dimmed
    now = table * dim[..., None]
    now[20:40, 30:60] = (200.0, 210.0, 230.0)  # a hand, local and no gain of the table
    gain = light_gain(table, now, np.arange(60 * 100), trim=0.08)
    back = now * gain
    off = np.abs(back - table) / table
    assert off[:20].max() < 0.03 and off[45:].max() < 0.03
    assert off[25:35, 35:55].min() > 0.5


BLIND = {"blind": render.Blind(period_mm=110.0, duty=0.35, angle_deg=30.0, strength=0.55,
                               softness_mm=8.0, phase_mm=20.0),
         "light_elevation_deg": 40.0, "shadow_strength": 0.6}
"""A blind's striped shade on the lamp's light (as the variety draws one)."""


def test_an_obstacle_slid_to_where_no_piece_lay_is_no_hand_once_the_hand_has_gone() -> None:
    """An ace's move: a face-down tile slid to bare table under a blind's stripes. The watch
    sees a foreign blob where no piece lay and it does not move: a frame read in full finds
    the tile there, so the still table is judged, not taken for a hand for ever."""
    coins = [Piece("coin", -60.0 + 19.05 * i, 20.0, suit="suns") for i in range(5)]
    before = Scene((Piece.tile(-90.0, -60.0, 10.0, "down"), *coins))
    after = Scene((Piece.tile(-20.0, -110.0, 10.0, "down"), *coins))

    def frame(scene: Scene, k: int, hand: bool = False) -> np.ndarray:
        return render.render_scene(scene, POSE, render.RenderSettings(
            seed=90 + k, table="felt-beige", table_seed=5, hand=hand, supersample=1,
            hand_target_mm=(-20.0, -110.0), hand_height_mm=25.0, **BLIND)).image

    seen = _hands([frame(before, 0), frame(before, 1), frame(after, 2, hand=True),
                   frame(after, 3), frame(after, 4), frame(after, 5)])
    assert seen[2] and seen[-2:] == [False, False], seen
