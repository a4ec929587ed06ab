"""Accuracy of vision on the development scenes and on freshly rendered scenes.

Run by hand: ``.venv/bin/python bench/bench_vision_accuracy.py [--render N] [--seed S]``.
Prints per-scene lines (``# ...``) and then each figure as a ``name=value`` line, for the
devscenes (``dev_*``) and the renderer's scenes (``render_*``, layouts, light, camera pose,
noise and blur drawn from seeds never used while developing), and rendered scenes with a hand
reaching over the table (``render_hand_*``: ``render_hand_hand_accuracy`` is the share of them
flagged, each frame judged alone), and rendered Worm Up! and Jungle tables (``render_games_*``,
``--games``, seeds from ``--seed`` + 1000) read by a detector asked for those games' kinds:
Worm Up! segments (precision, recall, colour accuracy, centre error) and Jungle's marker tokens
(precision, recall, id accuracy, centre error), also per condition (``game`` among them);
``--segment-tables K``: K Worm Up! tables on each cloth or felt of a segment's own colour
(``render_segtables_*``, per table and light).

Every figure is also printed per condition (``<prefix>_<condition>_<value>_<figure>``: the
table, its family, the light, clutter, a worm through a gap, a hand), and the learned namer's
figures are reported on render seeds that took no part in its training (``--seed``, default
90000; training uses seeds below 50000, see ``training/README.md``).

Matching: each true piece is paired with the nearest unpaired detection of its kind within a
tolerance (coins 8 mm, tiles 20 mm, posts 12 mm, segments 8 mm, tokens 10 mm); precision and
recall count those pairs. Only
pieces that are not occluded count as truth; detections of a hidden piece are not false.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.model import Calibration, Lens  # noqa: E402
from tabletop.pieceset import PieceSet  # noqa: E402
from tabletop.scene import Piece, Scene  # noqa: E402
from vision import Detector, DetectorConfig  # noqa: E402
from vision.centre_proposals import CentreProposalConfig  # noqa: E402
from vision.centres import CentresConfig  # noqa: E402
from vision.namer import NamerConfig  # noqa: E402
from vision.post_judge import PostJudgeConfig  # noqa: E402
from vision.posts import PostConfig  # noqa: E402
from vision.proposals import ProposalConfig  # noqa: E402

DEVSCENES = ROOT.parent / "shared" / "devscenes"
TOLERANCE_MM = {"coin": 8.0, "tile": 20.0, "post": 12.0}
KINDS = ("coin", "tile", "post")


@dataclass
class Tally:
    """Counts and errors accumulated over scenes."""

    truth: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    found: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    paired: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    spurious: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    errors_mm: list[float] = field(default_factory=list)
    kind_errors_mm: dict[str, list[float]] = field(
        default_factory=lambda: {k: [] for k in KINDS})
    suit_ok: int = 0
    suit_n: int = 0
    face_ok: int = 0
    face_n: int = 0
    angle_err: list[float] = field(default_factory=list)
    hand_ok: int = 0
    frames: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for k in KINDS:
            for name in ("truth", "found", "paired", "spurious"):
                getattr(self, name)[k] += getattr(other, name)[k]
        self.errors_mm += other.errors_mm
        for k in KINDS:
            self.kind_errors_mm[k] += other.kind_errors_mm[k]
        self.angle_err += other.angle_err
        for name in ("suit_ok", "suit_n", "face_ok", "face_n", "hand_ok", "frames"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms += other.ms

    def figures(self, prefix: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for k in KINDS:
            det = self.paired[k] + self.spurious[k]
            out[f"{prefix}_{k}_precision"] = self.paired[k] / det if det else 1.0
            out[f"{prefix}_{k}_recall"] = self.paired[k] / self.truth[k] if self.truth[k] else 1.0
        out[f"{prefix}_suit_accuracy"] = self.suit_ok / self.suit_n if self.suit_n else 1.0
        out[f"{prefix}_tile_face_accuracy"] = self.face_ok / self.face_n if self.face_n else 1.0
        e = np.array(self.errors_mm) if self.errors_mm else np.zeros(1)
        out[f"{prefix}_centre_error_mean_mm"] = float(e.mean())
        out[f"{prefix}_centre_error_p95_mm"] = float(np.percentile(e, 95))
        for k in KINDS:
            ek = np.array(self.kind_errors_mm[k]) if self.kind_errors_mm[k] else np.zeros(1)
            out[f"{prefix}_{k}_centre_error_mean_mm"] = float(ek.mean())
            out[f"{prefix}_{k}_centre_error_p95_mm"] = float(np.percentile(ek, 95))
        a = np.array(self.angle_err) if self.angle_err else np.zeros(1)
        out[f"{prefix}_tile_angle_error_max_deg"] = float(a.max())
        within = float(np.mean(a <= 1.0)) if self.angle_err else 1.0
        out[f"{prefix}_tile_angle_within_1deg"] = within
        out[f"{prefix}_hand_accuracy"] = self.hand_ok / self.frames if self.frames else 1.0
        out[f"{prefix}_ms_per_frame"] = float(np.mean(self.ms)) if self.ms else 0.0
        return out


@dataclass(frozen=True)
class Case:
    """One image to read, with its truth and the conditions it shows."""

    name: str
    image: np.ndarray
    calibration: Calibration
    truth: list[dict]
    hand: bool
    conditions: dict[str, str]
    kinds: tuple[str, ...] = ("tile", "coin", "post")


CONDITIONS = ("table", "table_family", "light", "clutter", "gap_worm", "hand")

DEV_FAMILY = {"oak": "wood", "oak_varnish": "wood", "walnut": "wood", "pine": "wood",
              "felt": "felt", "linen": "cloth", "bluecloth": "cloth", "laminate": "laminate"}


def devscene_conditions(d: dict) -> dict[str, str]:
    """A devscene's conditions, from its notes and truth."""
    notes = d.get("notes", "")
    table = re.search(r"table=([^;]+)", notes)
    light = re.search(r"light=([^;]+)", notes)
    t = table.group(1).strip() if table else "unknown"
    lt = light.group(1).strip().split(" ")[0] if light else "unknown"
    dis = sorted({x.get("what", "?") for x in d.get("distractors", [])})
    return {"table": t.replace(" ", "-"), "table_family": DEV_FAMILY.get(t, "other"),
            "light": lt, "clutter": "-".join(dis) if dis else "none",
            "gap_worm": "yes" if d.get("gaps") else "no",
            "hand": "yes" if d.get("hand") else "no"}


