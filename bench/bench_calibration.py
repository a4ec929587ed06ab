"""Calibration benchmark: accuracy on synthetic views of the mat, timing, real data figures.

Run by hand (``make bench``); each figure is a ``name=value`` line. Synthetic views come from
``calibration.synthetic`` (pinhole camera, area anti-aliasing, optical blur, sensor noise); the
truth is the camera's exact table-to-image homography.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.coverage import error_map  # noqa: E402
from calibration.drift import DriftWatch  # noqa: E402
from calibration.from_mat import calibrate_from_mat  # noqa: E402
from calibration.homography import (  # noqa: E402
    calibrate_from_markers,
    calibrate_from_points,
    detect_markers,
)
from calibration.lens import calibrate_lens  # noqa: E402
from calibration.mat import make_mat, mat_layout  # noqa: E402
from calibration.model import Lens  # noqa: E402
from calibration.synthetic import PinholeCamera, mapping_error_mm, render_sheet  # noqa: E402

SHARED = ROOT.parent / "shared"

# (paper, camera height mm, tilt deg, roll deg, hfov deg, image size, blur px, noise)
POSES = [
    ("a4", 700, 0, 0, 60, (1280, 720), 0.8, 2.0),
    ("a4", 800, 15, 10, 60, (1280, 960), 1.0, 3.0),
    ("a4", 900, 25, -20, 65, (1920, 1080), 1.2, 4.0),
    ("letter", 800, 10, 35, 60, (1920, 1080), 0.9, 3.0),
    ("a3", 1000, 0, 5, 70, (1920, 1080), 0.8, 2.0),
    ("a3", 1100, 15, -5, 72, (1920, 1080), 1.0, 3.0),
    ("a3", 1200, 25, 15, 75, (1920, 1080), 1.2, 4.0),
]


def grid(x0: float, y0: float, x1: float, y1: float, n: int = 25) -> np.ndarray:
    gx, gy = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    return np.c_[gx.ravel(), gy.ravel()]


def camera(size_mm, height, tilt, roll, hfov, image_size, shift=(0.0, 0.0)) -> PinholeCamera:
    c = np.array([size_mm[0] / 2 + shift[0], size_mm[1] / 2 + shift[1], 0.0])
    a = np.radians(tilt)
    eye = c + np.array([0, height * np.sin(a), -height * np.cos(a)])
    return PinholeCamera.look_at(eye, c, image_size, hfov, roll)


def cover(image, sheet, cam, ids):
    out = image.copy()
    H = cam.table_to_image()
    for k in ids:
        c = sheet.marker_corners_mm[k]
        big = c.mean(axis=0) + (c - c.mean(axis=0)) * 1.3
        hom = np.c_[big, np.ones(4)] @ H.T
        cv2.fillConvexPoly(out, np.round(hom[:, :2] / hom[:, 2:3]).astype(np.int32),
                           (60, 90, 130))
    return out


def bench_synthetic() -> None:
    sheets = {p: make_mat(p, dpi=300) for p in ("a4", "a3", "letter")}
    mat_errs, table_errs, occl_errs, times, reproj = [], [], [], [], []
    predicted_ratio = []
    drift_ms, drift_still, drift_3mm = [], [], []
    for i, (paper, height, tilt, roll, hfov, size, blur, noise) in enumerate(POSES):
        sheet = sheets[paper]
        cam = camera(sheet.size_mm, height, tilt, roll, hfov, size)
        img = render_sheet(cam, sheet.image_bgr, sheet.dpi, seed=i, blur_px=blur, noise=noise)
        t0 = time.perf_counter()
        cal = calibrate_from_mat(img)
        times.append((time.perf_counter() - t0) * 1000)
        assert cal.extra["mat"]["paper"] == paper
        w, h = sheet.size_mm
        truth = cam.image_to_table()
        e_mat = mapping_error_mm(cal.homography, truth, grid(0, 0, w, h))
        mat_errs.append(e_mat.max())
        reproj.append(cal.reprojection_mm)
        print(f"pose{i}_{paper}_tilt{tilt}_mat_err_max_mm={e_mat.max():.4f}")
        if paper == "a3":
            area = (w / 2 - 500, h / 2 - 350, w / 2 + 500, h / 2 + 350)
            e_tab = mapping_error_mm(cal.homography, truth, grid(*area))
            table_errs.append(e_tab.max())
            em = error_map(cal, area, step_mm=50)
            predicted_ratio.append(em.error_mm.max() / e_tab.max())
            print(f"pose{i}_a3_table_err_max_mm={e_tab.max():.4f}")
            print(f"pose{i}_a3_table_err_predicted_rms_max_mm={em.error_mm.max():.4f}")
        ids = sorted(sheet.marker_corners_mm)
        covered = cover(img, sheet, cam, ids[i % 4::4])
        cal_occ = calibrate_from_mat(covered)
        occl_errs.append(mapping_error_mm(cal_occ.homography, truth, grid(0, 0, w, h)).max())
        watch = DriftWatch(cal)
        t0 = time.perf_counter()
        still = watch.check(img)
        drift_ms.append((time.perf_counter() - t0) * 1000)
        drift_still.append(still.shift_mm)
        moved_cam = camera(sheet.size_mm, height, tilt, roll, hfov, size, shift=(3.0, 0.0))
        moved = watch.check(render_sheet(moved_cam, sheet.image_bgr, sheet.dpi, seed=i + 50,
                                         blur_px=blur, noise=noise))
        drift_3mm.append(moved.shift_mm)
    print(f"poses={len(POSES)}")
    print(f"mat_err_max_mm={max(mat_errs):.4f}")
    print(f"mat_err_mean_of_max_mm={np.mean(mat_errs):.4f}")
    print(f"table_err_max_mm={max(table_errs):.4f}")
    print(f"occluded_quarter_mat_err_max_mm={max(occl_errs):.4f}")
    print(f"reprojection_mm_mean={np.mean(reproj):.4f}")
    print(f"error_map_predicted_over_actual_table_max={np.mean(predicted_ratio):.2f}")
    print(f"calibrate_ms={np.median(times):.1f}")
    print(f"drift_check_ms={np.median(drift_ms):.1f}")
    print(f"drift_still_shift_mm_max={max(drift_still):.3f}")
    print(f"drift_3mm_shift_measured_mm_min={min(drift_3mm):.3f}")
    print(f"drift_3mm_shift_measured_mm_max={max(drift_3mm):.3f}")


# (name, paper, height mm, tilt, roll, hfov, image size, blur px, noise, degradation)
CONDITIONS = [
    ("a4_640x480_1m", "a4", 1000, 10, 5, 60, (640, 480), 0.8, 3, None),
    ("a4_800x600", "a4", 800, 10, 5, 60, (800, 600), 0.8, 3, None),
    ("a4_tilt40", "a4", 800, 40, 10, 60, (1280, 720), 0.8, 3, None),
    ("a4_jpeg60", "a4", 800, 15, 10, 60, (1280, 720), 1.0, 3, "jpeg60"),
    ("a4_uneven_light", "a4", 800, 15, 10, 60, (1280, 720), 1.0, 3, "light"),
    ("a4_motion_blur_9px", "a4", 800, 15, 10, 60, (1280, 720), 0.8, 3, "motion"),
    ("a3_blur2", "a3", 1100, 15, 10, 72, (1920, 1080), 2.0, 3, None),
    ("a3_noise8", "a3", 1100, 15, 10, 72, (1920, 1080), 1.0, 8, None),
    ("a3_1500mm", "a3", 1500, 20, 10, 80, (1920, 1080), 1.0, 3, None),
]


def degrade(img: np.ndarray, kind: str | None) -> np.ndarray:
    if kind == "jpeg60":
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 60])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if kind == "light":
        h, w = img.shape[:2]
        gain = np.linspace(0.45, 1.15, w)[None, :, None] * np.linspace(1.1, 0.7, h)[:, None, None]
        return np.clip(img * gain, 0, 255).astype(np.uint8)
    if kind == "motion":
        k = np.zeros((9, 9), np.float32)
        k[4, :] = 1 / 9
        return cv2.filter2D(img, -1, k)
    return img


def bench_conditions() -> None:
    """Harder views: the edge-fitted corners against the detector's own refinement."""
    sheets = {p: make_mat(p, dpi=300) for p in ("a4", "a3")}
    for name, paper, height, tilt, roll, hfov, size, blur, noise, kind in CONDITIONS:
        sheet = sheets[paper]
        cam = camera(sheet.size_mm, height, tilt, roll, hfov, size)
        img = degrade(render_sheet(cam, sheet.image_bgr, sheet.dpi, seed=3, blur_px=blur,
                                   noise=noise), kind)
        w, h = sheet.size_mm
        for label, refine in (("edges", True), ("subpix", False)):
            found = detect_markers(img, refine=refine)
            cal = calibrate_from_markers(img, mat_layout(paper), detections=found)
            err = mapping_error_mm(cal.homography, cam.image_to_table(), grid(0, 0, w, h)).max()
            print(f"{name}_{label}_mat_err_max_mm={err:.4f}")
        print(f"{name}_markers_used={len(cal.extra['markers']['inlier_ids'])}")


