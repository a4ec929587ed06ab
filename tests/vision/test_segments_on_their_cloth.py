"""A Worm Up! start read whole on a cloth or felt of a worm's own colour, under a hard low lamp
(the shadows of the worms fall on the next one and stand out from the cloth) and in a dim warm
room: worms of seven touching segments side by side, every segment found with its colour, nothing
else taken for one (rendered at fixed seeds, the renderer's table and light of those kinds). A
dome of the cloth's own colour has a ragged mask, so its centre may be a few millimetres off:
each within the accuracy bench's matching tolerance, the worms' mean within 2 mm."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig

D = 20.0


def _start(colours: tuple[str, ...], x0: float, apart_mm: float) -> list[Piece]:
    """Worms of seven touching segments, one per colour, side by side ``apart_mm`` apart."""
    return [Piece("segment", x0 + apart_mm * i, -130.0 + D * k, color=c)
            for i, c in enumerate(colours) for k in range(7)]


def _read(truth: list[Piece], seed: int, table: str, light: str) -> list[Piece]:
    variety = pytest.importorskip("tabletop.render.variety")
    case = variety.draw_game_case(seed, "worm-up", table=table, light=light, clutter="none",
                                  hand=False)
    c = case.pose.pixels_to_table(*(np.array(case.pose.image_size, float) / 2))
    moved = [replace(p, x_mm=round(p.x_mm + float(c[0]), 2), y_mm=round(p.y_mm + float(c[1]), 2))
             for p in truth]
    r = replace(case, scene=Scene(tuple(moved))).render()
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-up")).detect(r.image)
    found = [p for p in res.scene.pieces if p.kind == "segment"]
    assert len(found) == len(moved), (len(found), len(moved))
    xy = np.array([[p.x_mm, p.y_mm] for p in found])
    errors = []
    for q in moved:
        d = np.hypot(*(xy - [q.x_mm, q.y_mm]).T)
        j = int(np.argmin(d))
        assert d[j] < 8.0, (q, d[j])  # the accuracy bench's matching tolerance
        assert found[j].color == q.color, (q, found[j])
        errors.append(float(d[j]))
    assert float(np.mean(errors)) < 2.0, errors
    return found


@pytest.mark.parametrize(("seed", "table", "light", "colours"), [
    (50990, "cloth-blue", "hard", ("red", "yellow", "blue")),
    (50991, "felt-red", "dim-warm", ("red", "yellow", "blue")),
    (50992, "cloth-green", "hard", ("green", "purple", "yellow")),
    (50993, "felt-black", "window", ("blue", "purple", "red")),
])
def test_a_worm_up_start_on_a_cloth_of_a_worms_colour_is_read_whole(
        seed: int, table: str, light: str, colours: tuple[str, ...]) -> None:
    _read(_start(colours, -50.0, 50.0), seed, table, light)
