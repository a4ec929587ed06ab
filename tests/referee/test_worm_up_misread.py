"""Worm Up! through a camera that misreads: the exact playthroughs of the trust bench, each
still read twice and each reading, with a chance, missing a piece or with one read 3 mm off
(``bench/bench_trust.py --misread``): no false alarm, no missed foul, every turn judged (the
referee completes a reading from the other, a hole, the accepted table), every doubt real."""

from __future__ import annotations

import pytest

from bench.bench_trust import misread, playthroughs


@pytest.mark.parametrize("p", [0.3, 0.5])
def test_worm_up_misread_readings_are_judged_without_false_alarms_or_missed_turns(p: float):
    total: dict[str, int] = {}
    for k in range(8):
        seed = 103500 + 17 * k
        (play,) = playthroughs(seed, ["worm-up"])
        score = misread(play, seed, p)
        assert score.counts["false_alarms"] == 0, score.notes
        assert score.counts["missed_fouls"] == 0, score.notes
        assert score.counts["verdicts_missing"] == 0, score.notes
        assert score.counts["doubts_raised"] == score.counts["doubts_real"], score.notes
        for name, n in score.counts.items():
            total[name] = total.get(name, 0) + n
    # the camera did misread; each still is read twice as the pipeline does, so most misreads
    # are completed by the other reading and need no doubt (those raised are checked above)
    assert total.get("readings_wrong", 0) > 0
