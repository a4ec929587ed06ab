"""Builds the pipeline's :class:`live.pipeline.Vision` from the ``vision`` package."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.model import Calibration
from live.pipeline import Vision
from referee.base import Game
from referee.registry import find_game
from tabletop.errors import RecordFormatError
from tabletop.pieceset import PieceSet
from tabletop.scene import Scene
from vision import Detector, DetectorConfig, Stabiliser, annotate
from vision.confirm import Confirmer


def game_kinds(game: str | Game | None) -> tuple[str, ...] | None:
    """The kinds of piece a game (a configured game, or a game's name) puts on the table; None
    when the name is no registered game (then every kind is looked for)."""
    if isinstance(game, Game):
        return tuple(game.piece_kinds)
    if not game:
        return None
    try:
        return tuple(find_game(game).piece_kinds)
    except RecordFormatError:
        return None


def load_vision(calibration: Calibration, game: str | Game | None = None,
                pieces: PieceSet | None = None,
                area_mm: tuple[float, float, float, float] | None = None) -> Vision:
    """The real detector (looking only for the kinds ``game`` uses, at its piece sizes),
    stabiliser, annotator and confirmation of a still reading by the last accepted table
    (:class:`vision.confirm.Confirmer`).

    ``game`` is a configured game (its kinds and its setup's piece sizes) or a game's name
    (its kinds, the default sizes unless ``pieces``). The returned vision's ``rebuild`` makes
    the same for another game: starting a game (from the page, the API, a resumed log or a
    replay) calls it. ``area_mm`` (x0, y0, x1, y1) limits the search to the play area
    (default: all the picture).
    """
    if isinstance(game, Game) and pieces is None:
        pieces = game.pieces
    config = DetectorConfig(area_mm=area_mm)
    kinds = game_kinds(game)
    if kinds is not None:
        config = replace(config, kinds=kinds)
    detector = Detector(calibration, pieces or PieceSet(), config)

    def check_image(image: np.ndarray) -> None:
        calibration.check_image_size((image.shape[1], image.shape[0]), "the frame")

    def rebuild(new_game: Game) -> Vision:
        return load_vision(calibration, new_game, None, area_mm)

    confirmer = Confirmer(calibration, detector.pieces, kinds=tuple(config.kinds))

    def confirm(frame: np.ndarray, reading: Scene, known: Scene) -> Scene:
        return confirmer.confirm(frame, reading, known).scene

    return Vision(detect=detector.detect, stabiliser=Stabiliser(),
                  annotate=annotate, check_image=check_image,
                  rebuild=rebuild, kinds=tuple(config.kinds), pieces=detector.pieces,
                  recheck=detector.recheck, confirm=confirm)


def still_frames() -> int:
    """How many agreeing frames the stabiliser wants before it calls the table still."""
    return Stabiliser().still_frames


MAT_MARGIN_MM = 20.0
"""Paper round the mat's markers (the sheet's edge, the scale bar) left out with them."""


def play_area_without_mat(calibration: Calibration, frame_bgr: np.ndarray
                          ) -> tuple[float, float, float, float] | None:
    """The largest rectangle of the table in view that leaves out the calibration mat.

    The printed mat usually stays on the table (the drift watch reads it), and its markers are
    not pieces. This finds the mat's markers in ``frame_bgr`` and returns the biggest of the
    four strips of the view beside it (left, right, above, below), in table mm, as
    ``(x0, y0, x1, y1)``; None when no mat marker is in view.
    """
    from calibration.homography import detect_markers
    from tabletop.markers import MAT_IDS

    found = detect_markers(frame_bgr, refine=False)
    quads = [q for i, q in zip(found.ids, found.corners_px, strict=True) if int(i) in MAT_IDS]
    if not quads:
        return None
    mat_mm = calibration.to_table(np.concatenate(quads))
    mx0, my0 = mat_mm.min(axis=0) - MAT_MARGIN_MM
    mx1, my1 = mat_mm.max(axis=0) + MAT_MARGIN_MM
    view = calibration.view_corners_mm()
    # the rectangle inside the view's quadrilateral (a camera looks nearly straight down)
    xs, ys = np.sort(view[:, 0]), np.sort(view[:, 1])
    vx0, vx1, vy0, vy1 = xs[1], xs[2], ys[1], ys[2]
    strips = [(vx0, vy0, min(mx0, vx1), vy1), (max(mx1, vx0), vy0, vx1, vy1),
              (vx0, vy0, vx1, min(my0, vy1)), (vx0, max(my1, vy0), vx1, vy1)]
    best = max(strips, key=lambda r: max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1]))
    if best[2] - best[0] <= 0 or best[3] - best[1] <= 0:
        return None
    return (float(best[0]), float(best[1]), float(best[2]), float(best[3]))
