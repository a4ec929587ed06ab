"""A coin's suit is read from the darkest tenth of its face, seen at a fixed scale, however the
coin was found: a washed-out, dim or small symbol still names its ink."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.pieceset import PieceSet
from tabletop.render.variety import draw_case
from vision.coin_faces import coin_suits, face_pixels
from vision.detections import Detections
from vision.namer import Namer, NamerConfig, name_detections
from vision.suits import DEFAULT_SUIT_INKS, darkest_colour_of, read_suits, symbol_colours
from vision.topview import TopView

INKS = dict(DEFAULT_SUIT_INKS)


def _face(ink_rgb: tuple[int, int, int], share: float, body: float, n: int = 400,
          symbol: float = 0.2, seed: int = 0) -> np.ndarray:
    """(n, 3) BGR pixels of a face: a body of brightness ``body`` (0-255, under a neutral
    light), a fifth of it (``symbol``) its ink mixed in at ``share``, and the camera's noise."""
    rng = np.random.default_rng(seed)
    px = np.full((n, 3), body, float)
    k = int(symbol * n)
    ink = np.array(ink_rgb[::-1], float) / 255.0
    px[:k] = body * ((1 - share) + share * ink)
    return np.clip(px + rng.normal(0, 2.0, px.shape), 0, 255)


@pytest.mark.parametrize("suit", list(INKS))
def test_a_washed_out_symbol_still_names_its_suit(suit: str) -> None:
    """Glare lifts a face until its symbol is barely darker than the body (0.85 of it at
    most): no pixel is darker than 0.8 of the body, yet the darkest tenth is the ink's."""
    px = _face(INKS[suit], 0.15, 250.0)
    img = px.reshape(20, 20, 3).astype(np.uint8)
    yy, xx = np.mgrid[-10:10, -10:10]
    old = symbol_colours(img, np.array([[10, 10]]), np.c_[xx.ravel(), yy.ravel()])[0]
    assert old[0] is None  # the old reading found no ink at all
    (name, _), = read_suits(darkest_colour_of(px[None]), INKS)
    assert name == suit


@pytest.mark.parametrize("suit", list(INKS))
def test_a_dim_symbol_reads_its_ink_not_its_blur(suit: str) -> None:
    """Under a dim lamp a blurred symbol is a small core of ink in a wide halo of pixels half
    the body's: the darkest tenth is the core, so a blue stays blue (not black)."""
    px = _face(INKS[suit], 0.45, 60.0, symbol=0.4)
    px[:40] = _face(INKS[suit], 0.9, 60.0, n=40, symbol=1.0, seed=1)  # the core
    (name, _), = read_suits(darkest_colour_of(px[None]), INKS)
    assert name == suit


@pytest.fixture(scope="module")
def glare_coins() -> tuple:
    """A table of coins under a lamp's glare (render seed 60,990: slate), their true suits
    and where their tops are seen."""
    case = draw_case(60990, kinds=("coin",), n_pieces=40, light="glare", size=(1280, 720),
                     hand=False, clutter="none")
    r = case.render()
    cal = r.calibration()
    coins = [p for p, t in zip(r.scene.pieces, r.truth, strict=True)
             if p.kind == "coin" and p.suit and not t.occluded and t.visible_fraction >= 1]
    foot = np.array([[p.x_mm, p.y_mm] for p in coins])
    seen = TopView(cal).camera.seen_at(foot, PieceSet().coin_thickness_mm)
    backs = np.array([[p.x_mm, p.y_mm] for p, t in zip(r.scene.pieces, r.truth, strict=True)
                      if p.kind == "coin" and p.face == "down" and not t.occluded
                      and t.visible_fraction >= 0.99]).reshape(-1, 2)
    return r.image, cal, [p.suit for p in coins], foot, seen, backs


def test_coins_under_glare_read_their_suits(glare_coins) -> None:
    image, cal, suits, _, seen, _ = glare_coins
    assert len(suits) >= 15
    got = [s for s, _ in coin_suits(image, cal, seen, INKS)]
    assert got == suits


def test_the_namer_reads_every_coins_suit_from_its_face(glare_coins) -> None:
    """A coin a stage read wrongly (or the centre net's, read by another way) is read again
    from its own face when the namer judges it."""
    image, cal, suits, foot, seen, _ = glare_coins
    wrong = [{"suns": "moons"}.get(s, "suns") for s in suits]
    dets = Detections.of(foot, ["coin"] * len(suits), confidence=[0.9] * len(suits),
                         seen_mm=seen, suit=wrong)
    named = name_detections(Namer(NamerConfig()), image, cal, dets)
    assert len(named) == len(suits)
    assert list(named.suit) == suits
    kept = name_detections(Namer(NamerConfig(suit_inks=None)), image, cal, dets)
    assert list(kept.suit) == wrong


def test_a_face_is_the_disc_inside_the_printed_ring() -> None:
    from vision.coin_faces import FACE_SHARE, PATCH_MM, PATCH_PX, RADIUS_MM

    r_px = FACE_SHARE * RADIUS_MM * PATCH_PX / PATCH_MM
    assert abs(len(face_pixels()) - np.pi * r_px ** 2) < 0.05 * np.pi * r_px ** 2


def test_a_coin_lying_value_up_is_face_down_not_a_moon(glare_coins) -> None:
    """A coin's back shows its value in black ink, which the ink reader reads as a sure
    moon: the namer's sure "face down" stands whatever the stage read."""
    image, cal, _, _, _, backs = glare_coins
    assert len(backs) >= 1
    seen = TopView(cal).camera.seen_at(backs, PieceSet().coin_thickness_mm)
    dets = Detections.of(backs, ["coin"] * len(backs), confidence=[0.95] * len(backs),
                         seen_mm=seen, suit=["moons"] * len(backs))
    named = name_detections(Namer(NamerConfig()), image, cal, dets)
    assert list(named.face) == ["down"] * len(backs)
    assert list(named.suit) == [None] * len(backs)
