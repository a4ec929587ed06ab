"""Coins the centre net is unsure of (a peak below its own threshold: a coin under a lamp's
glare, on a small check, blurred) are found where the namer and the coin judge are sure of
them, and a cloth's check or a card's corner the net is as unsure of is no coin (renders at
fixed seeds of the renderer's variety, 257000-257999 and 350000-350599, where the faint coins'
bars were chosen)."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pytest

from tests.vision.helpers import detect_drawn_case

pytest.importorskip("tabletop.render.variety")  # the renderer detect_drawn_case uses


@functools.lru_cache(maxsize=4)
def _read(seed: int) -> tuple[int, int, int]:
    """(coins wholly in view, found of them, false coins) on the drawn case at ``seed``."""
    r, scene = detect_drawn_case(seed)
    return _score(r, scene)


def _score(r, scene) -> tuple[int, int, int]:
    found = np.array([[p.x_mm, p.y_mm] for p in scene.pieces if p.kind == "coin"],
                     float).reshape(-1, 2)
    used: set[int] = set()
    truth = hits = 0
    for p, t in zip(r.scene.pieces, r.truth, strict=True):
        if p.kind != "coin":
            continue
        hidden = t.occluded or t.visible_fraction < 1.0
        truth += not hidden
        d = np.hypot(*(found - (p.x_mm, p.y_mm)).T) if len(found) else np.zeros(0)
        d[list(used)] = np.inf
        if len(d) and d.min() <= 6.0:
            used.add(int(np.argmin(d)))
            hits += not hidden
    return truth, hits, len(found) - len(used)


@pytest.mark.parametrize(("seed", "truth", "least"), [
    (257037, 11, 10),  # glossy white under glare, a phone: two coins the net gives 0.30-0.38
    (257173, 7, 7),  # small checks under glare: two coins at 0.34
])
def test_coins_the_net_is_unsure_of_are_found_where_the_namer_is_sure(
        seed: int, truth: int, least: int) -> None:
    n, hits, false = _read(seed)
    assert n == truth
    assert hits >= least
    assert false == 0


def test_without_faint_coins_those_coins_are_lost() -> None:
    # the same render read with the net's own threshold alone misses them (what the rule adds)
    from tabletop.render import variety
    from vision import Detector, DetectorConfig
    from vision.centre_proposals import CentreProposalConfig

    r = variety.draw_case(257173, hand=False).render()
    cfg = DetectorConfig(kinds=("tile", "coin", "post"),
                         centres=replace(CentreProposalConfig(), faint_coin=None))
    n, hits, _ = _score(r, Detector(r.calibration(), None, cfg).detect(r.image).scene)
    assert hits < n


def test_coins_the_net_is_unsure_of_on_small_checks_are_found() -> None:
    # small checks under three lamps: 8 of 18 coins get heat 0.11-0.32 (4 over 0.2 the namer
    # and the judge are sure of)
    n, hits, false = _read(350005)
    assert n == 18
    assert hits >= 14
    assert false == 0


def test_a_card_corner_under_glare_is_no_faint_coin() -> None:
    # grey laminate under glare, mixed clutter: a card's corner index the net gives a faint
    # coin peak, the namer 0.94 and the coin judge 0.73 of its votes (under its sure 0.8)
    *_, false = _read(350186)
    assert false == 0


def test_a_card_index_on_slate_is_no_faint_coin() -> None:
    # slate under two lamps, cards: a card's index the net gives a faint coin peak, the namer
    # 0.98 and the judge 0.92 of its votes; the card round it is twice the table's level
    *_, false = _read(353029)
    assert false == 0


def _false_without(seed: int, **off) -> int:
    """False coins on the drawn case at ``seed`` with the faint coins' rules ``off`` changed."""
    from tabletop.render import variety
    from vision import Detector, DetectorConfig
    from vision.centre_proposals import CentreProposalConfig

    r = variety.draw_case(seed, hand=False).render()
    cfg = DetectorConfig(kinds=("tile", "coin", "post"),
                         centres=replace(CentreProposalConfig(), **off))
    return _score(r, Detector(r.calibration(), None, cfg).detect(r.image).scene)[2]


def test_without_the_ring_and_the_judges_sure_votes_a_card_corner_is_a_coin() -> None:
    # what the two rules add on 350186: the namer alone (0.94) lets the card's corner stand
    assert _false_without(350186, faint_ring=None, faint_votes=0.5) >= 1


def test_a_gingham_check_under_glare_is_no_faint_coin() -> None:
    # green gingham under glare, a page: the net's cool coin peaks on the checks
    n, hits, false = _read(257118)
    assert (n, hits, false) == (2, 2, 0)
