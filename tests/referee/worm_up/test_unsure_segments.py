"""A segment vision was unsure of may lie ``misread_mm`` from where it was read: the chain gap
beside it is that much more generous and the touch gap that much stricter (the benefit of
the doubt goes to the player)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop.events import Doubt, SceneSeen
from tests.referee.worm_up.tables import Game, advance, table, verdict


def _shifted(scene, index, dx, dy, confidence):
    p = scene.pieces[index]
    moved = replace(p, x_mm=p.x_mm + dx, y_mm=p.y_mm + dy, confidence=confidence)
    return replace(scene, pieces=(*scene.pieces[:index], moved, *scene.pieces[index + 1:]))


@pytest.mark.parametrize(("confidence", "back_mm", "said"), [
    (0.6, 5.5, "ok"), (1.0, 5.5, "doubt"), (1.0, 12.0, "setup"), (0.6, 12.0, "doubt"),
    (0.6, 20.0, "setup")])
def test_a_setup_chain_apart_by_a_misread_is_not_split(confidence, back_mm, said):
    g = Game()
    # green's third segment from the head read 4 mm aside and ``back_mm`` back
    scene = _shifted(table(g.worms, g.posts), 14 + 4, 4.0, -back_mm, confidence)
    out = g.push(SceneSeen(scene))
    if said == "doubt":
        assert [type(e) for e in out] == [Doubt] and "apart by a few" in out[0].reason
    else:
        v = verdict(out)
        assert v.rule == said
        assert said == "ok" or "one chain" in v.reason


@pytest.mark.parametrize(("confidence", "aside_mm", "said"), [
    (0.6, 5.5, "ok"), (1.0, 5.5, "doubt"), (1.0, 13.0, "shape")])
def test_a_move_laid_apart_by_a_misread_is_not_split(confidence, aside_mm, said):
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    moved = dict(g.worms)
    moved["red"] = advance(g.worms["red"], 4)
    scene = _shifted(table(moved, g.posts), 5, 4.0, aside_mm, confidence)  # the new 2nd-last
    out = g.push(SceneSeen(scene))
    if said == "doubt":
        assert [type(e) for e in out] == [Doubt] and out[0].player == "red"
    else:
        v = verdict(out)
        assert (v.rule, v.player) == (said, "red")


@pytest.mark.parametrize(("confidence", "legal"), [(0.6, True), (1.0, False)])
def test_an_unsure_segment_read_a_little_into_another_worm_does_not_touch_it(confidence, legal):
    g = Game()
    worms = dict(g.worms)
    worms["red"] = [(77.0, y) for _, y in worms["red"]]  # 23 mm from yellow's: not touching
    scene = _shifted(table(worms, g.posts), 6, 2.0, 0.0, confidence)  # its head read at 21 mm
    v = verdict(g.push(SceneSeen(scene)))
    assert v.legal is legal
    if not legal:
        assert v.rule == "setup" and "touches" in v.reason


@pytest.mark.parametrize(("confidence", "rule"), [(0.5, "ok"), (1.0, "turn")])
def test_a_worm_that_may_not_move_changed_only_in_unsure_segments_did_not_move(confidence, rule):
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    worms = dict(g.worms, red=advance(g.worms["red"], 4))
    scene = table(worms, g.posts)
    for k, (dx, dy) in zip((9, 10, 12), ((4.0, 15.0), (5.0, -9.0), (3.0, 30.0)), strict=True):
        scene = _shifted(scene, k, dx, dy, confidence)  # yellow read scattered (a hand near?)
    v = verdict(g.push(SceneSeen(scene)))
    assert v.rule == rule and v.player == ("red" if rule == "ok" else "yellow")
    if rule == "ok":
        assert g.referee.describe()["worms"]["yellow"]["head_mm"] == list(g.worms["yellow"][-1])
