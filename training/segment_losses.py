"""Where Worm Up! segments are lost, stage by stage, on tables pinned by kind and light.

    .venv/bin/python training/segment_losses.py --seeds 144000:144006 \
        --tables felt-red,cloth-red,gingham-red --lights soft,hard

Each seed renders the trust bench's Worm Up! start (``bench/bench_trust.py``: three worms of
seven touching segments side by side, red, yellow and blue, four posts) with that bench's own
camera and looks (:func:`bench_trust._looks`, the table and light pinned), and reads it with the
detector asked for Worm Up!. For every segment in view it says at which stage it was lost:

- ``mask``: less than half of its disc passed the colour mask (:mod:`vision.segment_mask`);
- ``candidate``: no candidate disc within 4 mm (:func:`vision.segments.segment_candidates`);
- ``judge``: a candidate there, but the judge's votes under its threshold (or a surer
  neighbour took it);
- ``colour``: found, named another colour;
- ``found``: found with its colour.

And how many segments were read where none lies (``phantom``). Prints one line a case and the
totals per colour and stage as ``name=value`` lines.

``--game-seeds A:B`` reads instead the accuracy bench's Worm Up! game tables
(``tabletop.render.variety.draw_game_case``, table and light drawn from the seed; ``--tables``
pins the table of each seed in turn, as ``--segment-tables`` does there), the detector built as
that bench builds it, a segment found within its 8 mm. Each loss is printed with the table, the
light and whether the table is of the segment's own colour (``own``), and the totals are also
given per cause (``cause.<stage>.<own|other>.<light>``), so losses can be sorted by what lost
them rather than by scene::

    .venv/bin/python training/segment_losses.py --game-seeds 183000:183040
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tabletop.render import render_scene  # noqa: E402
from training.make_segments import candidate_stage  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.segment_judge import judge_for  # noqa: E402
from vision.segment_mask import segment_mask  # noqa: E402

HIT_MM = 4.0


def start_scene(rng: np.random.Generator):
    """The trust bench's Worm Up! start, its worms shifted and bent a little by ``rng``."""
    import bench_trust as bt

    seg = bt.SEG
    worms = {}
    for i, colour in enumerate(("red", "yellow", "blue")):
        x0 = 50.0 + 50.0 * i + float(rng.uniform(-8, 8))
        pts, heading = [], math.pi / 2
        p = np.array([x0, -(seg / 2 + 2.0) - seg * 6])
        for _ in range(7):
            pts.append((float(p[0]), float(p[1])))
            heading += math.radians(float(rng.uniform(-3, 3)))
            p = p + seg * np.array([math.cos(heading), math.sin(heading)])
        worms[colour] = pts
    return bt._up_scene(worms)


def stages(image: np.ndarray, calibration, domes: bool = True, model: Path | None = None
           ) -> dict[str, object]:
    """What each stage gave on one frame: mask, candidates (feet, mm), scores, reading
    (``domes`` False: without the candidates found by their outline; ``model``: the segment
    judge's forest, default the committed one)."""
    config = DetectorConfig.for_game("worm-up", memory=None)
    if model is not None:
        config = with_judge(config, model)
    if not domes:
        config = replace(config, segments=replace(config.segments, domes=None))
    det = Detector(calibration, config=config)
    cfg = det.config
    prep, cand, feats, feet = candidate_stage(det, image)
    score = judge_for(cfg.segments.judge).scores(feats) if len(feats) else np.zeros(0)
    mask = segment_mask(cfg.segments.mask, prep)
    reading = det.detect(image)
    return {"det": det, "prep": prep, "mask": mask, "cand_feet": feet, "score": score,
            "cand": cand, "reading": reading}


def lost_at(truth, st: dict[str, object], found_mm: float = HIT_MM) -> list[tuple[str, str]]:
    """(colour, stage) for each segment of ``truth`` (Pieces); a reading within ``found_mm``
    of it found it."""
    det, mask = st["det"], st["mask"]
    reading = st["reading"]
    segs = [p for p in reading.scene.pieces if p.kind == "segment"]
    feet, score = st["cand_feet"], st["score"]
    r = st["cand"].r_px
    out = []
    for p in truth:
        px = det.view.to_px(np.array([p.centre_mm]))[0]
        disc = np.zeros(mask.shape, np.uint8)
        cv2.circle(disc, (round(px[0]), round(px[1])), max(1, round(0.8 * r)), 255, -1)
        share = np.count_nonzero(mask[disc > 0]) / max(1, np.count_nonzero(disc))
        found = [q for q in segs if math.dist(q.centre_mm, p.centre_mm) <= found_mm]
        d = np.hypot(*(feet - np.array(p.centre_mm)).T) if len(feet) else np.zeros(0)
        if found:
            stage = "found" if any(q.color == p.color for q in found) else "colour"
        elif len(d) and d.min() <= HIT_MM:
            stage = f"judge({score[int(np.argmin(d))]:.2f})"
        elif share < 0.5:
            stage = f"mask({share:.2f})"
        else:
            stage = f"candidate({share:.2f})"
        out.append((p.color, stage))
    return out


