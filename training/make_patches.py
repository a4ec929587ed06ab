"""Training patches for the learned namer, from the project's own randomised renders.

Each render (``tabletop.render.variety.draw_case(seed)``: table, light, clutter, camera and
layout drawn from the seed) gives labelled patches (:mod:`vision.patches`):

- every piece in full view, a little off its centre (2 patches each): its class;
- what the hand-made stages find there (the current detector's detections): the class of the
  true piece they land on, or ``nothing`` (these are the hard negatives: wood grain, a page,
  a shadow, a tile's back read as coins);
- points of bare table, of clutter, and points between 8 and 22 mm off a piece's centre (a
  tile's corner is not a tile): ``nothing``.

Points too near a centre to be clearly off it, yet too far to be on it, are left out.

Run: ``python training/make_patches.py --seeds 0:400 -o training/data/train.npz`` (seeds of
the training set; the namer's figures are measured on other seeds).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabletop.pieceset import PieceSet  # noqa: E402
from tabletop.render.variety import Case, draw_case  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.namer_classes import CLASSES, class_of  # noqa: E402
from vision.patches import PATCH_PX, frame_level, sample_patches  # noqa: E402

ON_MM = {"coin": 1.5, "tile": 3.0, "post": 2.0}
"""A point this near a piece's centre shows that piece."""

OFF_MM = {"coin": 6.0, "tile": 10.0, "post": 6.0}
"""A point at least this far from every piece's centre shows none."""


def _cases(seed: int) -> Case:
    """The case of one seed (the variety generator; one render in seven with a hand)."""
    return draw_case(seed, hand=seed % 7 == 0)


def _label_at(points: np.ndarray, truth: list[dict]) -> list[int | None]:
    """The class each point shows: a piece's when on its centre, nothing when off every centre,
    None in between (left out)."""
    out: list[int | None] = []
    for x, y in points:
        label: int | None = CLASSES.index("nothing")
        for p in truth:
            d = math.hypot(p["x"] - x, p["y"] - y)
            if d <= ON_MM[p["kind"]] * 1.5 and not p["hidden"]:
                label = class_of(p)
                break
            if d < OFF_MM[p["kind"]]:
                label = None
        out.append(label)
    return out


def patches_of_seed(seed: int, pieces: PieceSet | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """(raw patches uint8 (N, S, S, 3), labels int (N,), frame level float (N,), the table's
    family)."""
    rng = np.random.default_rng([seed, 77])
    case = _cases(seed)
    family = case.conditions["table_family"]
    r = case.render()
    cal = r.calibration()
    img = np.ascontiguousarray(r.image)
    truth = []
    for p, t in zip(r.scene.pieces, r.truth, strict=True):
        if p.kind not in ON_MM:
            continue
        truth.append({"kind": p.kind, "x": p.x_mm, "y": p.y_mm, "suit": p.suit, "face": p.face,
                      "hidden": bool(t.occluded or t.visible_fraction < 0.97)})
    pts: list[np.ndarray] = []
    labels: list[int] = []

    def add(points: np.ndarray, given: list[int | None] | None = None) -> None:
        lab = _label_at(points, truth) if given is None else given
        for q, lb in zip(points, lab, strict=True):
            if lb is not None:
                pts.append(q)
                labels.append(lb)

    for p in truth:
        if p["hidden"]:
            continue
        for _ in range(2):
            a, rr = rng.uniform(0, 2 * math.pi), ON_MM[p["kind"]] * math.sqrt(rng.random())
            add(np.array([[p["x"] + rr * math.cos(a), p["y"] + rr * math.sin(a)]]))
        a = rng.uniform(0, 2 * math.pi)
        rr = rng.uniform(8.0, 22.0)
        add(np.array([[p["x"] + rr * math.cos(a), p["y"] + rr * math.sin(a)]]))
    det = Detector(cal, pieces, DetectorConfig(kinds=("tile", "coin", "post"), memory=None))
    found = det.detect(img).detections
    add(np.asarray(found.centre_mm, float).reshape(-1, 2))
    # bare table and clutter, inside the image
    w, h = r.pose.image_size
    uv = np.column_stack([rng.uniform(0.05 * w, 0.95 * w, 24), rng.uniform(0.05 * h, 0.95 * h, 24)])
    add(cal.to_table(uv))
    for d in case.distractors:
        c = np.asarray(d["centre_mm"], float)
        sz = np.asarray(d.get("size_mm", (20.0, 20.0)), float)
        add(c + rng.uniform(-0.45, 0.45, (4, 2)) * sz)
    if not pts:
        return (np.zeros((0, PATCH_PX, PATCH_PX, 3), np.uint8), np.zeros(0, int),
                np.zeros(0, np.float32), family)
    raw = sample_patches(img, cal, np.array(pts))
    lev = np.full(len(pts), frame_level(img), np.float32)
    return raw, np.array(labels, int), lev, family


def _save(out: Path, raws: list, labs: list, levs: list, fams: list) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.stem + ".part.npz")
    np.savez_compressed(tmp, raw=np.concatenate(raws), label=np.concatenate(labs),
                        level=np.concatenate(levs), family=np.concatenate(fams))
    tmp.replace(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0:400", help="first:last (last excluded)")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--save-every", type=int, default=20,
                    help="write what is made so far every this many seeds")
    args = ap.parse_args(argv)
    a, b = (int(v) for v in args.seeds.split(":"))
    raws, labs, levs, fams = [], [], [], []
    out = Path(args.out)
    t0 = time.perf_counter()
    for seed in range(a, b):
        raw, lab, lev, fam = patches_of_seed(seed)
        fams.append(np.full(len(lab), fam))
        raws.append(raw)
        labs.append(lab)
        levs.append(lev)
        if (seed - a) % args.save_every == args.save_every - 1:
            _save(out, raws, labs, levs, fams)
            n = sum(len(x) for x in labs)
            print(f"# seed {seed}: {n} patches, {time.perf_counter() - t0:.0f} s", flush=True)
    _save(out, raws, labs, levs, fams)
    counts = np.bincount(np.concatenate(labs), minlength=len(CLASSES))
    print(" ".join(f"{c}={n}" for c, n in zip(CLASSES, counts, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
