"""Worm Up! segments and marker tokens get truthful visibility and ids in rendered scenes."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import box

from tabletop.markers import JUNGLE_BOARD_IDS, JUNGLE_TOKEN_IDS, MAT_IDS, TOKEN_IDS
from tabletop.pieceset import PieceSet
from tabletop.render import CameraPose, RenderSettings, render_scene
from tabletop.render.layouts import game_layout, token_id
from tabletop.scene import Piece, Scene

FLAT = {"ambient": 1.0, "shadow_strength": 0.0, "table": "felt", "table_seed": 3}


@pytest.mark.parametrize("tilt_deg", [0.0, 20.0])
def test_a_segment_nothing_covers_is_fully_visible(tilt_deg):
    pose = CameraPose.looking_at((0.0, 0.0), 700.0, tilt_deg, image_size=(320, 240))
    scene = Scene((Piece("segment", 0.0, 0.0, color="red"), Piece("coin", 60.0, 0.0)))
    r = render_scene(scene, pose, RenderSettings.clean(seed=1, **FLAT))
    seg = r.truth[0]
    assert seg.visible_fraction == pytest.approx(1.0, abs=0.03)
    assert not seg.occluded


def test_a_segment_under_a_hand_is_still_marked_hidden():
    pose = CameraPose.looking_at((0.0, 0.0), 700.0, 0.0, image_size=(320, 240))
    scene = Scene((Piece("segment", 0.0, 0.0, color="red"),))
    r = render_scene(scene, pose, RenderSettings.clean(seed=1, hand=True,
                                                       hand_target_mm=(0.0, 0.0), **FLAT))
    assert r.truth[0].visible_fraction < 0.95
    assert r.truth[0].occluded


def test_layout_tokens_carry_token_ids_never_a_mat_or_board_id():
    rng = np.random.default_rng(5)
    layout = game_layout(rng, 40, box(-400, -300, 400, 300), [], PieceSet(),
                         kinds=("coin", "token"))
    ids = [p.id for p in layout.pieces if p.kind == "token"]
    assert ids, "the layout has tokens"
    token_ids = set(JUNGLE_TOKEN_IDS) | set(TOKEN_IDS)
    assert all(i in token_ids for i in ids)
    assert not set(ids) & (set(MAT_IDS) | set(JUNGLE_BOARD_IDS))
    assert len(set(ids)) == len(ids)


def test_token_ids_are_jungle_animals_first_then_free_ids():
    rng = np.random.default_rng(0)
    used: set[int] = set()
    for _ in range(len(JUNGLE_TOKEN_IDS)):
        used.add(token_id(rng, used))
    assert used == set(JUNGLE_TOKEN_IDS)
    assert token_id(rng, used) in TOKEN_IDS


def test_layout_weights_name_known_groups_only():
    with pytest.raises(ValueError, match="pawn"):
        game_layout(np.random.default_rng(0), 5, box(-100, -100, 100, 100), [], PieceSet(),
                    weights={"pawn": 1.0})
