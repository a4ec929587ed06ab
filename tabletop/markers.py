"""Which ArUco markers mean what, across the whole product.

One dictionary for everything (4x4 bits: the biggest cells for a given printed size, so small
tokens still read from a metre up), with disjoint id ranges so a marker never means two things.
OpenCV is not imported here; users call ``cv2.aruco.getPredefinedDictionary(
getattr(cv2.aruco, ARUCO_DICTIONARY))``.
"""

from __future__ import annotations

ARUCO_DICTIONARY = "DICT_4X4_250"
"""Name of the OpenCV predefined dictionary used by mats, boards and tokens."""

MAT_IDS = range(0, 40)
"""Ids on the printable calibration mat (``tabletop mat``)."""

JUNGLE_BOARD_IDS = range(40, 44)
"""The Jungle board's four corner markers (its own calibration)."""

JUNGLE_TOKEN_IDS = range(50, 66)
"""Jungle animal tokens: 50 + 8 * side + (rank - 1) (side 0 = first player)."""

TOKEN_IDS = range(100, 250)
"""Free ids for other marker-tagged tokens."""
