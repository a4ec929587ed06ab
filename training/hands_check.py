"""How a hand judge reads frames it never saw, exactly as the detector decides (the judge, the
hand-set rules beside it): per table, family, light and clutter, and each frame it gets wrong.

    .venv/bin/python training/hands_check.py /tmp/hands_held.npz --samples /tmp/samples.npz \
        --model vision/models/hands.yml.gz

The frames are ``make_hands.py``'s files (a frame shows a hand when the renderer drew any of it,
as ``bench/bench_vision_accuracy.py`` counts) and, with ``--samples``, the sample playthrough's
frames (``sample_images/worm_derby``, each alone, its pieces found by the detector the test
uses: a tan hand on oak among them); their maps are recorded once into that file when it is
not there.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.model import Calibration
from training.make_hands import _Recorder, _Seen
from vision.detector import DetectorConfig
from vision.hand_features import blob_features, candidate_blobs, foreign_cells
from vision.hand_judge import judge_for
from vision.hand_maps import HandMaps
from vision.hands import HandConfig, hands_of_maps

SAMPLE = Path(__file__).resolve().parents[1] / "sample_images" / "worm_derby"

KEYS = ("table", "table_family", "light", "clutter")


def record_samples(out: Path) -> None:
    """The sample playthrough's frames as the hand cue sees each alone, into ``out``."""
    truth = [json.loads(line) for line in (SAMPLE / "truth.jsonl").read_text().splitlines()]
    cal = Calibration.load(SAMPLE / "calibration.json")
    det = _Recorder(cal, config=DetectorConfig.for_game("worm-derby", memory=None))
    rows: dict[str, list] = defaultdict(list)
    for k, t in enumerate(truth):
        try:
            det.detect(cv2.imread(str(SAMPLE / t["frame"])))
        except _Seen as seen:
            m = seen.maps
        else:  # pragma: no cover - the recorder always stops at the watch
            raise SystemExit("hands_check: the hand cue was never reached")
        for key, v in (("seed", k), ("small", m.small), ("grain", m.grain), ("use", m.use),
                       ("cell_mm2", m.cell_mm2), ("pieces", m.pieces), ("hand", bool(t["hand"])),
                       ("table", "sample"), ("table_family", "sample"), ("light", "sample"),
                       ("clutter", "sample")):
            rows[key].append(v)
    np.savez_compressed(out, **{k: np.array(v) for k, v in rows.items()})


def maps_of(data: dict[str, np.ndarray], k: int) -> HandMaps:
    pieces = data["pieces"][k].astype(bool) if "pieces" in data else None
    return HandMaps(data["small"][k], data["grain"][k].astype(np.float32),
                    data["use"][k].astype(bool), data["cell_mm2"][k].astype(np.float32), pieces)


def top_score(cfg: HandConfig, maps: HandMaps) -> float:
    """The judge's highest share of votes among the frame's blobs (0: none)."""
    assert cfg.judge is not None
    fg = foreign_cells(cfg.foreign, maps)
    if fg is None:
        return 0.0
    labels, ids = candidate_blobs(cfg.foreign, maps, fg)
    if not ids:
        return 0.0
    feats = np.array([blob_features(maps, fg, labels == i) for i in ids])
    return float(judge_for(cfg.judge).scores(feats).max())


def check(cfg: HandConfig, data: dict[str, np.ndarray], name: str, quiet: bool) -> dict:
    """Prints each wrong frame and the figures per condition; returns the totals."""
    n = len(data["seed"])
    truth = data["hand"].astype(bool)
    flag = np.zeros(n, bool)
    for k in range(n):
        maps = maps_of(data, k)
        flag[k] = hands_of_maps(cfg, maps)[0]
        if flag[k] != truth[k] and not quiet:
            print(f"#  {name} {int(data['seed'][k])} {' '.join(str(data[c][k]) for c in KEYS)} "
                  f"hand={truth[k]} read={flag[k]} top={top_score(cfg, maps):.2f}")
    for key in KEYS:
        for v in sorted(set(data[key].tolist())):
            on = data[key] == v
            free = on & ~truth
            print(f"# {name} {key}={v}: frames={int(on.sum())} "
                  f"right={np.mean(flag[on] == truth[on]):.3f} "
                  f"false_hands={int(np.sum(flag & free))}/{int(free.sum())} "
                  f"missed={int(np.sum(~flag & on & truth))}/{int(np.sum(on & truth))}")
    free = ~truth
    out = {"frames": n, "right": float(np.mean(flag == truth)),
           "hand_free_right": float(np.mean(~flag[free])) if free.any() else 1.0,
           "false_hands": int(np.sum(flag & free)), "hand_free": int(free.sum()),
           "missed": int(np.sum(~flag & truth)), "hands": int(truth.sum())}
    for k, v in out.items():
        print(f"{name}_{k}={v:.3f}" if isinstance(v, float) else f"{name}_{k}={v}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="*", type=Path, help="make_hands.py's files")
    ap.add_argument("--samples", type=Path, default=None,
                    help="the sample playthrough's maps (recorded there when missing)")
    ap.add_argument("--model", type=Path, default=None, help="the judge (default: committed)")
    ap.add_argument("--min-score", type=float, default=None, help="the judge's min_score")
    ap.add_argument("--rules-min-score", type=float, default=None,
                    help="the judge's rules_min_score (negative: no hand-set rules)")
    ap.add_argument("--open-cells", type=int, default=None,
                    help="ForeignConfig.open_cells (default: the detector's)")
    ap.add_argument("--no-sheet-test", action="store_true",
                    help="without the sheet test (HandConfig.sheet, vision/hand_sheets.py)")
    ap.add_argument("--no-edge-test", action="store_true",
                    help="without the edge test (HandConfig.edge, vision/hand_edges.py)")
    ap.add_argument("--no-root-test", action="store_true",
                    help="without the root test (HandConfig.root, vision/hand_roots.py)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no line per wrong frame")
    args = ap.parse_args(argv)
    cfg = HandConfig()
    assert cfg.judge is not None
    judge = cfg.judge
    if args.model is not None:
        judge = replace(judge, model=args.model)
    if args.min_score is not None:
        judge = replace(judge, min_score=args.min_score)
    if args.rules_min_score is not None:
        judge = replace(judge, rules_min_score=None if args.rules_min_score < 0
                        else args.rules_min_score)
    cfg = replace(cfg, judge=judge)
    if args.open_cells is not None:
        cfg = replace(cfg, foreign=replace(cfg.foreign, open_cells=args.open_cells))
    if args.no_sheet_test:
        cfg = replace(cfg, sheet=None)
    if args.no_edge_test:
        cfg = replace(cfg, edge=None)
    if args.no_root_test:
        cfg = replace(cfg, root=None)
    cv2.setNumThreads(1)
    if args.data:
        parts = [dict(np.load(p)) for p in args.data]
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "pieces"}
        check(cfg, data, "renders", args.quiet)
    if args.samples is not None:
        if not args.samples.is_file():
            record_samples(args.samples)
        check(cfg, dict(np.load(args.samples)), "samples", args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
