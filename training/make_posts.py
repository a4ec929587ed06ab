"""Training data for the post judge: every post candidate of rendered tables, labelled by the
renderer's truth.

    .venv/bin/python training/make_posts.py --seeds 62000:62300 -o training/data/posts.npz

Each seed is a table of the renderer's variety (``tabletop.render.variety.draw_case``: every
table kind, light and clutter; posts laid more often than in a game, ``--post-weight``). Its
frame goes through the detector's own stages as :class:`vision.Detector` runs them, and every
place the post stage would judge is a candidate: the dark mask's readings under the loose gates
(:meth:`vision.posts.PostConfig.proposing`) and, at each of the centre net's post peaks at
least ``--least`` hot, both feet read there (:func:`vision.post_candidates.feet_near`). Each
candidate's features (:mod:`vision.post_features`) are labelled 1 when a post in full view
stands within ``--hit-mm`` of its foot, 0 when no post at all stands within ``--miss-mm``
(between the two, or by a half-hidden post: left out). The file holds ``x`` (N, F), ``y``
(N,), ``seed``, ``family`` (the table's family), ``light``, ``source`` (0 mask, 1 net),
``heat`` (the peak's heat; 1 for the mask's) and, per true post in full view, whether a
candidate of each source found it (``truth_*``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tabletop.render.render import Rendered
from tabletop.render.variety import draw_case, draw_game_case
from vision import Detector, DetectorConfig
from vision.centres import Peaks, heat_peaks, heat_to_view_px
from vision.coins import detect_coins
from vision.post_candidates import (
    PostCandidateConfig,
    contrast_starts,
    from_tops,
    local_level,
    peak_starts,
    read_starts,
)
from vision.post_contrast import PostContrastConfig, contrast_peaks
from vision.post_features import N_FEATURES, post_features
from vision.post_level import for_posts, post_channels
from vision.post_tops import top_places
from vision.posts import detect_posts
from vision.prepare import prepare
from vision.proposals import explained_mask
from vision.tiles import detect_tiles
from vision.topview import halve


def seed_range(text: str) -> range:
    """``A:B`` -> range(A, B)."""
    a, b = text.split(":")
    return range(int(a), int(b))


HARD_CLUTTER: tuple[str, ...] = ("mug", "phone", "mixed", "dice", "notebook", "grid", "pencil")
"""Clutter a post judge must learn to refuse: a mug's dark rim, a phone's dark slab, dice, a
pencil; and a printed grid, whose lines run through a post's outline."""

HARD_LIGHTS: tuple[str, ...] = ("hard", "hard", "window", "blind", "dim-warm", "three-lamps")
"""Lights whose shadows a post judge must learn to refuse: a hard lamp's long shadows (drawn
twice as often), a window's, a blind's stripes, three lamps' three shadows; a dim room's
noise."""


DARK_TABLES: tuple[str, ...] = ("felt-black", "cloth-black", "dark-wood", "walnut",
                                "felt-green", "felt-blue", "cloth-blue", "slate",
                                "gingham-black", "dark-wood", "cloth-black")
"""Tables nearly as dark as a post, where it is read in the unlikeness (:mod:`vision.
post_level`) or barely darker than the table."""


def hard_pins(seed: int, share: float, dark: float | None = None) -> dict[str, str]:
    """``draw_case`` keywords pinning a hard clutter and / or light for ``share`` of the seeds,
    and a dark table for ``dark`` of them (None: half ``share``), each drawn from the seed
    alone, so a run is repeatable.

    >>> hard_pins(5, 0.0)
    {}
    >>> sorted(hard_pins(5, 1.0))
    ['clutter', 'light']
    >>> sorted(hard_pins(5, 1.0, dark=1.0))
    ['clutter', 'light', 'table']
    """
    rng = np.random.default_rng([seed, 7177])
    out: dict[str, str] = {}
    if rng.uniform() < share:
        out["clutter"] = str(rng.choice(HARD_CLUTTER))
    if rng.uniform() < share:
        out["light"] = str(rng.choice(HARD_LIGHTS))
    if rng.uniform() < (share / 2 if dark is None else dark):
        out["table"] = str(rng.choice(DARK_TABLES))
    return out