def angle_diff(a: float, b: float) -> float:
    """Distance of two tile angles modulo 90 degrees."""
    d = (a - b) % 90.0
    return min(d, 90.0 - d)


def score(scene: Scene, truth: list[dict], hand_truth: bool, ms: float) -> Tally:
    """Compares a detected scene with the true pieces (dicts: kind, x, y, suit, face, ...)."""
    t = Tally(frames=1, ms=[ms])
    t.hand_ok = int(scene.hand == hand_truth)
    for kind in KINDS:
        det = [p for p in scene.pieces if p.kind == kind]
        tru = [p for p in truth if p["kind"] == kind]
        vis = [p for p in tru if not p.get("occluded")]
        t.truth[kind] += len(vis)
        pairs = nearest_pairs(np.array([[p.x_mm, p.y_mm] for p in det], float).reshape(-1, 2),
                              np.array([[p["x"], p["y"]] for p in tru], float).reshape(-1, 2),
                              TOLERANCE_MM[kind])
        paired_d = {i for i, _, _ in pairs}
        for i, j, d in pairs:
            p, q = det[i], tru[j]
            if q.get("occluded"):
                continue
            t.paired[kind] += 1
            t.errors_mm.append(d)
            t.kind_errors_mm[kind].append(d)
            if kind == "coin" or (kind == "tile" and q.get("face") == "up"):
                t.suit_n += 1
                t.suit_ok += int(p.suit == q.get("suit"))
            if kind == "tile":
                t.face_n += 1
                t.face_ok += int(p.face == q.get("face"))
                t.angle_err.append(angle_diff(p.angle_deg or 0.0, float(q["angle_deg"]) % 90))
        t.found[kind] += len(det)
        t.spurious[kind] += len(det) - len(paired_d)
    return t


EXTRA_TOLERANCE_MM = {"segment": 8.0, "token": 10.0}
"""Matching tolerance of Worm Up! segments and marker tokens."""

EXTRA_ATTRIBUTE = {"segment": ("color", "colour"), "token": ("id", "id")}
"""What each of them is named by: (its field in the truth and the scene, its figure's name)."""

EXTRA_CONDITIONS = (*CONDITIONS, "game")

