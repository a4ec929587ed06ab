"""Never cry wolf: a short rendered playthrough of each game through the replay pipeline (the
small version of ``bench/bench_trust.py``): every verdict right, no false alarm, no missed foul,
and a doubt only where the reading really was wrong."""

from __future__ import annotations

import pytest

from bench.bench_trust import Expect, Still, playthroughs, run

SEED = 5
GAMES = {"worm-derby.basic": ("oak", "soft"), "worm-derby.slalom": ("linen", "window"),
         "worm-derby.cannibal": ("walnut", "hard"), "jungle": ("felt-green", "soft")}
"""Each game on a table and under a light of :mod:`tabletop.render.variety` that vision reads
today (the issue's oak table under a soft lamp, linen under window light...); the lamp still
dims or goes off between turns. The bench draws tables and lights at random."""
"""Worm Up! is left out: vision does not yet see segments touching in a row (a worm), so
its setup is never read (``bench/bench_trust.py --games worm-up`` shows it)."""


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_trust_a_rendered_playthrough_is_judged_without_false_alarms_or_missed_fouls(game):
    (play,) = playthroughs(SEED, [game], short=True)
    fouls = [s for s in play.steps if isinstance(s, Still) and isinstance(s.expect, Expect)
             and not s.expect.legal]
    assert len(fouls) >= 2  # planted fouls of more than one rule
    table, light = GAMES[game]
    score = run(play, SEED, table=table, light=light)
    c = score.counts
    assert c["false_alarms"] == 0, score.notes
    assert c["missed_fouls"] == 0, score.notes
    assert c["doubts_raised"] == c["doubts_real"], score.notes
    assert c["exact_right"] == c["exact_total"] > 0, score.notes
    expected = sum(1 for s in play.steps if isinstance(s, Still) and s.expect is not None)
    assert c["verdicts_right"] + c["verdicts_missing"] == expected


def _run_short(play, seed: int, table: str, light: str):
    score = run(play, seed, table=table, light=light)
    c = score.counts
    assert c["false_alarms"] == 0, score.notes
    assert c["doubts_raised"] == c["doubts_real"], score.notes
    return score


@pytest.mark.slow
def test_trust_the_turn_after_the_lamp_is_switched_off_is_judged():
    from bench.bench_trust import Roll, Say, worm_derby

    play = worm_derby(SEED, fouls=(), turns=3, still_frames=1)
    second = [i for i, s in enumerate(play.steps) if isinstance(s, Say)
              and isinstance(s.event, Roll)][1]
    play.light_at.clear()
    play.light_at[second] = "off"  # window light only from the second turn on
    score = _run_short(play, SEED, "cloth-blue", "glare")
    c = score.counts
    assert c["verdicts_missing"] == 0 and c["missed_fouls"] == 0, score.notes
    assert c["verdicts_right"] == c["exact_total"] > 3, score.notes


@pytest.mark.slow
def test_trust_a_planted_overlap_foul_is_called_against_its_mover():
    from bench.bench_trust import worm_derby

    play = worm_derby(SEED, fouls=("overlap",), turns=2, still_frames=1)
    fouls = [s.expect for s in play.steps if isinstance(s, Still) and s.expect is not None
             and not s.expect.legal]
    assert [f.rule for f in fouls] == ["overlap"]
    score = _run_short(play, SEED, "oak", "soft")
    c = score.counts
    assert c["exact_right"] == c["exact_total"], score.notes  # the rule and the mover
    # through the camera: called, or (a coin read as hidden under the head) doubted, never
    # passed over in silence nor called against anyone else
    assert c["missed_fouls"] == c["missed_fouls_doubted"], score.notes


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_gap_a_planted_squeeze_through_a_narrow_gap_is_called_on_the_exact_record(seed):
    from bench.bench_trust import exact, worm_derby

    play = worm_derby(seed, fouls=("gap",), turns=6, still_frames=1)
    fouls = [s.expect for s in play.steps if isinstance(s, Still) and s.expect is not None
             and not s.expect.legal]
    assert [(f.player, f.rule) for f in fouls] == [("suns", "gap")]
    assert play.wall is not None and play.wall.narrow_mm < 19.05 < play.wall.wide_mm
    score = exact(play)
    assert score.counts["exact_right"] == score.counts["exact_total"], score.notes


def test_gap_the_second_worm_passes_the_wide_gap_by_legal_moves():
    from bench.bench_trust import worm_derby

    passed = 0
    for seed in range(1, 6):
        play = worm_derby(seed, fouls=("gap",), turns=8, still_frames=1)
        wall = play.wall
        for s in play.steps:
            if not (isinstance(s, Still) and s.expect is not None and s.expect.legal):
                continue
            moons = [p for p in s.scene.pieces if p.kind == "coin" and p.suit == "moons"]
            in_gap = [p for p in moons if abs(p.y_mm - wall.wide_y_mm) < wall.wide_mm
                      and abs(p.x_mm - wall.x_mm) < 19.05]
            if in_gap and min(p.x_mm for p in moons) < wall.x_mm < max(p.x_mm for p in moons):
                passed += 1
                break
    assert passed >= 2


