"""A segment vision was unsure of may lie ``misread_mm`` from where it was read: the chain gap
beside it is that much more generous and the touch gap that much stricter (the benefit of
the doubt goes to the player)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop.events import SceneSeen
from tests.referee.worm_up.tables import Game, advance, table, verdict


def _shifted(scene, index, dx, dy, confidence):
    p = scene.pieces[index]
    moved = replace(p, x_mm=p.x_mm + dx, y_mm=p.y_mm + dy, confidence=confidence)
    return replace(scene, pieces=(*scene.pieces[:index], moved, *scene.pieces[index + 1:]))


@pytest.mark.parametrize(("confidence", "legal"), [(0.6, True), (1.0, False)])
def test_a_setup_chain_broken_only_by_an_unsure_segment_read_off_is_one_chain(confidence, legal):
    g = Game()
    # green's third segment from the head read 4 mm aside and 5.5 mm back: 25.9 mm from the next
    scene = _shifted(table(g.worms, g.posts), 14 + 4, 4.0, -5.5, confidence)
    v = verdict(g.push(SceneSeen(scene)))
    assert v.legal is legal
    if not legal:
        assert v.rule == "setup" and "one chain" in v.reason


@pytest.mark.parametrize(("confidence", "legal"), [(0.6, True), (1.0, False)])
def test_a_move_laid_with_an_unsure_segment_read_off_is_judged_as_laid(confidence, legal):
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    moved = dict(g.worms)
    moved["red"] = advance(g.worms["red"], 4)
    scene = _shifted(table(moved, g.posts), 5, 4.0, 5.5, confidence)  # the new second-last
    v = verdict(g.push(SceneSeen(scene)))
    assert v.legal is legal and v.player == "red"


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
