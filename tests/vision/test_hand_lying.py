"""Objects left lying (:mod:`vision.hand_lying`): live, a mug, a phone or a notebook set down on
a still table, which the one-frame judge calls a hand, stops holding the game once it has stayed
unchanged for a few frames (the table is then read around it), while a hand held still over the
table, whose arm reaches in from beyond the play area's edge, is never judged through; an
object lifted away or reached for is judged again at once."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig, Stabiliser
from vision.hand_lying import LyingConfig, LyingObjects, StillLimits
from vision.hands import MemoryConfig, TableMemory

render = pytest.importorskip("tabletop.render")
clutter = pytest.importorskip("tabletop.render.clutter")

POSE = render.CameraPose.looking_at((0, 0), height_mm=950, tilt_deg=12, image_size=(960, 540),
                                    hfov_deg=62)
LYING = LyingConfig().frames


def _worm(step: int) -> Scene:
    return Scene(tuple(Piece("coin", -60.0 + 19.05 * (i + step), 20.0, suit="suns")
                       for i in range(5)))


def _frame(scene: Scene, k: int, table: str, thing: str | None = None) -> np.ndarray:
    props, decals = (), ()
    if thing is not None:
        c = clutter.make_clutter(thing, np.random.default_rng(5), (110.0, -70.0), 20.0)
        props, decals = c.props, c.decals
    return render.render_scene(scene, POSE, render.RenderSettings(
        seed=300 + k, table=table, table_seed=3, supersample=1), None, decals, props).image


def _detector(lying: bool = True) -> Detector:
    cfg = DetectorConfig.for_game("worm-derby")
    if not lying:
        cfg = replace(cfg, hands=replace(cfg.hands, lying=None))
    cal = render.render_scene(Scene.empty(), POSE, render.RenderSettings(supersample=1))
    return Detector(cal.calibration(), config=cfg)


def _live(det: Detector, frames: list[np.ndarray]) -> tuple[list[bool], list[Scene | None]]:
    """Each frame's hand flag and what the stabiliser emitted on it."""
    stab = Stabiliser()
    hands, emitted = [], []
    for f in frames:
        scene = det.detect(f).scene
        hands.append(scene.hand)
        emitted.append(stab.update(scene))
    return hands, emitted


def _set_down(table: str, thing: str) -> list[np.ndarray]:
    """A still worm; then, the worm moved on by two coins, ``thing`` lies on the table
    (three renders of it, shown in turn)."""
    before = [_frame(_worm(0), k, table) for k in range(3)]
    after = [_frame(_worm(2), 10 + k, table, thing) for k in range(3)]
    return before + [after[k % 3] for k in range(9)]


@pytest.mark.parametrize(("table", "thing"), [("oak", "mug"), ("felt-blue", "mug"),
                                              ("oak", "phone"), ("oak", "notebook")])
def test_an_object_set_down_on_a_still_table_stops_holding_the_game(table, thing) -> None:
    frames = _set_down(table, thing)
    hands, emitted = _live(_detector(), frames)
    assert hands[3:3 + LYING] == [True] * LYING, "the judge no longer calls it a hand"
    assert not any(hands[3 + LYING:]), f"still held: {hands}"
    got = [e for e in emitted[3 + LYING:] if e is not None]
    assert len(got) == 1, "the table was not judged once"
    xs = sorted(p.x_mm for p in got[0].pieces if p.kind == "coin")
    want = sorted(p.x_mm for p in _worm(2).pieces)
    assert len(xs) == 5 and np.allclose(xs, want, atol=1.5), "not the worm as it now lies"


def test_without_the_watch_an_object_set_down_holds_the_game_for_good() -> None:
    hands, emitted = _live(_detector(lying=False), _set_down("oak", "mug"))
    assert all(hands[3:]) and not any(e is not None for e in emitted[3:])


