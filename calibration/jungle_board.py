"""The printable Jungle board and token sheet, and reading them back from a camera image.

The geometry (square size, corner marker positions in the board's millimetre frame) is
:mod:`tabletop.boards.jungle`, shared with the referee, so what is printed is what the referee
assumes. The board's four corner markers (ids 40-43) are its own calibration:
:func:`calibrate_from_board` maps image pixels to the board frame (x along the files a->g,
y along the ranks 1->9, origin at the outer corner of a1), the frame of a scene of tokens.

Tokens carry markers 50-65 (``50 + 8 * side + rank - 1``), the animal's name and rank, and a
coloured frame (red: first player, blue: second).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from calibration.errors import CalibrationError, MatNotFound
from calibration.homography import calibrate_from_markers, detect_markers
from calibration.model import Calibration, Lens
from tabletop.boards import jungle as g
from tabletop.boards.jungle import ANIMALS
from tabletop.errors import InputError, UsageError
from tabletop.markers import ARUCO_DICTIONARY, JUNGLE_TOKEN_IDS
from tabletop.printing import PAPER_MM, px_per_mm
from tabletop.scene import Piece, Scene

SIDE_COLOURS_BGR: tuple[tuple[int, int, int], tuple[int, int, int]] = ((40, 40, 200),
                                                                       (190, 100, 30))
"""Token frame colours: first player red, second player blue."""
SIDE_LABELS = ("first player (red, ranks 1-3)", "second player (blue, ranks 7-9)")
TOKEN_PAGE = "a4"
"""The token sheet's paper."""
_LAND = (200, 228, 206)
_WATER = (225, 175, 95)
_TRAP = (150, 185, 215)
_LINE = (60, 60, 60)


class BoardNotFound(MatNotFound):
    """The Jungle board's corner markers are not in the image (or too few of them)."""


def board_layout() -> dict[int, np.ndarray]:
    """Corner marker id -> (4, 2) corners (TL, TR, BR, BL) in the board frame, mm."""
    return {k: np.array(v, dtype=float) for k, v in g.BOARD_MARKERS.items()}


def token_id(side: int, animal: str) -> int:
    """The marker id on a side's animal token.

    >>> token_id(0, "tiger"), token_id(1, "rat")
    (55, 58)
    """
    return 50 + 8 * side + ANIMALS.index(animal)


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))


def _marker_bits(marker_id: int) -> np.ndarray:
    return cv2.aruco.generateImageMarker(_dictionary(), marker_id, 6, borderBits=1)


def draw_marker(img: np.ndarray, marker_id: int, x0_mm: float, y0_mm: float, side_mm: float,
                ppmm: float, rotate180: bool = False) -> None:
    """Draws a marker (black border included) with its top-left corner at ``(x0, y0)`` page mm.

    Each pixel takes the cell its centre falls in, so the printed corners are exact.
    """
    bits = _marker_bits(marker_id)
    if rotate180:
        bits = bits[::-1, ::-1]
    j0, j1 = int(np.floor(x0_mm * ppmm)), int(np.ceil((x0_mm + side_mm) * ppmm))
    i0, i1 = int(np.floor(y0_mm * ppmm)), int(np.ceil((y0_mm + side_mm) * ppmm))
    cx = ((np.arange(j0, j1) + 0.5) / ppmm - x0_mm) / side_mm * 6
    cy = ((np.arange(i0, i1) + 0.5) / ppmm - y0_mm) / side_mm * 6
    ok_x, ok_y = (cx >= 0) & (cx < 6), (cy >= 0) & (cy < 6)
    patch = bits[np.ix_(np.clip(cy.astype(int), 0, 5), np.clip(cx.astype(int), 0, 5))]
    region = img[i0:i1, j0:j1]
    mask = np.outer(ok_y, ok_x)
    region[mask] = patch[mask][:, None] if img.ndim == 3 else patch[mask]


def _px(v_mm: float, ppmm: float) -> int:
    return round(v_mm * ppmm)


def _fill(img: np.ndarray, x0: float, y0: float, x1: float, y1: float,
          colour: tuple[int, int, int], ppmm: float) -> None:
    img[_px(y0, ppmm):_px(y1, ppmm), _px(x0, ppmm):_px(x1, ppmm)] = colour


