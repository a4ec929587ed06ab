"""Training views for the centre net, from the project's own randomised renders.

Each seed's render (``tabletop.render.variety.draw_case(seed)``; one in eight with a hand)
gives the coarse top view's samples (uint8, its valid mask and the frame's level: the net's
input is made from them at training time by :func:`vision.centres_input.input_of_top`, so a
change of the normalisation needs no new renders) and the true centres in that view's pixels:
where each
coin's and tile's top face is seen (the image's top point mapped to the table plane, as the
sub-pixel fits measure it) and each post's foot. A piece partly hidden (a hand, the image's
edge) is marked so training neither asks for it nor punishes finding it.

Run: ``python training/make_centres.py --seeds 0:200 -o training/data/centres_a.npz``.
``--hard 0.5`` pins, for half of the seeds, one of the conditions the net found hardest
(:mod:`centre_sampler`); the other seeds draw their case as ``draw_case(seed)`` does. The file
is saved every 20 seeds, so a run cut short keeps what it made.
Seeds for training and validation stay below 50,000 (the accuracy bench measures on 90,000 and
up, the namer's validation is 50,000-50,039).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "training"))

from centre_sampler import only_choices, parse_only, post_rich_choices  # noqa: E402

from tabletop.render.variety import draw_case  # noqa: E402
from vision.centres_input import centre_top, coarse_view  # noqa: E402
from vision.centres_net import KINDS  # noqa: E402

MEASURED = (50000, 130000)
"""Render seeds the benches and the lead measure on, never rendered for training (from
130,000 the engineers' own ranges: a session trains on its own)."""

VISIBLE = 0.6
"""A piece with at least this share in view is one the net must find."""


def seed_range(text: str) -> range:
    """``"a:b"`` -> range(a, b)."""
    try:
        a, b = (int(v) for v in text.split(":"))
    except ValueError:
        raise SystemExit(f"--seeds: expected a:b, not {text!r}") from None
    return range(a, b)


class StoredView:
    """One seed's training view: the top view's samples (H, W, 3) uint8, its valid mask
    (H, W) uint8, the frame's level, the centres (N, 4) float32 (x px, y px, kind index, 1
    wanted / 0 partly hidden) and the case's conditions."""

    def __init__(self, top: np.ndarray, valid: np.ndarray, level: float, centres: np.ndarray,
                 conditions: dict[str, str]) -> None:
        self.top, self.valid, self.level = top, valid, level
        self.centres, self.conditions = centres, conditions


def view_of_seed(seed: int, hard: float = 0.0, dark: float = 0.0,
                 post_weight: float | None = None,
                 only: dict[str, tuple[str, ...]] | None = None) -> StoredView:
    """The training view of one seed (``hard``: the share of seeds whose case is pinned to a
    hard condition, ``dark``: to a dark table, ``post_weight``: the weight of a group of
    posts in the layout; :func:`centre_sampler.post_rich_choices`; ``only``: each named
    choice pinned to one of its values, :func:`centre_sampler.only_choices`)."""
    pins = post_rich_choices(seed, hard, dark, post_weight)
    pins.update(only_choices(seed, only or {}))
    case = draw_case(seed, hand=seed % 8 == 0, **pins)  # type: ignore[arg-type]
    r = case.render()
    cal = r.calibration()
    view = coarse_view(cal)
    top, level = centre_top(view, np.ascontiguousarray(r.image))
    rows = []
    for p, t in zip(r.scene.pieces, r.truth, strict=True):
        if p.kind not in KINDS:
            continue
        if p.kind == "post":
            at_mm = np.array([[p.x_mm, p.y_mm]])
        else:
            at_mm = cal.to_table(np.array([t.top_px], float))
        if not np.all(np.isfinite(at_mm)):
            continue
        px = view.to_px(at_mm)[0]
        wanted = (not t.occluded) and t.visible_fraction >= VISIBLE
        rows.append((px[0], px[1], KINDS.index(p.kind), 1.0 if wanted else 0.0))
    valid = (view.valid > 0).astype(np.uint8)
    return StoredView(top, valid, level, np.array(rows, np.float32).reshape(-1, 4),
                      dict(case.conditions))


CONDITIONS = ("table", "table_family", "light", "clutter")
"""The conditions each view's file keeps (for figures per condition)."""


def save(path: Path, views: list[StoredView], seeds: list[int]) -> None:
    out: dict[str, np.ndarray] = {}
    for i, v in enumerate(views):
        out[f"top{i}"], out[f"valid{i}"], out[f"c{i}"] = v.top, v.valid, v.centres
    out["levels"] = np.array([v.level for v in views], np.float32)
    out["seeds"] = np.array(seeds)
    out["families"] = np.array([v.conditions["table_family"] for v in views])
    for k in CONDITIONS:
        out[f"cond_{k}"] = np.array([v.conditions[k] for v in views])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part.npz")
    np.savez_compressed(tmp, **out)
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="a:b, the render seeds")
    ap.add_argument("-o", "--out", required=True, help="the .npz to write")
    ap.add_argument("--hard", type=float, default=0.0,
                    help="share of seeds pinned to a hard condition (0: as drawn)")
    ap.add_argument("--dark", type=float, default=0.0,
                    help="share of seeds pinned to a dark table (0: as drawn)")
    ap.add_argument("--post-weight", type=float, default=None,
                    help="weight of a group of posts in the layout (default: the usual 0.1)")
    ap.add_argument("--only", action="append", default=[], metavar="CHOICE=V1,V2,...",
                    help="pin a choice (light, table, clutter) of every seed to one of these "
                         "values (drawn per seed; repeatable)")
    args = ap.parse_args(argv)
    seeds = seed_range(args.seeds)
    if seeds.start < MEASURED[1] and seeds.stop > MEASURED[0]:
        raise SystemExit(f"--seeds: {MEASURED[0]:,}-{MEASURED[1] - 1:,} are for measuring, "
                         "not training")
    try:
        only = parse_only(args.only)
    except ValueError as e:
        raise SystemExit(f"--only: {e}") from None
    if not 0.0 <= args.hard <= 1.0:
        raise SystemExit(f"--hard: a share 0-1, not {args.hard}")
    if not 0.0 <= args.dark <= 1.0:
        raise SystemExit(f"--dark: a share 0-1, not {args.dark}")
    if args.post_weight is not None and args.post_weight <= 0.0:
        raise SystemExit(f"--post-weight: a positive weight, not {args.post_weight}")
    views: list[StoredView] = []
    done: list[int] = []
    t0 = time.perf_counter()
    for seed in seeds:
        views.append(view_of_seed(seed, args.hard, args.dark, args.post_weight, only))
        done.append(seed)
        if len(done) % 20 == 0:
            save(Path(args.out), views, done)
            print(f"# {len(done)}/{len(seeds)} seeds, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    save(Path(args.out), views, done)
    print(f"# {len(done)} views -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
