"""Perft: the recorded counts (data/*.perft), and the engine against the slow reference
implementation (reference.py): perft counts and the very moves, position by position."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.jungle.perft import divide, perft, perft_case, position_after, read_perft_file
from referee.jungle.position import Position, move_text, parse_move
from referee.jungle.rules import rules_for
from tests.referee.jungle import reference as ref

DATA = Path(__file__).parent / "data"
CASES = [c for f in sorted(DATA.glob("*.perft")) for c in read_perft_file(f)]
RULE_SETS = [(), ("elephant-captures-rat",), ("dog-over-wolf",), ("dog-swims",),
             ("leopard-jumps",), ("elephant-captures-rat", "dog-over-wolf", "dog-swims",
                                  "leopard-jumps")]


def _id(case) -> str:
    return f"{'+'.join(case.variants) or 'standard'}:{len(case.moves.split())}moves:l{case.line}"


def test_the_data_files_hold_cases():
    assert len(CASES) >= 20
    start = [c for c in CASES if not c.moves and not c.variants]
    assert start and start[0].counts == {1: 24, 2: 576, 3: 12240, 4: 260099, 5: 5111620}


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_recorded_counts(case):
    for depth, count in sorted(case.counts.items()):
        if depth <= 4:
            assert perft_case(case, depth) == count, f"depth {depth}"


def test_perft5_from_the_start():
    case = next(c for c in CASES if not c.moves and not c.variants)
    assert perft(Position(), 5) == case.counts[5]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_counts_agree_with_the_reference(case):
    board, side = ref.after(case.moves)
    variants = set(case.variants)
    for depth in (1, 2, 3):
        assert ref.perft(board, side, depth, variants) == case.counts[depth], f"depth {depth}"


SMALL_DEPTH4 = [c for c in CASES if c.counts.get(4, 10**9) < 40_000]


@pytest.mark.parametrize("case", SMALL_DEPTH4, ids=_id)
def test_depth4_agrees_with_the_reference_where_cheap(case):
    board, side = ref.after(case.moves)
    assert ref.perft(board, side, 4, set(case.variants)) == case.counts[4]


@pytest.mark.parametrize("variants", RULE_SETS, ids=lambda v: "+".join(v) or "standard")
def test_same_moves_as_the_reference_in_random_games(variants):
    """Random games (captures and advances preferred): every position, the same move set."""
    rng = random.Random(len(variants) * 7 + 1)
    seen = {"jump": 0, "trap": 0, "water": 0, "capture": 0, "den": 0, "all": 0}
    for _game in range(40):
        pos = Position(rules=rules_for(variants))
        board, side = ref.start(), 0
        for _ply in range(120):
            ours = sorted(move_text(m) for m in pos.generate_moves())
            theirs = sorted(ref.moves(board, side, set(variants)))
            assert ours == theirs, pos.text()
            if not ours:
                break
            for m in ours:
                fr, to = m[:2], m[2:]
                dist = abs(ord(fr[0]) - ord(to[0])) + abs(int(fr[1]) - int(to[1]))
                seen["jump"] += dist > 1
                seen["capture"] += to in board
                seen["trap"] += to in board and to in ref.TRAPS[side]
                seen["water"] += to in ref.WATER
                seen["den"] += to == ref.DEN[1 - side]
            fwd = 1 if side == 0 else -1
            caps = [m for m in ours if m[2:] in board]
            ahead = [m for m in ours if (int(m[3]) - int(m[1])) * fwd > 0]
            pick = rng.random()
            pool = caps if caps and pick < 0.5 else ahead if ahead and pick < 0.9 else ours
            m = rng.choice(pool)
            pos.push(parse_move(m))
            board = ref.play(board, m)
            side = 1 - side
            seen["all"] += 1
    # the games went through the rules worth checking
    assert all(seen[k] > 0 for k in ("jump", "capture", "trap", "water", "den")), seen


def test_perft_restores_the_position_and_divide_sums_up():
    pos = position_after("g3g4 a7b7 g4f4")
    before = (pos.text(), pos.move_stack, pos.repetitions())
    parts = divide(pos, 3)
    assert sum(parts.values()) == perft(pos, 3)
    assert (pos.text(), pos.move_stack, pos.repetitions()) == before
    assert perft(pos, 0) == 1


def test_perft_cuts_off_after_a_den_entry_only():
    # the first player's cat on d8 may enter the den: after that move nothing follows
    pos = Position("6l/3C3/7/7/7/7/7/7/6L 1")
    one = perft(pos, 1)
    two = perft(pos, 2)
    pos.push(parse_move("d8d9"))
    assert pos.generate_moves() == []
    pos.pop()
    # every first move but the den entry has the second player's lion replies (2 from g9)
    assert two == (one - 1) * 2
