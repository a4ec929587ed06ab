"""On a dark table a post's foot is placed below its lit top (:mod:`vision.post_feet`): the
outline fit, which meets the edge between the wall's lit and unlit sides, leaves it
millimetres off; the top's disc does not."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tabletop.render.variety import draw_case
from training.make_posts import true_posts
from vision import Detector, DetectorConfig
from vision.post_feet import PostFootConfig


def _feet(render, feet: PostFootConfig | None) -> np.ndarray:
    cfg = replace(DetectorConfig(), post_feet=feet)
    res = Detector(render.calibration(), config=cfg).detect(render.image)
    return np.array([p.centre_mm for p in res.scene.pieces if p.kind == "post"]).reshape(-1, 2)


def _errors(render, feet: PostFootConfig | None) -> list[float]:
    """Each true post in full view found within 12 mm: how far its foot was read from it."""
    shown, _hidden = true_posts(render)
    found = _feet(render, feet)
    out = []
    for t in shown:
        d = np.hypot(*(found - t).T) if len(found) else np.array([np.inf])
        if d.min() <= 12.0:
            out.append(float(d.min()))
    return out


def test_a_post_on_black_cloth_by_a_window_stands_below_its_lit_top() -> None:
    # tuning seed 470010: a post near the camera's nadir, little of its wall seen and its
    # shadow long; the outline fit put it 4.8 mm off, towards its shadow
    render = draw_case(470010, hand=False, table="cloth-black", weights={"post": 0.8}).render()
    before, after = _errors(render, None), _errors(render, PostFootConfig())
    assert len(after) == len(before) == 3
    assert max(before) > 3.0
    assert max(after) < 1.0, after


@pytest.mark.parametrize(("seed", "table"), [(470014, "dark-wood"), (470033, "felt-black")])
def test_no_post_found_is_lost_or_moved_far(seed: int, table: str) -> None:
    # every post found without the tops' feet is found with them, within a radius of where it
    # was read (a lit top farther off is another post's)
    render = draw_case(seed, hand=False, table=table, weights={"post": 0.8}).render()
    before, after = _feet(render, None), _feet(render, PostFootConfig())
    assert len(after) == len(before)
    for f in before:
        assert np.hypot(*(after - f).T).min() <= 5.0
