"""Drawing detections on a frame (supervision-style annotators: style in ``__init__``).

>>> import numpy as np
>>> from tabletop.scene import Scene
>>> from vision.detector import FrameResult
>>> from vision.detections import Detections
>>> img = np.zeros((40, 60, 3), np.uint8)
>>> res = FrameResult(Scene.empty(), np.zeros((0, 2)), {}, Detections.empty())
>>> out = annotate(img, res)
>>> out.shape, out is img
((40, 60, 3), False)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.pieceset import SEGMENT_COLOURS_HEX, SUIT_COLOURS_HEX, hex_to_rgb
from vision.detector import FrameResult


def _bgr(hex_colour: str) -> tuple[int, int, int]:
    r, g, b = hex_to_rgb(hex_colour)
    return (b, g, r)


SUIT_BGR = {k: _bgr(v) for k, v in SUIT_COLOURS_HEX.items()}
SEGMENT_BGR = {k: _bgr(v) for k, v in SEGMENT_COLOURS_HEX.items()}
UNKNOWN_BGR = (200, 200, 200)


@dataclass(frozen=True)
class PieceAnnotator:
    """Marks each piece: a ring in its suit's colour (moons drawn white on dark), its index.

    Attributes:
        radius_px: Ring radius.
        thickness: Line thickness.
        labels: Write each piece's index (as corrections name it) and marker ids.
    """

    radius_px: int = 12
    thickness: int = 2
    labels: bool = True

    def annotate(self, image: np.ndarray, result: FrameResult) -> np.ndarray:
        """A copy of ``image`` with the pieces drawn."""
        out = image.copy()
        for i, (p, c) in enumerate(zip(result.scene.pieces, result.centres_px, strict=True)):
            x, y = round(c[0]), round(c[1])
            colour = UNKNOWN_BGR
            if p.suit is not None:
                colour = SUIT_BGR.get(p.suit, UNKNOWN_BGR)
                if p.suit == "moons":
                    colour = (255, 255, 255)
            elif p.color is not None:
                colour = SEGMENT_BGR.get(p.color, UNKNOWN_BGR)
            if p.kind == "tile":
                s = int(self.radius_px * 2.2)
                cv2.rectangle(out, (x - s, y - s), (x + s, y + s), colour, self.thickness)
            elif p.kind == "post":
                cv2.drawMarker(out, (x, y), (0, 255, 255), cv2.MARKER_TILTED_CROSS,
                               self.radius_px, self.thickness)
            elif p.kind == "token":
                cv2.drawMarker(out, (x, y), (255, 0, 255), cv2.MARKER_SQUARE,
                               self.radius_px * 2, self.thickness)
            else:
                cv2.circle(out, (x, y), self.radius_px, colour, self.thickness, cv2.LINE_AA)
            if self.labels:
                text = str(i) if p.id is None else f"{i}:#{p.id}"
                cv2.putText(out, text, (x + self.radius_px, y - self.radius_px),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
                cv2.putText(out, text, (x + self.radius_px, y - self.radius_px),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA)
        return out


@dataclass(frozen=True)
class HandAnnotator:
    """Outlines hands over the table and writes a warning banner."""

    colour: tuple[int, int, int] = (0, 0, 255)
    text: str = "HAND OVER THE TABLE - not refereed"

    def annotate(self, image: np.ndarray, result: FrameResult) -> np.ndarray:
        """A copy of ``image`` with the hand warning drawn (unchanged copy without a hand)."""
        out = image.copy()
        if not result.hand:
            return out
        polys = [np.round(p).astype(np.int32).reshape(-1, 1, 2) for p in result.hand_outlines_px]
        if polys:
            cv2.polylines(out, polys, True, self.colour, 3, cv2.LINE_AA)
        cv2.rectangle(out, (0, 0), (out.shape[1], 30), self.colour, -1)
        cv2.putText(out, self.text, (8, 21), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2,
                    cv2.LINE_AA)
        return out


def annotate(image: np.ndarray, result: FrameResult) -> np.ndarray:
    """The default overlay: pieces, then the hand warning. Returns a new BGR image."""
    out = PieceAnnotator().annotate(image, result)
    return HandAnnotator().annotate(out, result)
