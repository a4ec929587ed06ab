"""What the centre net is: the kinds it finds and the shape of its output (shared by the
run-time finder and its training)."""

from __future__ import annotations

KINDS: tuple[str, ...] = ("coin", "tile", "post")
"""The output's channels, in order: each a heat map of where that kind's centres are."""

STRIDE = 2
"""The output has one sample for every ``STRIDE`` x ``STRIDE`` of the input."""

SIGMA_MM: dict[str, float] = {"coin": 3.0, "tile": 5.0, "post": 3.0}
"""Width of the Gaussian each true centre is drawn as in the training targets."""
