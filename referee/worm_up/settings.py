"""The tolerances and sizes of the Worm Up! referee, each overridable by a setup option."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from tabletop.errors import RecordFormatError


@dataclass(frozen=True)
class WormUpSettings:
    """Tolerances and sizes of the Worm Up! referee (millimetres unless named otherwise).

    Attributes:
        segments: Segments per worm.
        strip_width_mm: Width of the FINISH strip between the finish posts.
        chain_gap_mm: Segments of one worm whose centres are up to a diameter plus this apart
            still touch (a worm is a chain).
        touch_gap_mm: Segments of two worms whose centres are within a diameter plus this
            touch (a foul).
        still_mm: A segment within this of where it was has not moved.
        post_still_mm: A post within this of where it stood has not moved (a thin, tall
            piece is read less surely than a segment; a finish post moved after an X swings
            much further).
        post_distance_tolerance_mm: How much the distance between the finish posts may change
            in a post move.
        start_gap_mm: At the setup, a head's edge lies at most this behind the start line.
        straight_mm: At the setup, no segment centre lies further than this from the line
            through the worm's ends.
        misread_confidence: A worm whose count is right but which is split only by one
            segment lying apart, read with less confidence than this, is a doubt (a segment
            misplaced by the reading), not a ``shape`` foul.
        misread_mm: How far vision may read a segment it was unsure of (confidence under
            ``misread_confidence``) from where it lies: the chain gap next to such a segment
            is this much more generous, the touch gap this much stricter (the benefit of the
            doubt goes to the player).
    """

    segments: int = 7
    strip_width_mm: float = 25.0
    chain_gap_mm: float = 5.0
    touch_gap_mm: float = 2.0
    still_mm: float = 8.0
    post_still_mm: float = 15.0
    post_distance_tolerance_mm: float = 15.0
    start_gap_mm: float = 30.0
    straight_mm: float = 10.0
    misread_confidence: float = 0.75
    misread_mm: float = 6.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise RecordFormatError(f"worm-up: option {f.name} must be a number, not {v!r}")
            positive = ("segments", "strip_width_mm", "still_mm", "post_still_mm")
            if v < 0 or (f.name in positive and v <= 0):
                raise RecordFormatError(f"worm-up: option {f.name} must be positive, not {v!r}")
        if self.segments != int(self.segments) or self.segments < 2:
            raise RecordFormatError("worm-up: option segments must be a whole number from 2")
        object.__setattr__(self, "segments", int(self.segments))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> WormUpSettings:
        """The settings with any setup option of the same name applied.

        Raises:
            RecordFormatError: An unknown option or a bad value.
        """
        names = {f.name for f in fields(cls)}  # others are refused by Game.check_options
        return cls(**{k: v for k, v in options.items() if k in names})