def _text(img: np.ndarray, text: str, x_mm: float, y_mm: float, height_mm: float, ppmm: float,
          colour: tuple[int, int, int] = (0, 0, 0), centre: bool = False,
          max_width_mm: float = 1e9) -> None:
    """Text with its baseline at ``y_mm`` (left end at ``x_mm``, or centred on it)."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * ppmm / 22.0
    width = cv2.getTextSize(text, font, scale, 1)[0][0]
    scale *= min(1.0, max_width_mm * ppmm / max(width, 1))
    thick = max(1, round(scale * 1.8))
    width = cv2.getTextSize(text, font, scale, thick)[0][0]
    x = _px(x_mm, ppmm) - (width // 2 if centre else 0)
    cv2.putText(img, text, (x, _px(y_mm, ppmm)), font, scale, colour, thick, cv2.LINE_AA)


def _text_upside_down(img: np.ndarray, text: str, x_mm: float, y_mm: float, height_mm: float,
                      ppmm: float, colour: tuple[int, int, int] = (0, 0, 0)) -> None:
    """Centred text turned 180 degrees (for the player at the top), centred on (x, y) mm."""
    h = _px(height_mm * 2.2, ppmm)
    w = _px(g.PAGE_MM[0], ppmm)
    upright = np.full((h, w, 3), 255, np.uint8)
    _text(upright, text, g.PAGE_MM[0] / 2, height_mm * 1.6, height_mm, ppmm, colour, centre=True)
    patch = upright[::-1, ::-1]
    i0 = _px(y_mm, ppmm) - h // 2
    j0 = _px(x_mm, ppmm) - w // 2
    region = img[i0:i0 + h, max(j0, 0):j0 + w]
    sub = patch[:, max(0, -j0):max(0, -j0) + region.shape[1]]
    dark = sub.min(axis=2) < 250
    region[dark] = sub[dark]


def make_board(dpi: float = 300.0) -> np.ndarray:
    """The board sheet (A3 portrait, rank 9 at the top) as a BGR image at ``dpi``."""
    if not 30 <= dpi <= 1200:
        raise UsageError(f"--dpi must be 30..1200, not {dpi:g}")
    ppmm = px_per_mm(dpi)
    pw, ph = g.PAGE_MM
    img = np.full((_px(ph, ppmm), _px(pw, ppmm), 3), 255, np.uint8)
    s = g.SQUARE_MM
    for sq in range(g.N_SQUARES):
        cx, cy = g.board_to_page_mm(*g.square_centre_mm(sq))
        x0, y0 = cx - s / 2, cy - s / 2
        colour = _WATER if sq in g.WATER else _TRAP if any(sq in t for t in g.TRAPS) else _LAND
        den_side = g.DENS.index(sq) if sq in g.DENS else None
        if den_side is not None:
            b, gr, r = SIDE_COLOURS_BGR[den_side]
            colour = (int(b * 0.3 + 255 * 0.7), int(gr * 0.3 + 255 * 0.7), int(r * 0.3 + 178))
        _fill(img, x0, y0, x0 + s, y0 + s, colour, ppmm)
        if sq in g.WATER:
            for k in range(3):  # waves
                yy = y0 + s * (0.3 + 0.2 * k)
                pts = np.array([[_px(x0 + s * (0.15 + 0.1 * i), ppmm),
                                 _px(yy + (1.2 if i % 2 else -1.2), ppmm)] for i in range(8)])
                cv2.polylines(img, [pts], False, (160, 110, 40), max(1, _px(0.5, ppmm)),
                              cv2.LINE_AA)
        if any(sq in t for t in g.TRAPS):
            m = s * 0.22
            for a, b2 in (((x0 + m, y0 + m), (x0 + s - m, y0 + s - m)),
                          ((x0 + s - m, y0 + m), (x0 + m, y0 + s - m))):
                cv2.line(img, (_px(a[0], ppmm), _px(a[1], ppmm)),
                         (_px(b2[0], ppmm), _px(b2[1], ppmm)), (90, 120, 160),
                         max(1, _px(0.8, ppmm)), cv2.LINE_AA)
            _text(img, "TRAP", cx, cy + s * 0.42, 3.0, ppmm, (60, 80, 110), centre=True)
        if den_side is not None:
            _text(img, "DEN", cx, cy + 3.0, 8.0, ppmm, SIDE_COLOURS_BGR[den_side], centre=True)
        _text(img, g.SQUARE_NAMES[sq], x0 + 1.2, y0 + 4.2, 2.6, ppmm, (90, 90, 90))
    ox, oy = g.BOARD_ORIGIN_ON_PAGE_MM
    bw, bh = g.BOARD_MM
    thick = max(1, _px(0.5, ppmm))
    for f in range(g.N_FILES + 1):
        x = _px(ox + f * s, ppmm)
        cv2.line(img, (x, _px(oy, ppmm)), (x, _px(oy + bh, ppmm)), _LINE, thick)
    for r in range(g.N_RANKS + 1):
        y = _px(oy + r * s, ppmm)
        cv2.line(img, (_px(ox, ppmm), y), (_px(ox + bw, ppmm), y), _LINE, thick)
    for marker_id, corners in g.BOARD_MARKERS.items():
        tl = g.board_to_page_mm(*corners[0])
        draw_marker(img, marker_id, tl[0], tl[1], g.MARKER_MM, ppmm)
        label_y = tl[1] + g.MARKER_MM / 2 + 1.0
        label_x = tl[0] + g.MARKER_MM + 2.0 if tl[0] < pw / 2 else tl[0] - 14.0
        _text(img, f"id {marker_id}", label_x, label_y, 2.5, ppmm, (120, 120, 120))
    bottom = oy + bh + g.MARKER_GAP_MM + g.MARKER_MM / 2
    _text(img, "THE ANIMAL GAME", pw / 2, bottom - 2.0, 6.0, ppmm, centre=True)
    _text(img, "first player (red) sits here - print at 100 % on A3", pw / 2, bottom + 6.0,
          3.2, ppmm, SIDE_COLOURS_BGR[0], centre=True)
    top = oy - g.MARKER_GAP_MM - g.MARKER_MM / 2
    _text_upside_down(img, "second player (blue) sits here", pw / 2, top, 3.6, ppmm,
                      SIDE_COLOURS_BGR[1])
    return img


@dataclass(frozen=True)
class TokenSlot:
    """Where a token is printed on the token sheet (page mm, top-left corner)."""

    side: int
    animal: str
    marker_id: int
    x0_mm: float
    y0_mm: float


def token_slots() -> list[TokenSlot]:
    """The 16 tokens' places on the token sheet: one side per half page, 4 a row."""
    pw, _ = PAPER_MM[TOKEN_PAGE]
    t, gap = g.TOKEN_MM, 12.0
    x_start = (pw - (4 * t + 3 * gap)) / 2
    slots = []
    for side in (0, 1):
        for i, animal in enumerate(reversed(ANIMALS)):
            row, col = divmod(i, 4)
            y0 = 30.0 + side * 130.0 + row * (t + gap)
            slots.append(TokenSlot(side, animal, token_id(side, animal),
                                   x_start + col * (t + gap), y0))
    return slots


