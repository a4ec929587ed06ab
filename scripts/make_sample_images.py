"""Makes ``sample_images/worm_derby/``: a short Worm Derby game rendered as webcam frames.

Run from the project root (deterministic: the same files every time)::

    .venv/bin/python scripts/make_sample_images.py [--out sample_images/worm_derby]

Two worms of five coins (suns, moons) start side by side, tails between two face-up start tiles
(203.2 mm apart, centre to centre), heading for a face-up pylon tile 500 mm away on the start
line's perpendicular bisector; three face-down tiles are obstacles. Five turns: each a roll, two
frames of a hand moving the worm, then two still frames of the new table. The fourth turn moves
one step too many (the referee must say ``steps``), then the player puts the extra coin back.

The world frame is the printed calibration mat's (origin at the sheet's top-left corner, x to
the right, y down, mm): the mat lies on the table at the left of the play area, so
``tabletop calibrate frames/000.jpg`` can find it, and ``calibration.json`` is the exact one.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabletop.pieceset import PieceSet  # noqa: E402
from tabletop.render import CameraPose, Decal, RenderSettings, render_scene  # noqa: E402
from tabletop.scene import Piece, Scene  # noqa: E402

PIECES = PieceSet()
D = PIECES.coin_diameter_mm
TILE = PIECES.tile_mm
JPEG_QUALITY = 85
TABLE_SEED = 11
LENGTH = 5

START_X = 330.0          # the start line, x = const
LANE_Y = 150.0           # the perpendicular bisector of the start tiles
START_TILES = (Piece.tile(START_X, LANE_Y - 2 * TILE, 0.0, "up", "crowns"),
               Piece.tile(START_X, LANE_Y + 2 * TILE, 0.0, "up", "arms"))
PYLON = Piece.tile(START_X + 500.0, LANE_Y, 0.0, "up", "suns")
OBSTACLES = (Piece.tile(565.0, 40.0, 25.0, "down"), Piece.tile(545.0, 262.0, 60.0, "down"),
             Piece.tile(615.0, 292.0, 35.0, "down"))
FIXED = (*START_TILES, PYLON, *OBSTACLES)

SETUP = {"type": "setup", "game": "worm-derby", "players": ["suns", "moons"],
         "options": {"variant": "basic", "cannibal": False,
                     "lengths": {"suns": LENGTH, "moons": LENGTH}}}


@dataclass(frozen=True)
class Turn:
    """One turn: who, the roll, the headings (degrees, table frame) of the steps taken."""

    player: str
    roll: int
    headings_deg: tuple[float, ...]
    correction: tuple[float, ...] | None = None  # the legal headings after an illegal move


TURNS = (
    Turn("suns", 4, (0.0, 0.0, -8.0, -16.0)),
    Turn("moons", 3, (0.0, 6.0, 12.0)),
    Turn("suns", 5, (-18.0, -12.0, -4.0, 2.0, 8.0)),
    Turn("moons", 2, (14.0, 14.0, 10.0), correction=(14.0, 14.0)),  # one step too many
    Turn("suns", 3, (12.0, 16.0, 16.0)),
)


@dataclass
class Table:
    """Both worms, head first (the head is the end nearest the pylon)."""

    worms: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    @classmethod
    def start(cls) -> Table:
        """Worms straight, perpendicular to the start line, tails on it, heads toward the pylon."""
        xs = [START_X + (LENGTH - 1 - i) * D for i in range(LENGTH)]
        return cls({"suns": [(x, LANE_Y - 28.0) for x in xs],
                    "moons": [(x, LANE_Y + 28.0) for x in xs]})

    def copy(self) -> Table:
        """An independent copy."""
        return Table({k: list(v) for k, v in self.worms.items()})

    def step(self, player: str, heading_deg: float) -> tuple[float, float]:
        """Moves the tail coin to touch the head along a heading; returns where it went."""
        worm = self.worms[player]
        head = worm[0]
        a = math.radians(heading_deg)
        new = (head[0] + D * math.cos(a), head[1] + D * math.sin(a))
        worm.pop()
        self.check_free(player, new)
        worm.insert(0, new)
        return new

    def check_free(self, player: str, p: tuple[float, float]) -> None:
        """Fails loudly if a coin at ``p`` would touch anything but its own head."""
        for name, worm in self.worms.items():
            for i, q in enumerate(worm):
                if name == player and i == 0:
                    continue
                if math.dist(p, q) < D + 2.0:
                    raise SystemExit(f"{player}: a coin at {p} touches {name}'s coin {i}")
        for t in FIXED:
            if _coin_tile_distance(p, t) < D / 2 + 3.0:
                raise SystemExit(f"{player}: a coin at {p} is too near a tile at {t.centre_mm}")

    def scene(self, hand: bool = False, lifted: tuple[float, float] | None = None) -> Scene:
        """The table as a scene: tiles, then each worm head first (minus a lifted coin)."""
        pieces = list(FIXED)
        for player, worm in self.worms.items():
            pieces += [Piece("coin", round(x, 3), round(y, 3), suit=player) for x, y in worm
                       if lifted is None or math.dist((x, y), lifted) > 1e-6]
        return Scene(tuple(pieces), hand=hand)


def _coin_tile_distance(p: tuple[float, float], tile: Piece) -> float:
    a = math.radians(tile.angle_deg or 0.0)
    dx, dy = p[0] - tile.x_mm, p[1] - tile.y_mm
    lx, ly = math.cos(a) * dx + math.sin(a) * dy, -math.sin(a) * dx + math.cos(a) * dy
    h = TILE / 2
    ox, oy = max(abs(lx) - h, 0.0), max(abs(ly) - h, 0.0)
    return math.hypot(ox, oy) if (ox or oy) else -min(h - abs(lx), h - abs(ly))


@dataclass(frozen=True)
class Frame:
    """One frame to render."""

    scene: Scene
    hand_target_mm: tuple[float, float] | None = None
    hand_from_deg: float | None = None
    hand_height_mm: float = 30.0


def pose() -> CameraPose:
    """The webcam: 0.95 m above the table, tilted 12 degrees, seeing mat and course."""
    return CameraPose.looking_at((445.0, 150.0), 950.0, 12.0, 0.0, (1280, 720), 62.0)


def arm_from(player: str, k: int) -> float:
    """Suns sit at the near side (+y), moons across the table (-y)."""
    wobble = (-18.0, 12.0, -6.0, 20.0)[k % 4]
    return (90.0 if player == "suns" else -90.0) + wobble


def plan() -> tuple[list[dict], list[Frame], list[dict]]:
    """The script's lines (frames as indices), the frames, and the true game record."""
    table = Table.start()
    script: list[dict] = [{"event": SETUP}]
    frames: list[Frame] = []
    record: list[dict] = [SETUP]

    def still(n: int = 2) -> None:
        for _ in range(n):
            script.append({"frame": len(frames)})
            frames.append(Frame(table.scene()))
        record.append({"type": "scene", "pieces": table.scene().to_json()["pieces"]})

    still()
    for k, turn in enumerate(TURNS):
        roll = {"type": "roll", "player": turn.player, "value": str(turn.roll)}
        script.append({"event": roll})
        record.append(roll)
        before = table.copy()
        table.step(turn.player, turn.headings_deg[0])
        tail = table.worms[turn.player][-1]
        script.append({"frame": len(frames)})  # the hand reaches for the next tail coin
        frames.append(Frame(table.scene(hand=True), tail, arm_from(turn.player, k), 28.0))
        for h in turn.headings_deg[1:-1]:
            table.step(turn.player, h)
        lifted = table.worms[turn.player][-1]
        probe = table.copy()
        target = probe.step(turn.player, turn.headings_deg[-1])
        script.append({"frame": len(frames)})  # ... and puts the last one down
        frames.append(Frame(table.scene(hand=True, lifted=lifted), target,
                            arm_from(turn.player, k + 1), 22.0))
        table = probe
        still()
        if turn.correction is not None:  # the referee objects; the player takes a step back
            wrong = table
            table = before.copy()
            for h in turn.correction:
                table.step(turn.player, h)
            extra = wrong.worms[turn.player][0]
            back = table.worms[turn.player][-1]
            script.append({"frame": len(frames)})  # the extra coin goes back to the tail
            frames.append(Frame(wrong.scene(hand=True, lifted=extra), back,
                                arm_from(turn.player, k + 2), 25.0))
            still()
    return script, frames, record


