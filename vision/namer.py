"""The learned stage: a small CNN that names what lies at each found piece.

The hand-made stages find candidates and fit them exactly (centres, angles, feet); the namer,
trained on the project's own randomised renders (``training/``), looks at a patch of the table
around each one (:mod:`vision.patches`) and says what it shows: nothing, a coin of each suit, a
tile face up of each suit or face down, or a post (:data:`vision.namer_classes.CLASSES`). A
candidate the namer is sure is no piece of its kind is dropped (a page read as tiles, wood
grain read as a coin, a shadow read as a post); a face it is sure of replaces one a stage read
unsurely. Geometry stays the stages' fits. A coin face up has its suit read again here from its
own face at a fixed scale (:func:`vision.coin_faces.coin_readings`), however it was found
(a numeral there: the coin lies value up, face ``"down"``, no suit).

The weights (``vision/models/namer.onnx``, with its figures in ``namer.json``) run through
OpenCV's own ``cv2.dnn``: no other run-time dependency, nothing downloaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.model import Calibration
from vision.coin_faces import PATCH_MM as FACE_PATCH_MM
from vision.coin_faces import coin_readings, suits_shown
from vision.coin_features import PATCH_MM as JUDGE_PATCH_MM
from vision.coin_judge import CoinJudgeConfig, coin_judge_for
from vision.detections import Detections
from vision.errors import VisionError
from vision.namer_classes import CLASSES, KIND_OF
from vision.patches import CHANNELS, PATCH_MM, PATCH_PX, table_patches
from vision.reading_memo import ReadingMemo, rows_of
from vision.suits import DEFAULT_SUIT_INKS

MODEL = Path(__file__).resolve().parent / "models" / "namer.onnx"
"""The committed weights."""

NAMED_KINDS: tuple[str, ...] = ("coin", "tile", "post")
"""The kinds the namer knows (segments and tokens keep their own readers)."""

_BATCH = 64


@dataclass(frozen=True)
class NamerConfig:
    """Attributes:
    model: The ONNX weights (their JSON beside them).
    keep: A candidate stays unless the namer gives its kind less than this probability.
        Chosen on rendered validation seeds (50,000-50,015, no part of training): at 0.5 the
        stages' true coins, tiles and posts all stay (262 of 262) and 42 of 43 false ones go.
    rename: A face (up or down) is taken from the namer when it gives it at least this share
        of the kind's probability and the stage's own reading was unsure (``unsure``). Suits
        stay the ink readers': the namer's colours were learnt from one renderer's inks. A
        coin the namer calls value up whose face shows a coloured ink
        (:func:`vision.coin_faces.suits_shown`: a numeral is black) keeps that suit, face up
        (an arms coin on black felt or cloth, its blue symbol dark and the namer sure of a
        numeral). Where a face's black ink lies neither centred (a numeral) nor plainly to one
        side (a crescent), the namer's ``coin-down`` against its ``coin-moons`` says which
        (:func:`vision.coin_value.numeral_shown`).
    unsure: A stage's suit or face read with less confidence than this is unsure.
    reliable: The namer judges only the kinds it named at least this well on its validation
        seeds (``namer.json``); the others keep the stages' reading.
    suit_inks: Every kept coin face up has its suit read from its face by these inks
        (:func:`vision.coin_faces.coin_readings`: the same reading for a coin the masks
        found and one the centre net found; a numeral there: face down, no suit); None: the
        stages' readings stand.
    coin_judge: Coins are kept or dropped by the coin judge (:mod:`vision.coin_judge`: the
        namer's probabilities and the coin's own outline, face and colour), not by ``keep``
        alone; None: by ``keep``.
    """

    model: Path = MODEL
    keep: float = 0.5
    rename: float = 0.7
    unsure: float = 0.5
    reliable: float = 0.95
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] | None = DEFAULT_SUIT_INKS
    coin_judge: CoinJudgeConfig | None = field(default_factory=CoinJudgeConfig)


class Namer:
    """The loaded network (one per detector: ``cv2.dnn`` nets are not shared across
    threads)."""

    def __init__(self, cfg: NamerConfig) -> None:
        path = Path(cfg.model)
        try:
            meta = json.loads(path.with_suffix(".json").read_text())
            self.net = cv2.dnn.readNetFromONNX(str(path))
        except (OSError, ValueError, cv2.error) as e:
            raise VisionError(f"{path}: cannot load the namer's weights ({e})") from None
        if (tuple(meta.get("classes", ())) != CLASSES or meta.get("patch_px") != PATCH_PX
                or meta.get("channels") != CHANNELS or meta.get("patch_mm") != PATCH_MM):
            raise VisionError(f"{path}: weights made for other classes or patches")
        self.cfg = cfg
        val = meta.get("val_figures", {})
        self.judges: tuple[str, ...] = tuple(
            k for k in NAMED_KINDS if val.get(f"{k}_name_accuracy", 0.0) >= cfg.reliable)
        """The kinds this namer is trusted to judge."""
        self.memo: ReadingMemo | None = None
        """Live (set by the detector): readings of the last still table taken again where the
        frame did not change (:mod:`vision.reading_memo`); None: every reading made."""

    def probabilities(self, frame_bgr: np.ndarray, calibration: Calibration,
                      centres_mm: np.ndarray) -> np.ndarray:
        """Class probabilities (N, len(CLASSES)) of the patches around table points."""
        c = np.asarray(centres_mm, float).reshape(-1, 2)
        if len(c) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        if self.memo is None:
            return self._probabilities(frame_bgr, calibration, c)
        rows = self.memo.rows("namer", c, PATCH_MM / 2, lambda i: list(
            self._probabilities(frame_bgr, calibration, c[i])))
        return np.array(rows, np.float32).reshape(len(c), len(CLASSES))

    def _probabilities(self, frame_bgr: np.ndarray, calibration: Calibration,
                       c: np.ndarray) -> np.ndarray:
        x = table_patches(frame_bgr, calibration, c)
        out = []
        for i in range(0, len(x), _BATCH):
            self.net.setInput(x[i:i + _BATCH])
            out.append(self.net.forward().reshape(-1, len(CLASSES)))
        z = np.concatenate(out).astype(np.float64)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def kind_probabilities(p: np.ndarray) -> dict[str, np.ndarray]:
    """Probability of each kind (summed over its classes), (N,) each."""
    return {k: p[:, [i for i, kk in enumerate(KIND_OF) if kk == k]].sum(axis=1)
            for k in NAMED_KINDS}


def _coin_votes(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
                dets: Detections, idx: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, float]:
    """The coin judge's votes for the coins among ``dets[idx]`` (NaN for the other rows, or
    every row when there is no judge), ``p`` the namer's probabilities of those rows, and the
    least votes that keep one."""
    out = np.full(len(idx), np.nan)
    cfg = namer.cfg.coin_judge
    coin = np.flatnonzero(dets.kind[idx] == "coin")
    if cfg is None or "coin" not in namer.judges or not len(coin):
        return out, 0.0
    judge = coin_judge_for(cfg)
    seen, pc = dets.seen_mm[idx[coin]], p[coin]
    # (a vote taken again only where the namer's probabilities it was made from are these)
    out[coin] = [v for _, v in rows_of(
        namer.memo, "coin_judge", seen, JUDGE_PATCH_MM / 2,
        lambda i: list(zip(pc[i], judge.scores(frame_bgr, calibration, seen[i], pc[i]),
                           strict=True)),
        lambda k, kept: bool(np.array_equal(kept[0], pc[k])))]
    return out, judge.threshold


def name_detections(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration,
                    dets: Detections, judged: tuple[str, ...] = ()) -> Detections:
    """The candidates the namer sees as pieces of their kind, their suits and faces named;
    those of the kinds ``judged`` (kept by the caller already: the centre net's tiles,
    :func:`vision.proposals.read_found`) are named but never dropped."""
    named = np.isin(dets.kind, namer.judges)
    if not named.any():
        return dets
    idx = np.flatnonzero(named)
    p = namer.probabilities(frame_bgr, calibration, dets.centre_mm[idx])
    kp = kind_probabilities(p)
    cfg = namer.cfg
    keep = np.ones(len(dets), bool)
    suit = dets.suit.copy()
    face = dets.face.copy()
    conf = dets.confidence.copy()
    votes, least = _coin_votes(namer, frame_bgr, calibration, dets, idx, p)
    for row, i in enumerate(idx):
        kind = str(dets.kind[i])
        pk = float(kp[kind][row])
        if kind not in judged and (
                votes[row] < least if np.isfinite(votes[row]) else pk < cfg.keep):
            keep[i] = False
            continue
        conf[i] = min(float(conf[i]), pk) if np.isfinite(conf[i]) else pk
        best = int(np.argmax(p[row]))
        if KIND_OF[best] != kind or p[row, best] < cfg.rename * pk:
            continue
        if dets.confidence[i] >= cfg.unsure:
            continue  # the stage read the ink (or the back) clearly
        name = CLASSES[best]
        if kind == "coin" and name == "coin-down":  # its value shows: no suit to read
            suit[i], face[i] = None, "down"
        elif kind == "tile":
            face[i] = "down" if name == "tile-down" else "up"
            if name == "tile-down":
                suit[i] = None
    read = np.flatnonzero(keep & (dets.kind == "coin") & (face != "down"))
    downed = np.flatnonzero(keep & (dets.kind == "coin") & (face == "down")
                            & (dets.face != "down"))  # by the namer: "value up"
    if cfg.suit_inks is not None and len(read):
        seen, inks = dets.seen_mm[read], dict(cfg.suit_inks)
        row_of = np.full(len(dets), -1)
        row_of[idx] = np.arange(len(idx))
        rows = row_of[read]  # -1: coins the namer does not judge
        value = (rows >= 0) & (p[rows, CLASSES.index("coin-down")]
                               > p[rows, CLASSES.index("coin-moons")])
        sides = rows_of(namer.memo, "coin_face", seen, FACE_PATCH_MM / 2,
                        lambda i: coin_readings(frame_bgr, calibration, seen[i], inks,
                                                value_seen=value[i]))
        suit[read] = [sv for sv, _, _ in sides]
        face[read] = [face[i] if side == "up" else side
                      for i, (_, _, side) in zip(read, sides, strict=True)]
    if cfg.suit_inks is not None and len(downed):  # the namer's "value up" against the face
        for i, shown in zip(downed, suits_shown(frame_bgr, calibration, dets.seen_mm[downed],
                                                dict(cfg.suit_inks)), strict=True):
            if shown is not None:  # a coloured ink: no value's numeral (a numeral is black)
                suit[i], face[i] = shown, dets.face[i]
    out = Detections(centre_mm=dets.centre_mm, seen_mm=dets.seen_mm, kind=dets.kind,
                     confidence=conf, suit=suit, angle_deg=dets.angle_deg, face=face,
                     color=dets.color, marker_id=dets.marker_id)
    return out[keep]
