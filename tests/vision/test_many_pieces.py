"""No ceiling on pieces: a crowded table is read whole at every camera size.

A frame's edge fits sample every piece at once; ``cv2.remap`` takes no map side of 32,767 or
more, so the samples are laid out in rows (:func:`vision.sampling.bilinear`). Before that, 42
coins at 1280x720 (27 at 1920x1080, 21 at 4K) raised ``cv2.error``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene
from vision import Detector, DetectorConfig

PIECES = PieceSet()
SUITS = ("suns", "moons", "crowns", "arms")


def crowded_scene(rng: np.random.Generator, n_pieces: int = 100) -> Scene:
    """``n_pieces`` pieces in cells of a 60 mm grid over the play area, none touching another
    cell's: 35 pairs of touching coins (worms), 15 tiles, 15 posts (for 100), in random cells
    and with random suits, faces, angles and a jitter of a few mm."""
    cols, rows, pitch = 12, 7, 62.0
    cells = [(c, r) for c in range(cols) for r in range(rows)]
    order = rng.permutation(len(cells))
    n_posts = n_tiles = round(0.15 * n_pieces)
    n_pairs = (n_pieces - n_posts - n_tiles) // 2
    kinds = ["pair"] * n_pairs + ["tile"] * n_tiles + ["post"] * n_posts
    kinds += ["coin"] * (n_pieces - 2 * n_pairs - n_tiles - n_posts)
    assert len(kinds) <= len(cells)
    pieces: list[Piece] = []
    d = PIECES.coin_diameter_mm
    for kind, k in zip(kinds, order, strict=False):
        c, r = cells[k]
        x = (c - (cols - 1) / 2) * pitch + rng.uniform(-2, 2)
        y = (r - (rows - 1) / 2) * pitch + rng.uniform(-2, 2)
        suit = str(rng.choice(SUITS))
        if kind == "pair":
            a = rng.uniform(0, math.pi)
            dx, dy = 0.5 * d * math.cos(a), 0.5 * d * math.sin(a)
            pieces += [Piece("coin", x - dx, y - dy, suit=suit),
                       Piece("coin", x + dx, y + dy, suit=str(rng.choice(SUITS)))]
        elif kind == "tile":
            face = "up" if rng.random() < 0.5 else "down"
            pieces.append(Piece.tile(x, y, float(rng.uniform(-5, 5)), face,
                                     suit if face == "up" else None))
        elif kind == "post":
            pieces.append(Piece("post", x, y))
        else:
            pieces.append(Piece("coin", x, y, suit=suit))
    return Scene(tuple(pieces))


def detect_rendered(scene: Scene, size: tuple[int, int], table: str = "wood",
                    table_seed: int = 0) -> tuple[Scene, list[bool]]:
    """The scene rendered with little noise at ``size`` and read back; and which true pieces
    are wholly in view. (The table: a wood whose planks are all mid-brown. Posts on the
    darkest planks, or low in the frame, are found less reliably however many pieces there
    are: issue 12's other items, not this file's.)"""
    from tabletop.render import CameraPose, RenderSettings, render_scene

    pose = CameraPose.looking_at((0, 0), height_mm=900, tilt_deg=12, image_size=size,
                                 hfov_deg=66)
    r = render_scene(scene, pose, RenderSettings(seed=5, table=table, table_seed=table_seed,
                                                 supersample=1, noise_sigma=1.0))
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("tile", "coin", "post")))
    return det.detect(r.image).scene, [not t.occluded for t in r.truth]


TOLERANCE_MM = {"coin": 8.0, "tile": 20.0, "post": 12.0}
"""How near a found piece must be to a true one to be it (as ``bench_vision_accuracy``)."""


def unmatched(truth: Scene, seen: Scene, in_view: list[bool]) -> tuple[list[Piece], list[Piece]]:
    """(true pieces in view that nothing of their kind was found near, found pieces near no
    true piece of their kind)."""
    def near(p: Piece, others: tuple[Piece, ...]) -> bool:
        return any(q.kind == p.kind and math.hypot(q.x_mm - p.x_mm, q.y_mm - p.y_mm)
                   <= TOLERANCE_MM[p.kind] for q in others)

    missed = [p for p, v in zip(truth.pieces, in_view, strict=True)
              if v and not near(p, seen.pieces)]
    extra = [p for p in seen.pieces if not near(p, truth.pieces)]
    return missed, extra


@pytest.mark.parametrize("size", [
    (1280, 720),
    (1920, 1080),
    pytest.param((3840, 2160), marks=pytest.mark.slow),
])
def test_a_hundred_pieces_are_all_found(size: tuple[int, int]) -> None:
    truth = crowded_scene(np.random.default_rng(12), 100)
    assert len(truth) == 100
    seen, in_view = detect_rendered(truth, size)
    assert sum(in_view) >= 95  # the layout is in view
    missed, extra = unmatched(truth, seen, in_view)
    assert missed == [] and extra == []
    assert len(seen) == len(truth)


@pytest.mark.slow
def test_a_gingham_cloth_under_a_hundred_pieces_is_read_without_error() -> None:
    # the case of issue 12's crash: the checks make many more coin candidates than pieces,
    # and the edge fits sampled them all in one remap row
    from tabletop.render.variety import draw_case

    case = draw_case(6, table="gingham-red", n_pieces=100)
    r = case.render()
    det = Detector(r.calibration(), config=DetectorConfig(kinds=("tile", "coin", "post")))
    assert isinstance(det.detect(r.image).scene, Scene)  # (it raised cv2.error)
