"""The last accepted table helps read the next one: pieces confirmed (or not) at their known
poses, on renders at fixed seeds (81000-81999) of the project's randomised tables and lights."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene
from vision.confirm import ABSENT, SEEN, Confirmer

PIECES = PieceSet()
D = PIECES.coin_diameter_mm
T = PIECES.tile_mm
TILE = Piece.tile(500.0, 150.0, 17.0, "down")
OTHER_TILES = (Piece.tile(330.0, 48.4, 0.0, "up", "crowns"),
               Piece.tile(640.0, 60.0, 61.0, "down"))


def _worm_touching(tile: Piece, suit: str, n: int = 4) -> tuple[Piece, ...]:
    """A worm whose head coin touches the tile's left side, at its middle."""
    a = np.radians(tile.angle_deg or 0.0)
    out = np.array([-np.cos(a), -np.sin(a)])  # the left side's outward normal
    head = np.array(tile.centre_mm) + out * (T / 2 + D / 2 + 0.3)
    return tuple(Piece("coin", *(float(v) for v in (head + out * D * k).round(2)), suit=suit)
                 for k in range(n))


WORM = _worm_touching(TILE, "suns")
SEEDS = (81003, 81011, 81020)
"""Three tables and lights of the variety, drawn from seeds of this area's range."""


@cache
def _render(scene: Scene, seed: int, table: str | None = None, light: str | None = None):
    render = pytest.importorskip("tabletop.render")
    from tabletop.render import variety

    case = variety.draw_case(seed, table=table, light=light, clutter="none", hand=False,
                             n_pieces=1, size=(1280, 720))
    settings = replace(case.settings, hand=False, motion_blur_px=0.0, seed=seed)
    pose = render.CameraPose.looking_at((480.0, 150.0), 950.0, 12.0, 0.0, (1280, 720), 62.0)
    return render.render_scene(scene, pose, settings, PIECES)