def draw_token(img: np.ndarray, side: int, animal: str, x0_mm: float, y0_mm: float,
               ppmm: float, rank: int | None = None) -> None:
    """One token: coloured frame, its marker, the animal's name and rank."""
    t, m = g.TOKEN_MM, g.TOKEN_MARKER_MM
    frame = 2.0
    colour = SIDE_COLOURS_BGR[side]
    _fill(img, x0_mm, y0_mm, x0_mm + t, y0_mm + t, colour, ppmm)
    _fill(img, x0_mm + frame, y0_mm + frame, x0_mm + t - frame, y0_mm + t - frame,
          (255, 255, 255), ppmm)
    mx, my = x0_mm + (t - m) / 2, y0_mm + g.TOKEN_MARKER_TOP_MM
    draw_marker(img, token_id(side, animal), mx, my, m, ppmm)
    r = ANIMALS.index(animal) + 1 if rank is None else rank
    _text(img, f"{animal.upper()} {r}", x0_mm + t / 2, y0_mm + t - 3.4, 3.4, ppmm, colour,
          centre=True, max_width_mm=t - 2 * frame - 1.0)


def make_token_sheet(dpi: float = 300.0) -> np.ndarray:
    """The token sheet (A4 portrait): 16 tokens to cut out, as a BGR image at ``dpi``."""
    if not 30 <= dpi <= 1200:
        raise UsageError(f"--dpi must be 30..1200, not {dpi:g}")
    ppmm = px_per_mm(dpi)
    pw, ph = PAPER_MM[TOKEN_PAGE]
    img = np.full((_px(ph, ppmm), _px(pw, ppmm), 3), 255, np.uint8)
    _text(img, "THE ANIMAL GAME - tokens: cut along the coloured edges; print at 100 %",
          pw / 2, 14.0, 4.0, ppmm, centre=True, max_width_mm=pw - 20)
    for side in (0, 1):
        _text(img, SIDE_LABELS[side], pw / 2, 24.0 + side * 130.0, 3.6, ppmm,
              SIDE_COLOURS_BGR[side], centre=True)
    for slot in token_slots():
        draw_token(img, slot.side, slot.animal, slot.x0_mm, slot.y0_mm, ppmm)
    return img


