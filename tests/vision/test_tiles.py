"""Tiles: pale squares of a known size, found whole even where their mask is not."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration
from vision import Detector, DetectorConfig

SIDE_MM = 50.8


def _draw_back(level: np.ndarray, centre: tuple[float, float], angle_deg: float,
               face: float, line: float, z: int = 8) -> None:
    """A tile's back, 1 px per mm, into ``level``: a pale square whose printed border lies at
    its edge and whose cross (5 mm lines) cuts it into four quadrants, each about a coin
    across; drawn 8 times larger
    and shrunk (antialiased)."""
    n = int(SIDE_MM * 1.6) * z
    c, s = n / 2, SIDE_MM * z
    tile = np.zeros((n, n), np.float32)
    ink = np.zeros((n, n), np.float32)

    def square(h: float) -> np.ndarray:
        return np.array([[c - h, c - h], [c + h, c - h], [c + h, c + h], [c - h, c + h]],
                        np.int32)

    cv2.fillConvexPoly(tile, square(s / 2), 1.0)
    cv2.polylines(ink, [square(s / 2 - 2 * z)], True, 1.0, int(3 * z))
    for a, b in (((c, c - s / 2), (c, c + s / 2)), ((c - s / 2, c), (c + s / 2, c))):
        cv2.line(ink, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1.0, 5 * z)
    rot = cv2.getRotationMatrix2D((c, c), angle_deg, 1.0)
    tile = cv2.resize(cv2.warpAffine(tile, rot, (n, n)), (n // z, n // z),
                      interpolation=cv2.INTER_AREA)
    ink = cv2.resize(cv2.warpAffine(ink * tile.max(), rot, (n, n)), (n // z, n // z),
                     interpolation=cv2.INTER_AREA)
    ink = np.minimum(ink, tile)
    x0, y0 = (round(v) - (n // z) // 2 for v in centre)  # its centre on the pixel centre
    part = level[y0:y0 + n // z, x0:x0 + n // z]
    part[:] = part * (1 - tile) + face * (tile - ink) + line * ink


def test_a_tile_back_on_laminate_is_a_tile_not_coins() -> None:
    # a pale back on a pale laminate, seen from above at 1 px per mm: the bright mask keeps
    # only its four quadrants, each about a coin across; the tile is found where a square of
    # its size fits them, and none of them is a coin
    rng = np.random.default_rng(20601)
    level = np.full((600, 900), 176.0, np.float32)
    tiles = [(200.0, 180.0, 17.0), (420.0, 330.0, 64.0), (640.0, 200.0, 35.0),
             (250.0, 440.0, 80.0)]
    for x, y, a in tiles:
        _draw_back(level, (x, y), a, 196.0, 150.0)
    coins = [(560.0, 450.0), (579.1, 450.0), (598.2, 450.0)]  # a worm of three
    for x, y in coins:
        cv2.circle(level, (round(x), round(y)), 10, 200.0, -1)
    level = cv2.GaussianBlur(level, (0, 0), 0.8) + rng.normal(0.0, 3.0, level.shape)
    image = cv2.cvtColor(np.clip(level, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    det = Detector(Calibration((900, 600), np.eye(3)),
                   config=DetectorConfig(kinds=("tile", "coin"), namer=None))
    dets = det.detect(image).detections  # where each piece is seen: the picture is drawn flat
    is_tile = dets.kind == "tile"
    seen, angles, faces = dets.seen_mm[is_tile], dets.angle_deg[is_tile], dets.face[is_tile]
    assert len(seen) == len(tiles)
    for x, y, a in tiles:
        i = int(np.argmin(np.hypot(*(seen - [x, y]).T)))
        assert np.hypot(*(seen[i] - [x, y])) < 1.0
        off = (angles[i] + a) % 90  # the picture's y axis runs down: its angles turn back
        assert min(off, 90 - off) < 1.0
        assert faces[i] == "down"
    found_coins = dets.seen_mm[dets.kind == "coin"]
    assert len(found_coins) == len(coins)
    for c in found_coins:
        assert min(np.hypot(*(c - q)) for q in coins) < 1.0
