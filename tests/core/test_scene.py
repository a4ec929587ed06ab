"""The scene model: exact JSON round-trip and clear errors on malformed input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.errors import SceneFormatError
from tabletop.scene import DIE_VALUES, FACES, SUITS, Piece, Scene

CONTRACT_EXAMPLE = """{"units": "mm", "hand": false,
 "pieces": [
  {"kind": "coin", "x": 412.3, "y": 120.9, "suit": "suns", "confidence": 0.98},
  {"kind": "tile", "x": 300.0, "y": 500.0, "angle_deg": 17.5, "face": "down", "suit": null},
  {"kind": "post", "x": 80.2, "y": 40.1},
  {"kind": "segment", "x": 90.0, "y": 200.0, "color": "red"},
  {"kind": "token", "x": 150.0, "y": 75.0, "id": 12}
 ]}"""

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
angles = st.floats(min_value=0.0, max_value=90.0, exclude_max=True, allow_nan=False)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)

pieces = st.one_of(
    st.builds(Piece, kind=st.just("coin"), x_mm=finite, y_mm=finite,
              suit=st.sampled_from((*SUITS, None)), confidence=st.one_of(st.none(), unit)),
    st.builds(Piece, kind=st.just("tile"), x_mm=finite, y_mm=finite, angle_deg=angles,
              face=st.sampled_from(FACES), suit=st.sampled_from((*SUITS, None))),
    st.builds(Piece, kind=st.just("post"), x_mm=finite, y_mm=finite),
    st.builds(Piece, kind=st.just("segment"), x_mm=finite, y_mm=finite,
              color=st.sampled_from(("red", "blue", "green", "yellow", "purple"))),
    st.builds(Piece, kind=st.just("token"), x_mm=finite, y_mm=finite,
              id=st.integers(0, 249)),
    st.builds(Piece, kind=st.just("die"), x_mm=finite, y_mm=finite,
              value=st.sampled_from(DIE_VALUES)),
)
scenes = st.builds(Scene, pieces=st.lists(pieces, max_size=12).map(tuple), hand=st.booleans())


def test_contract_example_reads_and_writes_back_the_same_json():
    s = Scene.loads(CONTRACT_EXAMPLE)
    assert [p.kind for p in s.pieces] == ["coin", "tile", "post", "segment", "token"]
    assert s.pieces[0].centre_mm == (412.3, 120.9)
    assert s.pieces[1].angle_deg == 17.5 and s.pieces[1].face == "down"
    assert s.pieces[4].id == 12
    assert s.to_json() == json.loads(CONTRACT_EXAMPLE)


@given(scenes)
def test_any_scene_round_trips_exactly_through_json_text(scene):
    assert Scene.loads(scene.dumps()) == scene


@given(scenes)
def test_json_of_a_read_scene_is_the_json_it_was_read_from(scene):
    text = scene.dumps()
    assert Scene.loads(text).dumps() == text


@pytest.mark.parametrize(("text", "message"), [
    ("not json", "not valid JSON"),
    ("[]", "must be a JSON object"),
    ('{"pieces": 3}', "'pieces' must be a list"),
    ('{"pieces": [], "hand": "yes"}', "'hand' must be true or false"),
    ('{"pieces": [], "units": "in"}', "units must be 'mm'"),
    ('{"pieces": [{"kind": "meeple", "x": 0, "y": 0}]}', "piece kind must be one of"),
    ('{"pieces": [{"kind": "coin", "x": 0}]}', "missing field 'y'"),
    ('{"pieces": [{"kind": "coin", "x": "1", "y": 0}]}', "x must be a number"),
    ('{"pieces": [{"kind": "coin", "x": 1, "y": true}]}', "y must be a number"),
    ('{"pieces": [{"kind": "coin", "x": NaN, "y": 0}]}', "NaN is not JSON"),
    ('{"pieces": [{"kind": "coin", "x": 0, "y": 0, "suit": "hearts"}]}', "suit must be one of"),
    ('{"pieces": [{"kind": "tile", "x": 0, "y": 0, "angle_deg": 90}]}', "[0, 90)"),
    ('{"pieces": [{"kind": "tile", "x": 0, "y": 0, "face": "sideways"}]}', "face must be"),
    ('{"pieces": [{"kind": "token", "x": 0, "y": 0, "id": -1}]}', "id must be"),
    ('{"pieces": [{"kind": "coin", "x": 0, "y": 0, "confidence": 1.5}]}', "confidence"),
    ('{"pieces": [{"kind": "coin", "x": 0, "y": 0, "suite": "suns"}]}', "unknown field 'suite'"),
    ('{"pieces": [], "colour": 1}', "unknown field 'colour'"),
])
def test_malformed_scene_json_gives_one_clear_line(text, message):
    with pytest.raises(SceneFormatError) as err:
        Scene.loads(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_error_names_the_offending_piece():
    with pytest.raises(SceneFormatError, match="piece 1: missing field 'x'"):
        Scene.loads('{"pieces": [{"kind": "post", "x": 0, "y": 0}, {"kind": "post", "y": 0}]}')


def test_load_of_missing_file_names_the_file(tmp_path):
    with pytest.raises(SceneFormatError, match="nope.json: cannot read"):
        Scene.load(tmp_path / "nope.json")


def test_scene_is_frozen_and_changes_make_new_scenes():
    s = Scene.of([Piece("coin", 0, 0, suit="suns"), Piece("post", 5, 5)])
    with pytest.raises(AttributeError):
        s.hand = True  # type: ignore[misc]
    t = s.without_piece(0)
    assert len(s) == 2 and len(t) == 1 and t.pieces[0].kind == "post"
    u = s.with_piece_replaced(0, Piece("coin", 0, 0, suit="arms"))
    assert s.pieces[0].suit == "suns" and u.pieces[0].suit == "arms"
    with pytest.raises(SceneFormatError, match="piece index 5"):
        s.without_piece(5)


def test_tile_factory_folds_any_angle_into_a_quarter_turn():
    assert Piece.tile(0, 0, 95.0).angle_deg == pytest.approx(5.0)
    assert Piece.tile(0, 0, -1e-17).angle_deg == 0.0
    assert Piece.tile(0, 0, 180.0).angle_deg == 0.0


def test_centres_by_kind_have_shape_n_by_2():
    s = Scene.of([Piece("coin", 1, 2, suit="suns"), Piece("post", 3, 4)])
    assert s.centres_mm("coin").tolist() == [[1.0, 2.0]]
    assert s.centres_mm("tile").shape == (0, 2)
    assert s.centres_mm().shape == (2, 2)
