"""Things on a table that are not pieces: a printed page, a graph page, a notebook, playing
cards, a phone, a mug, a pencil, dice.

Flat things are :class:`~tabletop.render.settings.Decal` sheets; raised ones are solids
(:mod:`~tabletop.render.shapes`) that cast shadows and hide what is behind them. Each item comes
with its footprint on the table (to keep pieces off it) and its entry for the ground truth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.render.faces import FACE_PPM
from tabletop.render.settings import Decal
from tabletop.render.shapes import Box, Cylinder, RoundedBox, Shape

CLUTTER: tuple[str, ...] = ("page", "grid", "notebook", "cards", "phone", "mug", "pencil", "dice")
"""Kinds of clutter :func:`make_clutter` draws."""

SHEET_PPM = 5.0
"""Pixels per millimetre of the printed sheets' pictures."""


@dataclass(frozen=True, eq=False)
class Clutter:
    """Clutter of one kind on the table.

    Attributes:
        kind: One of :data:`CLUTTER`.
        decals: Flat sheets.
        props: Raised solids.
        footprint: Where it lies on the table (shapely geometry, mm).
        items: One truth entry per object: ``{"kind", "centre_mm", "size_mm", "angle_deg",
            "height_mm"}``.
    """

    kind: str
    decals: tuple[Decal, ...] = ()
    props: tuple[Shape, ...] = ()
    footprint: BaseGeometry = field(default_factory=Polygon)
    items: tuple[dict[str, Any], ...] = ()


def rect(centre_mm: tuple[float, float], size_mm: tuple[float, float],
         angle_deg: float) -> Polygon:
    """A turned rectangle on the table."""
    w, h = size_mm
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    pts = [(centre_mm[0] + ca * x - sa * y, centre_mm[1] + sa * x + ca * y)
           for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]
    return Polygon(pts)


def _item(kind: str, centre: tuple[float, float], size: tuple[float, float], angle: float,
          height: float) -> dict[str, Any]:
    return {"kind": kind, "centre_mm": [round(centre[0], 3), round(centre[1], 3)],
            "size_mm": [round(size[0], 3), round(size[1], 3)],
            "angle_deg": round(angle % 360.0, 3), "height_mm": height}