def own_colour(table: str, colour: str) -> bool:
    """Whether a table (a kind's name, e.g. ``gingham-red``) is of a segment's colour.

    >>> own_colour("felt-red", "red"), own_colour("felt-green", "red"), own_colour("oak", "red")
    (True, False, False)
    """
    return table.rsplit("-", 1)[-1] == colour


def on_clutter(distractors, centre_mm: tuple[float, float], reach_mm: float = 25.0) -> str:
    """The kind of clutter (a case's ``distractors``: dicts with ``kind`` and ``centre_mm``)
    nearest a phantom within ``reach_mm`` of it, else ``table``.

    >>> on_clutter([{"kind": "dice", "centre_mm": [10.0, 0.0]}], (0.0, 0.0))
    'dice'
    >>> on_clutter([{"kind": "pencil", "centre_mm": [90.0, 0.0]}], (0.0, 0.0))
    'table'
    """
    near = [(math.dist(d["centre_mm"], centre_mm), d["kind"]) for d in distractors]
    near = [n for n in near if n[0] <= reach_mm]
    return min(near)[1] if near else "table"


def game_losses(seeds: range, tables: list[str], model: Path | None = None,
                baseline: Path | None = None) -> Counter[str]:
    """Reads the accuracy bench's Worm Up! game tables of ``seeds`` (each seed's table pinned
    to ``tables`` in turn, or drawn where ``tables`` is empty) and prints, for each, the lost
    and phantom segments by stage; returns the totals. ``model``: the segment judge's forest
    (default: the committed one); ``baseline``: the same frames read with that forest too,
    counted as ``baseline.found``, ``baseline.phantom``."""
    import bench_vision_accuracy as bva

    from tabletop.render.variety import draw_game_case
    from vision.detector import GAME_KINDS

    totals: Counter[str] = Counter()
    for k, seed in enumerate(seeds):
        kw = {"table": tables[k % len(tables)]} if tables else {}
        case = draw_game_case(seed, "worm-up", **kw)
        r = case.render()
        table, light = case.conditions["table"], case.conditions["light"]
        shown = [p for p, tr in zip(r.scene.pieces, r.truth, strict=True)
                 if p.kind == "segment" and not bva.hidden(p.kind, tr.visible_fraction,
                                                           tr.occluded)]
        config = DetectorConfig(kinds=GAME_KINDS["worm-up"], namer=bva.NamerConfig(),
                                centres=bva.CentreProposalConfig(finder=bva.CentresConfig()),
                                posts=bva.PostConfig())
        if model is not None:
            config = with_judge(config, model)
        det = Detector(r.calibration(), config=config)
        prep, cand, feats, feet = candidate_stage(det, r.image)
        score = judge_for(det.config.segments.judge).scores(feats) if len(feats) \
            else np.zeros(0)
        reading = det.detect(r.image)
        st = {"det": det, "mask": segment_mask(det.config.segments.mask, prep),
              "cand_feet": feet, "score": score, "cand": cand, "reading": reading}
        res = lost_at(shown, st, found_mm=bva.EXTRA_TOLERANCE_MM["segment"])
        segs = [q for q in reading.scene.pieces if q.kind == "segment"]
        truth = [t for t in r.scene.pieces if t.kind == "segment"]
        phantoms = [q for q in segs if all(math.dist(q.centre_mm, t.centre_mm) > 8.0
                                           for t in truth)]
        for (colour, stage), p in zip(res, shown, strict=True):
            name = stage.split("(")[0]
            totals[f"{colour}.{name}"] += 1
            if name != "found":
                own = "own" if own_colour(table, p.color) else "other"
                totals[f"cause.{name}.{own}.{light}"] += 1
                totals[f"cause.{name}.{own}"] += 1
                totals[f"cause.{name}"] += 1
        for q in phantoms:
            own = "own" if own_colour(table, q.color or "") else "other"
            totals[f"phantom.{own}.{light}"] += 1
            totals[f"phantom.on.{on_clutter(case.distractors, q.centre_mm)}"] += 1
            totals["phantom"] += 1
        totals["segments"] += len(res)
        if baseline is not None:
            old = Detector(r.calibration(), config=with_judge(config, baseline)).detect(r.image)
            old_segs = [q for q in old.scene.pieces if q.kind == "segment"]
            totals["baseline.found"] += sum(any(
                math.dist(q.centre_mm, p.centre_mm) <= bva.EXTRA_TOLERANCE_MM["segment"]
                and q.color == p.color for q in old_segs) for p in shown)
            totals["baseline.phantom"] += sum(all(
                math.dist(q.centre_mm, t.centre_mm) > 8.0 for t in truth) for q in old_segs)
        lost = [f"{c}:{s}" for c, s in res if s != "found"]
        print(f"# {case.name} {table} {light}: found {sum(s == 'found' for _, s in res)}/"
              f"{len(res)} phantom {len(phantoms)} {' '.join(lost)}"
              + "".join(f" phantom:{q.color}@({q.x_mm:.0f},{q.y_mm:.0f})" for q in phantoms),
              flush=True)
    return totals


