"""Live, a blind's stripes are the table at every brightness of the lamp: once the lamp is
dimmed between two turns, a still table under a blind is judged (no hand), and the hand that
moved the worm is one (:class:`vision.hands.TableMemory` and the live hand cue).

The turn is the first of a rendered Slalom playthrough of ``bench/bench_trust.py`` (seed 82117:
a green felt table whose view shows the floor beyond its edge, under a blind; the lamp dimmed
after the first turn), each frame shown three times as a replay does.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from vision import Detector, DetectorConfig

pytest.importorskip("tabletop.render")
trust = pytest.importorskip("bench.bench_trust")

pytestmark = pytest.mark.xdist_group("hand_blind")

LAST_STEP = 9
"""Steps 0-9: the setup, two turns under the lamp, the lamp dimmed, a turn and its fix."""


@pytest.fixture(scope="module")
def frames() -> tuple[object, list[tuple[str, object]]]:
    play = trust.playthroughs(82117, ["worm-derby.slalom"])[0]
    assert play.light_at.get(5) == "dim"
    play = dataclasses.replace(play, steps=play.steps[: LAST_STEP + 1])
    fr = trust.render(play, 82117, 3, light="blind")
    kinds = []
    for i, it in fr.items:
        if hasattr(it, "type"):
            continue
        kinds.append(("still" if isinstance(play.steps[i], trust.Still) else "motion", i, it))
    return fr.calibration, kinds


def _flags(config: DetectorConfig, frames) -> list[tuple[str, int, bool]]:  # type: ignore[no-untyped-def]
    cal, items = frames
    det = Detector(cal, config=config)
    return [(kind, i, det.detect(im).scene.hand) for kind, i, im in items]


def test_a_still_table_under_a_blind_is_judged_after_the_lamp_dims(frames) -> None:  # type: ignore[no-untyped-def]
    seen = _flags(DetectorConfig.for_game("worm-derby"), frames)
    # the first frame has no memory yet (a single photo's cue may call the stripes a hand)
    stills = [h for kind, i, h in seen[1:] if kind == "still"]
    assert not any(stills)
    assert all(h for kind, i, h in seen if kind == "motion")


def test_the_stripes_were_a_hand_when_the_whole_foreign_blob_was_judged(frames) -> None:  # type: ignore[no-untyped-def]
    """As the detector was (the whole foreign blob judged, not only what moved), the stills
    after the lamp dims are a hand: the test above can fail."""
    config = DetectorConfig.for_game("worm-derby")
    config = replace(config, hands=replace(config.hands, moving_only=False))
    # and the table's colour as it was (the bands left in: what the stills' pieces explained)
    config = replace(config, prepare=replace(config.prepare, normalise=replace(
        config.prepare.normalise, band_mm=0.0)))
    seen = _flags(config, frames)
    assert any(h for kind, i, h in seen if kind == "still" and i > 5)