SEEN_FROM = {"segment": 0.95}
"""Least visible share of a rendered piece that counts as truth, where less than all of it:
touching domes hide slivers of one another from a tilted camera (the renderer's ``occluded``
flag); any other kind counts only when wholly in view, as in :func:`render_cases`."""


def hidden(kind: str, visible_fraction: float, occluded: bool) -> bool:
    """Whether a rendered piece is left out of the truth (see :data:`SEEN_FROM`)."""
    return occluded or visible_fraction < SEEN_FROM.get(kind, 1.0)


@dataclass
class KindTally:
    """Counts and errors of the segments and tokens over scenes (kinds no scene shows and no
    detector reported print no figure)."""

    truth: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EXTRA_TOLERANCE_MM, 0))
    paired: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EXTRA_TOLERANCE_MM, 0))
    spurious: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(EXTRA_TOLERANCE_MM, 0))
    named_ok: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(EXTRA_TOLERANCE_MM, 0))
    errors_mm: dict[str, list[float]] = field(
        default_factory=lambda: {k: [] for k in EXTRA_TOLERANCE_MM})

    def add(self, other: KindTally) -> None:
        for k in EXTRA_TOLERANCE_MM:
            for name in ("truth", "paired", "spurious", "named_ok"):
                getattr(self, name)[k] += getattr(other, name)[k]
            self.errors_mm[k] += other.errors_mm[k]

    def figures(self, prefix: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for k, (_, label) in EXTRA_ATTRIBUTE.items():
            det = self.paired[k] + self.spurious[k]
            if not det and not self.truth[k]:
                continue
            out[f"{prefix}_{k}_precision"] = self.paired[k] / det if det else 1.0
            out[f"{prefix}_{k}_recall"] = self.paired[k] / self.truth[k] if self.truth[k] else 1.0
            out[f"{prefix}_{k}_{label}_accuracy"] = (self.named_ok[k] / self.paired[k]
                                                     if self.paired[k] else 1.0)
            e = np.array(self.errors_mm[k]) if self.errors_mm[k] else np.zeros(1)
            out[f"{prefix}_{k}_centre_error_mean_mm"] = float(e.mean())
            out[f"{prefix}_{k}_centre_error_p95_mm"] = float(np.percentile(e, 95))
            out[f"{prefix}_{k}_truth_count"] = float(self.truth[k])
        return out


def nearest_pairs(det_xy: np.ndarray, tru_xy: np.ndarray, tol_mm: float,
                  ) -> list[tuple[int, int, float]]:
    """Pairs (detection, truth, distance mm), nearest first, each used once, within tol."""
    if not len(det_xy) or not len(tru_xy):
        return []
    D = np.linalg.norm(det_xy[:, None] - tru_xy[None], axis=2)
    used_d, used_t = set(), set()
    out = []
    for flat in np.argsort(D, axis=None):
        i, j = np.unravel_index(flat, D.shape)
        if D[i, j] > tol_mm:
            break
        if i in used_d or j in used_t:
            continue
        used_d.add(i)
        used_t.add(j)
        out.append((int(i), int(j), float(D[i, j])))
    return out


def score_extra(scene: Scene, truth: list[dict]) -> KindTally:
    """Segments and tokens of a detected scene against the truth, as :func:`score` does the
    others: precision, recall, the colour or id of each pair, its centre's error."""
    t = KindTally()
    for kind, tol in EXTRA_TOLERANCE_MM.items():
        field_name = EXTRA_ATTRIBUTE[kind][0]
        det = [p for p in scene.pieces if p.kind == kind]
        tru = [p for p in truth if p["kind"] == kind]
        t.truth[kind] += sum(1 for p in tru if not p.get("occluded"))
        pairs = nearest_pairs(np.array([[p.x_mm, p.y_mm] for p in det], float).reshape(-1, 2),
                              np.array([[p["x"], p["y"]] for p in tru], float).reshape(-1, 2),
                              tol)
        for i, j, d in pairs:
            q = tru[j]
            if q.get("occluded"):
                continue
            t.paired[kind] += 1
            t.errors_mm[kind].append(d)
            t.named_ok[kind] += int(getattr(det[i], field_name) == q.get(field_name))
        t.spurious[kind] += len(det) - len(pairs)
    return t


def game_cases(n: int, seed: int, games: tuple[str, ...] = ("worm-up", "jungle")
               ) -> list[Case]:
    """``n`` rendered scenes of the variety laying the games' own pieces in turn (Worm Up!
    segments, Jungle tokens: ``tabletop.render.variety.draw_game_case``), each read by a
    detector asked for that game's kinds (``DetectorConfig.for_game``)."""
    from tabletop.render.variety import draw_game_case
    from vision.detector import GAME_KINDS

    out = []
    for k in range(n):
        game = games[k % len(games)]
        case = draw_game_case(seed + k, game)
        r = case.render()
        truth = [{**p.to_json(), "occluded": hidden(p.kind, tr.visible_fraction, tr.occluded)}
                 for p, tr in zip(r.scene.pieces, r.truth, strict=True)]
        out.append(Case(case.name, r.image, r.calibration(), truth, bool(r.hand_mask.any()),
                        dict(case.conditions), GAME_KINDS[game]))
    return out


SEGMENT_TABLES = ("felt-blue", "felt-green", "felt-red", "felt-black", "cloth-blue",
                  "cloth-green", "cloth-red", "cloth-black", "gingham-red", "gingham-blue")
"""Tables of a segment's own colour (or none at all), where segments are hardest to see."""


def segment_table_cases(per_table: int, seed: int, tables: tuple[str, ...] = SEGMENT_TABLES
                        ) -> list[Case]:
    """Worm Up! tables (as :func:`game_cases`) with the table pinned to each of ``tables`` in
    turn, ``per_table`` each (seeds from ``seed``; the light drawn)."""
    from tabletop.render.variety import draw_game_case
    from vision.detector import GAME_KINDS

    out = []
    for k in range(per_table * len(tables)):
        case = draw_game_case(seed + k, "worm-up", table=tables[k % len(tables)])
        r = case.render()
        truth = [{**p.to_json(), "occluded": hidden(p.kind, tr.visible_fraction, tr.occluded)}
                 for p, tr in zip(r.scene.pieces, r.truth, strict=True)]
        out.append(Case(case.name, r.image, r.calibration(), truth, bool(r.hand_mask.any()),
                        dict(case.conditions), GAME_KINDS["worm-up"]))
    return out


def devscene_cases(folder: Path = DEVSCENES) -> list[Case]:
    """The devscenes, calibrated from their points as a user would (lens when distorted)."""
    out = []
    for js in sorted(folder.glob("*.json")):
        d = json.loads(js.read_text())
        img = cv2.imread(str(js.with_suffix(".jpg")))
        px = np.array([p["pixel"] for p in d["calibration_points"]], float)
        world = np.array([p["world"] for p in d["calibration_points"]], float)
        lens = None
        cam = d["camera"]
        if cam.get("dist") is not None:
            lens = Lens((d["width"], d["height"]), cam["K"], cam["dist"])
            px = lens.undistort_points(px)
        H, _ = cv2.findHomography(px, world)
        cal = Calibration((d["width"], d["height"]), H, lens)
        out.append(Case(js.stem, img, cal, d["pieces"], bool(d.get("hand")),
                         devscene_conditions(d)))
    return out


def random_scene(rng: np.random.Generator, n_pieces: int = 30) -> Scene:
    """A layout like a game's: worms of touching coins, tiles (some edge to edge), posts."""
    ps = PieceSet()
    suits = ("suns", "moons", "crowns", "arms")
    pieces: list[Piece] = []

    def free(x: float, y: float, r: float) -> bool:
        for p in pieces:
            rr = {"coin": ps.coin_radius_mm, "tile": ps.tile_mm * 0.75, "post": 6.0}[p.kind]
            if math.hypot(p.x_mm - x, p.y_mm - y) < r + rr + 1.0:
                return False
        return abs(x) < 380 and abs(y) < 230

    tries = 0
    while len(pieces) < n_pieces and tries < 2000:
        tries += 1
        roll = rng.random()
        x, y = rng.uniform(-380, 380), rng.uniform(-230, 230)
        if roll < 0.25:  # a tile, or two edge to edge
            ang = float(rng.uniform(0, 90))
            face = "up" if rng.random() < 0.5 else "down"
            suit = str(rng.choice(suits)) if face == "up" else None
            if not free(x, y, ps.tile_mm * 0.75):
                continue
            pieces.append(Piece.tile(x, y, ang, face, suit))
            if rng.random() < 0.4:
                a = math.radians(ang)
                x2, y2 = x + ps.tile_mm * math.cos(a), y + ps.tile_mm * math.sin(a)
                if free(x2, y2, ps.tile_mm * 0.75):
                    pieces.append(Piece.tile(x2, y2, ang, "down", None))
        elif roll < 0.35:
            if free(x, y, 6.0):
                pieces.append(Piece("post", x, y))
        else:  # a worm of 1-6 touching coins
            n = int(rng.integers(1, 7))
            suit = str(rng.choice(suits))
            heading = rng.uniform(0, 2 * math.pi)
            cx, cy = x, y
            for _ in range(n):
                if not free(cx, cy, ps.coin_radius_mm):
                    break
                pieces.append(Piece("coin", cx, cy, suit=suit))
                heading += rng.uniform(-0.7, 0.7)
                step = ps.coin_diameter_mm + 0.05
                cx, cy = cx + step * math.cos(heading), cy + step * math.sin(heading)
    return Scene(tuple(pieces[:n_pieces]))


def render_cases(n: int, seed: int, hand: bool = False, family: str | None = None,
                 table: str | None = None) -> list[Case]:
    """``n`` scenes of the renderer's variety (``tabletop.render.variety``: table, light,
    clutter, camera, layout drawn from each seed; ``hand``: a hand reaches over each);
    ``family``: only those of the seeds whose table is of that family; ``table``: every
    scene on that table kind (``variety.TABLE_KINDS``), the rest drawn as usual."""
    from tabletop.render.variety import draw_case

    out = []
    for k in range(n):
        case = draw_case(seed + k, hand=hand, table=table)
        if family is not None and case.conditions["table_family"] != family:
            continue
        r = case.render()
        truth = [{**p.to_json(), "occluded": bool(tr.occluded or tr.visible_fraction < 1)}
                 for p, tr in zip(r.scene.pieces, r.truth, strict=True)]
        out.append(Case(case.name, r.image, r.calibration(), truth, bool(r.hand_mask.any()),
                        dict(case.conditions)))
    return out


DEVSCENE_PIECES = PieceSet(coin_thickness_mm=3.0, tile_thickness_mm=5.0, post_height_mm=35.0)
"""The devscenes' set, as its README and truth give it (thinner coins, 35 mm posts)."""


def run(cases: list[Case], prefix: str, pieces: PieceSet | None = None, verbose: bool = True,
        per_condition: bool = True, namer: NamerConfig | None = None,
        centres: CentreProposalConfig | None = None,
        proposals: ProposalConfig | None = None, posts: PostConfig | None = None
        ) -> dict[str, float]:
    """Detects every case; prints per-scene lines, the figures per condition and in total
    (``posts``: the post stage's configuration, e.g. a judge trained without a family)."""
    total = Tally()
    by: dict[tuple[str, str], Tally] = defaultdict(Tally)
    extra_total = KindTally()
    extra_by: dict[tuple[str, str], KindTally] = defaultdict(KindTally)
    for case in cases:
        det = Detector(case.calibration, pieces,
                       config=DetectorConfig(kinds=case.kinds, namer=namer,
                                             centres=centres, proposals=proposals,
                                             posts=posts or PostConfig()))
        res = det.detect(case.image)
        t = score(res.scene, case.truth, case.hand, res.timings_ms["total"])
        total.add(t)
        extra = score_extra(res.scene, case.truth)
        extra_total.add(extra)
        for c in EXTRA_CONDITIONS:
            extra_by[(c, case.conditions.get(c, "unknown"))].add(extra)
        for c in CONDITIONS:
            by[(c, case.conditions.get(c, "unknown"))].add(t)
        if verbose:
            f = t.figures("s")
            print(f"# {case.name} ({' '.join(case.conditions.get(c, '?') for c in CONDITIONS)}): "
                  + " ".join(f"{k[2:]}={v:.3f}" for k, v in f.items()
                             if not k.endswith("ms_per_frame"))
                  + "".join(f" {k[2:]}={v:.3f}" for k, v in extra.figures("s").items()))
    if per_condition:
        for (c, v), t in sorted(by.items()):
            for k, val in t.figures(f"{prefix}_{c}_{v}").items():
                if k.endswith(SHOWN_PER_CONDITION):
                    print(f"{k}={val:.4f}")
    if per_condition:
        for (c, v), et in sorted(extra_by.items()):
            for k, val in et.figures(f"{prefix}_{c}_{v}").items():
                print(f"{k}={val:.4f}")
    figs = total.figures(prefix)
    figs.update(extra_total.figures(prefix))
    for k, v in figs.items():
        print(f"{k}={v:.4f}")
    return figs


SHOWN_PER_CONDITION = ("coin_precision", "coin_recall", "tile_precision", "tile_recall",
                       "post_precision", "post_recall", "suit_accuracy", "tile_face_accuracy",
                       "coin_centre_error_mean_mm", "coin_centre_error_p95_mm",
                       "post_centre_error_mean_mm", "tile_angle_within_1deg")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--render", type=int, default=12, help="rendered scenes (0: none)")
    ap.add_argument("--seed", type=int, default=90000,
                    help="first seed of the rendered scenes (the namer trains below 50000)")
    ap.add_argument("--hands", type=int, default=6,
                    help="rendered scenes with a hand over the table (0: none), figures "
                         "render_hand_* (each frame judged alone)")
    ap.add_argument("--no-dev", action="store_true", help="skip the devscenes")
    ap.add_argument("--no-namer", action="store_true",
                    help="the hand-made stages alone (no learned namer)")
    ap.add_argument("--model", default=None, help="namer weights (default: the committed ones)")
    ap.add_argument("--devscenes", type=Path, default=DEVSCENES,
                    help="the devscenes' folder (from a worktree: ../../shared/devscenes)")
    ap.add_argument("--family", default=None,
                    help="only the rendered scenes whose table is of this family (e.g. the "
                         "one a held-out model never saw)")
    ap.add_argument("--proposals", action="store_true",
                    help="also the proposals from the unexplained bright mask (off by default: "
                         "the centre net finds what they found)")
    ap.add_argument("--no-centres", action="store_true",
                    help="no learned centre net (the masks alone find candidates)")
    ap.add_argument("--centres-model", default=None,
                    help="centre net weights (default: the committed ones), e.g. one trained "
                         "without a table family")
    ap.add_argument("--games", type=int, default=6,
                    help="rendered scenes of Worm Up! (segments) and Jungle (tokens) in turn, "
                         "from seed + 1000 (0: none), figures render_games_*")
    ap.add_argument("--posts-model", type=Path, default=None,
                    help="the post judge's forest (default: the committed one), e.g. one "
                         "trained without a table family (training/train_posts.py --without)")
    ap.add_argument("--segment-tables", type=int, default=0,
                    help="Worm Up! scenes per table of a segment's own colour (SEGMENT_TABLES), "
                         "from seed + 2000, figures render_segtables_* (0: none)")
    args = ap.parse_args(argv)
    proposals = ProposalConfig() if args.proposals else None
    posts = PostConfig(judge=PostJudgeConfig(model=args.posts_model)) if args.posts_model \
        else None
    centres = None if args.no_centres else CentreProposalConfig(
        finder=CentresConfig(model=Path(args.centres_model)) if args.centres_model
        else CentresConfig())
    namer = None if args.no_namer else (
        NamerConfig(model=Path(args.model)) if args.model else NamerConfig())
    if not args.no_dev and args.devscenes.is_dir():
        run(devscene_cases(args.devscenes), "dev", DEVSCENE_PIECES, namer=namer, centres=centres,
            proposals=proposals, posts=posts)
    if args.render > 0 or args.games > 0 or args.segment_tables > 0:
        try:
            import tabletop.render  # noqa: F401
        except ImportError:
            print("# tabletop.render is not there; no rendered scenes")
            return 0
    if args.render > 0:
        run(render_cases(args.render, args.seed, family=args.family), "render", namer=namer,
            centres=centres, proposals=proposals, posts=posts)
        if args.hands > 0:
            run(render_cases(args.hands, args.seed + 500, hand=True), "render_hand",
                namer=namer, centres=centres, proposals=proposals, posts=posts)
    if args.games > 0:  # the games' scenes are their own figures, with --render 0 too
        run(game_cases(args.games, args.seed + 1000), "render_games", namer=namer,
            centres=centres, proposals=proposals, posts=posts)
    if args.segment_tables > 0:
        run(segment_table_cases(args.segment_tables, args.seed + 2000), "render_segtables",
            namer=namer, centres=centres, proposals=proposals, posts=posts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
