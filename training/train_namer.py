"""Trains the learned namer (a small CNN over table patches) and exports it to ONNX.

Run (the ``train`` extra: ``pip install -e '.[train]'``):

    python training/make_patches.py --seeds 0:600 -o training/data/train.npz
    python training/make_patches.py --seeds 50000:50080 -o training/data/val.npz
    python training/train_namer.py training/data/train.npz --val training/data/val.npz \
        -o vision/models/namer.onnx

Reproducible from ``--seed`` (torch on the CPU, deterministic algorithms). The run writes the
weights (ONNX, loaded at run time by ``cv2.dnn``) and beside them a JSON file with the classes,
the patch geometry and the figures the weights reached on the validation seeds, which took no
part in training.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.namer_classes import CLASSES  # noqa: E402
from vision.patches import CHANNELS, PATCH_MM, PATCH_PX, normalise_patches  # noqa: E402


def build_model():  # type: ignore[no-untyped-def]
    """The network: four 3x3 convolution blocks, then two dense layers (position matters: a
    piece must be centred in its patch)."""
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list:
        layers = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                  nn.ReLU(inplace=True)]
        return [*layers, nn.MaxPool2d(2)] if pool else layers

    s = PATCH_PX // 8
    return nn.Sequential(
        *block(CHANNELS, 12, True), *block(12, 24, True), *block(24, 48, True),
        *block(48, 48, False), nn.Flatten(), nn.Linear(48 * s * s, 64), nn.ReLU(inplace=True),
        nn.Dropout(0.2), nn.Linear(64, len(CLASSES)))


def augment(raw: np.ndarray, level: np.ndarray, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray]:
    """Light, colour, noise, blur and orientation changes of raw uint8 patches (N, S, S, 3)."""
    n = len(raw)
    f = raw.astype(np.float32)
    gain = rng.uniform(0.55, 1.5, (n, 1, 1, 1)) * rng.uniform(0.85, 1.15, (n, 1, 1, 3))
    gamma = rng.uniform(0.75, 1.3, (n, 1, 1, 1))
    f = 255.0 * (np.clip(f * gain, 0, 255) / 255.0) ** gamma
    blur = rng.random(n) < 0.35
    for i in np.flatnonzero(blur):
        f[i] = cv2.GaussianBlur(f[i], (0, 0), float(rng.uniform(0.4, 1.3)))
    f += rng.normal(0.0, 1.0, f.shape).astype(np.float32) * rng.uniform(0, 7, (n, 1, 1, 1))
    out = np.clip(f, 0, 255).astype(np.uint8)
    k = rng.integers(0, 4, n)
    flip = rng.random(n) < 0.5
    for i in range(n):
        p = np.rot90(out[i], k[i])
        out[i] = p[:, ::-1] if flip[i] else p
    lev = level * rng.uniform(0.75, 1.3, n) * gain.mean(axis=(1, 2, 3))
    return out, lev.astype(np.float32)


def _inputs(raw: np.ndarray, level: np.ndarray) -> np.ndarray:
    return normalise_patches(raw, level)


def figures(pred: np.ndarray, label: np.ndarray) -> dict[str, float]:
    """Accuracy, piece-vs-nothing precision and recall, and the per-kind name accuracy."""
    nothing = CLASSES.index("nothing")
    out = {"accuracy": float(np.mean(pred == label))}
    is_piece, said_piece = label != nothing, pred != nothing
    tp = np.sum(is_piece & said_piece)
    out["piece_precision"] = float(tp / max(1, np.sum(said_piece)))
    out["piece_recall"] = float(tp / max(1, np.sum(is_piece)))
    for kind in ("coin", "tile", "post"):
        m = np.array([CLASSES[v].startswith(kind) for v in label])
        if m.any():
            out[f"{kind}_name_accuracy"] = float(np.mean(pred[m] == label[m]))
    return out


def main(argv: list[str] | None = None) -> int:
    import torch
    import torch.nn.functional as F

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("train", nargs="+", help="patch files of make_patches.py")
    ap.add_argument("--val", required=True)
    ap.add_argument("-o", "--out", default=str(ROOT / "vision" / "models" / "namer.onnx"))
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--exclude-family", default=None,
                    help="leave this table family out of training (a held-out experiment)")
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    parts = [np.load(f) for f in args.train]
    raw = np.concatenate([t["raw"] for t in parts])
    label = np.concatenate([t["label"] for t in parts]).astype(np.int64)
    level = np.concatenate([t["level"] for t in parts])
    if args.exclude_family:
        fam = np.concatenate([t["family"] if "family" in t else np.full(len(t["label"]), "?")
                              for t in parts])
        keep = fam != args.exclude_family
        raw, label, level = raw[keep], label[keep], level[keep]
    va = np.load(args.val)
    counts = np.bincount(label, minlength=len(CLASSES)).astype(float)
    weight = 1.0 / np.sqrt(np.maximum(counts, 1.0))
    p_sample = weight[label] / weight[label].sum()
    xv = torch.from_numpy(_inputs(va["raw"], va["level"]))
    yv = va["label"].astype(np.int64)
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * (len(raw) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    t0 = time.perf_counter()
    step = 0
    for epoch in range(args.epochs):
        model.train()
        losses = []
        for _ in range(len(raw) // args.batch):
            idx = rng.choice(len(raw), args.batch, p=p_sample)
            r, lv = augment(raw[idx], level[idx], rng)
            x = torch.from_numpy(_inputs(r, lv))
            y = torch.from_numpy(label[idx])
            loss = F.cross_entropy(model(x), y, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            losses.append(float(loss.detach()))
        model.eval()
        with torch.no_grad():
            pv = model(xv).argmax(1).numpy()
        f = figures(pv, yv)
        print(f"# epoch {epoch + 1}: loss {np.mean(losses):.4f} val " + " ".join(
            f"{k}={v:.4f}" for k, v in f.items()) + f" ({time.perf_counter() - t0:.0f} s)",
            flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    torch.onnx.export(model, torch.zeros(1, CHANNELS, PATCH_PX, PATCH_PX), str(out),
                      dynamo=False, input_names=["patches"], output_names=["logits"],
                      opset_version=13, dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}})
    net = cv2.dnn.readNetFromONNX(str(out))
    net.setInput(xv[:64].numpy())
    with torch.no_grad():
        gap = float(np.abs(net.forward() - model(xv[:64]).numpy()).max())
    meta = {"classes": list(CLASSES), "patch_mm": PATCH_MM, "patch_px": PATCH_PX,
            "channels": CHANNELS, "train": [str(f) for f in args.train],
            "exclude_family": args.exclude_family, "val": str(args.val),
            "train_patches": len(raw), "val_patches": len(yv),
            "epochs": args.epochs, "seed": args.seed, "train_seconds": round(
                time.perf_counter() - t0), "val_figures": {k: round(v, 4) for k, v in f.items()},
            "onnx_vs_torch_max_abs": gap}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta["val_figures"]))
    print(f"onnx_vs_torch_max_abs={gap:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
