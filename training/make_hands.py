"""Renders the randomised tables and keeps what the one-frame hand cue sees of each: the hand
grid's maps (:class:`vision.hand_maps.HandMaps`) and, from the renderer's exact truth, how much
of each cell the hand and arm cover.

    .venv/bin/python training/make_hands.py --vary mild --all-hands --pairs --jobs 2 \
        --seeds 176000:176500 -o /tmp/hands_vary.npz

Every other seed has a hand over the table (``draw_case(seed, hand=...)``; ``--hand-every 3``:
every third; ``--all-hands``: every one), the rest are drawn as they come: tables of every
family, every light, clutter (pages, cards, a mug, a phone...). ``--pairs`` keeps each table
drawn with a hand twice, with it and without it (the same table, light, clutter and camera, read
by the same detector): as many hand-free frames as hands, for 1.6 times a seed's time, and the
judge sees what the hand alone changes. ``--vary`` draws more hard lights and arm-like clutter
and arms from every side, height and the view's edge (:func:`varied_case`).
The maps are those the detector makes (its hand-made stages and the namer find the pieces
first, as live), so ``training/train_hands.py`` can try blob features without rendering again.
About 9 s of one core a seed (a render 4.5 s, the detector's set-up 3 s, its reading 1.3 s;
with ``--pairs`` about 7 s a frame); ``--jobs N`` reads N seeds at once; the same seeds give the
same file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dataclasses import replace

from tabletop.render.variety import (
    CLUTTER_KINDS,
    FAMILIES,
    LIGHT_KINDS,
    TABLE_FAMILY,
    TABLE_KINDS,
    draw_case,
)
from vision.detector import Detector, DetectorConfig
from vision.hand_maps import HandMaps, hand_maps


class _Seen(Exception):
    """Stops a detection once the hand cue's inputs are known."""

    def __init__(self, maps: HandMaps) -> None:
        super().__init__("seen")
        self.maps = maps


class _Recorder(Detector):
    """A detector that keeps the hand cue's maps of its frame and goes no further."""

    def _watch(self, frame, explained, cells, tm):  # type: ignore[override]
        raise _Seen(hand_maps(self.hand_grid, frame, explained, self._valid, cells))


HARD_LIGHTS = ("blind", "window", "hard", "glare", "dim-warm")
"""Lights whose stripes, gradients and shadows a hand's judge must learn to pass over."""

HARD_CLUTTER = ("page", "grid", "notebook", "cards", "phone", "mug", "mixed")
"""Clutter that looks most like an arm or a hand to the one-frame cue."""


def varied_case(seed: int, hand: bool, arms: str = "wide"):  # type: ignore[no-untyped-def]
    """``draw_case(seed, hand=hand)`` with more of what the hand judge must tell apart, drawn
    from the seed alone: for about half the seeds a hard light (a blind's stripes, a window, a
    low lamp, glare, a dim room) and for about half clutter like an arm (pages, cards, a phone,
    a mug); tables of every family alike (patterned cloth as often as wood).

    ``arms``: ``"wide"``: the arm from any side of the table, its fingertips 20-150 mm over it;
    ``"mild"``: half the arms as a player's (from the camera's near side, fingertips 35 mm
    over the table, as ``draw_case`` draws them), the other half from any side, 20-90 mm over
    it. Either way, a quarter (wide) or a fifth (mild) of the hands aim near the view's edge
    (an arm partly in view)."""
    rng = np.random.default_rng([seed, 4747])
    fam = FAMILIES[int(rng.integers(len(FAMILIES)))]
    kinds = [k for k in TABLE_KINDS if TABLE_FAMILY[k] == fam]
    table = kinds[int(rng.integers(len(kinds)))]
    light = HARD_LIGHTS[int(rng.integers(len(HARD_LIGHTS)))] if rng.uniform() < 0.5 else None
    clutter = (HARD_CLUTTER[int(rng.integers(len(HARD_CLUTTER)))] if rng.uniform() < 0.5
               else None)
    assert clutter is None or clutter in CLUTTER_KINDS
    case = draw_case(seed, hand=hand, table=table, light=light, clutter=clutter)
    if not hand:
        return case
    if arms == "wide":
        from_deg: float | None = float(rng.uniform(0.0, 360.0))
        height = float(rng.uniform(20.0, 150.0))
        edge = 0.25
    elif rng.uniform() < 0.5:
        from_deg, height, edge = None, case.settings.hand_height_mm, 0.2
    else:
        from_deg, height, edge = float(rng.uniform(0.0, 360.0)), float(rng.uniform(20.0, 90.0)), 0.2
    target = None
    if rng.uniform() < edge:  # near the view's edge: the arm partly in view
        w, h = case.pose.image_size
        side = int(rng.integers(4))
        t = float(rng.uniform(0.1, 0.9))
        u, v = [(t * w, 0.05 * h), (t * w, 0.95 * h), (0.05 * w, t * h), (0.95 * w, t * h)][side]
        x, y = case.pose.pixels_to_table(np.array([u]), np.array([v]))
        if np.isfinite(x[0]) and np.isfinite(y[0]):
            target = (float(x[0]), float(y[0]))
    settings = replace(case.settings, hand_from_deg=from_deg, hand_height_mm=height,
                       hand_target_mm=target)
    return replace(case, settings=settings)


