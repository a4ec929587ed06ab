"""The examples in the docstrings of the geometry and Worm Derby modules hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "referee.geometry.obstacles", "referee.geometry.segments", "referee.geometry.fit",
    "referee.geometry.scene_fit", "referee.geometry.crossing", "referee.worm_derby.worms",
    "referee.worm_derby.words",
    "referee.worm_derby.inference", "referee.worm_derby.table", "referee.worm_derby.state",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