def _confirmer(r) -> Confirmer:
    return Confirmer(r.calibration(), PIECES, kinds=("tile", "coin"))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_tile_touched_by_a_coin_is_confirmed_where_it_lay(seed: int) -> None:
    table = Scene((TILE, *OTHER_TILES, *WORM))
    r = _render(table, seed)
    reading = Scene((*OTHER_TILES, *WORM))  # the camera missed the tile the worm touches
    out = _confirmer(r).confirm(r.image, reading, table)
    (check,) = out.known
    assert check.status == SEEN, check
    assert out.scene.pieces[-1].centre_mm == TILE.centre_mm
    assert out.scene.pieces[-1].face == "down" and out.scene.pieces[-1].confidence is not None
    assert out.confirmed == (len(reading),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_moved_obstacle_is_not_confirmed_at_its_old_place(seed: int) -> None:
    moved = TILE.moved_to(TILE.x_mm + 30.0, TILE.y_mm + 80.0)
    known = Scene((TILE, *OTHER_TILES, *WORM))
    now = Scene((moved, *OTHER_TILES, *WORM))
    r = _render(now, seed)
    out = _confirmer(r).confirm(r.image, now, known)
    (check,) = out.known
    assert check.status == ABSENT, check
    assert out.scene == now  # the moved tile stays where it is read, nothing is added


@pytest.mark.parametrize("seed", SEEDS)
def test_a_worm_coin_missed_by_the_reading_is_confirmed_at_its_rim(seed: int) -> None:
    table = Scene((TILE, *OTHER_TILES, *WORM))
    r = _render(table, seed)
    reading = Scene((TILE, *OTHER_TILES, *WORM[:2], *WORM[3:]))
    out = _confirmer(r).confirm(r.image, reading, table)
    (check,) = out.known
    assert check.status == SEEN, check
    assert out.scene.pieces[-1].suit == "suns"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_tail_coin_moved_to_the_head_is_not_confirmed_at_its_old_place(seed: int) -> None:
    known = Scene((TILE, *OTHER_TILES, *WORM))
    tail = WORM[-1]
    ahead = Piece("coin", WORM[0].x_mm - 1.0, WORM[0].y_mm - D, suit="suns")
    now = Scene((TILE, *OTHER_TILES, *WORM[:-1], ahead))
    r = _render(now, seed)
    out = _confirmer(r).confirm(r.image, now, known)
    (check,) = out.known
    assert check.piece == tail
    assert check.status == ABSENT, check
    assert out.scene == now


@pytest.mark.parametrize("seed", SEEDS)
def test_a_phantom_coin_on_plain_table_is_left_out(seed: int) -> None:
    table = Scene((TILE, *OTHER_TILES, *WORM))
    r = _render(table, seed)
    phantom = Piece("coin", 420.0, 260.0, suit="moons")
    out = _confirmer(r).confirm(r.image, table.with_piece(phantom), table)
    (check,) = out.new
    assert check.status == ABSENT, check
    assert out.scene == table and out.dropped == (len(table),)


def test_a_fresh_game_reading_is_left_as_read() -> None:
    r = _render(Scene((TILE, *WORM)), SEEDS[0])
    reading = Scene(WORM)
    assert _confirmer(r).confirm(r.image, reading, None).scene == reading


@pytest.mark.parametrize("seed", [81030, 81036])
def test_a_new_coin_on_a_white_table_is_kept(seed: int) -> None:
    # white coins on a white table barely stand out: the table never shows "plainly" there
    known = Scene((TILE, *OTHER_TILES, *WORM))
    head = Piece("coin", WORM[0].x_mm - 1.0, WORM[0].y_mm - D, suit="suns")
    now = Scene((TILE, *OTHER_TILES, *WORM[:-1], head))
    r = _render(now, seed, "glossy-white")
    out = _confirmer(r).confirm(r.image, now, known)
    (check,) = out.new
    assert check.status != ABSENT, check
    assert head in out.scene.pieces and out.dropped == ()


POSTS = (Piece("post", 420.0, 250.0), Piece("post", 600.0, 230.0), Piece("post", 700.0, 120.0))


def _post_confirmer(r) -> Confirmer:
    return Confirmer(r.calibration(), PIECES, kinds=("tile", "coin", "post"))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_post_missed_by_the_reading_is_confirmed_by_its_top_rim(seed: int) -> None:
    table = Scene((TILE, *OTHER_TILES, *WORM, *POSTS))
    r = _render(table, seed)
    out = _post_confirmer(r).confirm(r.image, Scene((TILE, *OTHER_TILES, *WORM, *POSTS[1:])),
                                     table)
    (check,) = out.known
    assert check.status == SEEN, check
    assert out.scene.pieces[-1].centre_mm == POSTS[0].centre_mm


@pytest.mark.parametrize("seed", SEEDS)
def test_a_moved_post_is_not_confirmed_at_its_old_place(seed: int) -> None:
    known = Scene((TILE, *OTHER_TILES, *WORM, *POSTS))
    now = Scene((TILE, *OTHER_TILES, *WORM, POSTS[0].moved_to(470.0, 270.0), *POSTS[1:]))
    r = _render(now, seed)
    out = _post_confirmer(r).confirm(r.image, now, known)
    (check,) = out.known
    assert check.status != SEEN, check
    assert out.scene == now


CHECKED_CLOTH = (388001, "checks-large", "hard")
"""A checked cloth under a hard lamp, where a coin's rim laid at (533, 270) crosses the edges
of a dark check among pale ones."""


def test_a_coin_is_not_confirmed_on_a_dark_check_whose_edges_cross_its_rim() -> None:
    table = Scene((TILE, *OTHER_TILES, *WORM))
    r = _render(table, *CHECKED_CLOTH)
    gone = Piece("coin", 533.0, 270.0, suit="suns")  # where a coin lay before it moved
    out = _confirmer(r).confirm(r.image, table, table.with_piece(gone))
    (check,) = out.known
    assert check.status != SEEN, check  # its edges show, but it is darker than the table
    assert out.scene == table
    reading = Scene((TILE, *OTHER_TILES, *WORM[:2], *WORM[3:]))  # a real coin there is seen
    (check,) = _confirmer(r).confirm(r.image, reading, table).known
    assert check.status == SEEN, check