def bench_renderer() -> None:
    """The project renderer's views (tabletop.render)."""
    from tabletop.render import CameraPose, Decal, RenderSettings, render_scene
    from tabletop.scene import Scene

    sheet = make_mat("a3", dpi=200)
    worst_mat, worst_table = 0.0, 0.0
    for i, (tilt, angle, dist) in enumerate([(0, 0, None), (20, 30, (-0.12, 0.03, 0, 0, 0))]):
        pose = CameraPose.looking_at((0, 0), height_mm=1100, tilt_deg=tilt,
                                     image_size=(1920, 1080), hfov_deg=72, dist=dist)
        r = render_scene(Scene(()), pose, RenderSettings(seed=i, blur_px=0.9, noise_sigma=3.0),
                         decals=[Decal(sheet.image_bgr, size_mm=sheet.size_mm,
                                       centre_mm=(0, 0), angle_deg=angle)])
        truth = r.calibration()
        cal = calibrate_from_mat(r.image, lens=truth.lens)
        a = np.radians(angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        for label, area in (("mat", (-148, -210, 148, 210)), ("table", (-500, -350, 500, 350))):
            q = grid(*area, n=21)
            if label == "mat":
                q = q @ rot.T
            back = (cal.to_table(truth.to_image(q)) - np.array(sheet.size_mm) / 2) @ rot.T
            err = float(np.linalg.norm(back - q, axis=1).max())
            print(f"render{i}_tilt{tilt}_{'lens' if dist else 'pinhole'}_{label}_err_max_mm="
                  f"{err:.4f}")
            if label == "mat":
                worst_mat = max(worst_mat, err)
            else:
                worst_table = max(worst_table, err)
    print(f"render_mat_err_max_mm={worst_mat:.4f}")
    print(f"render_table_err_max_mm={worst_table:.4f}")


def _calibrate_cli_points(path: Path, truth: dict) -> float:
    """Runs ``tabletop calibrate IMAGE --points POINTS.json -o CAL.json``; its last line."""
    import contextlib
    import io
    import tempfile

    from tabletop.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        pts = Path(tmp) / "points.json"
        pts.write_text(json.dumps(truth["calibration_points"]))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["calibrate", str(path.with_name(truth["image"])), "--points", str(pts),
                         "-o", str(Path(tmp) / "cal.json")])
        assert code == 0
    return float(out.getvalue().strip().splitlines()[-1].split("=")[1])


