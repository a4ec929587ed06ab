"""Vision: a scene of pieces in table millimetres from a camera frame. Knows no game's rules.

>>> from vision import Detector, DetectorConfig, Stabiliser, annotate, read_image  # doctest: +SKIP
>>> det = Detector(calibration, pieces=PieceSet(), config=DetectorConfig())  # doctest: +SKIP
>>> res = det.detect(frame_bgr)  # res.scene, res.centres_px, res.timings_ms  # doctest: +SKIP
"""

from vision.annotate import HandAnnotator, PieceAnnotator, annotate
from vision.circles import find_circles
from vision.corrections import apply_correction, resolve_with_previous
from vision.detections import Detections
from vision.detector import ALL_KINDS, GAME_KINDS, Detector, DetectorConfig, FrameResult
from vision.errors import FrameError, ImageReadError, ViewError, VisionError
from vision.io import read_image
from vision.stabiliser import Stabiliser, same_table

__all__ = [
    "ALL_KINDS", "GAME_KINDS", "Detections", "Detector", "DetectorConfig", "FrameError",
    "FrameResult", "HandAnnotator", "ImageReadError", "PieceAnnotator", "Stabiliser",
    "ViewError", "VisionError", "annotate", "apply_correction", "find_circles", "read_image",
    "resolve_with_previous", "same_table",
]
