"""Calibration: from image pixels to table millimetres (marker mat, user points, lens)."""