@pytest.mark.slow
@pytest.mark.parametrize(("table", "light"), [("oak", "soft"), ("linen", "window")])
def test_gap_vision_reads_a_worm_through_a_gap_touching_tiles_on_both_sides(table, light):
    from bench.bench_trust import gap_coins

    read, there = gap_coins(SEED, table, light)
    assert read == there == 5


@pytest.mark.parametrize("rule", ["turn", "tail", "shape", "post"])
def test_every_foul_a_planted_worm_up_foul_is_called_on_the_exact_record(rule):
    from bench.bench_trust import FOULS_UP, exact, worm_up

    assert rule in FOULS_UP
    play = worm_up(7, rounds=2, fouls=(rule,), still_frames=1)
    fouls = [s.expect for s in play.steps if isinstance(s, Still) and s.expect is not None
             and not s.expect.legal]
    assert [f.rule for f in fouls] == [rule]
    score = exact(play)
    assert score.counts["exact_right"] == score.counts["exact_total"], score.notes


def test_every_foul_jungle_plants_the_rules_a_position_allows_and_calls_them_exactly():
    from bench.bench_trust import FOULS_JUNGLE, exact

    planted: set[str] = set()
    for seed in range(148000, 148006):
        (play,) = playthroughs(seed, ["jungle"], every_foul=True)
        planted |= {s.expect.rule for s in play.steps if isinstance(s, Still)
                    and s.expect is not None and not s.expect.legal}
        score = exact(play)
        assert score.counts["exact_right"] == score.counts["exact_total"], score.notes
    assert {"steps", "water", "turn", "jump"} <= planted <= set(FOULS_JUNGLE)


def test_dump_a_missing_folder_is_made_and_a_file_in_its_place_is_named(tmp_path, capsys):
    from bench.bench_trust import main

    folder = tmp_path / "kept" / "events"
    assert main(["--misread", "0", "--plays", "1", "--short", "--games", "jungle",
                 "--dump", str(folder)]) == 0
    assert folder.is_dir()
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(SystemExit):
        main(["--misread", "0", "--plays", "1", "--short", "--games", "jungle",
              "--dump", str(blocker / "events")])
    assert f"--dump {blocker / 'events'}" in capsys.readouterr().err


def test_first_misread_a_worm_two_coins_short_at_the_start_and_a_pylon_read_face_down(capsys):
    """Issue 13: a first table in doubt that the players roll on from is judged once a reading
    completes it (Worm Derby): two coins of a worm not seen in a gap two coins wide, or the
    pylon read face down on the first two tables, cost no verdict and raise no false alarm."""
    from bench.bench_trust import main

    for how, stills in (("two-coins-gone", "1"), ("pylon-down", "2")):
        assert main(["--first-misread", how, "--first-stills", stills, "--plays", "1",
                     "--short", "--games", "worm-derby", "--seed", "160000"]) == 0
        figures = dict(line.split("=") for line in capsys.readouterr().out.splitlines()
                       if "=" in line and "." not in line.split("=")[0])
        assert figures["false_alarms"] == "0" and figures["missed_fouls"] == "0", how
        if how == "two-coins-gone":
            assert figures["verdicts_missing"] == "0"


def test_suit_misread_a_coin_or_segment_is_read_as_another_on_the_table_and_scored():
    """The bench's suit misread (``--suit-misread``): one coin (a Worm Up! segment) read with
    the suit (colour) of another piece of its kind on the table, the rest as they are; with
    chance 0 nothing changes (the other misreads' random stream is its own)."""
    import random

    from bench.bench_trust import _as_another_suit, _read_as, main
    from tabletop.scene import Piece, Scene

    scene = Scene((Piece("coin", 0, 0, suit="suns"), Piece("coin", 19, 0, suit="moons"),
                   Piece.tile(80, 0, 0, "down"), Piece("segment", 0, 50, color="red"),
                   Piece("segment", 20, 50, color="blue")))
    assert _as_another_suit(scene, random.Random(1), 0.0) is None
    for seed in range(20):
        swap = _as_another_suit(scene, random.Random(seed), 1.0)
        assert swap is not None
        read = _read_as(scene, swap)
        changed = [(p, q) for p, q in zip(scene.pieces, read.pieces, strict=True) if p != q]
        assert len(changed) == 1
        (was, now), = changed
        assert (was.kind, now.suit, now.color) in {("coin", "moons", None), ("coin", "suns", None),
                                                   ("segment", None, "blue"),
                                                   ("segment", None, "red")}
        assert (now.suit or now.color) != (was.suit or was.color)
    assert main(["--suit-misread", "1", "--plays", "1", "--short", "--games",
                 "worm-derby.basic", "--seed", "203400"]) == 0
