"""Trains the centre net (dense heat maps of piece centres on the coarse top view) and exports
it to ONNX.

Run (the ``train`` extra: ``pip install -e '.[train]'``):

    python training/make_centres.py --seeds 400:600 --hard 0.6 -o training/data/cv_0400.npz
    python training/make_centres.py --seeds 600:800 --hard 0.6 -o training/data/cv_0600.npz
    python training/make_centres.py --seeds 20000:20080 -o training/data/cv_val.npz
    python training/train_centres.py training/data/cv_0400.npz training/data/cv_0600.npz \
        --val training/data/cv_val.npz -o vision/models/centres.onnx

Targets are CenterNet's: a Gaussian at each true centre, one map per kind, at the sub-sample
place of the centre (so a peak's parabola finds it); the loss is a focal binary cross-entropy
on those soft targets, with no loss near pieces the render shows only in part. Each kind's
peak threshold is chosen on the validation seeds (the best F2 score: a missed piece costs a
verdict, while a false candidate still has to pass its fit and the namer) and written with
the figures into the JSON beside the weights, with the candidates' recall (peaks alone) per
table family, light and clutter of the validation views. Reproducible from ``--seed`` (torch on
the CPU, deterministic algorithms).

The stored views are the coarse top view's samples: each crop is cut with a margin, augmented
in the image's own terms (turns, mirrors, exposure, sensor noise and, on a share of the crops,
the bands of a blind laid over table and pieces alike, as the renderer lays them), and only then
made into the net's input by :func:`vision.centres_input.input_of_top`, as the run time does.
``--evaluate MODEL.onnx`` only measures committed weights on the validation views.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "training"))

from vision.centres import heat_peaks, heat_to_view_px, padded, view_px_to_heat  # noqa: E402
from vision.centres_input import CHANNELS, MM_PER_PX, input_of_top  # noqa: E402
from vision.centres_net import KINDS, SIGMA_MM, STRIDE  # noqa: E402

CROP = 160
"""Training crops are this many view pixels a side (320 mm)."""

MARGIN = 32
"""View pixels cut around a crop so its local median sees what the whole view's would."""

BLIND_SHARE = 0.25
"""Share of crops with a blind's bands laid over them."""

CONDITIONS = ("table_family", "light", "clutter")
"""Conditions the validation figures are given per."""

MATCH_MM = {"coin": 6.0, "tile": 12.0, "post": 6.0}
"""A peak within this of a true centre of its kind finds it (validation)."""

THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 19))


class View:
    """One stored render: its file and index (the top view is read when used), centres
    (N, 4), the frame's level, seed and conditions."""

    def __init__(self, store: np.lib.npyio.NpzFile, i: int, c: np.ndarray, level: float,
                 seed: int, conditions: dict[str, str]) -> None:
        self.store, self.i, self.c, self.level = store, i, c, level
        self.seed, self.conditions = seed, conditions
        self.family = conditions["table_family"]
        self._top: tuple[np.ndarray, np.ndarray] | None = None

    def top(self) -> tuple[np.ndarray, np.ndarray]:
        """(top view uint8 (H, W, 3), valid uint8 (H, W)), read once (about 1 MB a view)."""
        if self._top is None:
            self._top = self.store[f"top{self.i}"], self.store[f"valid{self.i}"]
        return self._top

    def whole_input(self) -> np.ndarray:
        top, valid = self.top()
        return input_of_top(top, valid, self.level)


def load(paths: list[str], exclude: str | None = None) -> list[View]:
    out = []
    for p in paths:
        try:
            d = np.load(p)
            seeds, levels = d["seeds"], d["levels"]
            conds = {k: d[f"cond_{k}"] for k in CONDITIONS}
        except (OSError, KeyError, ValueError) as e:
            raise SystemExit(f"{p}: not a make_centres.py file ({e})") from None
        for i in range(len(seeds)):
            cond = {k: str(conds[k][i]) for k in CONDITIONS}
            if exclude and cond["table_family"] == exclude:
                continue
            out.append(View(d, i, d[f"c{i}"], float(levels[i]), int(seeds[i]), cond))
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


