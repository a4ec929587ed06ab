"""Writing printable sheets (the calibration mat, the Jungle board) at an exact physical size."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tabletop.errors import InputError, UsageError

PAPER_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "letter": (215.9, 279.4),
}
"""Paper sizes, portrait (width, height) in millimetres."""

MM_PER_INCH = 25.4


def px_per_mm(dpi: float) -> float:
    """Pixels per millimetre at a print resolution."""
    return dpi / MM_PER_INCH


def save_printable(image: np.ndarray, path: str | Path, dpi: float) -> Path:
    """Saves a raster sheet as PNG (with its dpi) or PDF (page size = image size at ``dpi``).

    Args:
        image: uint8 array, (H, W) grey or (H, W, 3) BGR (OpenCV's order).
        path: ``.png`` or ``.pdf``.
        dpi: Pixels per inch of ``image``; a PDF viewer printing at 100 % reproduces millimetres.

    Raises:
        UsageError: another suffix. InputError: the file cannot be written.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise UsageError(f"{p}: the output must end in .pdf or .png")
    from PIL import Image

    arr = np.asarray(image)
    if arr.ndim == 3:
        arr = arr[:, :, ::-1]  # BGR -> RGB
    img = Image.fromarray(np.ascontiguousarray(arr))
    try:
        if suffix == ".png":
            img.save(p, dpi=(dpi, dpi))
        else:
            img.convert("RGB").save(p, "PDF", resolution=float(dpi))
    except OSError as exc:
        raise InputError(f"{p}: cannot write ({exc.strerror or exc})") from None
    return p
