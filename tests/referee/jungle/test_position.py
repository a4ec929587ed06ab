"""The position: text forms that round-trip, push/pop, status, geometry."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.jungle import geometry as g
from referee.jungle.errors import IllegalMoveError, MoveFormatError, PositionFormatError
from referee.jungle.perft import position_after
from referee.jungle.position import (
    START_TEXT,
    Position,
    Status,
    move_text,
    parse_move,
    parse_move_list,
)
from referee.jungle.rules import rules_for
from tests.referee.jungle.helpers import START, board


def test_start_position_is_the_contracts():
    pos = Position()
    placed = {g.SQUARE_NAMES[sq]: (code - 1) // 8 for sq, code in pos.pieces()}
    assert placed == {**dict.fromkeys(START[0], 0), **dict.fromkeys(START[1], 1)}
    assert pos.text() == START_TEXT == board({"a1": "T", "g1": "L", "b2": "C", "f2": "D",
                                              "a3": "E", "c3": "W", "e3": "P", "g3": "R",
                                              "g9": "t", "a9": "l", "f8": "c", "b8": "d",
                                              "g7": "e", "e7": "w", "c7": "p", "a7": "r"})
    assert pos.side == 0 and pos.status() == Status.VALID


def test_terrain():
    names = lambda squares: sorted(g.SQUARE_NAMES[s] for s in squares)  # noqa: E731
    assert names(g.WATER) == sorted(f + r for f in "bcef" for r in "456")
    assert [g.SQUARE_NAMES[d] for d in g.DENS] == ["d1", "d9"]
    assert names(g.TRAPS[0]) == ["c1", "d2", "e1"] and names(g.TRAPS[1]) == ["c9", "d8", "e9"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=60),
       st.sampled_from([(), ("dog-swims",), ("leopard-jumps", "elephant-captures-rat")]))
def test_text_round_trips_and_pop_restores(choices, variants):
    rules = rules_for(variants)
    pos = Position(rules=rules)
    snapshots = []
    for c in choices:
        moves = pos.generate_moves()
        if not moves:
            break
        snapshots.append((pos.text(), list(pos.board), list(pos.where), list(pos.counts),
                          pos.winner, pos.repetitions()))
        pos.push(moves[c % len(moves)])
        again = Position(pos.text(), rules)
        assert again.text() == pos.text() and again.board == pos.board
        assert again.winner == pos.winner
        assert sorted(again.generate_moves()) == sorted(pos.generate_moves())
        assert pos.count_moves() == len(pos.generate_moves())
    for snap in reversed(snapshots):
        pos.pop()
        assert (pos.text(), pos.board, pos.where, pos.counts, pos.winner,
                pos.repetitions()) == snap
    assert pos.text() == START_TEXT


@given(st.sampled_from(g.SQUARE_NAMES), st.sampled_from(g.SQUARE_NAMES))
def test_move_text_round_trips(a, b):
    assert move_text(parse_move(a + b)) == a + b


@pytest.mark.parametrize("text", ["", "g3", "g3g10", "h1h2", "a1-a2", "a0a1", "tiger"])
def test_bad_move_text(text):
    with pytest.raises(MoveFormatError):
        parse_move(text)


def test_move_lists():
    assert [move_text(m) for m in parse_move_list(" g3g4,a7b7  g4f4 ")] == ["g3g4", "a7b7",
                                                                          "g4f4"]
    assert position_after("").text() == START_TEXT
    with pytest.raises(IllegalMoveError, match="move 2"):
        position_after("g3g4 g4g5")


@pytest.mark.parametrize(("text", "message"), [
    ("7/7/7 1", "expected 9 ranks"),
    (START_TEXT.replace(" 1", " 3"), "side to move"),
    (START_TEXT.replace("T5L", "T6L"), "more than 7 squares"),
    (START_TEXT.replace("T5L", "T4L"), "has 6 squares, not 7"),
    (START_TEXT.replace("T5L", "T5X"), "bad rank"),
    (START_TEXT.replace("T5L", "T5T"), "two first tigers"),
    (START_TEXT.split()[0], "side to move"),
])
def test_bad_position_text(text, message):
    with pytest.raises(PositionFormatError, match=message):
        Position(text)


def test_status_flags_impossible_positions():
    assert Position(board({"b5": "W", "a9": "l"})).status() == Status.NO_SWIMMER_IN_WATER
    assert Position(board({"b5": "R", "a9": "l"})).status() == Status.VALID
    assert Position(board({"b5": "D", "a9": "l"}), rules_for(["dog-swims"])).status() == \
        Status.VALID
    assert Position(board({"d1": "C", "a9": "l"})).status() == Status.IN_OWN_DEN
    both = Position(board({"d1": "c", "d9": "C"})).status()
    assert Status.BOTH_DENS in both


def test_push_checked_refuses_an_illegal_move():
    pos = Position()
    with pytest.raises(IllegalMoveError, match=r"c3c4 is illegal \(water\)"):
        pos.push_checked(parse_move("c3c4"))
    assert pos.text() == START_TEXT


def test_locate_mm_statuses():
    s = g.SQUARE_MM
    assert g.locate_mm(0.5 * s, 0.5 * s).square == g.parse_square("a1")
    assert g.locate_mm(6.5 * s, 8.5 * s).square == g.parse_square("g9")
    assert g.locate_mm(1.0 * s, 0.5 * s).status == "between"
    assert g.locate_mm(0.5 * s, -0.1 * s).status == "between"  # over the board's edge
    assert g.locate_mm(0.5 * s, -0.5 * s).status == "off"
    assert g.locate_mm(0.5 * s + 0.29 * s, 0.5 * s).status == "on"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=0, max_size=50),
       st.sampled_from([(), ("dog-swims", "leopard-jumps"), ("elephant-captures-rat",
                                                              "dog-over-wolf")]))
def test_check_agrees_with_move_generation(choices, variants):
    """In positions of random games, every move between two squares in a line (up to four
    apart) is legal by check() exactly when the generator lists it, and otherwise check() names
    the broken rule with a sentence."""
    pos = Position(rules=rules_for(variants))
    for c in choices:
        moves = pos.generate_moves()
        if not moves:
            break
        pos.push(moves[c % len(moves)])
    legal = set(pos.legal_moves())
    for fr in range(g.N_SQUARES):
        for to in range(g.N_SQUARES):
            df, dr = abs(g.file_of(fr) - g.file_of(to)), abs(g.rank_of(fr) - g.rank_of(to))
            if (df and dr) or df + dr > 4:
                continue
            m = fr * 64 + to
            bad = pos.check(m)
            assert (bad is None) == (m in legal), (pos.text(), move_text(m), bad)
            if bad is not None:
                assert bad.reason and "\n" not in bad.reason
