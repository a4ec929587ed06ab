"""The printed board and token sheet: markers where the geometry says, read back by a camera."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.jungle_board import (
    BoardNotFound,
    calibrate_from_board,
    draw_token,
    make_board,
    make_token_sheet,
    read_token_scene,
    save_board,
    token_slots,
)
from calibration.synthetic import PinholeCamera, render_sheet
from referee.jungle import geometry as g
from referee.jungle.game import read_tokens
from referee.jungle.rules import ANIMALS
from tabletop.cli import main
from tabletop.markers import ARUCO_DICTIONARY
from tabletop.printing import px_per_mm
from tests.referee.jungle.helpers import START

DPI = 100.0


def detect(image: np.ndarray) -> dict[int, np.ndarray]:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(d, params).detectMarkers(
        cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert ids is not None
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def page_px_to_board_mm(points_px: np.ndarray) -> np.ndarray:
    ppmm = px_per_mm(DPI)
    page = (np.asarray(points_px) + 0.5) / ppmm  # OpenCV: pixel centres at integers
    ox, oy = g.BOARD_ORIGIN_ON_PAGE_MM
    return np.c_[page[:, 0] - ox, g.BOARD_MM[1] - (page[:, 1] - oy)]


@pytest.fixture(scope="module")
def board_png(tmp_path_factory):
    out = tmp_path_factory.mktemp("board") / "board.png"
    assert main(["board", "jungle", "-o", str(out), "--dpi", str(DPI)]) == 0
    return out


def test_printed_board_markers_are_where_the_geometry_says(board_png):
    image = cv2.imread(str(board_png))
    ppmm = px_per_mm(DPI)
    assert image.shape[:2] == (round(g.PAGE_MM[1] * ppmm), round(g.PAGE_MM[0] * ppmm))
    found = detect(image)
    assert set(found) == {40, 41, 42, 43}
    for marker_id, corners_px in found.items():
        got = page_px_to_board_mm(corners_px)
        want = np.array(g.BOARD_MARKERS[marker_id])
        assert np.abs(got - want).max() < 0.4, marker_id


def test_the_token_sheet_beside_the_png(board_png):
    sheet = cv2.imread(str(board_png.with_name("board-tokens.png")))
    found = detect(sheet)
    assert set(found) == set(range(50, 66))
    ppmm = px_per_mm(DPI)
    for slot in token_slots():
        centre = (found[slot.marker_id].mean(axis=0) + 0.5) / ppmm
        want = (slot.x0_mm + g.TOKEN_MM / 2,
                slot.y0_mm + g.TOKEN_MARKER_TOP_MM + g.TOKEN_MARKER_MM / 2)
        assert np.abs(centre - want).max() < 0.4
        assert slot.marker_id == 50 + 8 * slot.side + ANIMALS.index(slot.animal)


def test_the_pdf_has_two_pages(tmp_path):
    out = tmp_path / "board.pdf"
    assert save_board(out, dpi=40) == [out]
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and b"/Count 2" in data


@pytest.mark.parametrize(("args", "code", "message"), [
    (["board", "jungle", "-o", "board.jpg"], 2, "must end in .pdf or .png"),
    (["board", "jungle", "-o", "/nonexistent-dir/board.png", "--dpi", "72"], 1, "cannot write"),
    (["board", "jungle", "-o", "b.png", "--dpi", "5"], 2, "--dpi: must be 72..600"),
])
def test_board_command_errors_are_one_line(args, code, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        rc = main(args)
    except SystemExit as exit_:  # a usage error leaves through argparse
        rc = exit_.code
    assert rc == code
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_board_command_needs_the_game(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["board", "chess", "-o", "board.png"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_a_camera_sees_tokens_on_their_squares():
    """Print the board, put the start position's tokens on it (the rat on g4 instead of g3),
    photograph it with a tilted synthetic camera, calibrate from the corner markers, read the
    tokens, and map them to squares."""
    sheet = make_board(DPI)
    ppmm = px_per_mm(DPI)
    placed = {}
    for side in (0, 1):
        for sq_name, animal in START[side].items():
            target = "g4" if sq_name == "g3" else sq_name
            sq = g.parse_square(target)
            cx, cy = g.board_to_page_mm(*g.square_centre_mm(sq))
            # the token's marker sits 2 mm above the token's centre; put the token so
            draw_token(sheet, side, animal, cx - g.TOKEN_MM / 2, cy - g.TOKEN_MM / 2 + 2.0, ppmm)
            placed[50 + 8 * side + ANIMALS.index(animal)] = sq
    cam = PinholeCamera.look_at((170.0, 330.0, -720.0), (148.5, 210.0, 0.0),
                                image_size=(1920, 1080), hfov_deg=62.0, roll_deg=90.0)
    photo = render_sheet(cam, sheet, DPI, seed=3, supersample=2)
    cal = calibrate_from_board(photo)
    assert cal.reprojection_mm < 0.5
    scene = read_token_scene(photo, cal)
    assert sorted(p.id for p in scene.pieces) == sorted(placed)
    reading = read_tokens(scene)
    assert reading.problem is None
    assert {c + 49: sq for c, sq in reading.squares.items()} == placed
    for p in scene.pieces:
        hit = g.locate_mm(p.x_mm, p.y_mm)
        assert max(abs(v) for v in hit.offset_mm) < 1.5


def test_no_board_in_view_is_one_clear_error():
    blank = np.full((480, 640, 3), 200, np.uint8)
    with pytest.raises(BoardNotFound, match="corner markers"):
        calibrate_from_board(blank)


def test_token_sheet_and_board_sizes():
    ppmm = px_per_mm(50)
    assert make_token_sheet(50).shape[:2] == (round(297 * ppmm), round(210 * ppmm))
    assert make_board(50).shape[:2] == (round(420 * ppmm), round(297 * ppmm))


def test_board_command_calibrates_a_photo_in_the_board_frame(tmp_path, capsys):
    sheet = make_board(DPI)
    cam = PinholeCamera.look_at((120.0, 300.0, -700.0), (148.5, 210.0, 0.0),
                                image_size=(1280, 960), hfov_deg=60.0)
    photo = render_sheet(cam, sheet, DPI, seed=5, supersample=2)
    img = tmp_path / "photo.png"
    cv2.imwrite(str(img), photo)
    out = tmp_path / "cal.json"
    assert main(["board", "jungle", "--photo", str(img), "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("reprojection_mm=") and float(lines[-1].split("=")[1]) < 0.5
    from calibration.model import Calibration
    cal = Calibration.load(out)
    # the centre of d5 on the page, seen by the camera, maps to d5's centre in the board frame
    page = np.array(g.board_to_page_mm(*g.square_centre_mm(g.parse_square("d5"))))
    px = cv2.perspectiveTransform(page.reshape(1, 1, 2), cam.table_to_image()).reshape(1, 2)
    assert np.allclose(cal.to_table(px)[0], g.square_centre_mm(g.parse_square("d5")), atol=0.5)


def test_board_command_photo_errors(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 128, np.uint8))
    assert main(["board", "jungle", "--photo", str(blank), "-o", str(tmp_path / "c.json")]) == 1
    err = capsys.readouterr().err
    assert "blank.png" in err and "corner markers" in err and len(err.splitlines()) == 1
    assert main(["board", "jungle", "--photo", str(blank), "-o", str(tmp_path / "c.pdf")]) == 2
    assert "(.json)" in capsys.readouterr().err