UNLIKE_TABLES: tuple[str, ...] = ("felt-black", "cloth-black", "dark-wood")
"""Tables whose posts are read in the unlikeness (:func:`vision.post_level.dark_table`: the
table's own brightness under 48 of 255), for the dark judge's rows (walnut under three lamps
and a black gingham, whose white checks lift its median, are read in the plain level)."""


def pinned_table(seed: int, tables: list[str]) -> str:
    """The table of ``tables`` a seed is pinned to: in turn by the seed, so a run of
    consecutive seeds lays each alike often.

    >>> [pinned_table(s, ["a", "b", "c"]) for s in (9, 10, 11)]
    ['a', 'b', 'c']
    """
    return tables[seed % len(tables)]


def true_posts(render) -> tuple[np.ndarray, np.ndarray]:
    """The true posts' feet (mm, N x 2) of a render: those wholly in view, and those hidden or
    partly out of view (neither taught nor counted)."""
    pairs = [(p.centre_mm, not tr.occluded and tr.visible_fraction >= 1.0)
             for p, tr in zip(render.scene.pieces, render.truth, strict=True) if p.kind == "post"]
    shown = np.array([c for c, whole in pairs if whole]).reshape(-1, 2)
    hidden = np.array([c for c, whole in pairs if not whole]).reshape(-1, 2)
    return shown, hidden


def labels(feet_mm: np.ndarray, shown: np.ndarray, hidden: np.ndarray, hit_mm: float,
           miss_mm: float) -> np.ndarray:
    """1 (a post), 0 (none), -1 (left out) for each candidate foot (N, 2)."""
    out = np.full(len(feet_mm), -1, np.int32)
    for i, f in enumerate(feet_mm):
        d_shown = min((math.dist(f, t) for t in shown), default=math.inf)
        d_hidden = min((math.dist(f, t) for t in hidden), default=math.inf)
        if d_shown <= hit_mm and d_shown <= d_hidden:
            out[i] = 1
        elif min(d_shown, d_hidden) > miss_mm:
            out[i] = 0
    return out


def candidates(image: np.ndarray, calibration, least: float,
               kinds: tuple[str, ...] | None = None
               ) -> list[tuple[np.ndarray, np.ndarray, int, float]]:
    """``(features, feet_mm, source, heat)`` of the post candidates of one frame, as the
    detector would judge them (source 0: the dark mask, 1: the centre net, 2: the places
    standing out of their surroundings, :mod:`vision.post_contrast`; 3: a lit top on a dark
    table, :mod:`vision.post_tops`); ``kinds``: the kinds
    the detector is asked for (None: all; a game's own, ``vision.detector.GAME_KINDS``)."""
    base = DetectorConfig() if kinds is None else DetectorConfig(kinds=kinds)
    det = Detector(calibration, config=replace(base, posts=replace(base.posts, judge=None)))
    cfg = det.config
    posts = cfg.posts
    half = halve(image)
    prep = prepare(cfg.prepare, det.view, image, det._valid, half_bgr=half)
    _, tmask = detect_tiles(cfg.tiles, prep)
    explained = tmask.copy()
    coins = detect_coins(cfg.coins, prep, explained)
    s = det.view.px_per_mm
    r = round((cfg.coins.radius_mm + 1.5) * s)
    for c in det.view.to_px(coins.seen_mm):
        cv2.circle(explained, (round(c[0]), round(c[1])), r, 255, -1)
    out = []
    tprep = prep
    prep = for_posts(prep, posts.level)  # on a dark table: how unlike the table
    channels = post_channels(tprep, posts.level)  # None: the unlikeness
    unlike = channels is None
    mask = detect_posts(posts.proposing(), prep, explained, tmask)
    if len(mask):
        feet_px = det.view.to_px(mask.centre_mm)
        out.append((post_features(posts, prep.level, det.view, feet_px, explained,
                                  tprep.level if unlike else None),
                    mask.centre_mm, 0, 1.0))
    # the net's peaks where the full detector (no judge) found no post
    dets = det.detect(image).detections
    assert det.centres is not None and cfg.centres is not None and cfg.centres.posts
    pc: PostCandidateConfig = replace(cfg.centres.posts, least=least)
    heat = det.centres.heat(image, half)
    pts, score = heat_peaks(heat[2], least)
    if not len(pts):
        return out
    peaks = Peaks(det.centres.view.to_mm(heat_to_view_px(pts)), np.asarray(score, float))
    others = dets[dets.kind != "post"]
    against = explained_mask(prep, others, cfg.coins.radius_mm, cfg.tiles.side_mm,
                             cfg.centres.margin_mm)
    starts, _ = peak_starts(peaks, prep, others, against, posts, pc)
    net = len(starts)
    if pc.contrast is not None:  # the places standing out (vision/post_contrast.py)
        assert det.centres.last_input is not None
        starts += contrast_starts(contrast_peaks(det.centres.last_input, det.centres.view,
                                                 pc.contrast), prep, others, against, posts,
                                  pc, list(starts))
    above: list[np.ndarray] = []  # below a lit top, on a dark table (vision/post_tops.py)
    if pc.tops is not None and unlike:
        above = contrast_starts(top_places(pc.tops, det.centres.last_input, det.centres.view,
                                           posts.radius_mm, posts.height_mm),
                                prep, others, against, posts,
                                replace(pc, contrast=replace(
                                    pc.contrast or PostContrastConfig(), min_z=pc.tops.min_z,
                                    max_each=pc.tops.max_places)), [])
    if not starts and not above:
        return out
    everywhere = np.array(starts + above)
    level = local_level(prep, image, everywhere, pc.window_mm * s, unlike,
                        channels or (0, 1, 2))
    plain = local_level(tprep, image, everywhere, pc.window_mm * s) if unlike else None
    heat_of = {tuple(np.round(det.view.to_px(m[None])[0], 3)): h
               for m, h in zip(peaks.centre_mm, peaks.score, strict=True)}
    lit = level if plain is None else plain
    level, reads, _ = read_starts(posts, level, det.view, starts, pc.reach_mm * s, against, pc)
    reads, starts = reads + [None] * len(above), starts + above
    topped = [False] * len(reads)
    if pc.tops is not None and unlike:
        reads, topped = from_tops(pc.tops, posts, lit, det.view, starts, reads,
                                  pc.reach_mm * s, against)
    for i, (px, got) in enumerate(zip(starts, reads, strict=True)):
        if got is None:
            continue
        feet = got[0][:1] if topped[i] else got[0]
        feet_mm = det.view.to_mm(feet)
        out.append((post_features(posts, level, det.view, feet, against, plain), feet_mm,
                    3 if topped[i] else 1 if i < net else 2,
                    float(heat_of.get(tuple(np.round(px, 3)), 0.0))))
    return out


