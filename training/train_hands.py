"""Trains the hand judge (a random forest of ``cv2.ml``) from ``make_hands.py``'s files.

    .venv/bin/python training/train_hands.py training/data/hands_a.npz \
        training/data/hands_b.npz training/data/hands_c.npz -o vision/models/hands.yml.gz \
        --cells-out vision/models/hand_cells.yml.gz

Seconds on one core (OpenCV's own ``cv2.ml``, no extra). Each rendered frame's foreign blobs
(:mod:`vision.hand_features`) are labelled from the renderer's truth: a blob is a hand when the
hand and arm cover a good share of it. The figures go beside the model (``hands.json``): for
folds of the seeds (a forest trained on the others) and for each table family left out of
training, the share of frames judged right (hand or not) and the hands missed, and the same
for the hand-set rules the judge replaced.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.forests import forest, scores
from vision.hand_cells import N_CELL_FEATURES, cell_features
from vision.hand_features import (
    FEATURES,
    N_FEATURES,
    ForeignConfig,
    blob_features,
    candidate_blobs,
    foreign_cells,
)
from vision.hand_maps import HandMaps
from vision.hands import HandConfig, overrulable

HAND_SHARE = 0.25
"""A blob is a hand when the hand covers at least this share of its cells, or holds at least
:data:`HAND_HELD` of the hand's cells (a hand merged with a foreign plank or floor)."""

HAND_HELD = 0.5

OLD_THRESHOLD = 2.5
"""The foreign score the hand-set rules were set with."""

MIN_HAND_MM2 = 3000.0
"""A frame shows a hand when at least this much of the table is under it (a fingertip at the
frame's edge is not yet a hand over the table)."""


@dataclass(frozen=True)
class Blobs:
    """The candidate blobs of every frame."""

    x: np.ndarray        # (N, N_FEATURES)
    y: np.ndarray        # (N,) 1: a hand, 0: not, -1: beside a hand (its shadow: not taught)
    frame: np.ndarray    # (N,) index of the frame
    rule: np.ndarray     # (N,) the old hand-set rules call it a hand
    hand_cells: np.ndarray  # (N,) the frame's cells under the hand
    cell_x: np.ndarray   # (M, N_CELL_FEATURES) the cells of the hand blobs (y == 1)
    cell_y: np.ndarray   # (M,) 1: under the hand, 0: clear of it, -1: at its edge
    cell_near: np.ndarray  # (M,) within a cell of the hand
    cell_blob: np.ndarray  # (M,) the blob each cell is of


def old_rule(f: np.ndarray) -> bool:
    """The hand-set rules of the one-frame cue before the judge (``HandConfig`` then): a blob of
    6000 mm² from the border or 40000 mm² inside, at least 3.5 % of the grid's width deep."""
    area = float(np.exp(f[FEATURES.index("log_area_mm2")]))
    border = f[FEATURES.index("border")] > 0
    deep = f[FEATURES.index("depth")] >= 0.035
    return bool(deep and area >= (6000.0 if border else 40000.0))


