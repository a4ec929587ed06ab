"""The first still frame read only round what changed (vision/local_read.py): where it reads,
how its pieces join the kept ones, the guard ring that sends it back to a full read, and the
sample playthrough read live with it on and off: the same hand flags, the pieces read again
exactly as a full read reads them, and the watch's mask (what the next frame's hand and
memory are judged against) a full read's."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.model import Calibration
from tabletop.render.variety import draw_case
from vision import Detector, DetectorConfig
from vision.detections import Detections
from vision.hand_grid import HandGrid
from vision.local_read import LocalReadConfig, Plan, Reading, merge, plan
from vision.prepare import PrepareConfig, prepare
from vision.reading_memo import MemoConfig, ReadingMemo
from vision.topview import TopView

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "worm_derby"


class _LineView:
    """A view whose pixels are table mm (to_px is the identity)."""

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        return np.asarray(points_mm, float).reshape(-1, 2)


def _along_x() -> Plan:
    """A plan whose change lies along x = 0: the distance to it is x (mm), 0-300."""
    dist = np.tile(np.arange(300, dtype=np.float32), (50, 1))
    return Plan(dist, 1, (dist <= 85).astype(np.uint8) * 255)


def _pieces(*rows: tuple[str, float]) -> Detections:
    kinds = [k for k, _ in rows]
    return Detections.of([(x, 20.0) for _, x in rows], kinds,
                         suit=["suns" if k == "coin" else None for k in kinds])


def _merged(read: Detections, kept: Detections) -> list[tuple[str, float]] | None:
    got = merge(LocalReadConfig(), _LineView(), _along_x(), read, kept)  # type: ignore[arg-type]
    if got is None:
        return None
    return sorted((str(k), round(float(c[0]), 2)) for k, c in zip(got.kind, got.centre_mm,
                                                                    strict=True))


def test_local_read_takes_the_pieces_read_near_the_change_and_keeps_the_rest() -> None:
    kept = _pieces(("coin", 10.0), ("coin", 44.0), ("tile", 60.0), ("coin", 200.0))
    read = _pieces(("coin", 30.0), ("coin", 44.4), ("tile", 60.3), ("coin", 250.0))
    # 10: gone (moved to 30); 44: read again (the read one); 60: the guard ring matches (the
    # kept one); 200: kept, unread; 250: beyond the guard ring, not looked at
    assert _merged(read, kept) == [("coin", 30.0), ("coin", 44.4), ("coin", 200.0),
                                   ("tile", 60.0)]


@pytest.mark.parametrize(("read", "why"), [
    (_pieces(("tile", 60.3), ("coin", 70.0)), "a piece in the guard ring that was not there"),
    (_pieces(), "a kept piece in the guard ring not read again"),
    (_pieces(("tile", 62.0)), "a kept piece in the guard ring moved"),
    (_pieces(("coin", 60.0)), "a piece in the guard ring read as another kind"),
])
def test_local_read_is_refused_when_the_guard_ring_disagrees(read: Detections,
                                                              why: str) -> None:
    assert _merged(read, _pieces(("tile", 60.0))) is None, why


def _grid_view() -> tuple[HandGrid, TopView, np.ndarray]:
    cal = Calibration.load(SAMPLE / "calibration.json")
    view = TopView(cal)
    return HandGrid(cal, view, 160), view, view.valid


def _reading(cells: np.ndarray, pale: bool = False, in_row: int = 0) -> Reading:
    none = Detections.empty()
    return Reading(cells, none, none, np.zeros((2, 2), np.uint8), pale, in_row, none)


def test_local_read_plans_a_region_round_the_change_only() -> None:
    grid, view, valid = _grid_view()
    sw, sh = grid.size_wh
    before = np.full((sh, sw, 3), 120, np.uint8)
    now = before.copy()
    play = np.argwhere(grid.play_cells(valid))
    r, c = play[len(play) // 2]
    now[r:r + 2, c:c + 2] = 200  # a coin put down
    cfg = LocalReadConfig()
    got = plan(cfg, grid, view, valid, now, _reading(before), 5.0, 0.04)
    assert got is not None
    at = view.to_mm(np.array([[grid.map_x[r, c], grid.map_y[r, c]]]))[0]
    # read round the change as far as the guard ring's edge, not beyond
    away = np.array([[at[0] + d, at[1]] for d in (0.0, 40.0, 80.0, 100.0, 200.0)])
    assert list(got.distance_mm(view, away) <= cfg.reach_mm + cfg.guard_mm) == [
        True, True, True, False, False]
    px = np.round(view.to_px(away)).astype(int)
    assert list(got.region[px[:, 1], px[:, 0]] > 0) == [True, True, True, False, False]


def test_local_read_reads_in_full_when_the_change_is_wide_pale_long_or_none() -> None:
    grid, view, valid = _grid_view()
    sw, sh = grid.size_wh
    before = np.full((sh, sw, 3), 120, np.uint8)
    small = before.copy()
    r, c = np.argwhere(grid.play_cells(valid))[0]
    small[r, c] = 200
    cfg = LocalReadConfig()
    args = (cfg, grid, view, valid)
    assert plan(*args, small, _reading(before), 5.0, 0.04) is not None
    assert plan(*args, small, None, 5.0, 0.04) is None  # nothing read yet
    assert plan(*args, small, _reading(before, pale=True), 5.0, 0.04) is None
    assert plan(*args, small, _reading(before, in_row=cfg.max_in_row), 5.0, 0.04) is None
    assert plan(*args, before.copy(), _reading(before), 5.0, 0.04) is None  # no change
    light = (before * 1.3).astype(np.uint8)  # the lamp turned up: all of it changed
    assert plan(*args, light, _reading(before), 5.0, 0.04) is None


def test_local_read_prepares_only_the_blobs_reaching_into_its_region() -> None:
    cal = Calibration.load(SAMPLE / "calibration.json")
    frame = cv2.imread(str(SAMPLE / "frames" / "001.jpg"))
    view = TopView(cal)
    full = prepare(PrepareConfig(), view, frame)
    _, labels = cv2.connectedComponents(full.bright, connectivity=8)
    sizes = np.bincount(labels.ravel())
    one = 1 + int(np.argmax(sizes[1:]))  # the largest bright blob
    ys, xs = np.nonzero(labels == one)
    region = np.zeros_like(full.bright)
    region[ys[0], xs[0]] = 255  # one of its pixels
    part = prepare(PrepareConfig(), view, frame, region=region)
    assert part.noise == full.noise  # the whole table's thresholds
    # that blob whole, as the full view has it; the others are not made
    assert np.array_equal(part.bright[labels == one], full.bright[labels == one])
    assert 0 < np.count_nonzero(part.bright) < np.count_nonzero(full.bright)
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in part.rois_px) < sum(
        (x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in full.rois_px)


def test_local_read_carries_the_kept_pieces_readings_to_the_next_frame() -> None:
    case = draw_case(394001, hand=False, clutter="none", size=(640, 360), n_pieces=6,
                     light="soft")
    r = case.render()
    frame, cal = np.ascontiguousarray(r.image), r.calibration()
    grid = HandGrid(cal, TopView(cal), 160)
    pts = np.array([[-100.0, 0.0], [100.0, 0.0]])
    made: list[int] = []

    def compute(idx: np.ndarray) -> list:
        made.extend(int(i) for i in idx)
        return [f"read {i}" for i in idx]

    for carry in (False, True):
        memo = ReadingMemo(MemoConfig(), cal, grid, 5.0, 0.04)
        memo.see(grid.cells_of(frame))
        memo.rows("k", pts, 20.0, compute)
        memo.see(grid.cells_of(frame))  # a local read that read neither point
        if carry:
            memo.carry(lambda p: np.ones(len(p), bool))
        made.clear()
        memo.see(grid.cells_of(frame))
        assert memo.rows("k", pts, 20.0, compute) == ["read 0", "read 1"]
        assert made == ([] if carry else [0, 1])


def _sample() -> tuple[list[np.ndarray], Calibration, list[bool]]:
    if not (SAMPLE / "truth.jsonl").is_file():
        pytest.skip("the sample playthrough is not there")
    truth = [json.loads(line) for line in (SAMPLE / "truth.jsonl").read_text().splitlines()]
    frames = [cv2.imread(str(SAMPLE / t["frame"])) for t in truth]
    return frames, Calibration.load(SAMPLE / "calibration.json"), [t["hand"] for t in truth]


def test_local_read_of_the_sample_played_live_is_a_full_reads() -> None:
    frames, cal, hands = _sample()
    local = Detector(cal, config=DetectorConfig.for_game("worm-derby",
                                                         local_read=LocalReadConfig()))
    full = Detector(cal, config=DetectorConfig.for_game("worm-derby", local_read=None))
    reach = LocalReadConfig().reach_mm
    reread = 0
    for frame, hand in zip(frames, hands, strict=True):
        n = local.local_reads
        a, b = local.detect(frame), full.detect(frame)
        assert a.hand == b.hand == hand
        da, db = a.detections, b.detections
        assert sorted(zip(da.kind, da.suit, da.face, strict=True), key=str) == sorted(
            zip(db.kind, db.suit, db.face, strict=True), key=str)
        d = np.hypot(da.centre_mm[:, None, 0] - db.centre_mm[None, :, 0],
                     da.centre_mm[:, None, 1] - db.centre_mm[None, :, 1])
        d[da.kind[:, None] != db.kind[None, :]] = np.inf
        assert d.min(axis=1).max() < 1.0  # the kept pieces: as the last reading read them
        # the watch's mask at the grid's cells (what the hand cues and the memory see)
        ea, eb = (local.hand_grid.sample(m._last_explained) > 0 for m in (local, full))
        assert np.count_nonzero(ea != eb) <= 6
        assert float(np.abs(local.memory._ref - full.memory._ref).max()) < 10.0
        if local.local_reads > n:
            where = local.last_plan
            assert where is not None
            near = where.distance_mm(local.view, da.seen_mm) <= reach
            assert d.min(axis=1)[near].max() < 0.05  # read again: as a full read reads it
            region = where.region > 0
            assert np.array_equal(local._last_explained[region], full._last_explained[region])
            reread += int(near.sum())
    assert local.local_reads >= 5 and local.local_refused == 0 and reread >= 20


def test_local_read_reads_in_full_once_the_play_area_changed() -> None:
    frames, cal, _ = _sample()
    det = Detector(cal, config=DetectorConfig.for_game("worm-derby",
                                                       local_read=LocalReadConfig()))
    for frame in frames[:4]:
        det.detect(frame)
    cells = det.hand_grid.cells_of(frames[4])
    assert det._local_plan(cells) is not None  # the sample's frame 4 is read locally
    det._valid = det._valid.copy()  # a sheet found since: another play area
    assert det._local_plan(cells) is None
