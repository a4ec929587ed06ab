"""Live, a hand the frame alone misses (a tan hand on oak, an arm lifting out of view) is still
the hand when the table memory sees a change over the last frame's hand reaching in from the
play area's edge: the watch goes on at the camera's rate instead of reading the frame in full,
for a few frames at most; a change in the middle of the table (pieces moved in a block) is read
in full at once. Live, what never moved against the memory is not judged."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import detector as detector_mod
from vision.detector import Detector, DetectorConfig, FrameResult
from vision.hands import HandConfig

render = pytest.importorskip("tabletop.render")

POSE = render.CameraPose.looking_at((0, 0), height_mm=950, tilt_deg=12, image_size=(960, 540),
                                    hfov_deg=62)
FOLLOW = 3


def _worm() -> Scene:
    return Scene(tuple(Piece("coin", -60.0 + 19.05 * i, 20.0, suit="suns") for i in range(5)))


def _frame(scene: Scene, k: int, hand: bool = False) -> np.ndarray:
    return render.render_scene(scene, POSE, render.RenderSettings(
        seed=300 + k, table="felt-blue", table_seed=3, hand=hand, supersample=1,
        hand_target_mm=(20.0, 20.0), hand_height_mm=40.0, hand_from_deg=90.0)).image


class _Cue:
    """The one-frame hand cue, or a cue that sees nothing (``blind``)."""

    def __init__(self) -> None:
        self.blind = False
        self.real = detector_mod.detect_hands

    def __call__(self, cfg, grid, frame, explained, valid, cells=None, moving=None):
        if self.blind:
            sw, sh = grid.size_wh
            return False, np.zeros((sh, sw), np.uint8)
        return self.real(cfg, grid, frame, explained, valid, cells, moving)


def _read_in_full(res: FrameResult) -> bool:
    return "prepare" in res.timings_ms


@pytest.fixture
def watched(monkeypatch) -> tuple[Detector, _Cue]:
    cue = _Cue()
    monkeypatch.setattr(detector_mod, "detect_hands", cue)
    cal = render.render_scene(Scene.empty(), POSE, render.RenderSettings(supersample=1))
    det = Detector(cal.calibration(), config=DetectorConfig(
        kinds=("tile", "coin"), hands=HandConfig(follow_frames=FOLLOW)))
    for k in range(2):
        assert not det.detect(_frame(_worm(), k)).hand
    return det, cue


def test_a_hand_the_frame_alone_misses_is_followed_for_a_few_frames(watched) -> None:
    det, cue = watched
    first = det.detect(_frame(_worm(), 10, hand=True))
    assert first.hand and not _read_in_full(first)
    cue.blind = True  # the frame alone no longer sees the hand still there
    for k in range(FOLLOW):
        res = det.detect(_frame(_worm(), 11 + k, hand=True))
        assert res.hand and res.hand_outlines_px, f"frame {k} after: the hand was lost"
        assert not _read_in_full(res), f"frame {k} after: read in full"
    # then the frame is read in full: the memory's change is still a hand
    res = det.detect(_frame(_worm(), 20, hand=True))
    assert res.hand and _read_in_full(res)


def test_pieces_moved_in_a_block_after_a_hand_are_read_at_once(watched) -> None:
    det, cue = watched
    assert det.detect(_frame(_worm(), 10, hand=True)).hand
    cue.blind = True
    block = Scene((*_worm().pieces, *(Piece.tile(-50.0 + 46.0 * i, -80.0 + 46.0 * j, 0.0, "down")
                                      for i in range(3) for j in range(2))))
    res = det.detect(_frame(block, 11))
    assert _read_in_full(res) and not res.hand


def test_a_foreign_blob_that_never_moved_is_not_judged() -> None:
    cal = render.render_scene(Scene.empty(), POSE, render.RenderSettings(supersample=1))
    det = Detector(cal.calibration(), config=DetectorConfig(kinds=("tile", "coin"), memory=None,
                                                            namer=None, centres=None))
    frame = _frame(_worm(), 10, hand=True)
    none = np.zeros(det.hand_grid.size_wh[::-1], np.uint8)
    args = (det.config.hands, det.hand_grid, frame, none, det._valid)
    hand, cells = detector_mod.detect_hands(*args)
    assert hand
    assert not detector_mod.detect_hands(*args, moving=none)[0]
    assert detector_mod.detect_hands(*args, moving=cells)[0]


def test_a_frame_decided_again_with_more_explained_is_as_if_compared_so() -> None:
    cal = render.render_scene(Scene.empty(), POSE, render.RenderSettings(supersample=1))
    det = Detector(cal.calibration(), config=DetectorConfig(kinds=("tile", "coin")))
    mem, grid = det.memory, det.hand_grid
    assert mem is not None
    h, w = det.view.valid.shape
    nothing, all_of_it = np.zeros((h, w), np.uint8), np.full((h, w), 255, np.uint8)
    mem.compare(grid, _frame(_worm(), 0), nothing, det._valid)
    mem.learn(False)
    hand = _frame(_worm(), 10, hand=True)
    assert mem.compare(grid, hand, nothing, det._valid)[0]
    again = mem.recompare(grid, all_of_it)
    assert not again[0] and not again[1].any()
    assert not mem.compare(grid, hand, all_of_it, det._valid)[0]