def gather(data: dict[str, np.ndarray], cfg: ForeignConfig) -> tuple[Blobs, np.ndarray]:
    """Every frame's candidate blobs, and each frame's truth (a hand over the table)."""
    xs, ys, frames, rules, hands = [], [], [], [], []
    cx, cy, cnear, cblob = [], [], [], []
    truth = np.zeros(len(data["seed"]), bool)
    for k in range(len(data["seed"])):
        maps = HandMaps(data["small"][k], data["grain"][k].astype(np.float32),
                        data["use"][k].astype(bool), data["cell_mm2"][k].astype(np.float32))
        cover = data["cover"][k].astype(np.float32)
        truth[k] = float((cover * maps.cell_mm2 * maps.use).sum()) >= MIN_HAND_MM2
        hand_cells = (cover > 0.5) & maps.use
        around_hand = cv2.dilate((cover > 0).astype(np.uint8), np.ones((21, 21), np.uint8)) > 0
        fg = foreign_cells(cfg, maps)
        if fg is None:
            continue
        labels, ids = candidate_blobs(cfg, maps, fg)
        for i in ids:
            blob = labels == i
            f = blob_features(maps, fg, blob)
            xs.append(f)
            held = float(np.count_nonzero(blob & hand_cells)) / max(1, np.count_nonzero(hand_cells))
            y = int(float(cover[blob].mean()) >= HAND_SHARE or held >= HAND_HELD)
            if not y and truth[k] and (blob & around_hand).any():
                y = -1  # the hand's shadow, or a thing it holds: neither taught nor counted
            ys.append(y)
            frames.append(k)
            rules.append(old_rule(f))
            hands.append(np.count_nonzero(hand_cells))
            if ys[-1] == 1:
                idx, cf = cell_features(fg, blob)
                c = cover.ravel()[idx]
                near = cv2.dilate((cover > 0).astype(np.uint8), np.ones((3, 3), np.uint8))
                cx.append(cf)
                cy.append(np.where(c > 0.5, 1, np.where(c == 0, 0, -1)))
                cnear.append(near.ravel()[idx] > 0)
                cblob.append(np.full(len(idx), len(ys) - 1))
    x = np.array(xs, np.float32).reshape(-1, N_FEATURES)
    cells = (np.concatenate(cx) if cx else np.zeros((0, N_CELL_FEATURES), np.float32),
             np.concatenate(cy) if cy else np.zeros(0, int),
             np.concatenate(cnear) if cnear else np.zeros(0, bool),
             np.concatenate(cblob) if cblob else np.zeros(0, int))
    return Blobs(x, np.array(ys, np.int32), np.array(frames, int), np.array(rules, bool),
                 np.array(hands, float), *cells), truth


def frame_figures(flag_blob: np.ndarray, blobs: Blobs, truth: np.ndarray,
                  frames: np.ndarray) -> dict[str, float]:
    """Frame accuracy of blob flags over the frames ``frames`` (indices)."""
    flagged = np.zeros(len(truth), bool)
    np.logical_or.at(flagged, blobs.frame[flag_blob], True)
    t, f = truth[frames], flagged[frames]
    return {"frames": len(frames), "hands": int(t.sum()),
            "accuracy": float(np.mean(t == f)) if len(frames) else 1.0,
            "hand_free_accuracy": float(np.mean(~f[~t])) if (~t).any() else 1.0,
            "hands_missed": int(np.sum(t & ~f)), "false_hands": int(np.sum(~t & f))}


def hug_figures(flag_blob: np.ndarray, cell_score: np.ndarray, blobs: Blobs,
                threshold: float) -> dict[str, float]:
    """How the hands' cells (cells kept of blobs judged a hand, in frames with a hand) hug the
    hand: the share of the hand's cells among them, and the share of them a cell or more off
    the hand; a cell kept when ``cell_score`` is at least ``threshold``."""
    kept = (cell_score >= threshold) & flag_blob[blobs.cell_blob]
    frames = blobs.frame[blobs.cell_blob]
    held = []
    for k in np.unique(frames[flag_blob[blobs.cell_blob]]):
        on = frames == k
        n = blobs.hand_cells[blobs.cell_blob[on][0]]
        held.append(np.count_nonzero(kept[on] & (blobs.cell_y[on] == 1)) / max(n, 1.0))
    return {"hand_cells_held": float(np.mean(held)) if held else 1.0,
            "cells_off_the_hand": float(np.count_nonzero(kept & ~blobs.cell_near)
                                        / max(1, np.count_nonzero(kept))),
            "cells_off_the_hand_whole_blob": float(
                np.count_nonzero(flag_blob[blobs.cell_blob] & ~blobs.cell_near)
                / max(1, np.count_nonzero(flag_blob[blobs.cell_blob])))}


