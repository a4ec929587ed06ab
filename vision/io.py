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
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise ImageReadError(f"{p}: no such image file") from None
    except IsADirectoryError:
        raise ImageReadError(f"{p}: is a folder, not an image file") from None
    except OSError as exc:
        raise ImageReadError(f"{p}: cannot read ({exc.strerror})") from None
    if not data:
        raise ImageReadError(f"{p}: empty file, not an image")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageReadError(f"{p}: not a readable image (corrupt or unknown format)")
    return image


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