def blind_bands(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A blind's light factor (h, w) float32 over a crop at the view's scale: bands 35-130 mm
    apart, 30-60 % of each in shade taking 30-60 % of the light, soft edges 2-12 mm, at any
    angle (as ``tabletop.render.variety`` draws a blind)."""
    period = rng.uniform(35, 130) / MM_PER_PX
    duty, strength = rng.uniform(0.3, 0.6), rng.uniform(0.3, 0.6)
    soft = max(0.5, rng.uniform(2.0, 12.0) / MM_PER_PX)
    a = rng.uniform(0, math.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (xs * math.cos(a) + ys * math.sin(a) + rng.uniform(0, period)) % period
    # distance into the shade band [0, duty * period), soft at both of its edges
    inside = np.maximum(np.minimum(u, duty * period - u), u - period)
    shade = np.clip(0.5 + inside / soft, 0.0, 1.0)
    return (1.0 - strength * shade).astype(np.float32)


def glare_light(h: int, w: int, at: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection in the table (h, w) float32, in levels to add: a soft lobe 25-90 mm
    across (sigma), at a piece of the crop when ``at`` is given (so coins are washed out by it,
    as under the renderer's glare), peaking at 120-400 levels (clipped white at its middle)."""
    sigma = rng.uniform(25.0, 90.0) / MM_PER_PX
    if at is None:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    else:
        cx, cy = at + rng.uniform(-1.0, 1.0, 2) * sigma
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    lobe = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2.0 * sigma * sigma))
    return (rng.uniform(120.0, 400.0) * lobe).astype(np.float32)


def camera_blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``img`` (h, w, 3) float32 blurred as a webcam out of focus or shaken blurs a far table
    in this 2 mm view: a Gaussian of 0.4-1.3 view pixels, or a straight motion of 1.5-5 pixels
    at any angle (the renderer's 2-9 frame pixels of shake, seen from a far camera)."""
    if rng.random() < 0.5:
        return cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.3)))
    length, a = float(rng.uniform(1.5, 5.0)), float(rng.uniform(0, math.pi))
    n = math.ceil(length) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    for t in np.linspace(-length / 2, length / 2, 4 * n):
        k[round(c + t * math.sin(a)), round(c + t * math.cos(a))] += 1.0
    return cv2.filter2D(img, -1, k / k.sum(), borderType=cv2.BORDER_REFLECT)


