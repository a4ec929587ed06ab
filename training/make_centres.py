"""Training views for the centre net, from the project's own randomised renders.

Each seed's render (``tabletop.render.variety.draw_case(seed)``; one in eight with a hand)
gives the net's input over the whole coarse top view (:mod:`vision.centres_input`, stored as
int8 at :data:`SCALE` steps per unit) and the true centres in that view's pixels: where each
coin's and tile's top face is seen (the image's top point mapped to the table plane, as the
sub-pixel fits measure it) and each post's foot. A piece partly hidden (a hand, the image's
edge) is marked so training neither asks for it nor punishes finding it.

Run: ``python training/make_centres.py --seeds 0:200 -o training/data/centres_a.npz``.
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

from tabletop.render.variety import draw_case  # noqa: E402
from vision.centres_input import centre_input, coarse_view  # noqa: E402
from vision.centres_net import KINDS  # noqa: E402

SCALE = 30.0
"""int8 steps per unit of the input (the inputs lie within [-4, 2])."""

VISIBLE = 0.6
"""A piece with at least this share in view is one the net must find."""


def seed_range(text: str) -> range:
    """``"a:b"`` -> range(a, b)."""
    try:
        a, b = (int(v) for v in text.split(":"))
    except ValueError:
        raise SystemExit(f"--seeds: expected a:b, not {text!r}") from None
    return range(a, b)


def view_of_seed(seed: int) -> tuple[np.ndarray, np.ndarray, str]:
    """(input int8 (C, H, W), centres (N, 4) float32: x px, y px, kind index, 1 wanted /
    0 partly hidden, the table's family)."""
    case = draw_case(seed, hand=seed % 8 == 0)
    r = case.render()
    cal = r.calibration()
    view = coarse_view(cal)
    x = centre_input(view, np.ascontiguousarray(r.image))
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
    q = np.clip(np.rint(x * SCALE), -127, 127).astype(np.int8)
    return q, np.array(rows, np.float32).reshape(-1, 4), case.conditions["table_family"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="a:b, the render seeds")
    ap.add_argument("-o", "--out", required=True, help="the .npz to write")
    args = ap.parse_args(argv)
    seeds = seed_range(args.seeds)
    if seeds.stop > 50000:
        raise SystemExit("--seeds: 50,000 and up are for measuring, not training")
    out: dict[str, np.ndarray] = {}
    families = []
    t0 = time.perf_counter()
    for i, seed in enumerate(seeds):
        x, c, fam = view_of_seed(seed)
        out[f"x{i}"], out[f"c{i}"] = x, c
        families.append(fam)
        if (i + 1) % 20 == 0:
            print(f"# {i + 1}/{len(seeds)} seeds, {time.perf_counter() - t0:.0f} s", flush=True)
    out["seeds"] = np.array(list(seeds))
    out["families"] = np.array(families)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **out)
    print(f"# {len(seeds)} views -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
