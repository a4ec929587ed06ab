"""The segment sweep (``training/segment_losses.py --game-seeds``) sorts each lost or phantom
segment by cause: a table of the segment's own colour, and the clutter a phantom lies on."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from training.segment_losses import on_clutter, own_colour, with_judge  # noqa: E402
from vision import DetectorConfig  # noqa: E402


def test_a_table_is_of_a_segments_own_colour_by_its_kinds_last_word():
    assert own_colour("gingham-red", "red")
    assert own_colour("cloth-blue", "blue")
    assert not own_colour("cloth-blue", "purple")
    assert not own_colour("walnut", "yellow")


def test_a_phantom_is_put_on_the_nearest_clutter_within_reach_else_on_the_table():
    dice = {"kind": "dice", "centre_mm": [116.2, 13.1]}
    pencil = {"kind": "pencil", "centre_mm": [100.0, 13.1]}
    assert on_clutter([dice, pencil], (118.0, 14.0)) == "dice"
    assert on_clutter([dice, pencil], (101.0, 13.0)) == "pencil"
    assert on_clutter([dice], (118.0, 60.0)) == "table"
    assert on_clutter([], (0.0, 0.0)) == "table"


def test_a_sweep_can_read_with_another_segment_judge():
    cfg = with_judge(DetectorConfig(), Path("elsewhere.yml.gz"))
    assert cfg.segments.judge.model == Path("elsewhere.yml.gz")
    assert cfg.segments.judge.min_score == DetectorConfig().segments.judge.min_score
    assert cfg.segments.mask == DetectorConfig().segments.mask