def save_board(path: str | Path, dpi: float = 300.0) -> list[Path]:
    """Writes the board and the token sheet: a two-page PDF, or two PNGs (``X.png`` and
    ``X-tokens.png``). Returns the files written.

    Raises:
        UsageError: an output that is not .pdf or .png. InputError: a file cannot be written.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise UsageError(f"{p}: the output must end in .pdf or .png")
    if not p.parent.is_dir():
        raise InputError(f"{p}: cannot write (no folder {p.parent})")
    board = Image.fromarray(np.ascontiguousarray(make_board(dpi)[:, :, ::-1]))
    tokens = Image.fromarray(np.ascontiguousarray(make_token_sheet(dpi)[:, :, ::-1]))
    try:
        if suffix == ".pdf":
            board.save(p, "PDF", resolution=float(dpi), save_all=True, append_images=[tokens])
            return [p]
        second = p.with_name(p.stem + "-tokens.png")
        board.save(p, dpi=(dpi, dpi))
        tokens.save(second, dpi=(dpi, dpi))
        return [p, second]
    except OSError as exc:
        raise InputError(f"{p}: cannot write ({exc.strerror or exc})") from None


# ------------------------------------------------------------------ reading the board back

def calibrate_from_board(image_bgr: np.ndarray, lens: Lens | None = None) -> Calibration:
    """The homography from image pixels to the board's millimetre frame, from its corner markers.

    Raises:
        BoardNotFound: fewer than two of the corner markers 40-43 seen.
    """
    try:
        return calibrate_from_markers(image_bgr, board_layout(), lens,
                                      extra={"board": "jungle"})
    except MatNotFound as exc:
        raise BoardNotFound(f"the Jungle board's corner markers (ids 40-43) are not in view "
                            f"({exc})") from None


def read_token_scene(image_bgr: np.ndarray, calibration: Calibration) -> Scene:
    """The Jungle tokens seen in an image, as a scene in the board frame (marker centres).

    Args:
        image_bgr: The camera image.
        calibration: From :func:`calibrate_from_board` (pixels -> board mm).
    """
    img = np.asarray(image_bgr)
    if img.ndim not in (2, 3) or img.size == 0:
        raise CalibrationError("not an image")
    found = detect_markers(img)
    pieces = []
    for marker_id, corners in zip(found.ids, found.corners_px, strict=True):
        if int(marker_id) not in JUNGLE_TOKEN_IDS:
            continue
        mm = calibration.to_table(corners)
        centre = _quad_centre(mm)
        pieces.append(Piece("token", float(centre[0]), float(centre[1]), id=int(marker_id)))
    return Scene(tuple(pieces))


def _quad_centre(corners: np.ndarray) -> np.ndarray:
    """The intersection of a quadrilateral's diagonals (its centre under perspective)."""
    p0, p1, p2, p3 = corners
    d1, d2 = p2 - p0, p3 - p1
    a = np.array([d1, -d2]).T
    try:
        s = np.linalg.solve(a, p1 - p0)[0]
    except np.linalg.LinAlgError:
        return np.asarray(corners.mean(axis=0))
    return np.asarray(p0 + s * d1)