BENCH_CYCLE = 60
"""In ``--mix bench``, seeds are drawn as the accuracy bench draws its scenes, by the seed's
place in a cycle of this many: 40 plain tables, 8 with a hand, 12 game tables (Worm Up! and
Jungle in turn; a Jungle table, read without posts, gives no candidate and is skipped)."""


def bench_draw(seed: int, cache: Path | None = None
               ) -> tuple[Rendered, dict[str, str], tuple[str, ...] | None] | None:
    """A seed drawn as ``bench/bench_vision_accuracy.py`` draws its scenes (:data:`BENCH_CYCLE`):
    the render, its conditions and the kinds the detector is asked for (None: all); None for a
    Jungle table. A plain table is read from ``cache`` when it holds it
    (:func:`training.post_cases.rendered`, the file ``post_thresholds.py`` reads)."""
    from training.post_cases import rendered
    from vision.detector import GAME_KINDS

    k = seed % BENCH_CYCLE
    if k < 40:
        r = rendered(seed, cache)
        return r, dict(r.conditions or {}), None
    if k < 48:
        case = draw_case(seed, hand=True)
        return case.render(), dict(case.conditions), None
    if (k - 48) % 2:
        return None
    case = draw_game_case(seed, "worm-up")
    return case.render(), dict(case.conditions), GAME_KINDS["worm-up"]