def play_stills(seed: int, light: str | None = None, table: str | None = None,
                cache: Path | None = None):
    """The stills of the trust bench's Worm Up! playthrough of ``seed`` as that bench renders
    them (:func:`bench_trust.render`: its table and light, the light changed between rounds,
    the same noise seed), one frame each: yields ``(step, label, light change, render)``.
    ``cache``: a folder where each render is kept (``.npz``: image and truth) and read
    again instead of rendering."""
    import bench_trust as bt

    play = bt.worm_up(seed)
    base = bt._looks(seed, table, light)
    change: dict[str, float] = {}
    now = "-"
    n = 0
    for i, s in enumerate(play.steps):
        if i in play.light_at:
            change, now = dict(bt.LIGHTS[play.light_at[i]]), play.light_at[i]
        if isinstance(s, bt.Say):
            continue
        first = n + 1
        n += s.frames if isinstance(s, bt.Still) else 2
        if not isinstance(s, bt.Still):
            continue
        settings = replace(bt.relit(base, change), seed=seed * 1000 + first,
                           table_seed=base.texture_seed, hand=False, hand_target_mm=None,
                           hand_height_mm=25.0)
        yield i, s.label, now, _rendered(s.scene, play.pose, settings, cache,
                                         f"{seed}-{light}-{table}-{i}")


def _rendered(scene, pose, settings, cache: Path | None, name: str):
    """``render_scene`` of the trust bench's pieces, kept in (and read from) ``cache``."""
    import pickle

    import bench_trust as bt

    if cache is not None and (cache / f"{name}.pkl").exists():
        return pickle.loads((cache / f"{name}.pkl").read_bytes())
    r = render_scene(scene, pose, settings, bt.PIECES)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / f"{name}.pkl").write_bytes(pickle.dumps(r))
    return r


def play_losses(seeds: range, light: str | None, table: str | None,
                cache: Path | None, model: Path | None = None) -> Counter[str]:
    """Each still of the trust bench's Worm Up! playthroughs of ``seeds`` read without the
    last accepted table: each segment in view put at the stage that lost it (one line a
    still), totals by stage, colour and the light's change (``mid.<light>.<stage>``)."""
    totals: Counter[str] = Counter()
    for seed in seeds:
        for step, label, now, r in play_stills(seed, light, table, cache):
            st = stages(r.image, r.calibration(), model=model)
            shown = [p for p, tr in zip(r.scene.pieces, r.truth, strict=True)
                     if p.kind == "segment" and not tr.occluded
                     and tr.visible_fraction >= 0.95]
            res = lost_at(shown, st)
            segs = [q for q in st["reading"].scene.pieces if q.kind == "segment"]
            phantoms = [q for q in segs if all(math.dist(q.centre_mm, t.centre_mm) > 8.0
                                               for t in r.scene.pieces if t.kind == "segment")]
            by = Counter(f"{c}.{s.split('(')[0]}" for c, s in res)
            totals.update(by)
            for _, s in res:
                totals[f"light.{now}.{s.split('(')[0]}"] += 1
            totals["phantom"] += len(phantoms)
            lost = [f"{c}:{s}@({p.x_mm:.0f},{p.y_mm:.0f})"
                    for (c, s), p in zip(res, shown, strict=True) if s != "found"]
            print(f"# {seed} step {step:2d} {label!r} light {now}: found "
                  f"{by_total(by, 'found')}/{len(res)} phantom {len(phantoms)} "
                  f"{' '.join(lost)}"
                  + "".join(f" phantom:{q.color}@({q.x_mm:.0f},{q.y_mm:.0f})"
                            for q in phantoms), flush=True)
    return totals


