"""The ``>>>`` examples in the Worm Up! modules are tests too."""

from __future__ import annotations

import doctest

import pytest

from referee.worm_up import (
    bidding,
    game,
    geometry,
    one_short,
    post_layout,
    post_misread,
    setup_rules,
    short_counts,
    still_worms,
    turns,
    two_readings,
)


@pytest.mark.parametrize("module", [bidding, geometry, game, one_short, post_layout,
                                    post_misread, setup_rules, short_counts, still_worms, turns,
                                    two_readings],
                         ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if module is not game:
        assert result.attempted > 0
