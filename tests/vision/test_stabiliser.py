"""The stabiliser: one scene per still period, no later than the frame it becomes still."""

from __future__ import annotations

import pytest

from tabletop.scene import Piece, Scene
from vision.stabiliser import Stabiliser, same_table


def _scene(x: float = 0.0, suit: str = "suns", hand: bool = False, n: int = 2) -> Scene:
    pieces = [Piece("coin", x + 25.0 * i, 0.0, suit=suit, confidence=0.9) for i in range(n)]
    return Scene(tuple(pieces), hand=hand)


def test_emits_on_the_frame_the_table_becomes_still_and_only_once() -> None:
    stab = Stabiliser(still_frames=3, tolerance_mm=1.5)
    out = [stab.update(_scene(x=0.1 * k)) for k in range(6)]
    assert [o is not None for o in out] == [False, False, True, False, False, False]


def test_a_hand_stops_emission_and_movement_restarts_the_count() -> None:
    stab = Stabiliser(still_frames=2)
    assert stab.update(_scene(hand=True)) is None
    assert stab.update(_scene(hand=True)) is None
    assert stab.update(_scene(x=0.0)) is None
    assert stab.update(_scene(x=30.0)) is None  # moved: the count starts again
    emitted = stab.update(_scene(x=30.2))
    assert emitted is not None and not emitted.hand
    assert emitted.pieces[0].x_mm == pytest.approx(30.1)


def test_a_flickering_suit_takes_the_majority() -> None:
    stab = Stabiliser(still_frames=3)
    stab.update(_scene(suit="suns"))
    stab.update(_scene(suit="arms"))
    emitted = stab.update(_scene(suit="suns"))
    assert emitted is not None and emitted.pieces[0].suit == "suns"


def test_the_same_table_after_a_hand_is_not_emitted_again_but_a_change_is() -> None:
    stab = Stabiliser(still_frames=1)
    assert stab.update(_scene()) is not None
    assert stab.update(_scene(hand=True)) is None
    assert stab.update(_scene()) is None
    assert stab.update(_scene(hand=True)) is None
    assert stab.update(_scene(n=3)) is not None


def test_same_table_compares_kinds_and_places() -> None:
    assert same_table(_scene(), _scene(x=1.0))
    assert not same_table(_scene(), _scene(x=3.0))
    assert not same_table(_scene(), _scene(n=3))


def test_still_frames_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Stabiliser(still_frames=0)


def test_a_flickering_piece_does_not_keep_a_still_table_from_being_judged() -> None:
    stab = Stabiliser(still_frames=3)
    ghost = Piece("post", 200.0, 50.0)
    frames = [_scene(n=4), Scene((*_scene(n=4).pieces, ghost)), _scene(n=4)]
    out = [stab.update(f) for f in frames]
    assert out[:2] == [None, None] and out[2] is not None
    assert len(out[2]) == 4  # the piece seen in one frame of three is left out


def test_reread_emits_the_same_table_again() -> None:
    stab = Stabiliser(still_frames=2)
    assert stab.update(_scene()) is None
    assert stab.update(_scene()) is not None
    assert stab.update(_scene()) is None
    stab.reread()
    assert stab.update(_scene()) is None
    assert stab.update(_scene()) is not None


def test_a_table_in_doubt_is_read_again_after_each_hand_even_when_it_reads_the_same() -> None:
    stab = Stabiliser(still_frames=2)
    hand = Scene(_scene().pieces, hand=True)
    assert [stab.update(s) is not None for s in (_scene(), _scene())] == [False, True]
    assert [stab.update(s) is not None for s in (hand, _scene(), _scene())] == [False] * 3
    stab.in_doubt = True
    assert [stab.update(s) is not None for s in (_scene(), _scene())] == [False, False]
    assert [stab.update(s) is not None for s in (hand, _scene(), _scene())] == [False, False,
                                                                                True]
    stab.in_doubt = False
    assert [stab.update(s) is not None for s in (hand, _scene(), _scene())] == [False] * 3


def _match_one_by_one(a: list[Piece], b: list[Piece], tolerance_mm: float
                      ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """The matching written out pair by pair (as it was before it was vectorised)."""
    import numpy as np

    cands = []
    for i, p in enumerate(a):
        tol = tolerance_mm * (2.0 if p.kind == "tile" else 1.0)
        for j, q in enumerate(b):
            d = float(np.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm))
            if q.kind == p.kind and d <= tol:
                cands.append((d, i, j))
    cands.sort()
    used_a: set[int] = set()
    used_b: set[int] = set()
    pairs = []
    for _, i, j in cands:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            pairs.append((i, j))
    return (pairs, [i for i in range(len(a)) if i not in used_a],
            [j for j in range(len(b)) if j not in used_b])


def test_speed_matching_is_nearest_first_pair_by_pair_with_ties_by_index() -> None:
    """The stabiliser's matching (one array of distances) pairs exactly as nearest-first pair
    by pair does, ties (pieces on a 0.5 mm grid, many equally near) broken by index."""
    import numpy as np

    from vision.stabiliser import _match

    rng = np.random.default_rng(3)
    kinds = ("coin", "tile", "post")
    for _ in range(300):
        n, m = int(rng.integers(0, 12)), int(rng.integers(0, 12))
        a = [Piece(str(rng.choice(kinds)), 0.5 * int(rng.integers(0, 8)),
                   0.5 * int(rng.integers(0, 8))) for _ in range(n)]
        b = [Piece(str(rng.choice(kinds)), 0.5 * int(rng.integers(0, 8)) + rng.choice(
            [0.0, 0.1]), 0.5 * int(rng.integers(0, 8))) for _ in range(m)]
        tol = float(rng.choice([0.5, 1.0, 1.5]))
        assert _match(a, b, tol) == _match_one_by_one(a, b, tol)
        assert _match(Scene(tuple(a)), Scene(tuple(b)), tol) == _match_one_by_one(a, b, tol)


def test_speed_consensus_means_are_each_lists_own_mean_bit_for_bit() -> None:
    """The consensus averages the lists of one length as one array's rows: each the same
    float as ``np.mean`` of that list alone (sums in the same order), whatever the lengths
    and magnitudes."""
    import numpy as np

    from vision.stabiliser import _means

    rng = np.random.default_rng(11)
    lists = [list(rng.normal(0.0, 300.0, int(rng.integers(0, 12))) * 10.0 ** rng.integers(
        -3, 4)) for _ in range(3000)]
    got = _means(lists)
    assert got == [float(np.mean(v)) if v else None for v in lists]