TREES_KEY = "\n   trees:\n"
"""Where a saved ``cv2.ml.RTrees`` file's list of trees begins (its last entry: the file ends
with the last tree's last node)."""


def _yaml_text(path: Path) -> str:
    raw = path.read_bytes()
    return (gzip.decompress(raw) if path.name.endswith(".gz") else raw).decode("utf-8")


def tree_count(path: Path) -> int:
    """How many trees the forest saved in ``path`` has."""
    head = _yaml_text(path).split(TREES_KEY)[0]
    return int(head.rsplit("ntrees:", 1)[1].split()[0])


def merge_forests(paths: list[Path], out: Path) -> int:
    """One forest of every tree of the forests saved in ``paths`` (trained by
    :func:`training.forests.forest` on the same features and labels), written to ``out``: its
    share of votes is the tree-weighted mean of theirs. Returns the number of trees."""
    heads, bodies, counts = [], [], []
    for p in paths:
        text = _yaml_text(p)
        if text.count(TREES_KEY) != 1:
            raise SystemExit(f"train_hands: {p}: not a saved forest of cv2.ml")
        head, body = text.split(TREES_KEY)
        counts.append(int(head.rsplit("ntrees:", 1)[1].split()[0]))
        heads.append(head.rsplit("ntrees:", 1)[0])
        bodies.append(body.rstrip("\n"))
    keep = ("var_count:", "class_labels:", "var_type:")
    for p, head in zip(paths[1:], heads[1:], strict=True):
        for key in keep:
            if head.split(key)[1].split("\n")[0] != heads[0].split(key)[1].split("\n")[0]:
                raise SystemExit(f"train_hands: {p}: its {key[:-1]} is not {paths[0]}'s")
    text = f"{heads[0]}ntrees: {sum(counts)}{TREES_KEY}" + "\n".join(bodies) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0) if out.name.endswith(".gz")
                    else text.encode("utf-8"))
    return sum(counts)


@dataclass(frozen=True)
class _Pool:
    """Pools a new forest's share of votes with a kept forest's (``--keep``), by their trees."""

    kept: np.ndarray | None  # (N,) the kept forest's share for every blob
    kept_trees: int
    new_trees: int

    def __call__(self, share: np.ndarray, rows: np.ndarray) -> np.ndarray:
        if self.kept is None:
            return share
        n = self.kept_trees + self.new_trees
        return (self.kept[rows] * self.kept_trees + share * self.new_trees) / n


