"""Rule by rule: captures, water, jumps and their blocking, traps, dens, turns, repetition,
and each variant changing exactly what it says."""

from __future__ import annotations

import pytest

from referee.jungle.position import Position, Rule, Termination, parse_move
from referee.jungle.rules import ANIMALS, Rules, find_variant, rules_for
from tests.referee.jungle.helpers import board

FIRST, SECOND = 1, 2


def judge(pieces: dict[str, str], move: str, to_move: int = FIRST,
          variants: tuple[str, ...] = ()) -> str:
    """``ok`` or the rule code the move breaks; checks check() and generate_moves() agree."""
    pos = Position(board(pieces, to_move), rules_for(variants))
    m = parse_move(move)
    bad = pos.check(m)
    assert (bad is None) == (m in pos.generate_moves())
    return "ok" if bad is None else bad.rule.value


CASES = [
    # --- captures by rank (kings of the board: pieces on plain land squares)
    ("equal rank captures", {"d4": "L", "d5": "l"}, "d4d5", (), "ok"),
    ("higher captures lower", {"d4": "T", "d5": "p"}, "d4d5", (), "ok"),
    ("lower cannot capture higher", {"d4": "P", "d5": "t"}, "d4d5", (), "capture"),
    ("cat takes rat", {"d4": "C", "d5": "r"}, "d4d5", (), "ok"),
    ("rat cannot take cat", {"d4": "R", "d5": "c"}, "d4d5", (), "capture"),
    ("wolf takes dog", {"d4": "W", "d5": "d"}, "d4d5", (), "ok"),
    ("dog cannot take wolf", {"d4": "D", "d5": "w"}, "d4d5", (), "capture"),
    ("rat takes elephant", {"d4": "R", "d5": "e"}, "d4d5", (), "ok"),
    ("elephant cannot take rat", {"d4": "E", "d5": "r"}, "d4d5", (), "capture"),
    ("own piece blocks", {"d4": "E", "d5": "R"}, "d4d5", (), "occupied"),
    ("second player captures too", {"d4": "C", "d5": "t"}, "d5d4", (), "ok"),
    # --- water
    ("only the rat swims", {"c3": "W"}, "c3c4", (), "water"),
    ("lion cannot step into water", {"a5": "L"}, "a5b5", (), "water"),
    ("rat enters the water", {"c3": "R"}, "c3c4", (), "ok"),
    ("rat swims in the water", {"b4": "R"}, "b4c4", (), "ok"),
    ("rat leaves the water", {"b4": "R"}, "b4a4", (), "ok"),
    ("rat in water cannot take elephant on land", {"b5": "R", "a5": "e"}, "b5a5", (), "water"),
    ("rat in water cannot take rat on land", {"b5": "R", "a5": "r"}, "b5a5", (), "water"),
    ("rat on land cannot take rat in water", {"a5": "R", "b5": "r"}, "a5b5", (), "water"),
    ("rat in water takes rat in water", {"b5": "R", "b6": "r"}, "b5b6", (), "ok"),
    ("rat on land takes rat on land", {"a5": "R", "a6": "r"}, "a5a6", (), "ok"),
    ("rat in water cannot take cat on land (two rules)", {"b5": "R", "a5": "c"}, "b5a5", (),
     "water"),
    # --- river jumps
    ("lion jumps across a river", {"a5": "L"}, "a5d5", (), "ok"),
    ("lion jumps back", {"d5": "L"}, "d5a5", (), "ok"),
    ("lion jumps the other river", {"d5": "L"}, "d5g5", (), "ok"),
    ("tiger jumps along a river", {"b3": "T"}, "b3b7", (), "ok"),
    ("tiger jumps along, downwards", {"f7": "T"}, "f7f3", (), "ok"),
    ("own rat in the water blocks", {"a5": "L", "b5": "R"}, "a5d5", (), "jump"),
    ("enemy rat in the water blocks", {"a5": "L", "c5": "r"}, "a5d5", (), "jump"),
    ("rat anywhere on the line blocks", {"b3": "T", "b6": "r"}, "b3b7", (), "jump"),
    ("rat off the line does not block", {"b3": "T", "c5": "r"}, "b3b7", (), "ok"),
    ("jump captures when allowed", {"b3": "T", "b7": "p"}, "b3b7", (), "ok"),
    ("jump cannot capture stronger", {"b3": "T", "b7": "l"}, "b3b7", (), "capture"),
    ("jump onto own piece", {"b3": "T", "b7": "C"}, "b3b7", (), "occupied"),
    ("elephant does not jump", {"a5": "E"}, "a5d5", (), "jump"),
    ("leopard does not jump (standard)", {"a5": "P"}, "a5d5", (), "jump"),
    ("no jump from the water's side: two squares on land", {"a5": "L"}, "a5a7", (), "steps"),
    ("a jump must be straight", {"a4": "L"}, "a4d5", (), "steps"),
    # --- traps
    ("enemy on my trap has rank 0", {"c2": "R", "c1": "e"}, "c2c1", (), "ok"),
    ("even the elephant takes a rat on my trap", {"d3": "E", "d2": "r"}, "d3d2", (), "ok"),
    ("enemy off my trap keeps its rank", {"c3": "C", "c2": "e"}, "c3c2", (), "capture"),
    ("own trap never weakens own piece", {"d2": "D", "d3": "c"}, "d3d2", (), "capture"),
    ("a piece on its own side's trap is safe from weaker", {"d9": "l", "e9": "t", "e8": "C"},
     "e8e9", (), "capture"),
    ("attacking from an enemy trap keeps full rank", {"c9": "C", "b9": "r"}, "c9b9", (), "ok"),
    ("enemy trap does not strengthen", {"c9": "C", "b9": "d"}, "c9b9", (), "capture"),
    ("my piece on the enemy trap is weak", {"c9": "E", "c8": "r"}, "c8c9", (), "ok"),
    # --- dens
    ("no entering the own den", {"c1": "C"}, "c1d1", (), "den"),
    ("second player: no entering its den", {"c9": "c"}, "c9d9", (), "den"),
    ("entering the enemy den", {"d8": "C"}, "d8d9", (), "ok"),
    # --- moving
    ("one step only", {"d3": "C"}, "d3d5", (), "steps"),
    ("no diagonal steps", {"d3": "C"}, "d3e4", (), "steps"),
    ("no standing still", {"d3": "C"}, "d3d3", (), "steps"),
    ("an empty square", {"d3": "C"}, "a1a2", (), "empty"),
    ("the other side's piece", {"d3": "c"}, "d3d4", (), "turn"),
]


