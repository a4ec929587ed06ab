"""Coin face patches with their true suits, for measuring how suits are read.

Each render (``tabletop.render.variety.draw_case(seed)``: table, light, clutter, camera and
layout drawn from the seed) gives, for every coin wholly in view (face up, or lying value up:
its suit ``"none"``, nothing to read), a patch of the
raw frame around its top face (:func:`vision.coin_faces.face_patches`: 20 mm a side, through
the calibration and lens) at the place the camera sees its top: where the renderer put it, and
(``--detect``) where the detector found it, with the suit the detector read there. The
patches are kept, so a way of reading them can change without rendering again;
``training/suit_figures.py`` measures ways of reading them.

Run: ``python training/make_suit_samples.py --seeds 60000:60150 -o training/data/suit_a.npz
[--detect] [--coins-only] [--table felt-black,slate --light dim-warm,blind]`` (pinned kinds:
each seed on one of the tables and lights, in turn). The suit reading was chosen on seeds
60,000-60,999 only; its figures on others are ``bench/bench_vision_accuracy.py``'s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabletop.pieceset import PieceSet  # noqa: E402
from tabletop.render.variety import draw_case  # noqa: E402
from tabletop.scene import Piece  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.coin_faces import PATCH_PX, face_patches  # noqa: E402
from vision.namer_classes import SUITS  # noqa: E402
from vision.topview import TopView  # noqa: E402

MATCH_MM = 6.0
"""A detected coin within this distance of a true one's foot is that coin."""


def _pairs(det_xy: np.ndarray, tru_xy: np.ndarray) -> dict[int, int]:
    """Truth index -> detection index, nearest first, each used once, within MATCH_MM."""
    out: dict[int, int] = {}
    if not len(det_xy) or not len(tru_xy):
        return out
    d = np.linalg.norm(det_xy[:, None] - tru_xy[None], axis=2)
    used: set[int] = set()
    for flat in np.argsort(d, axis=None):
        i, j = np.unravel_index(flat, d.shape)
        if d[i, j] > MATCH_MM:
            break
        if int(i) in used or int(j) in out:
            continue
        used.add(int(i))
        out[int(j)] = int(i)
    return out


def _true_suit(piece: Piece) -> str:
    """A coin's suit, or ``"none"`` for one lying value up (no suit to read)."""
    return "none" if piece.face == "down" else str(piece.suit)


def samples_of(seed: int, detect: bool, coins_only: bool = False, table: str | None = None,
               light: str | None = None) -> dict[str, list]:
    """The patches of one seed's render (see the module's docstring); ``coins_only``: a
    table of 30-80 coins and nothing else (the same tables, lights and clutter; many more
    coins a render); ``table``, ``light``: pinned (``variety.TABLE_KINDS``, ``LIGHT_KINDS``),
    the rest drawn as usual."""
    case = draw_case(seed, kinds=("coin",), n_pieces=30 + seed % 51, table=table,
                     light=light) if coins_only else draw_case(seed, table=table, light=light)
    r = case.render()
    cal = r.calibration()
    pieces = PieceSet()
    view = TopView(cal)
    coins = [(p, tr) for p, tr in zip(r.scene.pieces, r.truth, strict=True)
             if p.kind == "coin" and not tr.occluded and tr.visible_fraction >= 1
             and (p.suit in SUITS or p.face == "down")]
    out: dict[str, list] = {k: [] for k in ("patch", "suit", "detected", "read", "table",
                                             "family", "light", "seed")}
    if not coins:
        return out
    foot = np.array([[p.x_mm, p.y_mm] for p, _ in coins])
    seen = view.camera.seen_at(foot, pieces.coin_thickness_mm)
    rows: list[tuple[np.ndarray, str, bool, str]] = [
        (s, _true_suit(p), False, "") for s, (p, _) in zip(seen, coins, strict=True)]
    if detect:
        det = Detector(cal, pieces, config=DetectorConfig()).detect(r.image).detections
        dc = det[det.kind == "coin"]
        for j, i in _pairs(dc.centre_mm, foot).items():
            read = dc.suit[i]
            rows.append((dc.seen_mm[i], _true_suit(coins[j][0]), True,
                         "none" if read is None else str(read)))
    patches = face_patches(r.image, cal, np.array([s for s, _, _, _ in rows]))
    c = case.conditions
    for k, (_, suit, detected, read) in enumerate(rows):
        out["patch"].append(patches[k])
        out["suit"].append(suit)
        out["detected"].append(detected)
        out["read"].append(read)
        out["table"].append(c["table"])
        out["family"].append(c["table_family"])
        out["light"].append(c["light"])
        out["seed"].append(seed)
    return out


