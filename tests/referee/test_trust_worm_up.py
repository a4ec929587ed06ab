"""Worm Up! through the camera: a short rendered playthrough (secret bids, worms of seven
segments moving in bid order, a planted foul put right) through the replay pipeline, every
verdict right (the small version of ``bench/bench_trust.py --games worm-up``)."""

from __future__ import annotations

import pytest

from bench.bench_trust import Expect, Still, playthroughs, run


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "table", "light"), [(65911, "laminate-grey", "soft"),
                                                      (65912, "walnut", "window")])
def test_trust_worm_up_through_the_camera_is_judged_right(seed: int, table: str,
                                                          light: str) -> None:
    (play,) = playthroughs(seed, ["worm-up"], short=True)
    assert any(isinstance(s, Still) and isinstance(s.expect, Expect) and not s.expect.legal
               for s in play.steps)  # a planted foul
    score = run(play, seed, table=table, light=light)
    c = score.counts
    expected = sum(1 for s in play.steps if isinstance(s, Still) and s.expect is not None)
    assert c["false_alarms"] == 0, score.notes
    assert c["missed_fouls"] == 0, score.notes
    assert c["verdicts_right"] == expected, score.notes
    assert c["doubts_raised"] == c["doubts_real"], score.notes
