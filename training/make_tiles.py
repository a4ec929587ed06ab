"""Training data for the tile judge: every square of a tile's size the detector fits on
rendered tables, labelled by the renderer's truth.

    .venv/bin/python training/make_tiles.py --seeds 43000:43300 -o training/data/tiles.npz

Each seed is a table of the renderer's variety (``tabletop.render.variety.draw_case``: every
table kind, light and clutter; every other seed with clutter that makes squares: a printed
page, a grid, a notebook, cards, a phone or several at once). Its frame goes through the whole
:class:`vision.Detector` with the judge off (``TileConfig(judge=None)`` and
``TileFitConfig(judge=None)``; the gates against printed lines loosened: see
:func:`unjudged`), and every square the tile stage or the centre net's tile fits
would have the judge look at is recorded (:data:`vision.tile_judge.RECORD`). Each is labelled
1 when a tile in full view has its top face within ``--hit-mm`` of the square's centre, 0 when
no tile at all (hidden or not) lies within ``--miss-mm`` (between the two, or by a half-hidden
tile: left out). The file holds ``x`` (N, F), ``y`` (N,), ``seed``, ``family`` (the table's
family), ``light``, ``clutter``, ``source`` (:mod:`vision.tile_judge`'s BLOCK, EDGED, NET,
FAINT). Seeds 43000-43999 are the tile judge's own (see ``training/README.md``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.tile_judge as tile_judge
from tabletop.render.variety import draw_case
from vision import Detector, DetectorConfig
from vision.centre_proposals import CentreProposalConfig
from vision.tile_features import N_FEATURES
from vision.tile_fit import TileFitConfig

SQUARE_CLUTTER: tuple[str, ...] = ("page", "grid", "notebook", "cards", "phone", "mixed")
"""Clutter that shows squares of a tile's size: what the judge must learn to refuse."""


TILE_WEIGHTS = {"tile": 0.5, "worm": 0.35}
"""Tiles laid more often than in a game (rows, blocks, lone tiles): more squares a seed."""


def seed_range(text: str) -> range:
    """``A:B`` -> range(A, B)."""
    a, b = text.split(":")
    return range(int(a), int(b))


def unjudged() -> DetectorConfig:
    """A detector's configuration with the tile judge off in both places it judges, and the
    hand-set gates against a page's or a grid's lines loosened (sides running on past their
    corners, faint peaks): more squares that are no tile for the judge to learn from (it
    only ever sees what passes them)."""
    base = DetectorConfig()
    return replace(base, tiles=replace(base.tiles, judge=None, max_runs_edged=5),
                   centres=replace(CentreProposalConfig(), faint_tile=0.1,
                                   fit=replace(TileFitConfig(), judge=None, max_runs=5,
                                               faint_runs=4)))


def rows_of(seed: int, hit_mm: float, miss_mm: float) -> dict[str, np.ndarray]:
    """The labelled squares of one seed's table."""
    clutter = None
    if seed % 2:
        clutter = SQUARE_CLUTTER[(seed // 2) % len(SQUARE_CLUTTER)]
    case = draw_case(seed, hand=False, clutter=clutter, weights=TILE_WEIGHTS)
    r = case.render()
    det = Detector(r.calibration(), None,
                   config=replace(unjudged(), kinds=("tile", "coin", "post")))
    tile_judge.RECORD = []
    try:
        det.detect(r.image)
        rec = tile_judge.RECORD
    finally:
        tile_judge.RECORD = None
    if not rec:
        return {}
    x = np.concatenate([a for a, _, _ in rec])
    px = np.concatenate([b for _, b, _ in rec])
    src = np.concatenate([c for _, _, c in rec])
    view = det.view
    tiles = [(p, tr) for p, tr in zip(r.scene.pieces, r.truth, strict=True) if p.kind == "tile"]
    y = np.zeros(len(x), np.int32)
    if tiles:
        foot = np.array([[p.x_mm, p.y_mm] for p, _ in tiles], float)
        whole = np.array([not (tr.occluded or tr.visible_fraction < 1) for _, tr in tiles])
        top = view.camera.seen_at(foot, det.config.tiles.thickness_mm)
        seen = view.to_mm(px)
        d = np.hypot(*(seen[:, None] - top[None]).transpose(2, 0, 1))
        near_whole = np.where(whole[None], d, np.inf).min(axis=1)
        y = np.where(near_whole <= hit_mm, 1, np.where(d.min(axis=1) >= miss_mm, 0, -1))
    cond = case.conditions
    n = len(x)
    return {"x": x, "y": y.astype(np.int32), "seed": np.full(n, seed),
            "family": np.full(n, cond["table_family"]), "light": np.full(n, cond["light"]),
            "clutter": np.full(n, cond["clutter"]), "source": src.astype(np.int32)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("43000:43300"))
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--hit-mm", type=float, default=8.0)
    ap.add_argument("--miss-mm", type=float, default=15.0)
    args = ap.parse_args(argv)
    parts: list[dict[str, np.ndarray]] = []
    t0 = time.time()
    for seed in args.seeds:
        part = rows_of(seed, args.hit_mm, args.miss_mm)
        if part:
            parts.append(part)
            y = part["y"]
            print(f"seed {seed} {part['family'][0]} {part['light'][0]} {part['clutter'][0]}: "
                  f"tiles {int((y == 1).sum())} none {int((y == 0).sum())} "
                  f"(sources {part['source'][y == 0].tolist()}) {time.time() - t0:.0f}s",
                  flush=True)
        if parts and (seed - args.seeds.start) % 20 == 19:
            _save(args.out, parts)
    if not parts:
        raise SystemExit("make_tiles: no squares at all")
    _save(args.out, parts)
    return 0


def _save(out: Path, parts: list[dict[str, np.ndarray]]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    assert data["x"].shape[1] == N_FEATURES
    np.savez_compressed(out, **data)


if __name__ == "__main__":
    sys.exit(main())
