"""The printable mat: layout, exact drawing, the command."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest
from PIL import Image

from calibration.homography import detect_markers
from calibration.mat import (
    BAR_MM,
    MARGIN_MM,
    PAPER_MARKER_IDS,
    layout_from_json,
    make_mat,
    mat_layout,
)
from tabletop.cli import main
from tabletop.markers import MAT_IDS
from tabletop.printing import PAPER_MM, px_per_mm


@pytest.mark.parametrize("paper", list(PAPER_MM))
def test_layout_uses_mat_ids_inside_the_sheet_without_overlap(paper):
    corners = mat_layout(paper)
    w, h = PAPER_MM[paper]
    assert set(corners) <= set(MAT_IDS)
    assert PAPER_MARKER_IDS[paper] in corners
    assert len(corners) >= 12
    for c in corners.values():
        assert c.shape == (4, 2)
        assert c[:, 0].min() >= MARGIN_MM - 1e-9 and c[:, 0].max() <= w - MARGIN_MM + 1e-9
        assert c[:, 1].min() >= MARGIN_MM - 1e-9 and c[:, 1].max() <= h - MARGIN_MM + 1e-9
        # TL, TR, BR, BL: clockwise in an image frame (y down)
        assert c[1, 0] > c[0, 0] and c[2, 1] > c[1, 1] and c[3, 0] < c[2, 0]
    for a, b in itertools.combinations(corners.values(), 2):
        gap = max(b[:, 0].min() - a[:, 0].max(), a[:, 0].min() - b[:, 0].max(),
                  b[:, 1].min() - a[:, 1].max(), a[:, 1].min() - b[:, 1].max())
        assert gap >= 10.0  # a quiet zone between markers


def test_paper_markers_are_distinct_so_the_mat_names_its_paper():
    assert len(set(PAPER_MARKER_IDS.values())) == len(PAPER_MM)
    for paper, marker in PAPER_MARKER_IDS.items():
        others = set(PAPER_MARKER_IDS.values()) - {marker}
        assert not others & set(mat_layout(paper))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_drawn_markers_are_where_the_layout_says(paper):
    sheet = make_mat(paper, dpi=100)
    ppmm = px_per_mm(sheet.dpi)
    assert sheet.image_bgr.shape[:2] == (round(sheet.size_mm[1] * ppmm),
                                         round(sheet.size_mm[0] * ppmm))
    found = detect_markers(sheet.image_bgr)
    assert sorted(found.ids.tolist()) == sorted(sheet.marker_corners_mm)
    for k, c in zip(found.ids, found.corners_px, strict=True):
        # pixel centres: mm = (px + 0.5) / ppmm
        expected_px = sheet.marker_corners_mm[int(k)] * ppmm - 0.5
        assert np.abs(c - expected_px).max() < 0.75


def test_scale_bar_is_100_mm_long():
    sheet = make_mat("a4", dpi=300)
    ppmm = px_per_mm(sheet.dpi)
    grey = sheet.image_bgr[:, :, 0]
    row = round(sheet.size_mm[1] / 2 * ppmm + 0.5 * ppmm)  # inside the 1 mm thick bar
    dark = np.flatnonzero(grey[row] < 128)
    assert abs((dark.max() - dark.min() + 1) / ppmm - BAR_MM) < 0.6


def test_layout_json_round_trips_and_scales():
    lay = make_mat("a3", dpi=50).layout()
    back = layout_from_json(lay)
    assert set(back) == set(mat_layout("a3"))
    assert lay["paper"] == "a3" and lay["marker_mm"] == 40.0


def test_mat_command_writes_a_png_of_the_paper_size(tmp_path, capsys):
    out = tmp_path / "mat.png"
    assert main(["mat", "-o", str(out), "--paper", "letter", "--dpi", "100"]) == 0
    with Image.open(out) as img:
        size = img.size
    assert size == (round(215.9 / 25.4 * 100), round(279.4 / 25.4 * 100))
    assert "ruler" in capsys.readouterr().out


def test_mat_command_writes_a_pdf(tmp_path):
    out = tmp_path / "mat.pdf"
    assert main(["mat", "-o", str(out), "--dpi", "100"]) == 0
    assert out.read_bytes()[:5] == b"%PDF-"


def run(args: list[str]) -> int:
    """The command line's exit code (argparse's usage errors exit by SystemExit)."""
    try:
        return main(args)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize("args, code", [
    (["mat", "-o", "x.jpg"], 2),
    (["mat", "-o", "x.png", "--paper", "a5"], 2),
    (["mat", "-o", "x.png", "--dpi", "0"], 2),
    (["mat", "-o", "no/such/dir/x.png"], 1),
])
def test_mat_command_refuses_bad_usage_in_one_line(tmp_path, monkeypatch, capsys, args, code):
    monkeypatch.chdir(tmp_path)
    assert run(args) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_drawn_marker_bits_are_the_dictionary_s():
    sheet = make_mat("a4", dpi=120)
    ppmm = px_per_mm(sheet.dpi)
    c = sheet.marker_corners_mm[5] * ppmm
    x0, y0 = np.round(c[0]).astype(int)
    x1, y1 = np.round(c[2]).astype(int)
    patch = cv2.resize(sheet.image_bgr[y0:y1, x0:x1, 0], (6, 6), interpolation=cv2.INTER_AREA)
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
    bits = cv2.aruco.generateImageMarker(d, 5, 6, borderBits=1)
    assert np.array_equal(patch > 128, bits > 128)