@pytest.mark.parametrize(("pieces", "move", "variants", "expected"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule(pieces, move, variants, expected):
    # ambiguous side: the piece that moves decides who is to move, except in the 'turn' case
    mover = pieces.get(move[:2], "X")
    to_move = FIRST if mover.isupper() else SECOND
    if expected == "turn":
        to_move = FIRST
    full = dict(pieces)
    # both sides need pieces (a side without pieces has lost) - add far-away bystanders
    for sq, letter in (("a9", "l"), ("g1", "L"), ("a8", "t"), ("g2", "T")):
        if sq not in full and all(v not in (letter,) for v in full.values()):
            full[sq] = letter
    assert judge(full, move, to_move, variants) == expected


VARIANT_CASES = [
    ("elephant-captures-rat", {"d4": "E", "d5": "r"}, "d4d5", "capture", "ok"),
    ("elephant-captures-rat", {"d4": "R", "d5": "e"}, "d4d5", "ok", "ok"),
    ("dog-over-wolf", {"d4": "D", "d5": "w"}, "d4d5", "capture", "ok"),
    ("dog-over-wolf", {"d4": "W", "d5": "d"}, "d4d5", "ok", "capture"),
    ("dog-swims", {"f3": "D"}, "f3f4", "water", "ok"),
    ("dog-swims", {"f5": "D", "f6": "r"}, "f5f6", "water", "ok"),  # dog in water takes rat
    ("dog-swims", {"f5": "D", "g5": "c"}, "f5g5", "water", "water"),  # no capture ashore
    ("leopard-jumps", {"a5": "P"}, "a5d5", "jump", "ok"),
    ("leopard-jumps", {"d4": "P", "g4": "w"}, "d4g4", "jump", "ok"),
    ("leopard-jumps", {"b3": "P"}, "b3b7", "jump", "jump"),  # not the long way
    ("leopard-jumps", {"a5": "P", "c5": "r"}, "a5d5", "jump", "jump"),  # blocked by a rat
]


@pytest.mark.parametrize(("variant", "pieces", "move", "standard", "expected"), VARIANT_CASES)
def test_variant_changes_the_verdict(variant, pieces, move, standard, expected):
    full = {**pieces, "a9": "l", "g1": "L"} if "l" not in pieces.values() else dict(pieces)
    mover = pieces[move[:2]]
    to_move = FIRST if mover.isupper() else SECOND
    assert judge(full, move, to_move) == standard
    assert judge(full, move, to_move, (variant,)) == expected


def test_a_swimming_dog_blocks_a_jump():
    pos = Position(board({"d5": "L", "e5": "d", "a9": "l"}), rules_for(["dog-swims"]))
    assert not pos.status()
    bad = pos.check(parse_move("d5g5"))
    assert bad is not None and bad.rule is Rule.JUMP and "dog on e5" in bad.reason
    assert pos.is_legal(parse_move("d5a5"))


@pytest.mark.parametrize("variant", ["elephant-captures-rat", "dog-over-wolf", "dog-swims",
                                     "leopard-jumps"])
def test_each_variant_changes_exactly_its_rule(variant):
    v = find_variant(variant)
    changed = {
        "ranks": {a for a in ANIMALS if v.rank(a) != Rules.rank(a)},
        "captures": {(a, d) for a in ANIMALS for d in ANIMALS
                     if v.captures(a, d) != Rules.captures(a, d)},
        "swims": {a for a in ANIMALS if v.swims(a) != Rules.swims(a)},
        "jumps": {a for a in ANIMALS if v.jumps(a) != Rules.jumps(a)},
    }
    expected = {
        "elephant-captures-rat": {"ranks": set(), "captures": {("elephant", "rat")},
                                  "swims": set(), "jumps": set()},
        "dog-over-wolf": {"ranks": {"dog", "wolf"}, "captures": {("dog", "wolf"), ("wolf", "dog")},
                          "swims": set(), "jumps": set()},
        "dog-swims": {"ranks": set(), "captures": set(), "swims": {"dog"}, "jumps": set()},
        "leopard-jumps": {"ranks": set(), "captures": set(), "swims": set(),
                          "jumps": {"leopard"}},
    }[variant]
    assert changed == expected
    if variant == "leopard-jumps":
        assert v.jumps("leopard") == (True, False)  # short way only


def test_variants_combine_and_have_aliases():
    combined = rules_for(["old-elephant", "swimming-dog"])
    assert combined.captures("elephant", "rat") and combined.swims("dog")
    assert not combined.swims("cat") and combined.rank("dog") == 3
    assert rules_for([]) is Rules
    assert combined.describe_variants() == ["elephant-captures-rat", "dog-swims"]
    assert rules_for(["dog-swims", "old-elephant"]) is combined


def test_unknown_variant_is_one_clear_error():
    from referee.jungle.errors import UnknownVariantError
    with pytest.raises(UnknownVariantError, match="unknown Jungle variant 'cats-fly'"):
        rules_for(["cats-fly"])


# ------------------------------------------------------------------ winning

def test_den_entry_wins_and_ends_the_game():
    pos = Position(board({"d8": "C", "a9": "l", "g1": "L"}))
    pos.push(parse_move("d8d9"))
    out = pos.outcome()
    assert out is not None and out.termination is Termination.DEN and out.winner == 0
    assert pos.generate_moves() == []
    assert pos.check(parse_move("a9a8")).rule is Rule.OVER


def test_capturing_the_last_piece_wins():
    pos = Position(board({"d4": "T", "d5": "p", "g1": "L"}))
    pos.push(parse_move("d4d5"))
    out = pos.outcome()
    assert out is not None and out.termination is Termination.ALL_CAPTURED and out.winner == 0
    pos.pop()
    assert pos.outcome() is None and pos.counts == [2, 1]


def test_a_side_without_a_legal_move_loses():
    # the second player's only piece, a rat on a9, is walled in by stronger... it can take
    # nothing: cat on a8 and b9 are both stronger than the rat
    pos = Position(board({"a9": "r", "a8": "C", "b9": "D"}, to_move=SECOND))
    assert pos.legal_moves() == []
    out = pos.outcome()
    assert out is not None and out.termination is Termination.NO_MOVES and out.winner == 0


# ------------------------------------------------------------------ repetition

def test_no_position_a_fourth_time():
    pos = Position(board({"a1": "T", "g9": "t"}))
    cycle = [parse_move(m) for m in ("a1a2", "g9g8", "a2a1", "g8g9")]
    for _ in range(2):  # the position occurs at plies 0, 4 and 8: three times is allowed
        for m in cycle:
            assert pos.is_legal(m)
            pos.push(m)
    assert pos.repetitions() == 3
    for m in cycle[:3]:
        assert pos.is_legal(m)
        pos.push(m)
    bad = pos.check(cycle[3])  # a fourth time: the second player must vary its move
    assert bad is not None and bad.rule is Rule.REPETITION
    assert cycle[3] in pos.generate_moves() and cycle[3] not in pos.legal_moves()
    assert pos.is_legal(parse_move("g8f8"))
    pos.pop()
    assert pos.is_legal(cycle[2]) and pos.repetitions() == 3
