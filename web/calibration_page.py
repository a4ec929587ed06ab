"""The calibration page: the homography drawn on the picture, the error map, drift, re-calibrate.

- ``GET /calibration``: the page.
- ``GET /calibration/grid.jpg``: the latest frame with the table's millimetre grid drawn through
  the current homography (a grid that does not sit on the table shows a bad calibration).
- ``GET /calibration/heatmap.png``: the expected position error across the table.
- ``GET /calibration/info``: the calibration, its error and the drift check, as JSON.
- ``POST /calibration/recalibrate``: calibrate again from the printed mat in the latest frame.
- ``GET /calibration/picture.jpg``: the latest camera picture as it is (for clicking points).
- ``GET /calibration/presets``: known corners (the printed mats, the Jungle board) in mm.
- ``POST /calibration/points/preview``: ``{"points": [{"pixel": [u, v], "world": [x, y]}, ...]}``
  (POINTS.json's form): the homography those points give, its error and its grid in pixels.
- ``POST /calibration/points``: the same, then used (and saved beside the ``--calibration`` file).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Response, abort, current_app, jsonify, render_template

from calibration.annotate import grid_lines_px
from calibration.coverage import error_map
from calibration.drift import check_drift
from calibration.from_mat import calibrate_from_mat
from calibration.model import Calibration
from live.pipeline import encode_jpeg
from tabletop.boards import jungle as jungle_board
from tabletop.errors import InputError
from tabletop.limits import MAX_POINTS
from tabletop.printing import PAPER_MM
from web.dashboard import page_context
from web.security import json_body
from web.services import Services, get_services

bp = Blueprint("calibration", __name__, url_prefix="/calibration")

GRID_MM = 50.0
MAX_EXTENT_MM = 3000.0


@bp.get("")
def index() -> str:
    """The calibration page."""
    return render_template("calibration.html", page="calibration", **page_context())


def table_extent_mm(cal: Calibration) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)``: the table area the picture shows, in mm (clipped to 3 m)."""
    corners = cal.view_corners_mm()
    x0, y0 = np.clip(corners.min(axis=0), -MAX_EXTENT_MM, MAX_EXTENT_MM)
    x1, y1 = np.clip(corners.max(axis=0), -MAX_EXTENT_MM, MAX_EXTENT_MM)
    return float(x0), float(y0), float(x1), float(y1)


def draw_grid(image: np.ndarray, cal: Calibration, step_mm: float = GRID_MM) -> np.ndarray:
    """``image`` with the table's millimetre grid (every ``step_mm``) drawn through ``cal``."""
    out = image.copy()
    thick = max(1, round(out.shape[1] / 640))
    for major, px in grid_lines_px(cal, step_mm, table_extent_mm(cal)):
        colour = (0, 220, 255) if major else (0, 160, 0)
        cv2.polylines(out, [np.round(px).astype(np.int32).reshape(-1, 1, 2)], False, colour,
                      thick * (2 if major else 1), cv2.LINE_AA)
    origin = cal.to_image([[0.0, 0.0]])[0]
    if np.all(np.isfinite(origin)):
        cv2.putText(out, "0,0 mm", (int(origin[0]) + 6, int(origin[1]) - 6),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thick, (0, 220, 255), thick, cv2.LINE_AA)
    return out


def _latest_frame(services: Services) -> np.ndarray | None:
    raw = services.hub.raw
    return None if raw is None else raw


def _need_calibration(services: Services) -> Calibration:
    if services.calibration is None:
        abort(404, description="no calibration loaded (start with --calibration CAL.json)")
    return services.calibration