def _still_hand(table: str, from_deg: float, frames: int) -> list[np.ndarray]:
    """A still worm, then a hand held perfectly still over it (one render, fresh camera noise
    on each frame: what a hand resting a few seconds shows, less its tremor)."""
    before = [_frame(_worm(0), k, table) for k in range(3)]
    held = render.render_scene(_worm(0), POSE, render.RenderSettings(
        seed=321, table=table, table_seed=3, supersample=1, hand=True,
        hand_target_mm=(-20.0, 20.0), hand_height_mm=25.0, hand_from_deg=from_deg)).image
    rng = np.random.default_rng(7)
    noisy = [np.clip(held + rng.normal(0.0, 2.0, held.shape), 0, 255).astype(np.uint8)
             for _ in range(frames)]
    return before + noisy


@pytest.mark.parametrize(("table", "from_deg"), [("oak", 90.0), ("felt-blue", 200.0),
                                                 ("walnut", 300.0)])
def test_a_hand_held_still_over_the_table_is_never_judged_through(table, from_deg) -> None:
    det = _detector()
    hands, emitted = _live(det, _still_hand(table, from_deg, 90))  # 3 s at 30 fps
    assert all(hands[3:]), f"judged through a still hand: {hands}"
    assert not any(e is not None for e in emitted[3:])
    assert det.lying is not None and det.lying.released == 0


def test_an_object_lifted_away_leaves_no_ghost() -> None:
    """The mug left lying, then lifted away (the table as before, the worm where it lies): no
    hand, and the memory kept the table under it."""
    frames = _set_down("oak", "mug")
    gone = [_frame(_worm(2), 20 + k, "oak") for k in range(3)]
    det = _detector()
    hands, _ = _live(det, [*frames, *gone])
    assert not any(hands[3 + LYING:])
    assert det.lying is not None and det.lying.left_out is None


# ------------------------------------------------------------------ the watch on its own grid

LIMITS = StillLimits()


def _grid(level: int = 120) -> np.ndarray:
    return np.full((20, 30, 3), level, np.uint8)


def _rim() -> np.ndarray:
    rim = np.zeros((20, 30), bool)
    rim[:2], rim[-2:], rim[:, :2], rim[:, -2:] = True, True, True, True
    return rim


AREA = np.full((20, 30), 36.0, np.float32)  # 6 mm cells


def test_a_blob_inside_that_stays_is_left_out_after_its_frames() -> None:
    watch = LyingObjects(LyingConfig(frames=3), LIMITS)
    cells = _grid()
    cells[8:12, 10:15] = 40  # a dark mug
    blob = np.zeros((20, 30), np.uint8)
    blob[8:12, 10:15] = 1
    watch.see(_grid(), None, np.zeros((20, 30), bool), _rim(), AREA)
    for k in range(3):
        assert watch.left_out is None, f"left out after {k} frames"
        watch.see(cells, blob, blob.astype(bool), _rim(), AREA)
    assert watch.left_out is not None and watch.left_out[8:12, 10:15].all()
    assert watch.released == 1


def test_a_blob_whose_change_reaches_the_rim_is_never_left_out() -> None:
    watch = LyingObjects(LyingConfig(frames=3), LIMITS)
    cells = _grid()
    cells[8:12, 10:15] = 40
    blob = np.zeros((20, 30), np.uint8)
    blob[8:12, 10:15] = 1
    arm = np.zeros((20, 30), bool)
    arm[9:20, 11:19] = True  # the arm's change, over pieces where the hand's cells stop
    for _ in range(10):
        watch.see(cells, blob, arm, _rim(), AREA)
    assert watch.left_out is None


def test_a_blob_that_changes_is_not_left_out() -> None:
    watch = LyingObjects(LyingConfig(frames=3), LIMITS)
    blob = np.zeros((20, 30), np.uint8)
    blob[8:12, 10:15] = 1
    for k in range(10):
        cells = _grid()
        cells[8:12, 10:15] = 40 + 10 * (k % 2)  # a hand's fingers flexing
        watch.see(cells, blob, blob.astype(bool), _rim(), AREA)
    assert watch.left_out is None


