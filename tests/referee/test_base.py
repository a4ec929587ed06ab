"""The shared vocabulary of the rule engines (referee.base): one judgement for every game."""

from __future__ import annotations

import doctest
import importlib

import pytest

from referee.base import Judgement, RuleBroken
from referee.jungle.position import Position, Rule, parse_move


@pytest.mark.parametrize("name", ["referee.base", "referee.worm_derby.judging"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


def test_judgement_verdict_is_legal_only_for_ok():
    assert Judgement("ok", "Fine.").verdict(3).legal
    assert not Judgement("steps", "Too far.").verdict(3).legal


def test_judgement_verdict_names_its_own_player_before_the_callers():
    assert Judgement("turn", "Not yours.", player="moons").verdict(1, "suns").player == "moons"
    assert Judgement("turn", "Not yours.").verdict(1, "suns").player == "suns"


def test_judgement_verdict_leaves_out_pieces_no_longer_on_the_table():
    v = Judgement("cannibal", "Eaten.", pieces=(4, -1000, 2), where=(1.5, 2.5)).verdict(0)
    assert (v.pieces, v.where, v.rule, v.reason) == ((4, 2), (1.5, 2.5), "cannibal", "Eaten.")


def test_rule_broken_carries_its_judgement():
    j = Judgement("post", "Both finish posts moved.", doubt="is a piece hidden or misread?")
    with pytest.raises(RuleBroken) as caught:
        raise RuleBroken(j)
    assert caught.value.judgement is j and str(caught.value) == j.reason


def test_jungle_check_says_a_judgement_with_its_rule_code():
    swim = Position("r6/7/7/7/7/7/1E5/7/7 1").check(parse_move("b3b4"))
    assert isinstance(swim, Judgement) and swim.rule is Rule.WATER and swim.rule == "water"
    assert swim.verdict(5, "ann").rule == "water" and not swim.legal
