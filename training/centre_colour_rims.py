"""Windows of the fine top view round true coins and round bare table, for measuring the colour
rim fit (:func:`vision.coin_colour.colour_rim_centres`) offline. A diagnostic, run by hand.

``.venv/bin/python training/centre_colour_rims.py --seeds 205000:205012 --light dim-warm
--tables glossy-white,gingham-red,oak -o /tmp/rims.pkl`` renders each seed's case with the
light pinned and the table pinned to one of ``--tables`` in turn, runs the detector (for its
prepared view, as :func:`vision.centre_proposals.propose_centres` gets it), and keeps, for every
coin wholly in view, the window round it (the start: its true top face moved by the centre
net's usual peak error, about 0.7 mm) and as many windows round bare table (no piece within
40 mm). ``--evaluate FILE`` then fits every window with the committed configuration and the
variants of :data:`VARIANTS` and prints, per table family: coins placed, their error (mm,
mean / p95 / most) and bare-table windows fitted (what would become a false candidate).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.detector as detector_mod  # noqa: E402
from vision.coin_colour import ColourRimConfig, colour_rim_centres, colour_rim_fit  # noqa: E402

PEAK_ERROR_MM = 0.7
"""The centre net's peak is about this far from a coin's top (validation mean 0.64 mm)."""

BARE_MM = 40.0
"""A bare-table window has no piece within this."""

_CAPTURED: dict = {}


def _capture(*args, **kw):
    _CAPTURED["args"] = args
    return _REAL(*args, **kw)


_REAL = detector_mod.propose_centres


def windows_of_seed(seed: int, light: str | None, table: str | None) -> dict:
    """One seed's coin and bare-table windows (see the module notes)."""
    from tabletop.render.variety import draw_case
    from vision.centre_proposals import local_views
    from vision.detector import Detector

    pins = {k: v for k, v in (("light", light), ("table", table)) if v}
    case = draw_case(seed, **pins)
    r_ = case.render()
    cal = r_.calibration()
    _CAPTURED.clear()
    det = Detector(cal)
    det.detect(r_.image)
    (_f, _n, frame, _c, prep, _d, coins, _t, cfg, _k, _h) = _CAPTURED["args"]
    view = prep.view
    s = view.px_per_mm
    r = coins.radius_mm * s
    rng = np.random.default_rng(seed)
    all_mm = np.array([[p.x_mm, p.y_mm] for p in r_.scene.pieces], float).reshape(-1, 2)
    coin_mm = np.array([[p.x_mm, p.y_mm] for p, t in zip(r_.scene.pieces, r_.truth, strict=True)
                        if p.kind == "coin" and not t.occluded and t.visible_fraction >= 1.0],
                       float).reshape(-1, 2)
    seen = view.to_px(view.camera.seen_at(coin_mm, coins.thickness_mm)) if len(coin_mm) \
        else np.zeros((0, 2))
    h, w = prep.valid.shape
    bare = []
    for _ in range(400):
        if len(bare) >= max(4, len(seen)):
            break
        p = rng.uniform([0, 0], [w, h])
        xi, yi = int(p[0]), int(p[1])
        if not prep.valid[yi, xi]:
            continue
        mm = view.to_mm(p[None])[0]
        if len(all_mm) and np.hypot(*(all_mm - mm).T).min() < BARE_MM:
            continue
        bare.append(p)
    bare_px = np.array(bare).reshape(-1, 2)
    starts = seen + rng.normal(0.0, PEAK_ERROR_MM * s / np.sqrt(2), seen.shape)
    pts = np.r_[starts, bare_px]
    half = int(np.ceil(2.2 * r)) + 10
    _shade, top = local_views(prep, frame, pts, np.full(len(pts), cfg.coin_window * r))
    wins, offs = [], []
    for p in pts:
        x0, y0 = int(np.floor(p[0])) - half, int(np.floor(p[1])) - half
        win = np.zeros((2 * half + 1, 2 * half + 1, 3), np.uint8)
        sx0, sy0 = max(0, x0), max(0, y0)
        sx1, sy1 = min(w, x0 + 2 * half + 1), min(h, y0 + 2 * half + 1)
        win[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = top[sy0:sy1, sx0:sx1]
        wins.append(win)
        offs.append((x0, y0))
    offs_a = np.array(offs, float).reshape(-1, 2)
    return {"seed": seed, "table": case.conditions["table"],
            "family": case.conditions["table_family"], "light": case.conditions["light"],
            "r": r, "px_per_mm": s, "wins": np.array(wins), "starts": pts - offs_a,
            "truth": np.r_[seen - offs_a[:len(seen)], np.full((len(bare_px), 2), np.nan)],
            "away": view.outward_px(pts) if len(pts) else np.zeros((0, 2))}


VARIANTS: dict[str, ColourRimConfig] = {
    "committed": ColourRimConfig(),
    **{f"over_texture{k}": ColourRimConfig(over_texture=k) for k in (2.0, 2.25)},
}
"""The configurations ``--evaluate`` compares."""


def evaluate(scenes: list[dict], variants: dict[str, ColourRimConfig]) -> None:
    for name, cfg in variants.items():
        by: dict[str, list] = defaultdict(lambda: [0, 0, [], 0, 0])
        for sc in scenes:
            fam = f"{sc['family']}:{sc['light']}"
            fit = np.array([colour_rim_centres(win, st[None], aw[None], sc["r"], cfg)[0]
                            for win, st, aw in zip(sc["wins"], sc["starts"], sc["away"],
                                                   strict=True)]).reshape(-1, 2)
            coin = np.isfinite(sc["truth"][:, 0])
            placed = np.all(np.isfinite(fit), axis=1)
            row = by[fam]
            row[0] += int(coin.sum())
            row[1] += int((coin & placed).sum())
            err = np.hypot(*(fit[coin & placed] - sc["truth"][coin & placed]).T) / \
                sc["px_per_mm"]
            row[2] += err.tolist()
            row[3] += int((~coin).sum())
            row[4] += int((~coin & placed).sum())
        tot = [0, 0, [], 0, 0]
        for fam, row in sorted(by.items()):
            for i in range(5):
                tot[i] += row[i]
            print(f"{name} {fam}: {_line(row)}")
        print(f"{name} ALL: {_line(tot)}", flush=True)


def ratios(scenes: list[dict]) -> None:
    """Per scene, the committed fit's lift and texture (noise units) of each window whose fit
    holds before the texture check: coins (with their error, mm) and bare table."""
    cfg = ColourRimConfig()
    for sc in scenes:
        parts = []
        for win, st, aw, tr in zip(sc["wins"], sc["starts"], sc["away"], sc["truth"],
                                   strict=True):
            f = colour_rim_fit(win, st[None], aw[None], sc["r"], cfg)
            if not f.held[0]:
                parts.append("coin:-" if np.isfinite(tr[0]) else "bare:-")
                continue
            what = (f"coin{np.hypot(*(f.centre[0] - tr)) / sc['px_per_mm']:.1f}"
                    if np.isfinite(tr[0]) else "bare")
            parts.append(f"{what}:{f.lift[0]:.1f}/{f.texture[0]:.1f}")
        print(f"{sc['seed']} {sc['table']} {sc['light']}: {' '.join(parts)}")


def _line(row: list) -> str:
    e = np.array(row[2]) if row[2] else np.zeros(1)
    return (f"coins {row[1]}/{row[0]} err mean {e.mean():.2f} p95 {np.percentile(e, 95):.2f} "
            f"max {e.max():.2f} mm; bare fitted {row[4]}/{row[3]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default=None, help="a:b, render seeds")
    ap.add_argument("--light", default=None)
    ap.add_argument("--tables", default=None, help="tables to pin, one a seed in turn")
    ap.add_argument("-o", "--out", default=None)
    ap.add_argument("--evaluate", action="append", default=[], help="windows' file(s) to fit")
    ap.add_argument("--ratios", action="store_true",
                    help="with --evaluate: each window's lift and texture (noise units)")
    a = ap.parse_args(argv)
    if a.evaluate:
        scenes = [sc for p in a.evaluate for sc in pickle.loads(Path(p).read_bytes())]
        if a.ratios:
            ratios(scenes)
        evaluate(scenes, VARIANTS)
        return 0
    if not a.seeds or not a.out:
        raise SystemExit("--seeds and -o, or --evaluate")
    lo, hi = (int(v) for v in a.seeds.split(":"))
    if lo < 130000:
        raise SystemExit("--seeds: the engineers' own ranges only (130,000 and up)")
    tables = a.tables.split(",") if a.tables else [None]
    detector_mod.propose_centres = _capture
    scenes = []
    for k, seed in enumerate(range(lo, hi)):
        sc = windows_of_seed(seed, a.light, tables[k % len(tables)])
        scenes.append(sc)
        print(f"# {seed} {sc['table']} {sc['light']}: {int(np.isfinite(sc['truth'][:, 0]).sum())}"
              f" coins, {int(np.isnan(sc['truth'][:, 0]).sum())} bare", flush=True)
        Path(a.out).write_bytes(pickle.dumps(scenes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
