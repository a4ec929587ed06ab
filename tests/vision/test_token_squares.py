"""A token's marker of a few pixels a cell, lost by ArUco's own contour stage, is found as a
whole (its dark print, or the token's white square, of their sizes), its corners fitted to the
marker's outer edge and its cells read: named with its centre exact; a gingham's checks and a
square of bits of no marker name nothing."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration
from tabletop.markers import ARUCO_DICTIONARY
from vision.token_squares import candidate_squares, fitted_square
from vision.tokens import TokenConfig, detect_tokens, flattened, read_bits
from vision.topview import CameraGeometry

SIZE = (320, 240)
CAMERA = CameraGeometry(np.zeros(2), 1e6, 1000.0, "lens")  # far above: seen where it lies


def _calibration(px_per_mm: float, mirrored: bool = False) -> Calibration:
    """Table mm from frame pixels, the frame's centre at 0; ``mirrored``: the table's y up
    the frame (its x right), as on the Jungle board (x to file g, y to rank 9)."""
    s = 1.0 / px_per_mm
    t = -s if mirrored else s
    return Calibration(SIZE, np.array([[s, 0, -SIZE[0] / 2 * s], [0, t, -SIZE[1] / 2 * t],
                                       [0, 0, 1]]))


def _token(bits: np.ndarray, px_per_mm: float, centre_mm: tuple[float, float],
           angle_deg: float, blur: float, table: int = 110) -> tuple[np.ndarray, np.ndarray]:
    """A 30 mm white token with a 24 mm marker (6 x 6 cells, ``bits`` 0/255) on a table of
    grey ``table``, seen at ``px_per_mm``; the image and the marker's corners (px)."""
    up = 20  # drawn at 20 px a mm
    face = cv2.resize(bits.astype(np.uint8), (24 * up, 24 * up), interpolation=cv2.INTER_NEAREST)
    face = cv2.copyMakeBorder(face, 3 * up, 3 * up, 3 * up, 3 * up, cv2.BORDER_CONSTANT,
                              value=235)
    face = np.where(face < 128, 18, 235).astype(np.uint8)
    n = face.shape[0]
    a = np.radians(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * px_per_mm / up
    centre = np.array(SIZE, float) / 2 + np.array(centre_mm) * px_per_mm
    src = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    # pixel centres at integers: a face pixel's edge at -0.5
    dst = (src - 0.5 - (n - 1) / 2) @ R.T + centre
    H = cv2.getPerspectiveTransform(src - 0.5, np.float32(dst))
    img = cv2.warpPerspective(face, H, SIZE, flags=cv2.INTER_AREA, borderValue=table)
    mask = cv2.warpPerspective(np.full((n, n), 255, np.uint8), H, SIZE, flags=cv2.INTER_AREA)
    img = np.where(mask > 0, img, table).astype(np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), blur)
    inner = np.float32([[3 * up, 3 * up], [27 * up, 3 * up], [27 * up, 27 * up],
                        [3 * up, 27 * up]]) - 0.5
    return img, (inner - (n - 1) / 2) @ R.T + centre


def _marker_bits(marker_id: int) -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    return cv2.aruco.generateImageMarker(d, marker_id, 6, borderBits=1)


def _read(img: np.ndarray, px_per_mm: float, mirrored: bool = False
          ) -> tuple[list[int], np.ndarray]:
    cfg = TokenConfig()
    frame = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    det = detect_tokens(cfg, frame, _calibration(px_per_mm, mirrored), CAMERA)
    return [int(k) for k in det.marker_id], det.seen_mm


def test_corners_are_fitted_to_the_marker_edge_from_a_guess_a_pixel_off() -> None:
    img, q = _token(_marker_bits(57), 0.75, (5.0, -3.0), 31.0, 0.9)
    guess = q + np.array([[1.0, -0.8], [-0.9, 1.0], [0.7, 0.9], [-1.0, -0.6]])
    fitted = fitted_square(img.astype(np.float32), guess, 3.0, _calibration(0.75), 24.0)
    assert fitted is not None
    # matched corner to corner, whichever comes first
    err = min(float(np.abs(np.roll(fitted, k, axis=0) - q).max()) for k in range(4))
    assert err < 0.35, (fitted, q)


def test_corners_are_fitted_on_a_table_frame_mirrored_against_the_image() -> None:
    # the Jungle board's frame: each side's normal turns the other way round the square
    img, q = _token(_marker_bits(60), 0.75, (-4.0, 5.0), 17.0, 0.9)
    guess = q + np.array([[0.8, -1.0], [-1.0, 0.7], [0.9, 0.8], [-0.7, -0.9]])
    fitted = fitted_square(img.astype(np.float32), guess, 3.0, _calibration(0.75, True), 24.0)
    assert fitted is not None
    err = min(float(np.abs(np.roll(fitted, k, axis=0) - q).max()) for k in range(4))
    assert err < 0.35, (fitted, q)


def test_a_marker_of_three_pixels_a_cell_is_named_on_a_mirrored_table_frame() -> None:
    img, _ = _token(_marker_bits(63), 0.75, (6.0, -4.0), 12.0, 1.1)
    ids, seen = _read(img, 0.75, mirrored=True)
    assert ids == [63]
    assert np.hypot(*(seen[0] - (6.0, 4.0))) < 0.5, seen


def test_a_marker_square_is_found_without_arucos_contours() -> None:
    img, q = _token(_marker_bits(61), 0.75, (-8.0, 6.0), 22.0, 1.0)
    cal = _calibration(0.75)
    flat = flattened(img, 3.0)
    guesses = candidate_squares(img, flat, cal, 24.0, 30.0, 3.0)
    assert any(np.hypot(*(g.mean(axis=0) - q.mean(axis=0))) < 2.0 for g in guesses)


def test_a_marker_of_three_pixels_a_cell_is_named_with_its_centre_exact() -> None:
    for marker_id, angle, blur in ((50, 31.0, 0.9), (63, 12.0, 1.1), (57, 44.0, 1.0)):
        img, _ = _token(_marker_bits(marker_id), 0.75, (6.0, -4.0), angle, blur)
        ids, seen = _read(img, 0.75)
        assert ids == [marker_id]
        assert np.hypot(*(seen[0] - (6.0, -4.0))) < 0.5, seen


def test_a_square_of_bits_of_no_marker_names_nothing() -> None:
    bits = np.zeros((6, 6), np.uint8)
    bits[1:5, 1:5] = np.array([[255, 0, 255, 0], [0, 255, 0, 255],
                               [255, 0, 255, 0], [0, 255, 0, 255]])
    assert cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY)).identify(
        (bits[1:5, 1:5] < 128).astype(np.uint8), 0.0)[0] is False
    img, q = _token(bits, 0.75, (0.0, 0.0), 20.0, 0.9)
    assert read_bits(img, q) is None
    assert _read(img, 0.75)[0] == []


def test_a_gingham_cloth_at_the_same_scale_names_nothing() -> None:
    yy, xx = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    cell = 6  # 8 mm checks at 0.75 px a mm
    img = (150 + 45 * ((xx // cell) % 2) + 45 * ((yy // cell) % 2)).astype(np.uint8)
    img = cv2.GaussianBlur(255 - img, (0, 0), 0.9)
    assert _read(img, 0.75)[0] == []