def dim_room(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """``img`` (h, w, 3) float32 as a dim, warm room shows it (the renderer's ``dim-warm``:
    an exposure of 0.35-0.6, a lamp of 2700-3200 K, a camera's noise of 6-14 levels): darkened
    by 0.35-0.7, blue and green cut as a warm lamp cuts them, and sensor noise of 2-6 levels
    (the frame's 6-14, averaged by the halved frame and the 2 mm view). Returns the image and
    the mean gain over the channels, by which the frame's level falls too (the level is
    measured on the dim frame, all channels)."""
    gain = rng.uniform(0.35, 0.7) * np.array(
        [rng.uniform(0.55, 0.8), rng.uniform(0.8, 0.95), 1.0], np.float32)
    out = img * gain.astype(np.float32)
    out += rng.standard_normal(img.shape, dtype=np.float32) * float(rng.uniform(2.0, 6.0))
    return out, float(gain.mean())


def raw_crop(v: View, x0: int, y0: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The stored top view over [x0, x0 + size) x [y0, y0 + size), unseen (valid 0) beyond."""
    top, valid = v.top()
    H, W = valid.shape
    t = np.zeros((size, size, 3), np.uint8)
    m = np.zeros((size, size), np.uint8)
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(W, x0 + size), min(H, y0 + size)
    if sx1 > sx0 and sy1 > sy0:
        t[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = top[sy0:sy1, sx0:sx1]
        m[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = valid[sy0:sy1, sx0:sx1]
    return t, m


POST = KINDS.index("post")


def wanted_posts(v: View) -> np.ndarray:
    """The posts (M, 4) a view's net must find."""
    return v.c[(v.c[:, 3] > 0) & (v.c[:, 2] == POST)]


@dataclass(frozen=True)
class Augment:
    """Shares of the crops given each of the harder looks (0: none, and no draw from the
    generator for it, so a run without them is the run before they came)."""

    blind: float = BLIND_SHARE
    glare: float = 0.0
    blur: float = 0.0
    dim: float = 0.0


def sample(views: list[View], rng: np.random.Generator, n: int, post_crops: float = 0.0,
           post_loss: float = 1.0, with_posts: list[View] | None = None,
           augment: Augment = Augment()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch of augmented crops with their targets and weights.

    A share ``post_crops`` of the crops is cut round a post (of a view among ``with_posts``,
    the views that show one): in the usual mix a post is one piece in eight, and its foot, a
    thin dark wall in this 2 mm view, is what the net learns last. ``post_loss`` weighs the
    post map's loss against the others'. ``augment``: the shares of crops under a blind's
    bands, a glare's lobe over one of its pieces, a camera's blur and a dim warm room."""
    xb = np.zeros((n, CHANNELS, CROP, CROP), np.float32)
    tb = np.zeros((n, len(KINDS), CROP // STRIDE, CROP // STRIDE), np.float32)
    wb = np.zeros_like(tb)
    big = CROP + 2 * MARGIN
    for b in range(n):
        round_post = bool(with_posts) and rng.random() < post_crops
        pool = with_posts if round_post and with_posts else views
        v = pool[int(rng.integers(len(pool)))]
        H, W = v.top()[1].shape
        wanted = wanted_posts(v) if round_post else v.c[v.c[:, 3] > 0]
        if len(wanted) and (round_post or rng.random() < 0.7):  # mostly round a piece
            cx, cy = wanted[int(rng.integers(len(wanted)))][:2] + rng.uniform(-60, 60, 2)
            x0, y0 = int(cx) - CROP // 2, int(cy) - CROP // 2
        else:
            x0, y0 = int(rng.integers(-20, max(-19, W - CROP + 20))), int(
                rng.integers(-20, max(-19, H - CROP + 20)))
        top, valid = raw_crop(v, x0 - MARGIN, y0 - MARGIN, big)
        c = v.c.copy()
        c[:, 0] -= x0 - MARGIN
        c[:, 1] -= y0 - MARGIN
        # orientation: a quarter turn and a mirror (the view has either handedness)
        if rng.random() < 0.5:
            top, valid = top[:, ::-1], valid[:, ::-1]
            c[:, 0] = big - 1 - c[:, 0]
        q = int(rng.integers(4))
        for _ in range(q):  # rotate by 90 degrees: (x, y) -> (y, big - 1 - x)
            top, valid = np.rot90(top, 1), np.rot90(valid, 1)
            c[:, 0], c[:, 1] = c[:, 1].copy(), big - 1 - c[:, 0]
        # light and exposure: a blind's bands, a gain against the frame's level, sensor noise
        f = np.full((big, big), rng.uniform(0.7, 1.4), np.float32)
        if rng.random() < augment.blind:
            f *= blind_bands(big, big, rng)
        img = top.astype(np.float32)
        img *= f[..., None]
        if augment.glare and rng.random() < augment.glare:
            inside = c[(c[:, 3] > 0) & (c[:, 0] >= MARGIN) & (c[:, 0] < big - MARGIN)
                       & (c[:, 1] >= MARGIN) & (c[:, 1] < big - MARGIN)]
            at = inside[int(rng.integers(len(inside))), :2] if len(inside) else None
            img += glare_light(big, big, at, rng)[..., None]
            np.minimum(img, 255.0, out=img)
        if augment.blur and rng.random() < augment.blur:
            img = camera_blur(img, rng)
        level = v.level
        if augment.dim and rng.random() < augment.dim:
            img, gain = dim_room(img, rng)
            level *= gain
        noise = rng.standard_normal(img.shape, dtype=np.float32)
        noise *= rng.uniform(0, 3.0)
        img += noise
        top = np.clip(img + 0.5, 0, 255).astype(np.uint8)
        x = input_of_top(top, np.ascontiguousarray(valid), level)
        x = x[:, MARGIN:MARGIN + CROP, MARGIN:MARGIN + CROP].copy()
        x[:3] *= rng.uniform(0.8, 1.2)
        x[:6] = np.clip(x[:6], -4.0, 2.0) * x[6]
        c[:, 0] -= MARGIN
        c[:, 1] -= MARGIN
        xb[b] = x
        tb[b], wb[b] = targets(c, CROP // STRIDE, CROP // STRIDE)
    wb[:, POST] *= post_loss
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


def evaluate(heats: list[np.ndarray], views: list[View],
             thresholds: tuple[float, ...] = THRESHOLDS) -> dict[str, dict[float, dict]]:
    """Per kind and threshold: true, found, paired, distances (mm) on whole views."""
    out: dict[str, dict[float, dict]] = {k: {} for k in KINDS}
    for ki, kind in enumerate(KINDS):
        for th in thresholds:
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


def condition_recall(heats: list[np.ndarray], views: list[View], least: dict[str, float]
                     ) -> dict[str, dict[str, dict[str, list[int]]]]:
    """Per condition (:data:`CONDITIONS`), value and kind: [true pieces, found by a peak of at
    least ``least[kind]``] (the candidates' recall, peaks alone)."""
    out: dict[str, dict[str, dict[str, list[int]]]] = {c: {} for c in CONDITIONS}
    for heat, v in zip(heats, views, strict=True):
        for ki, kind in enumerate(KINDS):
            pts, _ = heat_peaks(heat[ki], least[kind])
            pred = heat_to_view_px(pts) * MM_PER_PX
            mine = v.c[(v.c[:, 2] == ki) & (v.c[:, 3] > 0)][:, :2] * MM_PER_PX
            n, _ = match(pred, mine, MATCH_MM[kind])
            for cond in CONDITIONS:
                row = out[cond].setdefault(v.conditions[cond], {}).setdefault(kind, [0, 0])
                row[0] += len(mine)
                row[1] += n
    return out


def recall_table(rec: dict[str, dict[str, dict[str, list[int]]]]) -> dict[str, dict]:
    """:func:`condition_recall` as recalls (4 places) with their counts."""
    return {cond: {val: {k: {"recall": round(f / t, 4) if t else None, "truth": t}
                         for k, (t, f) in kinds.items()}
                   for val, kinds in sorted(vals.items())}
            for cond, vals in rec.items()}


def print_recall(title: str, table: dict[str, dict]) -> None:
    print(f"# candidate recall (peaks alone), {title}")
    for cond, vals in table.items():
        for val, kinds in vals.items():
            cells = " ".join(f"{k} {d['recall']}/{d['truth']}" for k, d in kinds.items()
                             if d["truth"])
            print(f"#   {cond}={val}: {cells}")


def heats_of(run, views: list[View]) -> list[np.ndarray]:
    """Heat maps of whole views; ``run`` maps a padded input (C, H, W) to (K, h, w)."""
    out = []
    for v in views:
        x = v.whole_input()
        h, w = x.shape[1:]
        out.append(run(padded(x))[:, :-(-h // STRIDE), :-(-w // STRIDE)])
    return out


def dnn_runner(path: Path):
    net = cv2.dnn.readNetFromONNX(str(path))

    def run(x: np.ndarray) -> np.ndarray:
        net.setInput(x[None])
        return net.forward()[0]
    return run


def measure(heats: list[np.ndarray], val: list[View], hard: list[View],
            hard_heats: list[np.ndarray], fixed: dict[str, float] | None
            ) -> tuple[dict[str, float], dict[str, dict], dict[str, dict]]:
    """Thresholds (``fixed``, or each kind's best F2 on ``val``), their figures on ``val``,
    and the candidate recall per condition on ``val`` and ``hard`` together (posts at the run
    time's 0.2)."""
    ev = evaluate(heats, val)
    chosen, vfig = {}, {}
    for kind in KINDS:
        best = fixed[kind] if fixed else max(
            THRESHOLDS, key=lambda th, k=kind: (figures(ev[k][th])["f2"], th))
        if best not in ev[kind]:
            ev[kind][best] = evaluate(heats, val, (best,))[kind][best]
        chosen[kind] = best
        vfig[kind] = figures(ev[kind][best])
        print(f"# {kind}: threshold {best} " + " ".join(f"{a}={b}" for a, b in vfig[kind].items()))
    least = {**chosen, "post": min(chosen["post"], 0.2)}
    table = recall_table(condition_recall(heats + hard_heats, val + hard, least))
    print_recall(f"validation and hard validation, thresholds {least}", table)
    return chosen, vfig, table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("train", nargs="*", help=".npz files from make_centres.py")
    ap.add_argument("--val", required=True, help="validation .npz (other seeds)")
    ap.add_argument("--val-hard", default=None,
                    help="validation .npz of hard conditions (recall per condition only)")
    ap.add_argument("-o", "--out", default=None, help="the .onnx to write (JSON beside it)")
    ap.add_argument("--evaluate", default=None, help="only measure these .onnx weights")
    ap.add_argument("--rewrite", action="store_true",
                    help="with --evaluate: write the figures at its thresholds into its JSON")
    ap.add_argument("--steps", type=int, default=2400)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--exclude-family", default=None,
                    help="leave this table family out of training (a held-out experiment)")
    ap.add_argument("--post-crops", type=float, default=0.0,
                    help="share of crops cut round a post (0: round any piece, as before)")
    ap.add_argument("--post-loss", type=float, default=1.0,
                    help="weight of the post map's loss against the coin's and tile's")
    ap.add_argument("--blind-crops", type=float, default=BLIND_SHARE,
                    help="share of crops under a blind's bands")
    ap.add_argument("--glare-crops", type=float, default=0.0,
                    help="share of crops with a glare's lobe over one of their pieces")
    ap.add_argument("--blur-crops", type=float, default=0.0,
                    help="share of crops blurred as a far or shaken camera blurs them")
    ap.add_argument("--dim-crops", type=float, default=0.0,
                    help="share of crops darkened and made noisy as a dim warm room shows them")
    ap.add_argument("--keep-thresholds", action="store_true",
                    help="with --init: keep its JSON's peak thresholds (else the best F2 on "
                         "--val)")
    ap.add_argument("--init", default=None,
                    help="start from these exported weights (their batch norms stay frozen)")
    args = ap.parse_args(argv)

    val = load([args.val])
    hard = load([args.val_hard]) if args.val_hard else []
    if not val:
        raise SystemExit(f"{args.val}: no validation views")
    if args.evaluate:
        path = Path(args.evaluate)
        meta = json.loads(path.with_suffix(".json").read_text())
        run = dnn_runner(path)
        print(f"# {path}: {len(val)} validation views, {len(hard)} hard ones", flush=True)
        _, vfig, table = measure(heats_of(run, val), val, hard, heats_of(run, hard),
                                 meta["thresholds"])
        if args.rewrite:  # the JSON's figures at its own (perhaps hand-set) thresholds
            meta.update(val_figures=vfig, candidate_recall=table)
            path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
            print(f"# rewrote {path.with_suffix('.json')}")
        return 0
    if not args.train or not args.out:
        raise SystemExit("training needs .npz files and -o")

    import torch
    from centres_model import CentreNet, freeze_norms, load_onnx_weights

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    if not 0.0 <= args.post_crops <= 1.0:
        raise SystemExit(f"--post-crops: a share 0-1, not {args.post_crops}")
    if args.post_loss <= 0.0:
        raise SystemExit(f"--post-loss: a positive weight, not {args.post_loss}")
    for name in ("blind_crops", "glare_crops", "blur_crops", "dim_crops"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            raise SystemExit(f"--{name.replace('_', '-')}: a share 0-1, not {getattr(args, name)}")
    augment = Augment(args.blind_crops, args.glare_crops, args.blur_crops, args.dim_crops)
    fixed = None
    if args.keep_thresholds:
        if not args.init:
            raise SystemExit("--keep-thresholds: needs --init (whose JSON holds them)")
        fixed = json.loads(Path(args.init).with_suffix(".json").read_text())["thresholds"]
    views = load(args.train, args.exclude_family)
    if not views:
        raise SystemExit("no training views")
    with_posts = [v for v in views if len(wanted_posts(v))]
    print(f"# {len(views)} training views ({len(with_posts)} with a post, "
          f"{sum(len(wanted_posts(v)) for v in views)} posts), {len(val)} validation views, "
          f"{len(hard)} hard ones", flush=True)
    model = CentreNet(args.width)
    if args.init:
        load_onnx_weights(model, args.init)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    t0 = time.perf_counter()
    run = 0.0
    for step in range(args.steps):
        model.train()
        if args.init:
            freeze_norms(model)
        xb, tb, wb = sample(views, rng, args.batch, args.post_crops, args.post_loss, with_posts,
                            augment)
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

    def torch_run(x: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return model(torch.from_numpy(x)[None])[0].numpy()

    heats = heats_of(torch_run, val)
    chosen, vfig, table = measure(heats, val, hard, heats_of(torch_run, hard), fixed)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, CHANNELS, 256, 256), str(out), input_names=["x"],
                      output_names=["heat"], opset_version=13, dynamo=False)
    x = padded(val[0].whole_input())
    diff = float(np.abs(dnn_runner(out)(x) - torch_run(x)).max())
    if diff > 1e-3:  # the run time's reading matches torch's
        raise SystemExit(f"{out}: cv2.dnn reads the export differently (max diff {diff})")
    seeds = sorted({v.seed for v in views})
    meta = {
        "kinds": list(KINDS), "stride": STRIDE, "channels": CHANNELS, "mm_per_px": MM_PER_PX,
        "sigma_mm": SIGMA_MM, "thresholds": chosen, "val_figures": vfig,
        "train_seeds": [seeds[0], seeds[-1]], "train_views": len(views),
        "val_seeds": [val[0].seed, val[-1].seed],
        "val_hard_seeds": [hard[0].seed, hard[-1].seed] if hard else None,
        "candidate_recall": table,
        "exclude_family": args.exclude_family, "steps": args.steps, "batch": args.batch,
        "width": args.width, "seed": args.seed, "train_seconds": round(train_s),
        "init": Path(args.init).name if args.init else None, "lr": args.lr,
        "post_crops": args.post_crops, "post_loss": args.post_loss,
        "blind_crops": args.blind_crops, "glare_crops": args.glare_crops,
        "blur_crops": args.blur_crops, "dim_crops": args.dim_crops,
        "parameters": int(sum(p.numel() for p in model.parameters())),
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"# wrote {out} ({out.stat().st_size} bytes) and its JSON")
    return 0


if __name__ == "__main__":
    sys.exit(main())