@bp.get("/grid.jpg")
def grid() -> Response:
    """The latest frame with the homography's grid on it."""
    services = get_services()
    cal = _need_calibration(services)
    frame = _latest_frame(services)
    if frame is None:
        w, h = cal.image_size
        frame = np.full((h, w, 3), 60, np.uint8)
    return Response(encode_jpeg(draw_grid(frame, cal), 960), mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store"})


def heatmap_image(cal: Calibration, step_mm: float = 20.0) -> tuple[np.ndarray, float]:
    """The error map as a colour picture (and its largest error in view, mm).

    Black: outside the camera's view. The colour scale runs from 0 to the largest error.
    """
    emap = error_map(cal, table_extent_mm(cal), step_mm)
    err = np.asarray(emap.error_mm, dtype=float)
    seen = np.asarray(emap.in_view, dtype=bool) & np.isfinite(err)
    top = float(err[seen].max()) if seen.any() else 0.0
    scaled = np.zeros(err.shape, np.uint8)
    if top > 0:
        scaled = np.clip(np.nan_to_num(err) / top * 255.0, 0, 255).astype(np.uint8)
    colour = cv2.applyColorMap(scaled, cv2.COLORMAP_TURBO)
    colour[~seen] = (24, 24, 24)
    h, w = colour.shape[:2]
    k = max(1, 480 // max(w, h, 1))
    return cv2.resize(colour, (w * k, h * k), interpolation=cv2.INTER_NEAREST), top


@bp.get("/heatmap.png")
def heatmap() -> Response:
    """The expected position error over the table (red: worse)."""
    cal = _need_calibration(get_services())
    try:
        made = heatmap_image(cal)
    except (InputError, ValueError, TypeError) as exc:
        abort(404, description=f"no error map: {exc}")
    _, buf = cv2.imencode(".png", made[0])
    return Response(buf.tobytes(), mimetype="image/png",
                    headers={"Cache-Control": "no-store", "X-Error-Max-Mm": f"{made[1]:.3f}"})


def drift_report(services: Services) -> dict[str, Any] | None:
    """The drift check on the latest frame, or None when it cannot be made."""
    frame = _latest_frame(services)
    if frame is None or services.calibration is None:
        return None
    try:
        report = check_drift(services.calibration, frame)
    except InputError as exc:
        return {"moved": None, "status": "unknown", "message": str(exc)}
    return report.to_json()  # type: ignore[no-any-return]


@bp.get("/info")
def info() -> Any:
    """The calibration, its error and the drift check."""
    services = get_services()
    cal = services.calibration
    if cal is None:
        return jsonify(calibration=None, drift=None)
    return jsonify(calibration={
        "image_size": list(cal.image_size), "reprojection_mm": cal.reprojection_mm,
        "lens": cal.lens is not None, "extent_mm": table_extent_mm(cal),
        "homography": cal.homography.tolist()}, drift=_fresh_drift(services))


def _fresh_drift(services: Services) -> dict[str, Any] | None:
    services.drift = drift_report(services)
    services.drift_checked = time.monotonic()
    return services.drift


@bp.post("/recalibrate")
def recalibrate() -> Any:
    """Calibrates again from the printed mat in the latest frame."""
    services = get_services()
    frame = _latest_frame(services)
    if frame is None:
        return jsonify(error="no camera picture yet to calibrate from"), 400
    lens = services.calibration.lens if services.calibration is not None else None
    try:
        cal = calibrate_from_mat(frame, lens=lens)
    except InputError as exc:
        return jsonify(error=f"The mat was not found: {exc}.", seen=str(exc), todo=MAT_TODO), 400
    return use_calibration(services, cal)


MAT_TODO = ("Lay the whole mat flat in the camera's view, with no hand, piece or glare on its "
            "markers, then press the button again; or click four or more points of the "
            "picture below and type where they are on the table.")


def use_calibration(services: Services, cal: Calibration) -> Any:
    """Makes ``cal`` the table's calibration (the pipeline's vision too) and saves it."""
    services.calibration = cal
    services.table.to_image, services.table.image_size = cal.to_image, cal.image_size
    services.drift_checked = 0.0
    if services.pipeline is not None and current_app.config.get("VISION") is None:
        from live.vision_glue import load_vision

        try:
            services.pipeline.vision = load_vision(cal, current_app.config.get("GAME"),
                                                   area_mm=current_app.config.get("AREA_MM"))
        except InputError as exc:
            return jsonify(error=str(exc)), 400
    given = current_app.config.get("CALIBRATION_PATH")
    saved = None
    if given:  # the user's file is never overwritten: the new one goes beside it
        saved = recalibrated_path(Path(given))
        try:
            cal.save(saved)
            message = (f"new calibration written to {saved}; {given} is unchanged (give the "
                       f"new file to --calibration next time)")
        except (OSError, InputError) as exc:
            message = f"new calibration in use, but {saved} cannot be written ({exc})"
            saved = None
    else:
        message = "new calibration in use (not saved: the server was started without one)"
    services.bus.publish("calibration", {"reprojection_mm": cal.reprojection_mm})
    return jsonify(reprojection_mm=cal.reprojection_mm, saved=saved is not None,
                   saved_to=None if saved is None else str(saved), message=message)


def recalibrated_path(given: Path) -> Path:
    """Where a re-calibration is written: beside the user's file, never over it.

    >>> recalibrated_path(Path("cals/cal.json"))
    PosixPath('cals/cal.recalibrated.json')
    """
    return given.with_name(f"{given.stem}.recalibrated{given.suffix or '.json'}")


@bp.get("/picture.jpg")
def picture() -> Response:
    """The latest camera picture as it is, at full size (points are clicked on it)."""
    frame = _latest_frame(get_services())
    if frame is None:
        abort(404, description="no camera picture yet")
    return Response(encode_jpeg(frame, None, 90), mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store",
                             "X-Image-Size": f"{frame.shape[1]}x{frame.shape[0]}"})


@bp.get("/presets")
def presets() -> Any:
    """Corners people can click instead of typing: the printed mats' sheets and the Jungle
    board (top-left, top-right, bottom-right, bottom-left as seen when printed), in mm."""
    out: list[dict[str, Any]] = []
    for name, (w, h) in PAPER_MM.items():
        out.append({"name": f"the printed mat's sheet ({name.upper()})",
                    "corners": [["top-left corner", [0.0, 0.0]], ["top-right corner", [w, 0.0]],
                                ["bottom-right corner", [w, h]], ["bottom-left corner", [0.0, h]]]})
    w, h = jungle_board.BOARD_MM
    out.append({"name": "the Jungle board",
                "corners": [["a9's outer corner", [0.0, h]],
                            ["g9's outer corner", [w, h]],
                            ["g1's outer corner", [w, 0.0]],
                            ["a1's outer corner", [0.0, 0.0]]]})
    return jsonify(out)


def _points_calibration(services: Services) -> Calibration:
    frame = _latest_frame(services)
    if frame is None:
        raise InputError("no camera picture yet to click points on")
    body = json_body()  # strict: deep or huge JSON is a message, not a crash
    points = body.get("points")
    if not isinstance(points, list):
        raise InputError('send {"points": [{"pixel": [u, v], "world": [x, y]}, ...]}')
    if len(points) > MAX_POINTS:
        raise InputError(f"points: {len(points)} points; a calibration takes at most "
                         f"{MAX_POINTS}")
    from calibration.homography import calibrate_from_points

    lens = services.calibration.lens if services.calibration is not None else None
    return calibrate_from_points(points, (frame.shape[1], frame.shape[0]), lens,
                                 where="the clicked points")


def _preview_json(cal: Calibration) -> dict[str, Any]:
    fit = cal.extra.get("fit") or {}
    return {"reprojection_mm": cal.reprojection_mm, "homography": cal.homography.tolist(),
            "fit": fit, "image_size": list(cal.image_size),
            "grid": [{"axis": bool(major), "points": np.round(px, 1).tolist()}
                     for major, px in grid_lines_px(cal, GRID_MM, table_extent_mm(cal))]}


@bp.post("/points/preview")
def points_preview() -> Any:
    """The calibration the clicked points give, and its grid on the picture (not used yet)."""
    try:
        cal = _points_calibration(get_services())
    except InputError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(_preview_json(cal))


@bp.post("/points")
def points_use() -> Any:
    """Calibrates from the clicked points and uses the result."""
    services = get_services()
    try:
        cal = _points_calibration(services)
    except InputError as exc:
        return jsonify(error=str(exc)), 400
    return use_calibration(services, cal)
