"""Core of the tabletop referee: the scene model, the piece set, events and the command line.

Nothing in this package imports OpenCV or Flask except :mod:`tabletop.render` (the scene
renderer, a source of test data), so :mod:`referee` can depend on it freely.
"""

__version__ = "0.1.0"