def test_an_object_left_out_is_taken_back_when_its_cells_change() -> None:
    watch = LyingObjects(LyingConfig(frames=2), LIMITS)
    cells = _grid()
    cells[8:12, 10:15] = 40
    blob = np.zeros((20, 30), np.uint8)
    blob[8:12, 10:15] = 1
    for _ in range(3):
        watch.see(cells, blob, blob.astype(bool), _rim(), AREA)
    assert watch.left_out is not None
    watch.see(cells, None, np.zeros((20, 30), bool), _rim(), AREA)  # unchanged: stays
    assert watch.left_out is not None
    watch.see(_grid(), None, np.zeros((20, 30), bool), _rim(), AREA)  # lifted away
    assert watch.left_out is None


def test_the_memory_neither_counts_nor_learns_what_is_left_out() -> None:
    cal = render.render_scene(Scene.empty(), POSE, render.RenderSettings(supersample=1))
    det = Detector(cal.calibration(), config=DetectorConfig.for_game("worm-derby"))
    grid, valid = det.hand_grid, det._valid
    table = np.full((540, 960, 3), 120, np.uint8)
    mug = table.copy()
    mug[200:330, 400:560] = 30
    mem = TableMemory(MemoryConfig())
    none = np.zeros(table.shape[:2], np.uint8)
    mem.update(grid, table, none, valid)
    hand, _ = mem.update(grid, mug, none, valid)
    assert hand, "the memory no longer sees the change"
    out = grid.cells_of(mug)[..., 0] < 100
    mem.left_out = out | np.roll(out, 1, 0) | np.roll(out, -1, 0) | np.roll(out, 1, 1) | \
        np.roll(out, -1, 1)  # the mug's cells and a cell round them
    for _ in range(20):  # hand-free frames: main's memory would learn the mug in
        hand, _ = mem.update(grid, mug, none, valid)
        assert not hand
    mem.left_out = None  # taken back with the mug still there: the table was kept
    hand, _ = mem.update(grid, mug, none, valid)
    assert hand


def test_a_cell_or_two_of_noise_does_not_keep_an_object_from_being_left_out() -> None:
    watch = LyingObjects(LyingConfig(frames=3), LIMITS)
    blob = np.zeros((20, 30), np.uint8)
    blob[6:14, 8:18] = 1
    for k in range(4):  # (the first frame has none before it to agree with)
        cells = _grid()
        cells[6:14, 8:18] = 40
        cells[6, 8 + k] = 60  # one edge cell flickers past the still limits each frame
        watch.see(cells, blob, blob.astype(bool), _rim(), AREA)
    assert watch.left_out is not None
    cells[7, 9] = 70  # and once left out, a flicker does not take it back
    watch.see(cells, None, np.zeros((20, 30), bool), _rim(), AREA)
    assert watch.left_out is not None


def test_nothing_is_left_out_while_an_arm_is_seen() -> None:
    """A part of a hand, or its shadow, that lies apart from its arm (a still render of a hand
    on dark wood under a hard lamp, tuning 584108) waits until the arm has gone."""
    watch = LyingObjects(LyingConfig(frames=3), LIMITS)
    cells = _grid()
    cells[8:12, 10:15] = 40
    hand = np.zeros((20, 30), np.uint8)
    hand[8:12, 10:15] = 1  # apart from the arm
    hand[10:20, 18:27] = 1  # the arm, in from the rim (54 mm wide)
    for _ in range(6):
        watch.see(cells, hand, hand.astype(bool), _rim(), AREA)
    assert watch.left_out is None
    hand[10:20, 18:27] = 0  # the arm has gone: the thing that stays is an object
    for _ in range(3):
        watch.see(cells, hand, hand.astype(bool), _rim(), AREA)
    assert watch.left_out is not None
