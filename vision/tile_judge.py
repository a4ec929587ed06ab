"""The learned judge of tile fits: a random forest of OpenCV's ``cv2.ml`` on
:mod:`vision.tile_features`, trained on the renderer's randomised tables
(``training/train_tiles.py``; its figures in ``vision/models/tiles.json``).

Every square of a tile's size that a stage fits (a blob of the tile stage, a centre-net peak
placed by its edges) is asked one question: is it a tile, or a printed page's grid, text
lines, a notebook's or a card's corner, wood or laminate grain, a square of a check? The place
and angle still come from the fits; the forest only keeps or drops. It drops a square only
where it is sure (votes for "tile" under ``veto``): it learnt one renderer's tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.forest import load_forest, yes_share
from vision.reading_memo import ReadingMemo, square_rows_again
from vision.tile_features import N_FEATURES, features_of

Again = tuple[ReadingMemo | None, Callable[[np.ndarray], np.ndarray], float]
"""Live: the memo of the last still table's readings, view pixels -> table mm, and how far
(mm) round a square its features look."""

MODELS = Path(__file__).resolve().parent / "models"

BLOCK, EDGED, NET, FAINT = 0, 1, 2, 3
"""Where a square came from (a feature): a block of the tile stage's blobs, a notched or
broken blob's guess, a centre-net peak, a peak below the net's own threshold."""

RECORD: list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
"""For training only (``training/make_tiles.py``): where not None, every judged batch is
appended as (features, centres view px, sources), judged or not."""


@dataclass(frozen=True)
class TileJudgeConfig:
    """Attributes:
    model: The forest's file (``cv2.ml.RTrees`` saved as YAML).
    veto: A square stands unless the share of the trees voting "tile" is under this.
    sure: A square the centre net's tile fits placed stands, with at least this share of
        the votes, though the namer does not see a tile at its foot (a face-down tile on a
        glossy white table: the namer gives it 0.02-0.3); None: the namer decides alone.
        Above every square that is no tile, or lies beside a half-hidden one, on the tuning
        seeds 61000-61399 (at most 0.74).
    together: Below ``sure``, a fitted square the judge voted on stands where the namer's
        tile share at its foot and the judge's votes average at least this: the two look at
        it apart (the namer at the frame round its foot, the judge at the square in its own
        frame), and each one's doubt weighs against the other's certainty. A page's corner
        under a blind or a printed grid's square the namer gives 0.53-0.56 has votes
        0.22-0.53 (mean at most 0.545), a face-down tile on a dim glossy white table the
        namer gives 0.42 has 0.70 (0.56); the true tiles of the tuning seeds 133000-133449
        average 0.56 and up. None: the namer alone decides (at the caller's ``seen``).
    """

    model: Path = MODELS / "tiles.yml.gz"
    veto: float = 0.1
    sure: float | None = 0.8
    together: float | None = 0.55


class TileJudge:
    """Loads the forest once; :meth:`scores` gives each square's share of votes."""

    def __init__(self, config: TileJudgeConfig) -> None:
        self.config = config
        self.forest = load_forest(config.model, N_FEATURES, "the tile judge")

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N,) share (0-1) of the trees voting "tile" for each row of ``features``."""
        return yes_share(self.forest, features, N_FEATURES)


_CACHE: dict[Path, TileJudge] = {}


def judge_for(config: TileJudgeConfig) -> TileJudge:
    """The judge of a model file, loaded once per process."""
    j = _CACHE.get(Path(config.model))
    if j is None or j.config != config:
        j = _CACHE[Path(config.model)] = TileJudge(config)
    return j


def tile_votes(config: TileJudgeConfig | None, shade: np.ndarray, top: np.ndarray,
               centres_px: np.ndarray, angles_px: np.ndarray, side_px: float,
               sources: np.ndarray, groups: np.ndarray | None = None,
               again: Again | None = None) -> np.ndarray:
    """(N,) each square's share of the trees voting "tile" (their top faces, view pixels and
    degrees); NaN without a judge. ``again``: live, the memo of the last still table's
    readings and the view's pixels -> mm (a square's features kept where the frame did not
    change: :func:`vision.reading_memo.square_rows_again`).

    ``groups`` (N,) ints: squares read as one block of tiles laid edge to edge stand or fall
    together, by the median of their votes (a printed grid read as a block is one page,
    whichever of its squares looks most like a tile)."""
    pts = np.asarray(centres_px, float).reshape(-1, 2)
    if not len(pts) or (config is None and RECORD is None):
        return np.full(len(pts), np.nan)
    src = np.broadcast_to(np.asarray(sources), (len(pts),))
    ang = np.asarray(angles_px, float)
    if again is None or RECORD is not None:
        x = features_of(shade, top, pts, ang, side_px, src)
    else:
        x = square_rows_again(again[0], "tile_judge", again[1], pts, ang, src, again[2],
                              lambda i: features_of(shade, top, pts[i], ang[i], side_px,
                                                    src[i]))
    if RECORD is not None:
        RECORD.append((x, pts.copy(), np.array(src)))
    if config is None:
        return np.full(len(pts), np.nan)
    votes = judge_for(config).scores(x)
    if groups is not None:
        g = np.asarray(groups).ravel()
        for k in np.unique(g):
            votes[g == k] = np.median(votes[g == k])
    return votes


def keep_tiles(config: TileJudgeConfig | None, shade: np.ndarray, top: np.ndarray,
               centres_px: np.ndarray, angles_px: np.ndarray, side_px: float,
               sources: np.ndarray, groups: np.ndarray | None = None,
               again: Again | None = None) -> np.ndarray:
    """(N,) bool: which squares stand (their :func:`tile_votes` at least the veto; all
    without a judge)."""
    votes = tile_votes(config, shade, top, centres_px, angles_px, side_px, sources, groups,
                       again)
    return np.ones(len(votes), bool) if config is None else votes >= config.veto


def seen_as_tiles(config: TileJudgeConfig | None, namer_tile: np.ndarray,
                  votes: np.ndarray, seen: float) -> np.ndarray:
    """(N,) bool: which fitted squares stand as tiles: the namer gives a tile at least
    ``seen`` at the foot (``namer_tile``, (N,)), or, where the judge voted (``votes``, (N,),
    NaN: not judged), the two average :attr:`TileJudgeConfig.together` (instead), or the
    judge is sure of it (:attr:`TileJudgeConfig.sure`).

    >>> seen_as_tiles(TileJudgeConfig(), np.array([0.9, 0.3, 0.3, 0.3, 0.56, 0.42]),
    ...               np.array([0.2, 0.85, 0.6, np.nan, 0.53, 0.7]), 0.5).tolist()
    [True, True, False, False, False, True]
    >>> seen_as_tiles(None, np.array([0.3]), np.array([0.99]), 0.5).tolist()
    [False]
    """
    namer = np.asarray(namer_tile, float)
    v = np.asarray(votes, float)
    keep = namer >= seen
    if config is None:
        return keep
    judged = np.isfinite(v)
    if config.together is not None:
        keep = np.where(judged, (namer + np.nan_to_num(v)) / 2.0 >= config.together, keep)
    if config.sure is not None:
        keep |= judged & (np.nan_to_num(v, nan=-1.0) >= config.sure)
    return keep
