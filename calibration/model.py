"""The calibration value objects (:class:`Lens`, :class:`Calibration`).

They live in the core, :mod:`tabletop.calibration`, below every layer (the renderer and vision
use them too); this module keeps their old address for the calibration package and its users.
"""

from tabletop.calibration import VERSION, Calibration, Lens

__all__ = ["VERSION", "Calibration", "Lens"]