def bench_points() -> None:
    if not SHARED.joinpath("devscenes").is_dir():
        print("devscenes_skipped=1")
        return
    worst_reproj, worst_check = 0.0, 0.0
    for path in sorted((SHARED / "devscenes").glob("dev-scene*.json")):
        truth = json.loads(path.read_text())
        cam = truth["camera"]
        size = (truth["width"], truth["height"])
        lens = None if cam["dist"] is None else Lens(size, cam["K"], cam["dist"])
        cal = calibrate_from_points(truth["calibration_points"], size, lens)
        cli_reproj = _calibrate_cli_points(path, truth)
        R, t, K = (np.array(cam[k], float) for k in ("R", "t", "K"))
        world = grid(-400, -300, 400, 300, 9)
        xc = np.c_[world, np.zeros(len(world))] @ R.T + t
        ideal = xc[:, :2] / xc[:, 2:3] @ K[:2, :2].T + K[:2, 2]
        raw = ideal if lens is None else lens.distort_points(ideal)
        inside = ((raw >= 0) & (raw < size)).all(axis=1)
        err = np.linalg.norm(cal.to_table(raw[inside]) - world[inside], axis=1).max()
        name = path.stem.replace("-", "_")
        print(f"{name}_points_reprojection_mm={cal.reprojection_mm:.4f}")
        print(f"{name}_cli_calibrate_points_reprojection_mm={cli_reproj:.4f}")
        print(f"{name}_points_table_err_max_mm={err:.4f}")
        if lens is not None:
            plain = calibrate_from_points(truth["calibration_points"], size)
            print(f"{name}_points_without_lens_reprojection_mm={plain.reprojection_mm:.4f}")
        worst_reproj = max(worst_reproj, cal.reprojection_mm)
        worst_check = max(worst_check, err)
    print(f"devscenes_points_reprojection_mm_max={worst_reproj:.4f}")
    print(f"devscenes_points_table_err_max_mm={worst_check:.4f}")


def bench_lens() -> None:
    real = SHARED / "realdata"
    if not real.is_dir():
        print("realdata_skipped=1")
        return
    paths = sorted((real / "opencv_samples").glob("left*.jpg"))
    t0 = time.perf_counter()
    res = calibrate_lens(paths, (9, 6), 25.0)
    ms = (time.perf_counter() - t0) * 1000
    ref = json.loads((real / "ground_truth" / "opencv_left_calibration.json").read_text())
    ref = ref["reference_A_python_test"]
    print(f"lens_rms_px={res.lens.rms_px:.6f}")
    print(f"lens_rms_rel_err={abs(res.lens.rms_px / ref['expected_rms'] - 1):.5f}")
    print(f"lens_fx={res.lens.K[0, 0]:.3f}")
    print(f"lens_fx_rel_err={abs(res.lens.K[0, 0] / ref['expected_camera_matrix'][0][0] - 1):.5f}")
    print(f"lens_coverage={res.coverage:.3f}")
    print(f"lens_ms={ms:.0f}")


if __name__ == "__main__":
    bench_synthetic()
    bench_conditions()
    bench_renderer()
    bench_points()
    bench_lens()