def _paper(size_mm: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    w, h = (round(v * SHEET_PPM) for v in size_mm)
    tone = rng.uniform(0.93, 1.0)
    warm = rng.uniform(0.0, 0.04)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (round(255 * tone * (1 - warm)), round(255 * tone * (1 - warm / 2)),
              round(255 * tone))
    return img


def page_image(rng: np.random.Generator, size_mm: tuple[float, float]) -> np.ndarray:
    """A printed page of text: margins, a heading, paragraphs of words."""
    img = _paper(size_mm, rng)
    h, w = img.shape[:2]
    p = SHEET_PPM
    left, right = round(rng.uniform(18, 28) * p), w - round(rng.uniform(18, 28) * p)
    y = round(rng.uniform(20, 30) * p)
    line = rng.uniform(4.5, 6.5) * p
    size = line / 30.0 * rng.uniform(0.9, 1.1)
    letters = "abcdefghijklmnopqrstuvwxyz"
    cv2.putText(img, "".join(rng.choice(list(letters.upper()), 8)), (left, y),
                cv2.FONT_HERSHEY_DUPLEX, size * 1.6, (30, 30, 30), max(1, round(p / 2.5)),
                cv2.LINE_AA)
    y += round(2.2 * line)
    while y < h - 25 * p:
        x = left + (round(4 * p) if rng.uniform() < 0.15 else 0)
        end = right
        if rng.uniform() < 0.12:  # a paragraph's last line
            end = round(left + rng.uniform(0.3, 0.8) * (right - left))
        while x < end:
            word = "".join(rng.choice(list(letters), int(rng.integers(2, 9))))
            (tw, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, size, 1)
            if x + tw > end:
                break
            cv2.putText(img, word, (x, round(y)), cv2.FONT_HERSHEY_SIMPLEX, size, (40, 40, 40),
                        max(1, round(p / 4)), cv2.LINE_AA)
            x += tw + round(1.8 * p)
        y += line * (2.0 if rng.uniform() < 0.08 else 1.0)
    return img


def grid_image(rng: np.random.Generator, size_mm: tuple[float, float]) -> np.ndarray:
    """Graph paper: fine lines every few millimetres, bolder every fifth, sometimes a sketch."""
    img = _paper(size_mm, rng)
    h, w = img.shape[:2]
    p = SHEET_PPM
    step = rng.choice([4.0, 5.0, 5.0, 10.0]) * p
    ink = (200, 150, 90) if rng.uniform() < 0.6 else (150, 150, 150)
    bold = tuple(int(c * 0.75) for c in ink)
    margin = round(rng.uniform(8, 14) * p)
    k = 0
    x = float(margin)
    while x < w - margin:
        cv2.line(img, (round(x), margin), (round(x), h - margin), bold if k % 5 == 0 else ink,
                 2 if k % 5 == 0 else 1, cv2.LINE_AA)
        x += step
        k += 1
    k = 0
    y = float(margin)
    while y < h - margin:
        cv2.line(img, (margin, round(y)), (w - margin, round(y)), bold if k % 5 == 0 else ink,
                 2 if k % 5 == 0 else 1, cv2.LINE_AA)
        y += step
        k += 1
    if rng.uniform() < 0.6:  # a pencil sketch: a few strokes
        pts = (rng.uniform(0.2, 0.8, (int(rng.integers(3, 7)), 2)) * (w, h)).astype(np.int32)
        cv2.polylines(img, [pts], False, (70, 70, 75), max(1, round(p / 2)), cv2.LINE_AA)
    return img


def notebook_image(rng: np.random.Generator, size_mm: tuple[float, float]) -> np.ndarray:
    """A lined notebook page: ruled lines, a red margin, spiral holes, some handwriting."""
    img = _paper(size_mm, rng)
    h, w = img.shape[:2]
    p = SHEET_PPM
    step = rng.uniform(6.0, 9.0) * p
    top = round(rng.uniform(18, 26) * p)
    y = float(top)
    while y < h - 8 * p:
        cv2.line(img, (0, round(y)), (w, round(y)), (210, 170, 140), max(1, round(p / 3)),
                 cv2.LINE_AA)
        y += step
    mx = round(rng.uniform(22, 32) * p)
    cv2.line(img, (mx, 0), (mx, h), (120, 120, 230), max(1, round(p / 3)), cv2.LINE_AA)
    hole = 8.5 * p
    yy = hole
    while yy < h - hole / 2:  # spiral binding holes down the left edge
        cv2.circle(img, (round(3.5 * p), round(yy)), round(1.6 * p), (70, 70, 70), -1,
                   cv2.LINE_AA)
        yy += hole
    for row in range(int(rng.integers(2, 8))):  # a few handwritten lines
        yl = top + (row + 1) * step - 1.5 * p
        if yl > h - 10 * p:
            break
        xs = np.linspace(mx + 3 * p, rng.uniform(0.4, 0.95) * w, 40)
        ys = yl + np.sin(xs / (rng.uniform(1.5, 3.0) * p)) * 1.2 * p
        pts = np.column_stack([xs, ys]).astype(np.int32)
        cv2.polylines(img, [pts], False, (120, 60, 40), max(1, round(p / 3)), cv2.LINE_AA)
    return img


CARD_MM = (63.0, 88.0)
"""A playing card (poker size)."""


def _pip(mask: np.ndarray, suit: str, centre: tuple[float, float], size: float) -> None:
    """Draws one suit pip (filled) into a uint8 mask."""
    cx, cy = centre
    s = size
    if suit == "diamonds":
        pts = np.array([[cx, cy - s], [cx + 0.7 * s, cy], [cx, cy + s], [cx - 0.7 * s, cy]])
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)
        return
    if suit in ("hearts", "spades"):
        sign = 1.0 if suit == "hearts" else -1.0
        r = 0.5 * s
        for dx in (-0.48 * s, 0.48 * s):
            cv2.circle(mask, (round(cx + dx), round(cy - sign * 0.25 * s)), round(r), 255, -1,
                       cv2.LINE_AA)
        pts = np.array([[cx - 0.97 * s, cy - sign * 0.1 * s], [cx + 0.97 * s, cy - sign * 0.1 * s],
                        [cx, cy + sign * 1.0 * s]])
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)
    else:  # clubs
        r = 0.42 * s
        for dx, dy in ((0.0, -0.5 * s), (-0.5 * s, 0.15 * s), (0.5 * s, 0.15 * s)):
            cv2.circle(mask, (round(cx + dx), round(cy + dy)), round(r), 255, -1, cv2.LINE_AA)
    if suit in ("spades", "clubs"):
        stem = np.array([[cx, cy], [cx + 0.35 * s, cy + 1.0 * s], [cx - 0.35 * s, cy + 1.0 * s]])
        cv2.fillPoly(mask, [np.round(stem).astype(np.int32)], 255, cv2.LINE_AA)


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_SUITS = ("hearts", "diamonds", "spades", "clubs")