def pinned(seed: int, pins: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """``draw_case``'s pinned choices for one seed: of each list in ``pins`` (``table``,
    ``light``, ``clutter``) the one the seed's place in it picks (``seed % len``), so a run of
    seeds goes through every choice in turn and the same seed always draws the same.

    >>> pinned(7, {"clutter": ("mug", "notebook"), "light": ()})
    {'clutter': 'notebook'}
    """
    return {k: v[seed % len(v)] for k, v in pins.items() if v}


def record(seed: int, hand: bool, vary: str | None = None, pair: bool = False,
           pins: dict[str, tuple[str, ...]] | None = None) -> list[dict[str, object]]:
    """The maps of one rendered case and its truth (``vary``: :func:`varied_case`'s arms); with
    ``pair``, and a hand drawn, also the same case drawn without the hand (the same table, light,
    clutter and camera: what the hand alone changes), read by the same detector; ``pins``: the
    table, light or clutter pinned (:func:`pinned`; not with ``vary``)."""
    case = (varied_case(seed, hand, vary) if vary
            else draw_case(seed, hand=hand, **pinned(seed, pins or {})))
    cases = [case]
    if pair and case.settings.hand:
        cases.append(replace(case, settings=replace(case.settings, hand=False)))
    det = None
    rows = []
    for c in cases:
        r = c.render()
        if det is None:
            # the namer drops what the stages read that is no piece (a bright arm read as
            # tiles): the cue sees the table round the pieces kept, as live
            det = _Recorder(r.calibration(), config=DetectorConfig(
                kinds=("tile", "coin", "post"), memory=None, centres=None))
        rows.append(_row(seed, det, r, c))
    return rows


def _row(seed: int, det: _Recorder, r, case) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The hand cue's maps of one rendered frame ``r`` of ``case`` and its truth."""
    try:
        det.detect(r.image)
    except _Seen as seen:
        maps = seen.maps
    else:  # pragma: no cover - the recorder always stops at the watch
        raise SystemExit(f"make_hands: seed {seed}: the hand cue was never reached")
    sw, sh = det.hand_grid.size_wh
    cover = cv2.resize(r.hand_mask.astype(np.float32), (sw, sh), interpolation=cv2.INTER_AREA)
    return {"seed": seed, "small": maps.small, "grain": maps.grain, "use": maps.use,
            "cell_mm2": maps.cell_mm2, "cover": cover.astype(np.float16),
            "hand": bool(r.hand_mask.any()), **{k: str(v) for k, v in case.conditions.items()
                                                if k != "hand"}}


def save(rows: list[dict[str, object]], out: Path) -> None:
    """Writes the rows made so far (all of one grid size)."""
    shapes = {r["small"].shape for r in rows}  # type: ignore[union-attr]
    if len(shapes) != 1:
        raise SystemExit(f"make_hands: grids of several sizes {shapes}")
    out.parent.mkdir(parents=True, exist_ok=True)
    keys = ("seed", "small", "grain", "use", "cell_mm2", "cover", "hand", "table",
            "table_family", "light", "clutter")
    tmp = out.with_name(out.name + ".part.npz")
    np.savez_compressed(tmp, **{k: np.array([r[k] for r in rows]) for k in keys})
    tmp.replace(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="a:b, the seeds to render")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--all-hands", action="store_true",
                    help="a hand over every table (more hands to learn from; the blobs of "
                         "clutter, glare and stripes beside them are negatives all the same)")
    ap.add_argument("--hand-every", type=int, default=2,
                    help="a hand over every n-th seed's table (the seeds n-1, 2n-1, ...); the "
                         "others hand-free as draw_case draws them (3: two hand-free tables to "
                         "one hand, what the judge must learn to pass over)")
    ap.add_argument("--vary", choices=("wide", "mild"), default=None,
                    help="more hard lights, clutter, tables of every family and arms from every "
                         "side and height (varied_case: wide, or half the arms a player's)")
    ap.add_argument("--pairs", action="store_true",
                    help="each table drawn with a hand is also kept without it (the same "
                         "table, light, clutter and camera; about 1.6 times a seed's time for "
                         "two frames)")
    for name, kinds in (("table", TABLE_KINDS), ("light", LIGHT_KINDS),
                        ("clutter", CLUTTER_KINDS)):
        ap.add_argument(f"--{name}", default="",
                        help=f"pin the {name}: one or more of {', '.join(kinds)}, comma-separated "
                             "(seed by seed in turn; not with --vary)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="worker processes (each of one core); the file is the same")
    args = ap.parse_args(argv)
    if args.hand_every < 1:
        raise SystemExit(f"make_hands: --hand-every must be 1 or more, not {args.hand_every}")
    pins = {k: tuple(v for v in getattr(args, k).split(",") if v)
            for k in ("table", "light", "clutter")}
    known = {"table": TABLE_KINDS, "light": LIGHT_KINDS, "clutter": CLUTTER_KINDS}
    bad = [v for k, vs in pins.items() for v in vs if v not in known[k]]
    if bad:
        raise SystemExit(f"make_hands: unknown choices {bad}")
    if args.vary and any(pins.values()):
        raise SystemExit("make_hands: --table, --light, --clutter are not taken with --vary")
    a, b = (int(v) for v in args.seeds.split(":"))
    cv2.setNumThreads(1)
    jobs = [(seed, args.all_hands or seed % args.hand_every == args.hand_every - 1, args.vary,
             args.pairs, pins) for seed in range(a, b)]
    rows: list[dict[str, object]] = []
    with _pool(args.jobs) as pool:
        for k, made in enumerate(pool.imap(_record, jobs)):
            rows.extend(made)
            for row in made:
                print(f"# {row['seed']} {row['table']} {row['light']} {row['clutter']} "
                      f"hand={row['hand']}", flush=True)
            if (k + 1) % 5 == 0 or k == len(jobs) - 1:  # kept as it goes: a run cut short keeps
                save(rows, args.out)                    # what it made
    return 0


def _record(job: tuple[int, bool, str | None, bool, dict[str, tuple[str, ...]]]
            ) -> list[dict[str, object]]:
    cv2.setNumThreads(1)
    return record(*job)


class _Serial:
    """A pool of no workers (``--jobs 1``): the seeds in this process, in order."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn, items):  # type: ignore[no-untyped-def]
        return map(fn, items)


def _pool(jobs: int):  # type: ignore[no-untyped-def]
    if jobs <= 1:
        return _Serial()
    import multiprocessing

    return multiprocessing.get_context("fork").Pool(jobs)


if __name__ == "__main__":
    sys.exit(main())
