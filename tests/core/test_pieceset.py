"""The piece set: Mesomorph defaults and overrides from a file or a setup's sizes."""

from __future__ import annotations

import json

import pytest

from tabletop.errors import InputError
from tabletop.pieceset import PieceSet


def test_defaults_are_the_mesomorph_reference_set_in_piecepackr_colours():
    p = PieceSet()
    assert p.tile_mm == 50.8
    assert p.coin_diameter_mm == 19.05
    assert p.coin_thickness_mm == pytest.approx(25.4 / 8)
    assert p.die_mm == 12.7
    assert dict(p.suit_colours) == {"suns": "#D55E00", "moons": "#000000",
                                    "crowns": "#009E73", "arms": "#0072B2"}
    assert p.suit_rgb("arms") == (0, 114, 178)


def test_overrides_from_a_small_file_keep_the_other_defaults(tmp_path):
    f = tmp_path / "set.json"
    f.write_text(json.dumps({"coin_diameter_mm": 20, "suit_colours": {"suns": "#C04000"}}))
    p = PieceSet.load(f)
    assert p.coin_diameter_mm == 20.0 and p.tile_mm == 50.8
    assert p.suit_colours["suns"] == "#C04000" and p.suit_colours["arms"] == "#0072B2"


def test_setup_sizes_use_the_records_short_names():
    p = PieceSet().with_sizes({"coin_mm": 18.0, "tile_mm": 50, "segment_mm": 22, "post_mm": 12})
    assert (p.coin_diameter_mm, p.tile_mm, p.segment_diameter_mm, p.post_diameter_mm) == \
        (18.0, 50.0, 22.0, 12.0)


@pytest.mark.parametrize(("obj", "message"), [
    ({"coin_mm": -1}, "positive"),
    ({"coin_mm": "big"}, "must be a number"),
    ({"wheel_mm": 3}, "unknown size 'wheel_mm'"),
    ({"suit_colours": {"suns": "red"}}, "#RRGGBB"),
    ([], "must be a JSON object"),
])
def test_bad_overrides_are_refused_clearly(obj, message):
    with pytest.raises(InputError, match=message):
        PieceSet.from_json(obj)


def test_unreadable_file_names_itself(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text("{nope")
    with pytest.raises(InputError, match="bad.json: not valid JSON"):
        PieceSet.load(f)