@lru_cache(maxsize=64)
def card_image(rank: str, suit: str) -> np.ndarray:
    """A playing card's face: white, a thin border, corner indices and pips (court cards a
    coloured frame and a big letter)."""
    p = 6.0
    w, h = round(CARD_MM[0] * p), round(CARD_MM[1] * p)
    img = np.full((h, w, 3), 250, np.uint8)
    red = suit in ("hearts", "diamonds")
    ink = (40, 30, 200) if red else (25, 25, 25)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (200, 200, 200), 2)
    mask = np.zeros((h, w), np.uint8)
    scale = 1.0 * p / 6.0
    for flip in (False, True):
        m = np.zeros((h, w), np.uint8)
        cv2.putText(m, rank, (round(3 * p), round(11 * p)), cv2.FONT_HERSHEY_SIMPLEX,
                    1.3 * scale, 255, max(2, round(p / 2)), cv2.LINE_AA)
        _pip(m, suit, (5.5 * p, 16.5 * p), 2.6 * p)
        mask = np.maximum(mask, m[::-1, ::-1] if flip else m)
    n = RANKS.index(rank) + 1
    if n > 10:
        cv2.rectangle(img, (round(13 * p), round(14 * p)), (round(w - 13 * p), round(h - 14 * p)),
                      (60, 140, 200) if red else (160, 90, 40), max(2, round(p / 2)))
        cv2.putText(mask, rank, (round(w / 2 - 9 * p), round(h / 2 + 9 * p)),
                    cv2.FONT_HERSHEY_DUPLEX, 3.5 * scale, 255, max(3, round(p)), cv2.LINE_AA)
    else:
        cols = (0.5,) if n in (1, 2, 3) else (0.3, 0.7)
        per = math.ceil(n / len(cols)) if n > 3 else n
        size = (9.0 if n == 1 else 4.0) * p
        k = 0
        for c in cols:
            for r in range(per):
                if k >= n:
                    break
                y = 0.22 + 0.56 * (r + 0.5) / per
                _pip(mask, suit, (c * w, y * h), size)
                k += 1
    img[mask > 0] = (img[mask > 0] * (1 - mask[mask > 0, None] / 255.0)
                     + np.array(ink) * (mask[mask > 0, None] / 255.0)).astype(np.uint8)
    img.setflags(write=False)
    return img


def _sheet(kind: str, rng: np.random.Generator, centre: tuple[float, float],
           angle: float) -> Clutter:
    if kind == "page":
        size = (210.0, 297.0) if rng.uniform() < 0.7 else (148.0, 210.0)
        img = page_image(rng, size)
    elif kind == "grid":
        size = (210.0, 297.0) if rng.uniform() < 0.6 else (148.0, 210.0)
        img = grid_image(rng, size)
    else:
        size = (148.0, 210.0) if rng.uniform() < 0.5 else (170.0, 240.0)
        img = notebook_image(rng, size)
    decal = Decal(img, size, centre, angle)
    return Clutter(kind, (decal,), (), rect(centre, size, angle),
                   (_item(kind, centre, size, angle, 0.1),))