def _pooling(keep: Path | None, x: np.ndarray, trees: int) -> _Pool:
    if keep is None:
        return _Pool(None, 0, trees)
    rt = cv2.ml.RTrees_load(str(keep))
    return _Pool(scores(rt, np.ascontiguousarray(x)), tree_count(keep), trees)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--cells-out", type=Path, default=None,
                    help="the cell forest's file (which cells of a hand's blob are the hand); "
                         "none: no cell forest is trained")
    ap.add_argument("--trees", type=int, default=80)
    ap.add_argument("--cell-trees", type=int, default=16)
    ap.add_argument("--cell-threshold", type=float, default=0.5)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--threshold", type=float, default=0.4,
                    help="least share of votes of a hand (the judge's min_score)")
    ap.add_argument("--rules-threshold", type=float, default=0.25,
                    help="a blob the hand-set rules call a hand stays one from this share of "
                         "votes (the judge's rules_min_score; the 'as_used' figures)")
    ap.add_argument("--without", nargs="*", default=(), choices=FEATURES, metavar="FEATURE",
                    help="features left out (their column made constant): what each brings")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="a model to measure on the same frames (one that never saw them: its "
                         "figures beside the folds'); a model of fewer features reads the first "
                         "ones (features are only ever added at the end)")
    ap.add_argument("--keep", type=Path, default=None,
                    help="a forest whose trees the judge keeps beside the new ones (one forest, "
                         "votes pooled; what it learnt from frames no longer at hand stays); "
                         "it must never have seen these frames: the folds' figures pool its "
                         "votes with each fold's forest")
    ap.add_argument("--open-cells", type=int, default=None,
                    help="ForeignConfig.open_cells of the blobs taught (default: the "
                         "detector's); the judge must then be used with the same")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    parts = [dict(np.load(p)) for p in args.data]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    cfg = ForeignConfig()
    if args.open_cells is not None:
        cfg = replace(cfg, open_cells=args.open_cells)
    blobs, truth = gather(data, cfg)
    for name in args.without:
        blobs.x[:, FEATURES.index(name)] = 0.0
    seeds, family = data["seed"], data["table_family"]
    print(f"# {len(seeds)} frames ({int(truth.sum())} with a hand), {len(blobs.y)} blobs "
          f"({int(np.sum(blobs.y == 1))} hands, {int(np.sum(blobs.y < 0))} beside a hand)")
    report: dict[str, object] = {
        "trained_seeds": f"{int(seeds.min())}:{int(seeds.max()) + 1}",
        "frames": len(seeds), "blobs": len(blobs.y),
        "threshold": args.threshold, "trees": args.trees, "depth": args.depth,
        "features": [f for f in FEATURES if f not in args.without],
        "open_cells": cfg.open_cells,
    }
    allf = np.arange(len(seeds))
    # the hand-set rules, on the blobs of the score threshold they were set with
    old, _ = gather(data, replace(cfg, threshold=OLD_THRESHOLD, from_border=False))
    report["old_rules"] = frame_figures(old.rule, old, truth, allf)
    # folds of the seeds: each frame judged by a forest that never saw it
    fold = (seeds - seeds.min()) % args.folds
    pool = _pooling(args.keep, blobs.x, args.trees)
    if args.keep is not None:
        report["kept"] = {"model": args.keep.name, "trees": pool.kept_trees}
    held = np.zeros(len(blobs.y))
    for k in range(args.folds):
        test = fold[blobs.frame] == k
        tr = ~test & (blobs.y >= 0)
        rt = forest(blobs.x[tr], blobs.y[tr], args.trees, args.depth, args.seed)
        held[test] = pool(scores(rt, blobs.x[test]), test)
    report["folds"] = frame_figures(held >= args.threshold, blobs, truth, allf)
    as_used = (held >= args.threshold) | ((held >= args.rules_threshold) & blobs.rule)
    report["as_used"] = {"rules_threshold": args.rules_threshold,
                         **frame_figures(as_used, blobs, truth, allf)}
    # the rules kept only for blobs that cross the border once (an arm; a stripe, a plank or a
    # sheet's edge runs border to border): what they add to the trees, measured
    once = blobs.x[:, FEATURES.index("border_runs")] <= 1
    report["as_used_once"] = {
        "rules_threshold": args.rules_threshold,
        **frame_figures((held >= args.threshold) | ((held >= args.rules_threshold)
                                                     & blobs.rule & once), blobs, truth, allf)}
    # ... and only for blobs from the border coloured near the table but not the table's own
    # chroma in shade (HandConfig.rules_max_chroma_z, rules_min_chroma_z): as the detector uses it
    may = overrulable(HandConfig(), blobs.x) & once
    report["as_used_overrulable"] = {
        "rules_threshold": args.rules_threshold,
        **frame_figures((held >= args.threshold) | ((held >= args.rules_threshold)
                                                     & blobs.rule & may), blobs, truth, allf)}
    s0 = None
    if args.baseline is not None:
        base = cv2.ml.RTrees_load(str(args.baseline))
        s0 = scores(base, np.ascontiguousarray(blobs.x[:, :base.getVarCount()]))
        report["baseline"] = {
            "model": args.baseline.name,
            "alone": frame_figures(s0 >= args.threshold, blobs, truth, allf),
            "as_used": frame_figures((s0 >= args.threshold) | (
                (s0 >= args.rules_threshold) & blobs.rule), blobs, truth, allf),
            "as_used_overrulable": frame_figures((s0 >= args.threshold) | (
                (s0 >= args.rules_threshold) & blobs.rule & may), blobs, truth, allf)}
    # the hand's cells: a forest on the cells of the hand blobs, by the same folds
    cell_held = np.zeros(len(blobs.cell_y))
    cell_fold = fold[blobs.frame[blobs.cell_blob]]
    known = blobs.cell_y >= 0
    for k in range(args.folds):
        test = cell_fold == k
        rt = forest(blobs.cell_x[~test & known], blobs.cell_y[~test & known], args.cell_trees,
                    args.depth, args.seed)
        cell_held[test] = scores(rt, blobs.cell_x[test])
    report["hug"] = hug_figures(held >= args.threshold, cell_held, blobs, args.cell_threshold)
    report["folds_by_threshold"] = {
        f"{t:.2f}": frame_figures(held >= t, blobs, truth, allf)
        for t in (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)}
    per_family: dict[str, object] = {}
    for fam in sorted(set(family.tolist())):
        frames = np.flatnonzero(family == fam)
        out = family[blobs.frame] == fam
        tr = ~out & (blobs.y >= 0)
        rt = forest(blobs.x[tr], blobs.y[tr], args.trees, args.depth, args.seed)
        s = np.zeros(len(blobs.y))
        s[out] = pool(scores(rt, blobs.x[out]), out)
        per_family[fam] = {"left_out": frame_figures(out & (s >= args.threshold), blobs, truth,
                                                     frames),
                           "left_out_as_used": frame_figures(out & (
                               (s >= args.threshold) | ((s >= args.rules_threshold) & blobs.rule
                                                        & may)), blobs, truth, frames),
                           "folds": frame_figures(held >= args.threshold, blobs, truth,
                                                  frames),
                           "old_rules": frame_figures(old.rule, old, truth, frames)}
        if s0 is not None:  # the baseline never saw these frames: its figures beside
            per_family[fam]["baseline_as_used"] = frame_figures(out & (
                (s0 >= args.threshold) | ((s0 >= args.rules_threshold) & blobs.rule & may)),
                blobs, truth, frames)
    report["leave_one_family_out"] = per_family
    # per light and clutter, the folds' figures (a blind's stripes, glare, pages, a mug)
    for key in ("light", "clutter"):
        report[f"folds_by_{key}"] = {
            v: frame_figures(held >= args.threshold, blobs, truth, np.flatnonzero(data[key] == v))
            for v in sorted(set(data[key].tolist()))}
    tr = blobs.y >= 0
    rt = forest(blobs.x[tr], blobs.y[tr], args.trees, args.depth, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.keep is None:
        rt.save(str(args.out))
    else:
        new = args.out.with_name(args.out.name + ".new.yml.gz")
        rt.save(str(new))
        merge_forests([args.keep, new], args.out)
        new.unlink()
    if args.cells_out is not None:
        rt = forest(blobs.cell_x[known], blobs.cell_y[known], args.cell_trees, args.depth,
                    args.seed)
        rt.save(str(args.cells_out))
    side = args.out.with_name(args.out.name.split(".")[0] + ".json")
    side.write_text(json.dumps(report, indent=1) + "\n")
    shown = ("old_rules", "folds", "as_used", "as_used_once", "as_used_overrulable", "baseline",
             "hug")
    print(json.dumps({k: report[k] for k in shown if k in report}))
    for t, v in report["folds_by_threshold"].items():  # type: ignore[attr-defined]
        print(t, v)
    for fam, v in per_family.items():
        print(fam, v)  # type: ignore[index]
    for key in ("light", "clutter"):
        for v, fig in report[f"folds_by_{key}"].items():  # type: ignore[attr-defined]
            print(key, v, fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