def with_judge(config: DetectorConfig, model: Path) -> DetectorConfig:
    """``config`` with the segment judge's forest read from ``model``."""
    seg = config.segments
    return replace(config, segments=replace(seg, judge=replace(seg.judge, model=model)))


def main(argv: list[str] | None = None) -> int:
    import bench_trust as bt

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default=None, help="A:B (the trust bench's start)")
    ap.add_argument("--game-seeds", default=None,
                    help="A:B: the accuracy bench's Worm Up! game tables instead")
    ap.add_argument("--plays", default=None,
                    help="A:B: every still of the trust bench's Worm Up! playthroughs instead")
    ap.add_argument("--cache", type=Path, default=None,
                    help="with --plays: a folder where the renders are kept and read again")
    ap.add_argument("--tables", default="", help="comma-separated table kinds")
    ap.add_argument("--model", type=Path, default=None,
                    help="with --game-seeds or --plays: the segment judge's forest "
                         "(default: committed)")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="with --game-seeds: read each frame with this forest too")
    ap.add_argument("--lights", default="", help="comma-separated light kinds (default: drawn)")
    ap.add_argument("--save", type=Path, default=None, help="a folder for the frames")
    ap.add_argument("--no-domes", action="store_true",
                    help="without the candidates found by their outline (as before them)")
    args = ap.parse_args(argv)
    tables = [t for t in args.tables.split(",") if t]
    if args.plays:
        a, b = (int(v) for v in args.plays.split(":"))
        totals = play_losses(range(a, b), args.lights or None, args.tables or None, args.cache,
                             args.model)
        for k in sorted(totals):
            print(f"{k}={totals[k]}")
        return 0
    if args.game_seeds:
        a, b = (int(v) for v in args.game_seeds.split(":"))
        totals = game_losses(range(a, b), tables, args.model, args.baseline)
        for k in sorted(totals):
            print(f"{k}={totals[k]}")
        return 0
    if not args.seeds or not tables:
        ap.error("--seeds and --tables, or --game-seeds")
    a, b = (int(v) for v in args.seeds.split(":"))
    lights = [x for x in args.lights.split(",") if x] or [None]
    totals: Counter[str] = Counter()
    for seed in range(a, b):
        for table in tables:
            for light in lights:
                looks = bt._looks(seed, table, light)
                rng = np.random.default_rng(seed)
                scene = start_scene(rng)
                pose = bt.worm_up(seed).pose
                r = render_scene(scene, pose, looks, bt.PIECES)
                st = stages(r.image, r.calibration(), domes=not args.no_domes)
                shown = [p for p, tr in zip(r.scene.pieces, r.truth, strict=True)
                         if p.kind == "segment" and not tr.occluded
                         and tr.visible_fraction >= 0.95]
                res = lost_at(shown, st)
                segs = [q for q in st["reading"].scene.pieces if q.kind == "segment"]
                phantom = sum(all(math.dist(q.centre_mm, t.centre_mm) > 8.0
                                  for t in r.scene.pieces if t.kind == "segment") for q in segs)
                by = Counter(f"{c}.{s.split('(')[0]}" for c, s in res)
                totals.update(by)
                totals["phantom"] += phantom
                lost = [f"{c}:{s}" for c, s in res if s != "found"]
                print(f"# {seed} {table} {light or looks_name(looks)}: found "
                      f"{by_total(by, 'found')}/{len(res)} phantom {phantom} "
                      f"{' '.join(lost)}", flush=True)
                if args.save is not None:
                    args.save.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(args.save / f"{seed}-{table}-{light}.jpg"), r.image)
    for k in sorted(totals):
        print(f"{k}={totals[k]}")
    return 0


def by_total(by: Counter[str], stage: str) -> int:
    return sum(v for k, v in by.items() if k.endswith("." + stage))


def looks_name(looks) -> str:
    return "drawn"


if __name__ == "__main__":
    sys.exit(main())