def save(path: Path, cols: dict[str, list[np.ndarray]],
         truth: dict[str, list[np.ndarray]]) -> None:
    """Writes the candidates and the truth gathered so far."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part.npz")  # a run stopped while saving keeps the last
    np.savez_compressed(
        part, x=np.concatenate(cols["x"]) if cols["x"] else np.zeros((0, N_FEATURES)),
        **{k: np.concatenate(v) if v else np.zeros(0) for k, v in cols.items() if k != "x"},
        **{k: np.concatenate(v) for k, v in truth.items()})
    part.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--hit-mm", type=float, default=4.0)
    ap.add_argument("--miss-mm", type=float, default=10.0)
    ap.add_argument("--least", type=float, default=0.1, help="least heat of a net peak")
    ap.add_argument("--post-weight", type=float, default=0.3,
                    help="how often a group of posts is laid (the usual mix: 0.1)")
    ap.add_argument("--hard-share", type=float, default=0.0,
                    help="share of the seeds whose clutter or light is pinned to one that makes "
                         "posts hard to judge (:data:`HARD_CLUTTER`, :data:`HARD_LIGHTS`)")
    ap.add_argument("--dark-share", type=float, default=None,
                    help="share of the seeds whose table is pinned to a dark one "
                         "(:data:`DARK_TABLES`; default: half --hard-share)")
    ap.add_argument("--tables", default=None, metavar="K1,K2,...",
                    help="pin every seed's table to one of these kinds, in turn by the seed "
                         "(e.g. the tables read in the unlikeness, for the dark judge: "
                         ":data:`UNLIKE_TABLES`)")
    ap.add_argument("--mix", choices=("posts", "bench"), default="posts",
                    help="posts: the variety with posts laid --post-weight often and hard cases "
                         "pinned; bench: drawn as the accuracy bench draws (plain tables, hands, "
                         "Worm Up! tables: :func:`bench_draw`)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="with --mix bench: keep the plain tables' renders in this folder "
                         "(training/post_cases.py), for post_thresholds.py")
    args = ap.parse_args(argv)
    cols: dict[str, list[np.ndarray]] = {k: [] for k in (
        "x", "y", "seed", "family", "light", "source", "heat", "dist")}
    truth: dict[str, list[np.ndarray]] = {k: [] for k in (
        "truth_seed", "truth_family", "truth_light", "truth_mask", "truth_net",
        "truth_contrast", "truth_top")}
    t0 = time.perf_counter()
    for seed in args.seeds:
        kinds = None
        if args.mix == "bench":
            drawn = bench_draw(seed, args.cache)
            if drawn is None:
                continue
            r, conditions, kinds = drawn
        else:
            pins = hard_pins(seed, args.hard_share, args.dark_share)
            if args.tables:
                pins["table"] = pinned_table(seed, args.tables.split(","))
            case = draw_case(seed, weights={"post": args.post_weight}, **pins)
            r, conditions = case.render(), dict(case.conditions)
        shown, hidden = true_posts(r)
        found = {k: np.zeros(len(shown), bool) for k in (0, 1, 2, 3)}
        n_pos = n_neg = 0
        for feats, feet, source, heat in candidates(r.image, r.calibration(), args.least, kinds):
            y = labels(feet, shown, hidden, args.hit_mm, args.miss_mm)
            for f in feet:
                if len(shown):
                    d = np.hypot(*(shown - f).T)
                    found[source] |= d <= args.hit_mm
            n = len(y)
            cols["x"].append(feats)
            cols["y"].append(y)
            cols["seed"].append(np.full(n, seed))
            cols["family"].append(np.full(n, conditions["table_family"]))
            cols["light"].append(np.full(n, conditions["light"]))
            cols["source"].append(np.full(n, source))
            cols["heat"].append(np.full(n, heat))
            d_all = np.array([min((math.dist(f, t) for t in np.r_[shown, hidden]),
                                  default=math.inf) for f in feet])
            cols["dist"].append(d_all)
            n_pos += int((y == 1).sum())
            n_neg += int((y == 0).sum())
        truth["truth_seed"].append(np.full(len(shown), seed))
        truth["truth_family"].append(np.full(len(shown), conditions["table_family"]))
        truth["truth_light"].append(np.full(len(shown), conditions["light"]))
        truth["truth_mask"].append(found[0])
        truth["truth_net"].append(found[1])
        truth["truth_contrast"].append(found[2])
        truth["truth_top"].append(found[3])
        print(f"# {seed} {conditions['table']} {conditions['light']}: "
              f"{len(shown)} posts, found mask {int(found[0].sum())} net {int(found[1].sum())} "
              f"contrast {int(found[2].sum())} top {int(found[3].sum())}"
              f"; candidates {n_pos} posts, {n_neg} others ({time.perf_counter() - t0:.0f} s)",
              flush=True)
        save(args.out, cols, truth)  # after every seed: a run cut short keeps what it made
    return 0


if __name__ == "__main__":
    sys.exit(main())
