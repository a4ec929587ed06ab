"""Corrections by the user and doubtful readings resolved by the previous table."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.events import Correction
from tabletop.scene import Piece, Scene
from vision.corrections import apply_correction, resolve_with_previous

COIN = Piece("coin", 10.0, 10.0, suit="suns", confidence=0.95)


@pytest.mark.parametrize(("op", "index", "piece", "expected"), [
    ("add", None, Piece("coin", 50.0, 0.0, suit="arms"), 2),
    ("remove", 0, None, 0),
    ("change", 0, Piece("coin", 10.0, 10.0, suit="moons"), 1),
])
def test_corrections_make_a_new_scene(op: str, index: int | None, piece: Piece | None,
                                      expected: int) -> None:
    scene = Scene((COIN,))
    out = apply_correction(scene, Correction(op, index, piece))
    assert len(out) == expected
    assert scene.pieces == (COIN,)  # unchanged
    if op == "change":
        assert out.pieces[0].suit == "moons"


def test_a_correction_of_a_missing_piece_is_a_clear_error() -> None:
    with pytest.raises(TabletopError, match="no piece 3"):
        apply_correction(Scene((COIN,)), Correction("remove", 3, None))


@pytest.mark.parametrize(("now", "expected_suit"), [
    (Piece("coin", 11.0, 10.0, suit="arms", confidence=0.3), "suns"),  # doubtful: keeps suns
    (Piece("coin", 11.0, 10.0, suit=None, confidence=0.0), "suns"),    # unread: keeps suns
    (Piece("coin", 11.0, 10.0, suit="arms", confidence=0.9), "arms"),  # sure: a real change
    (Piece("coin", 60.0, 10.0, suit="arms", confidence=0.3), "arms"),  # elsewhere: no match
])
def test_doubtful_readings_keep_the_previous_suit(now: Piece, expected_suit: str) -> None:
    out = resolve_with_previous(Scene((now,)), Scene((COIN,)))
    assert out.pieces[0].suit == expected_suit
    assert out.pieces[0].x_mm == now.x_mm


def test_a_doubtful_tile_keeps_face_and_suit() -> None:
    prev = Scene((Piece.tile(0, 0, 10, "up", "crowns", confidence=0.9),))
    now = Scene((Piece.tile(0.5, 0, 10, "down", None, confidence=0.2),))
    p = resolve_with_previous(now, prev).pieces[0]
    assert (p.face, p.suit) == ("up", "crowns")


def test_no_previous_scene_changes_nothing() -> None:
    scene = Scene((Piece("coin", 1.0, 1.0, suit="arms", confidence=0.1),))
    assert resolve_with_previous(scene, None) == scene
