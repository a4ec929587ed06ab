"""The segment tests' margins tool: a segment in view counts as found by its best candidate, an
other candidate at the threshold is a phantom, and scores near the threshold are counted."""

from __future__ import annotations

import doctest

import numpy as np

from training import segment_test_margins


def test_segment_test_margins_docstring_examples_hold() -> None:
    assert doctest.testmod(segment_test_margins).failed == 0


def test_segment_test_margins_a_segment_counts_once_by_its_best_candidate() -> None:
    y = np.array([1, 1, 1, 0, 0, -1])
    hit = np.array([0, 0, 1, -1, -1, -1])
    s = np.array([0.2, 0.5, 0.1, 0.49, 0.9, 0.99])  # the left-out row (-1) is neither
    found, phantoms, near, best_other = segment_test_margins.margins(
        np.zeros((6, 1)), y, hit, 3, s)
    assert (found, phantoms, best_other) == (1, 1, 0.9)
    assert near == 2  # segment 0 at 0.5 and the other at 0.49; segment 2 (0.1), 1 unhit (0)