def _cards(rng: np.random.Generator, centre: tuple[float, float], angle: float) -> Clutter:
    n = int(rng.integers(1, 6))
    decals, items, polys = [], [], []
    fan = rng.uniform() < 0.5
    for k in range(n):
        if fan:  # a fanned hand: overlapping cards turning about a corner
            a = angle + (k - (n - 1) / 2) * rng.uniform(8, 14)
            off = np.array([math.sin(math.radians(a)), -math.cos(math.radians(a))]) * 30.0
            c = (centre[0] + off[0], centre[1] + off[1])
        else:  # a loose pile: cards offset and turned
            c = (centre[0] + rng.uniform(-25, 25), centre[1] + rng.uniform(-25, 25))
            a = angle + rng.uniform(-35, 35)
        rank = str(rng.choice(RANKS))
        suit = str(rng.choice(CARD_SUITS))
        decals.append(Decal(card_image(rank, suit), CARD_MM, c, a))
        items.append(_item("cards", c, CARD_MM, a, 0.3))
        polys.append(rect(c, CARD_MM, a))
    foot = polys[0]
    for poly in polys[1:]:
        foot = foot.union(poly)
    return Clutter("cards", tuple(decals), (), foot, tuple(items))


def phone_face(size_mm: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """A phone's top: a black glass screen with a thin bezel and a camera notch, sometimes lit."""
    w, h = (round(v * FACE_PPM) for v in size_mm)
    img = np.empty((h, w, 3), np.float32)
    img[:] = (0.05, 0.05, 0.055)
    p = FACE_PPM
    inner = (round(3 * p), round(8 * p), w - round(3 * p), h - round(8 * p))
    if rng.uniform() < 0.35:  # the screen is on: a dim coloured wallpaper
        colour = rng.uniform(0.15, 0.5, 3)
        img[inner[1]:inner[3], inner[0]:inner[2]] = colour
    else:
        img[inner[1]:inner[3], inner[0]:inner[2]] = (0.025, 0.025, 0.03)
    cv2.circle(img, (w // 2, round(4 * p)), round(1.2 * p), (0.12, 0.12, 0.14), -1, cv2.LINE_AA)
    return img


def mug_top(radius_mm: float, colour: tuple[float, float, float],
            rng: np.random.Generator) -> np.ndarray:
    """A mug seen from above: its rim, the dark inside (coffee or the mug's own shadow)."""
    n = round(2 * radius_mm * FACE_PPM)
    img = np.empty((n, n, 3), np.float32)
    img[:] = colour
    c = (n - 1) / 2.0
    inside = np.asarray((0.06, 0.09, 0.14) if rng.uniform() < 0.5 else
                        tuple(0.45 * v for v in colour), np.float32)
    rim = (radius_mm - 4.0) * FACE_PPM
    cv2.circle(img, (round(c * 16), round(c * 16)), round(rim * 16), inside.tolist(), -1,
               cv2.LINE_AA, 4)
    return img


def pip_face(size_mm: float, value: int, body: tuple[float, float, float],
             ink: tuple[float, float, float]) -> np.ndarray:
    """A standard die's top: ``value`` pips."""
    n = round(size_mm * FACE_PPM)
    img = np.empty((n, n, 3), np.float32)
    img[:] = body
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    c = (n - 1) / 2.0
    for sx, sy in spots:
        cv2.circle(img, (round((c + sx * 0.27 * n) * 16), round((c + sy * 0.27 * n) * 16)),
                   round(0.09 * n * 16), ink, -1, cv2.LINE_AA, 4)
    return img


def _frozen(img: np.ndarray) -> np.ndarray:
    img = np.clip(img, 0.0, 1.0).astype(np.float32)
    img.setflags(write=False)
    return img


def _raised(kind: str, rng: np.random.Generator, centre: tuple[float, float],
            angle: float) -> Clutter:
    if kind == "phone":
        size = (rng.uniform(68, 78), rng.uniform(140, 162))
        h = rng.uniform(7.5, 9.5)
        box = RoundedBox(centre, h, angle, _frozen(phone_face(size, rng)), size[0],
                         (0.05, 0.05, 0.05), (0.12, 0.12, 0.13), gloss=0.4, shininess=60.0,
                         bevel_mm=2.5, half_mm=size[0] / 2, half_y_mm=size[1] / 2,
                         corner_mm=float(rng.uniform(6.0, 11.0)))
        return Clutter(kind, (), (box,), rect(centre, size, angle),
                       (_item(kind, centre, size, angle, h),))
    if kind == "mug":
        r = rng.uniform(38, 46)
        h = rng.uniform(85, 105)
        colours = ((0.92, 0.93, 0.93), (0.55, 0.25, 0.12), (0.15, 0.15, 0.6), (0.2, 0.45, 0.2),
                   (0.15, 0.15, 0.16))
        colour = colours[int(rng.integers(len(colours)))]
        cyl = Cylinder(centre, h, 0.0, _frozen(mug_top(r, colour, rng)), 2 * r, colour, colour,
                       gloss=0.3, shininess=40.0, bevel_mm=0.0, radius_mm=r)
        return Clutter(kind, (), (cyl,), Point(centre).buffer(r),
                       (_item(kind, centre, (2 * r, 2 * r), 0.0, h),))
    if kind == "pencil":
        length, width = rng.uniform(120, 190), 7.0
        body = ((0.10, 0.75, 0.95), (0.2, 0.2, 0.2), (0.55, 0.35, 0.15), (0.2, 0.55, 0.2))
        colour = body[int(rng.integers(len(body)))]
        img = np.empty((round(width * FACE_PPM), round(length * FACE_PPM), 3), np.float32)
        img[:] = colour
        tip = round(18 * FACE_PPM)
        img[:, :tip] = (0.55, 0.72, 0.85)  # the sharpened wood
        img[:, :round(4 * FACE_PPM)] = (0.15, 0.15, 0.15)  # the lead
        img[:, -round(10 * FACE_PPM):] = (0.65, 0.65, 0.68)  # the ferrule
        img[round(width * FACE_PPM / 2) - 2:round(width * FACE_PPM / 2) + 2] *= 0.8  # an edge
        box = Box(centre, width, angle, _frozen(img), length, colour,
                  tuple(0.8 * v for v in colour), gloss=0.2, shininess=30.0, bevel_mm=1.0,
                  half_mm=length / 2, half_y_mm=width / 2)
        return Clutter(kind, (), (box,), rect(centre, (length, width), angle),
                       (_item(kind, centre, (length, width), angle, width),))
    # dice: two or three standard dice near each other
    n = int(rng.integers(2, 4))
    props, items, polys = [], [], []
    red = rng.uniform() < 0.3
    body = (0.15, 0.15, 0.7) if red else (0.9, 0.92, 0.92)
    ink = (0.95, 0.95, 0.95) if red else (0.08, 0.08, 0.08)
    size = rng.uniform(14, 17)
    for k in range(n):
        a = k * 2 * math.pi / n + rng.uniform(-0.3, 0.3)
        c = (centre[0] + 16 * math.cos(a) * (n > 1), centre[1] + 16 * math.sin(a) * (n > 1))
        ang = float(rng.uniform(0, 90))
        face = _frozen(pip_face(size, int(rng.integers(1, 7)), body, ink))
        props.append(Box(c, size, ang, face, size, body, tuple(0.85 * v for v in body),
                         gloss=0.15, shininess=25.0, bevel_mm=1.2, half_mm=size / 2))
        items.append(_item("dice", c, (size, size), ang, size))
        polys.append(rect(c, (size, size), ang))
    foot = polys[0]
    for poly in polys[1:]:
        foot = foot.union(poly)
    return Clutter("dice", (), tuple(props), foot, tuple(items))


def make_clutter(kind: str, rng: np.random.Generator, centre_mm: tuple[float, float],
                 angle_deg: float) -> Clutter:
    """One piece of clutter of ``kind`` (:data:`CLUTTER`) around ``centre_mm``.

    Raises:
        ValueError: an unknown kind.
    """
    if kind in ("page", "grid", "notebook"):
        return _sheet(kind, rng, centre_mm, angle_deg)
    if kind == "cards":
        return _cards(rng, centre_mm, angle_deg)
    if kind in ("phone", "mug", "pencil", "dice"):
        return _raised(kind, rng, centre_mm, angle_deg)
    raise ValueError(f"clutter kind must be one of {', '.join(CLUTTER)}, not {kind!r}")