def devscene_samples(folder: Path) -> dict[str, list]:
    """The patches of the devscenes' coins wholly in view at their true places (for measuring
    a reading on inks the renderer never drew: as a whole, never one scene at a time)."""
    from bench.bench_vision_accuracy import DEVSCENE_PIECES, devscene_cases

    out: dict[str, list] = {k: [] for k in ("patch", "suit", "detected", "read", "table",
                                             "family", "light", "seed")}
    for case in devscene_cases(folder):
        coins = [p for p in case.truth if p["kind"] == "coin" and not p.get("occluded")
                 and p.get("visible_fraction", 1.0) >= 1 and p.get("suit") in SUITS]
        if not coins:
            continue
        view = TopView(case.calibration)
        foot = np.array([[p["x"], p["y"]] for p in coins], float)
        seen = view.camera.seen_at(foot, DEVSCENE_PIECES.coin_thickness_mm)
        patches = face_patches(case.image, case.calibration, seen)
        for k, p in enumerate(coins):
            out["patch"].append(patches[k])
            out["suit"].append(str(p["suit"]))
            out["detected"].append(False)
            out["read"].append("")
            out["table"].append(case.conditions["table"])
            out["family"].append(case.conditions.get("table_family", ""))
            out["light"].append(case.conditions["light"])
            out["seed"].append(-1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", help="A:B, the render seeds (B excluded)")
    ap.add_argument("--devscenes", type=Path, default=None,
                    help="the devscenes' folder instead of renders")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--detect", action="store_true",
                    help="also where the detector found each coin, with the suit it read")
    ap.add_argument("--coins-only", action="store_true",
                    help="tables of 30-80 coins alone (many coins a render)")
    ap.add_argument("--table", default=None,
                    help="table kinds, comma-separated: seed S is on the (S mod n)th")
    ap.add_argument("--light", default=None,
                    help="light kinds, comma-separated: seed S under the ((S div the number "
                         "of tables) mod n)th")
    args = ap.parse_args(argv)
    if args.devscenes is not None:
        allr = devscene_samples(args.devscenes)
        _save(args.out, allr)
        print(f"patches={len(allr['suit'])}")
        return 0
    if not args.seeds:
        ap.error("--seeds A:B or --devscenes DIR is needed")
    a, b = (int(v) for v in args.seeds.split(":"))
    allr: dict[str, list] = {}
    t0 = time.time()
    tables = args.table.split(",") if args.table else [None]
    lights = args.light.split(",") if args.light else [None]
    for seed in range(a, b):
        part = samples_of(seed, args.detect, args.coins_only, tables[seed % len(tables)],
                          lights[seed // len(tables) % len(lights)])
        for k, v in part.items():
            allr.setdefault(k, []).extend(v)
        if (seed - a) % 10 == 9:
            print(f"# {seed - a + 1} seeds, {len(allr['suit'])} patches, "
                  f"{time.time() - t0:.0f} s", flush=True)
            _save(args.out, allr)
    _save(args.out, allr)
    print(f"patches={len(allr['suit'])}")
    return 0


def _save(path: Path, rows: dict[str, list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path, patch=np.array(rows["patch"], np.uint8).reshape(-1, *_PATCH_SHAPE),
        **{k: np.array(v) for k, v in rows.items() if k != "patch"})


_PATCH_SHAPE = (PATCH_PX, PATCH_PX, 3)

if __name__ == "__main__":
    sys.exit(main())
