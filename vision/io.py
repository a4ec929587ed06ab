"""Reading images with one-line errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import FrameError, ImageReadError


def read_image(path: str | Path) -> np.ndarray:
    """Reads an image file as an 8-bit BGR array of shape (H, W, 3).

    Raises:
        ImageReadError: the file is missing, unreadable, or not a decodable image.
    """
    from tabletop.errors import InputError
    from tabletop.images import read_image as read_checked  # size checked before decoding

    try:
        return read_checked(Path(path))
    except InputError as exc:
        raise ImageReadError(str(exc)) from None


def as_bgr(frame: object) -> np.ndarray:
    """Checks a frame and returns it as 8-bit BGR of shape (H, W, 3) (grey is expanded).

    Raises:
        FrameError: not a non-empty uint8 array of shape (H, W), (H, W, 3) or (H, W, 4).
    """
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.size == 0:
        raise FrameError("a frame must be a non-empty 8-bit image array")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise FrameError(f"a frame must be grey or BGR, not of shape {frame.shape}")
