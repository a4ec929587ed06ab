"""Trains the centre net (dense heat maps of piece centres on the coarse top view) and exports
it to ONNX.

Run (the ``train`` extra: ``pip install -e '.[train]'``):

    python training/make_centres.py --seeds 0:200 -o training/data/centres_a.npz
    python training/make_centres.py --seeds 200:400 -o training/data/centres_b.npz
    python training/make_centres.py --seeds 20000:20040 -o training/data/centres_val.npz
    python training/train_centres.py training/data/centres_a.npz training/data/centres_b.npz \
        --val training/data/centres_val.npz -o vision/models/centres.onnx

Targets are CenterNet's: a Gaussian at each true centre, one map per kind, at the sub-sample
place of the centre (so a peak's parabola finds it); the loss is a focal binary cross-entropy
on those soft targets, with no loss near pieces the render shows only in part. Each kind's
peak threshold is chosen on the validation seeds (the best F2 score: a missed piece costs a
verdict, while a false candidate still has to pass its fit and the namer) and written with
the figures into the JSON beside the weights. Reproducible from ``--seed`` (torch on the CPU,
deterministic algorithms).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "training"))

from vision.centres import heat_peaks, heat_to_view_px, padded, view_px_to_heat  # noqa: E402
from vision.centres_input import CHANNELS, MM_PER_PX  # noqa: E402
from vision.centres_net import KINDS, SIGMA_MM, STRIDE  # noqa: E402

SCALE = 30.0  # as make_centres.SCALE
CROP = 160
"""Training crops are this many view pixels a side (320 mm)."""

MATCH_MM = {"coin": 6.0, "tile": 12.0, "post": 6.0}
"""A peak within this of a true centre of its kind finds it (validation)."""

THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 19))


class View:
    """One stored render: input int8 (C, H, W), centres (N, 4), family, seed."""

    def __init__(self, x: np.ndarray, c: np.ndarray, family: str, seed: int) -> None:
        self.x, self.c, self.family, self.seed = x, c, family, seed


def load(paths: list[str], exclude: str | None = None) -> list[View]:
    out = []
    for p in paths:
        try:
            d = np.load(p)
        except OSError as e:
            raise SystemExit(f"{p}: cannot read ({e})") from None
        fams, seeds = d["families"], d["seeds"]
        for i in range(len(seeds)):
            if exclude and str(fams[i]) == exclude:
                continue
            out.append(View(d[f"x{i}"], d[f"c{i}"], str(fams[i]), int(seeds[i])))
    return out


def targets(c: np.ndarray, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Heat targets (K, h, w) and loss weights (K, h, w) for centres (N, 4) given in this
    crop's view pixels; h, w in heat samples."""
    t = np.zeros((len(KINDS), h, w), np.float32)
    wt = np.ones((len(KINDS), h, w), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    for x, y, k, wanted in c:
        kind = KINDS[int(k)]
        sig = SIGMA_MM[kind] / (MM_PER_PX * STRIDE)
        u, v = view_px_to_heat(np.array([x, y]))
        r = math.ceil(3 * sig) + 1
        x0, x1 = max(0, math.floor(u) - r), min(w, math.floor(u) + r + 2)
        y0, y1 = max(0, math.floor(v) - r), min(h, math.floor(v) + r + 2)
        if x0 >= x1 or y0 >= y1:
            continue
        d2 = (xs[y0:y1, x0:x1] - u) ** 2 + (ys[y0:y1, x0:x1] - v) ** 2
        if wanted > 0:
            g = np.exp(-d2 / (2 * sig * sig))
            np.maximum(t[int(k), y0:y1, x0:x1], g, out=t[int(k), y0:y1, x0:x1])
        else:
            wt[int(k), y0:y1, x0:x1][d2 < (2 * sig) ** 2] = 0.0
    return t, wt


def sample(views: list[View], rng: np.random.Generator, n: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch of augmented crops with their targets and weights."""
    xb = np.zeros((n, CHANNELS, CROP, CROP), np.float32)
    tb = np.zeros((n, len(KINDS), CROP // STRIDE, CROP // STRIDE), np.float32)
    wb = np.zeros_like(tb)
    for b in range(n):
        v = views[int(rng.integers(len(views)))]
        _, H, W = v.x.shape
        wanted = v.c[v.c[:, 3] > 0]
        if len(wanted) and rng.random() < 0.7:  # mostly around a piece, else anywhere
            cx, cy = wanted[int(rng.integers(len(wanted)))][:2] + rng.uniform(-60, 60, 2)
            x0, y0 = int(cx) - CROP // 2, int(cy) - CROP // 2
        else:
            x0, y0 = int(rng.integers(-20, max(-19, W - CROP + 20))), int(
                rng.integers(-20, max(-19, H - CROP + 20)))
        crop = np.zeros((CHANNELS, CROP, CROP), np.float32)
        sx0, sy0 = max(0, x0), max(0, y0)
        sx1, sy1 = min(W, x0 + CROP), min(H, y0 + CROP)
        if sx1 > sx0 and sy1 > sy0:
            crop[:, sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = v.x[:, sy0:sy1, sx0:sx1] / SCALE
        crop[6] = np.round(crop[6])  # the valid mask stays 0 / 1
        c = v.c.copy()
        c[:, 0] -= x0
        c[:, 1] -= y0
        # orientation: a quarter turn and a mirror (the view has either handedness)
        if rng.random() < 0.5:
            crop = crop[:, :, ::-1]
            c[:, 0] = CROP - 1 - c[:, 0]
        q = int(rng.integers(4))
        for _ in range(q):  # rotate by 90 degrees: (x, y) -> (y, CROP - 1 - x)
            crop = np.rot90(crop, 1, axes=(1, 2))
            c[:, 0], c[:, 1] = c[:, 1].copy(), CROP - 1 - c[:, 0]
        crop = np.ascontiguousarray(crop)
        valid = crop[6] > 0.5
        # light and exposure changes the normalisation leaves: contrast, level, noise
        crop[:3] *= rng.uniform(0.75, 1.25)
        crop[3:6] += rng.uniform(-0.6, 0.6)
        crop[:6] += rng.normal(0, rng.uniform(0, 0.08), (6, CROP, CROP)).astype(np.float32)
        crop[:6] = np.clip(crop[:6], -4.0, 2.0) * valid
        xb[b] = crop
        tb[b], wb[b] = targets(c, CROP // STRIDE, CROP // STRIDE)
    return xb, tb, wb


def match(pred_mm: np.ndarray, true_mm: np.ndarray, tol: float) -> tuple[int, list[float]]:
    """Greedy nearest pairs within ``tol``: (pairs, their distances)."""
    if not len(pred_mm) or not len(true_mm):
        return 0, []
    D = np.linalg.norm(pred_mm[:, None] - true_mm[None], axis=2)
    used_p, used_t, dist = set(), set(), []
    for flat in np.argsort(D, axis=None):
        i, j = np.unravel_index(flat, D.shape)
        if D[i, j] > tol:
            break
        if i in used_p or j in used_t:
            continue
        used_p.add(i)
        used_t.add(j)
        dist.append(float(D[i, j]))
    return len(dist), dist


def evaluate(heats: list[np.ndarray], views: list[View]) -> dict[str, dict[float, dict]]:
    """Per kind and threshold: true, found, paired, distances (mm) on whole views."""
    out: dict[str, dict[float, dict]] = {k: {} for k in KINDS}
    for ki, kind in enumerate(KINDS):
        for th in THRESHOLDS:
            tally = {"truth": 0, "found": 0, "paired": 0, "spurious": 0, "dist": []}
            for heat, v in zip(heats, views, strict=True):
                pts, _ = heat_peaks(heat[ki], th)
                pred = heat_to_view_px(pts) * MM_PER_PX
                mine = v.c[v.c[:, 2] == ki]
                wanted = mine[mine[:, 3] > 0][:, :2] * MM_PER_PX
                hidden = mine[mine[:, 3] == 0][:, :2] * MM_PER_PX
                n, dist = match(pred, wanted, MATCH_MM[kind])
                tally["truth"] += len(wanted)
                tally["paired"] += n
                tally["dist"] += dist
                # a peak on a partly hidden piece is no false candidate
                if len(pred) and len(hidden):
                    near = np.linalg.norm(pred[:, None] - hidden[None], axis=2).min(axis=1)
                    extra = int(np.count_nonzero(near > MATCH_MM[kind]))
                else:
                    extra = len(pred)
                tally["found"] += extra
                tally["spurious"] += max(0, extra - n)
            out[kind][th] = tally
    return out


def figures(t: dict) -> dict[str, float]:
    p = t["paired"] / (t["paired"] + t["spurious"]) if t["paired"] + t["spurious"] else 1.0
    r = t["paired"] / t["truth"] if t["truth"] else 1.0
    f2 = 5 * p * r / (4 * p + r) if p + r else 0.0
    d = np.array(t["dist"]) if t["dist"] else np.zeros(1)
    return {"precision": round(p, 4), "recall": round(r, 4), "f2": round(f2, 4),
            "error_mean_mm": round(float(d.mean()), 3),
            "error_p95_mm": round(float(np.percentile(d, 95)), 3), "truth": t["truth"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("train", nargs="+", help=".npz files from make_centres.py")
    ap.add_argument("--val", required=True, help="validation .npz (other seeds)")
    ap.add_argument("-o", "--out", required=True, help="the .onnx to write (JSON beside it)")
    ap.add_argument("--steps", type=int, default=2400)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--exclude-family", default=None,
                    help="leave this table family out of training (a held-out experiment)")
    args = ap.parse_args(argv)

    import torch
    from centres_model import CentreNet

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    views = load(args.train, args.exclude_family)
    val = load([args.val])
    if not views or not val:
        raise SystemExit("no training or validation views")
    print(f"# {len(views)} training views, {len(val)} validation views", flush=True)
    model = CentreNet(args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    t0 = time.perf_counter()
    run = 0.0
    for step in range(args.steps):
        model.train()
        xb, tb, wb = sample(views, rng, args.batch)
        x, t, w = torch.from_numpy(xb), torch.from_numpy(tb), torch.from_numpy(wb)
        p = model(x).clamp(1e-5, 1 - 1e-5)
        bce = -(t * torch.log(p) + (1 - t) * torch.log(1 - p))
        loss = (bce * (t - p).abs().pow(2) * w).sum() / args.batch
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        if (step + 1) % args.log_every == 0:
            print(f"# step {step + 1}/{args.steps} loss {run:.4f} "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)
    train_s = time.perf_counter() - t0

    model.eval()
    heats = []
    with torch.no_grad():
        for v in val:
            x = padded(v.x.astype(np.float32) / SCALE)
            x[6] = np.round(x[6])
            heats.append(model(torch.from_numpy(x)[None])[0].numpy())
    ev = evaluate(heats, val)
    chosen, vfig = {}, {}
    for kind in KINDS:
        best = max(THRESHOLDS, key=lambda th, k=kind: (figures(ev[k][th])["f2"], th))
        chosen[kind] = best
        vfig[kind] = figures(ev[kind][best])
        print(f"# {kind}: threshold {best} " + " ".join(f"{a}={b}" for a, b in vfig[kind].items()))

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, CHANNELS, 256, 256), str(out), input_names=["x"],
                      output_names=["heat"], opset_version=13, dynamo=False)
    net = cv2.dnn.readNetFromONNX(str(out))  # the run time's reading matches torch's
    x = padded(val[0].x.astype(np.float32) / SCALE)
    x[6] = np.round(x[6])
    net.setInput(x[None])
    diff = float(np.abs(net.forward()[0] - heats[0]).max())
    if diff > 1e-3:
        raise SystemExit(f"{out}: cv2.dnn reads the export differently (max diff {diff})")
    meta = {
        "kinds": list(KINDS), "stride": STRIDE, "channels": CHANNELS, "mm_per_px": MM_PER_PX,
        "sigma_mm": SIGMA_MM, "thresholds": chosen, "val_figures": vfig,
        "train_seeds": sorted({v.seed for v in views})[:1] + sorted({v.seed for v in views})[-1:],
        "train_views": len(views), "val_seeds": [val[0].seed, val[-1].seed],
        "exclude_family": args.exclude_family, "steps": args.steps, "batch": args.batch,
        "width": args.width, "seed": args.seed, "train_seconds": round(train_s),
        "parameters": int(sum(p.numel() for p in model.parameters())),
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"# wrote {out} ({out.stat().st_size} bytes) and its JSON")
    return 0


if __name__ == "__main__":
    sys.exit(main())