def settings_for(i: int, frame: Frame) -> RenderSettings:
    """Same table and light in every frame; the noise, and the hand, change."""
    return RenderSettings(seed=1000 + i, table="wood", table_seed=TABLE_SEED,
                          table_angle_deg=4.0, light_dir_deg=120.0, light_elevation_deg=62.0,
                          shadow_strength=0.42, ambient=0.5, colour_temp_k=4700.0,
                          noise_sigma=2.2, blur_px=0.7, jpeg_quality=None, vignette=0.22,
                          hand=frame.hand_target_mm is not None,
                          hand_target_mm=frame.hand_target_mm, hand_from_deg=frame.hand_from_deg,
                          hand_height_mm=frame.hand_height_mm)


def mat_decal() -> Decal:
    """The printed A4 mat with its top-left corner at the world origin."""
    from calibration.mat import make_mat

    sheet = make_mat(paper="a4", dpi=150)
    w, h = sheet.size_mm
    return Decal(np.asarray(sheet.image_bgr), (w, h), (w / 2.0, h / 2.0), 0.0)


def main(argv: list[str] | None = None) -> int:
    """Writes the sample."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "sample_images" / "worm_derby"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    (out / "frames").mkdir(parents=True)
    script, frames, record = plan()
    cam = pose()
    decals = [mat_decal()]
    truth_lines, names = [], []
    calibration = None
    for i, frame in enumerate(frames):
        r = render_scene(frame.scene, cam, settings_for(i, frame), PIECES, decals)
        name = f"frames/{i:03d}.jpg"
        cv2.imwrite(str(out / name), r.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        names.append(name)
        truth_lines.append({"frame": name, "hand": frame.scene.hand,
                            "scene": frame.scene.to_json(),
                            "pixels": [t.to_json() for t in r.truth]})
        calibration = r.calibration()
        print(f"{name} hand={frame.scene.hand} pieces={len(frame.scene)}", file=sys.stderr)
    assert calibration is not None
    calibration.save(out / "calibration.json")
    with open(out / "script.jsonl", "w", encoding="utf-8") as f:
        for line in script:
            if "frame" in line:
                line = {"frame": names[line["frame"]]}
            f.write(json.dumps(line) + "\n")
    with open(out / "truth.jsonl", "w", encoding="utf-8") as f:
        for line in truth_lines:
            f.write(json.dumps(line) + "\n")
    with open(out / "record.jsonl", "w", encoding="utf-8") as f:
        for line in record:
            f.write(json.dumps(line) + "\n")
    (out / "README.md").write_text(readme(frames, script, names, record),
                                   encoding="utf-8")
    return 0


def _xy(p: Piece) -> str:
    return f"({p.x_mm:g}, {p.y_mm:g})"


def expected_verdicts(record: list[dict]) -> list[str]:
    """What the referee must say on each scene of the record (seq: rule)."""
    out, first = [], True
    illegal_after = {i for i, t in enumerate(TURNS) if t.correction is not None}
    turn, seen_in_turn = -1, 0
    for seq, line in enumerate(record):
        if line["type"] == "roll":
            turn, seen_in_turn = turn + 1, 0
        if line["type"] != "scene":
            continue
        if first:
            out.append(f"- seq {seq}: `ok` (the course is set up; a `small table` warning, the "
                       "pylon being 500 mm away)")
            first = False
            continue
        bad = turn in illegal_after and seen_in_turn == 0
        who = TURNS[turn].player
        out.append(f"- seq {seq}: " + (f"`steps` ({who} moved one step too many)" if bad
                                        else f"`ok` ({who})"))
        seen_in_turn += 1
    return out


def readme(frames: list[Frame], script: list[dict], names: list[str],
           record: list[dict]) -> str:
    """The sample's README: what, how, and the turn list."""
    lines = [
        "# A rendered Worm Derby playthrough",
        "",
        "Made by the project's scene renderer (`tabletop.render`), not photographed, with",
        "`.venv/bin/python scripts/make_sample_images.py` (deterministic). `tabletop demo`",
        "replays it.",
        "",
        "- Camera: 1280x720, 0.95 m above the table, tilted 12 degrees, no lens distortion;",
        "  wooden table, one lamp, sensor noise, JPEG quality 85.",
        "- World frame: the printed calibration mat's (origin at its top-left corner, x right,",
        "  y down, mm). The A4 mat lies at the left of the course in every frame.",
        f"- Course: start tiles at {_xy(START_TILES[0])} and {_xy(START_TILES[1])}"
        f" (face up), pylon at {_xy(PYLON)} (face up), obstacles (face down) at "
        + ", ".join(_xy(t) for t in OBSTACLES) + ".",
        f"- Worms: suns and moons, {LENGTH} coins each, straight, tails on the start line"
        f" (x = {START_X}), heads toward the pylon; a step moves the tail coin to the head.",
        "",
        "## Files",
        "- `calibration.json`: the exact calibration (CAL.json) of the camera.",
        "- `frames/NNN.jpg`: the frames, in order.",
        "- `script.jsonl`: the timeline: `{\"frame\": ...}` and `{\"event\": ...}` (the setup and",
        "  each roll, typed on the dashboard) in the order they happen.",
        "- `truth.jsonl`: per frame, the true scene (contract JSON; `hand` true while a hand is",
        "  over the table, when a coin being carried is not on the table) and each piece's",
        "  pixels (`centre_px`, `top_px`, `visible_fraction`, `occluded`).",
        "- `record.jsonl`: the true game record (setup, rolls, each stable table once);",
        "  `tabletop referee record.jsonl` must give the verdicts listed below.",
        "",
        "## Turns",
    ]
    for k, turn in enumerate(TURNS, 1):
        desc = f"{k}. {turn.player} roll {turn.roll}: {len(turn.headings_deg)} steps"
        if turn.correction is not None:
            desc += (f" (illegal: one step too many, verdict `steps`), then the extra coin is"
                     f" put back: {len(turn.correction)} steps (legal)")
        lines.append(desc)
    lines += ["", "## Verdicts on record.jsonl", "", *expected_verdicts(record)]
    lines += ["", "## Timeline", ""]
    for line in script:
        if "frame" in line:
            f = frames[line["frame"]]
            lines.append(f"- `{names[line['frame']]}`" + (" (hand)" if f.scene.hand else ""))
        else:
            e = line["event"]
            lines.append(f"- event `{json.dumps(e)}`")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
