"""A game record as people read and share it: a move list, Portable Piecepack Notation, and
the table diagram as SVG or PNG.

The text formats (:mod:`~referee.export.moves`, :mod:`~referee.export.ppn`,
:mod:`~referee.export.svg`) need only the record and the referee (no OpenCV, no Flask); the
PNG (:mod:`~referee.export.png`) is drawn with Pillow.
"""

from referee.export.walk import Entry, walk

FORMATS = ("moves", "ppn", "svg", "png")

__all__ = ["FORMATS", "Entry", "walk"]
