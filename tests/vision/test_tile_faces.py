"""A tile's face, up or down, and its suit, read from its own patch whatever the table and the
light: the renderer's own tile faces under a blind's stripe and a coloured light, and green
felt rendered under a blind (render seeds 36000-36999: this reader's tuning range)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.pieceset import SUIT_COLOURS_HEX
from vision.suits import DEFAULT_SUIT_INKS
from vision.tile_faces import PATCH_PX, arm_ridges, read_faces, symbol_inks

INKS = dict(DEFAULT_SUIT_INKS)
FACES = [("down", None), *(("up", s) for s in SUIT_COLOURS_HEX)]
LIGHTS = {"white": (1.0, 1.0, 1.0), "warm lamp": (0.55, 0.8, 1.0),
          "green felt's glow": (0.8, 1.0, 0.75)}
"""Colours of the light on the tile (B, G, R)."""


def _patch(face: str, suit: str | None, light_bgr: tuple[float, float, float] = (1, 1, 1),
           stripe_px: float | None = None, angle_deg: float = 0.0, strength: float = 0.5
           ) -> np.ndarray:
    """The renderer's tile top as the detector's patch (blurred a pixel), under a light of
    ``light_bgr``, with a blind's shade band (``strength`` of the light taken, soft edge)
    beyond a line ``stripe_px`` from the centre across ``angle_deg`` (None: no band)."""
    from tabletop.render.faces import tile_face

    tex = tile_face(50.8, face, suit, SUIT_COLOURS_HEX.get(suit or ""), 0)
    img = cv2.GaussianBlur(cv2.resize(np.asarray(tex), (PATCH_PX, PATCH_PX),
                                      interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    shade = np.ones((PATCH_PX, PATCH_PX), np.float32)
    if stripe_px is not None:
        yy, xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX].astype(np.float32) - (PATCH_PX - 1) / 2
        t = np.radians(angle_deg)
        d = xx * np.cos(t) + yy * np.sin(t) - stripe_px
        shade = 1.0 - strength / (1.0 + np.exp(-d / 1.5))
    img = img * shade[..., None] * np.asarray(light_bgr, np.float32)
    return np.clip(img * 235, 0, 255).astype(np.uint8)


STRIPES = [(-12, 0), (-4, 0), (-4, 30), (-4, 45), (4, 0), (4, 30), (4, 45), (12, 0), (12, 80)]
"""A shade band's edge (px from the patch's centre, angle): none runs along an arm's line."""


@pytest.mark.parametrize("light", list(LIGHTS))
def test_a_back_under_a_blinds_stripe_is_read_face_down(light: str) -> None:
    # main's reading (the lines against the patch's 80th percentile) read every one of these
    # backs as a moon face up
    patches = np.stack([_patch("down", None, LIGHTS[light], at, ang) for at, ang in STRIPES])
    assert [(f, s) for f, s, _ in read_faces(patches, INKS)] == [("down", None)] * len(STRIPES)


@pytest.mark.parametrize("suit", ["suns", "moons", "crowns"])
@pytest.mark.parametrize("light", list(LIGHTS))
def test_a_face_under_a_blinds_stripe_keeps_its_suit(suit: str, light: str) -> None:
    patches = np.stack([_patch("up", suit, LIGHTS[light], at, ang) for at, ang in STRIPES])
    assert [(f, s) for f, s, _ in read_faces(patches, INKS)] == [("up", suit)] * len(STRIPES)


@pytest.mark.parametrize(("face", "suit"), FACES)
def test_a_tile_in_plain_light_is_read_as_it_lies(face: str, suit: str | None) -> None:
    (f, s, conf), = read_faces(_patch(face, suit)[None], INKS)
    assert (f, s) == (face, suit)
    if face == "down":
        assert conf >= 0.5  # a back's lines seen: the namer never renames it


def test_a_blinds_edge_is_no_back_line_and_no_ink() -> None:
    blank = np.stack([_patch("up", None, stripe_px=at, angle_deg=ang, strength=0.6)
                      for at in (-8, 0, 8) for ang in (0, 90)])
    assert arm_ridges(blank).max() < 0.01  # a step in level is not a dip
    share, _ = symbol_inks(blank)
    assert share.max() < 0.05  # a band of shade wider than a symbol is paper in shade


def test_a_back_on_a_dark_lamp_lit_table_is_read_down() -> None:
    # under-exposed and noisy (a dim warm room): the lines are a dip of the tile's own level
    rng = np.random.default_rng(36000)
    p = _patch("down", None, (0.25, 0.35, 0.45)).astype(float)
    p = np.clip(p + rng.normal(0, 6, p.shape), 0, 255).astype(np.uint8)
    assert read_faces(p[None], INKS)[0][0] == "down"


def test_no_tiles_no_readings() -> None:
    assert read_faces(np.zeros((0, PATCH_PX, PATCH_PX, 3), np.uint8), INKS) == []


@pytest.mark.parametrize(("seed", "misread_on_main"), [(36308, 1)])
def test_tiles_on_felt_under_a_blind_are_read_as_they_lie(seed: int,
                                                          misread_on_main: int) -> None:
    pytest.importorskip("tabletop.render.variety")
    from tests.vision.helpers import detect_drawn_case

    # green felt under a blind's stripes: main read that many of its backs as moons face up
    r, scene = detect_drawn_case(seed)
    truth = [p for p, tr in zip(r.scene.pieces, r.truth, strict=True)
             if p.kind == "tile" and not tr.occluded and tr.visible_fraction >= 1]
    found = [p for p in scene.pieces if p.kind == "tile"]
    assert sum(p.face == "down" for p in truth) > misread_on_main
    for p in truth:
        near = [f for f in found if np.hypot(f.x_mm - p.x_mm, f.y_mm - p.y_mm) < 15.0]
        assert len(near) == 1
        assert (near[0].face, near[0].suit) == (p.face, p.suit)


@pytest.mark.parametrize("suit", ["suns", "arms", "crowns"])
def test_a_coloured_symbol_in_a_blinds_deep_shade_keeps_its_suit(suit: str) -> None:
    # a shade taking 0.7 of a warm light over the symbol: read against the lit quarter beside
    # it, its ink looks black (before: a moon on 4 of 9 stripes); against its own paper it
    # keeps its colour
    patches = np.stack([_patch("up", suit, (1.0, 0.95, 0.9), at, ang, 0.7)
                        for at, ang in STRIPES])
    assert [(f, s) for f, s, _ in read_faces(patches, INKS)] == [("up", suit)] * len(STRIPES)


@pytest.mark.parametrize("dim", [0.3, 0.4])
def test_a_moon_under_a_dim_lamps_noise_is_a_moon(dim: float) -> None:
    # a dim lamp's camera noise (6 levels on paper at a third of its level) makes dips of
    # 0.02-0.05 on a face's blank arms, which read as a back's lines (before: 0 of 8 moons)
    rng = np.random.default_rng(0)
    patches = np.stack([np.clip(_patch("up", "moons").astype(float) * dim
                                + rng.normal(0.0, 6.0, (PATCH_PX, PATCH_PX, 3)), 0, 255)
                        .astype(np.uint8) for _ in range(8)])
    assert [(f, s) for f, s, _ in read_faces(patches, INKS)] == [("up", "moons")] * 8


def test_a_blank_moon_whose_arms_show_no_back_is_left_to_the_namer() -> None:
    # a back whose lines barely show (black felt under a blind): read as a moon, but its
    # centre has no ink against its own paper, so the reading is unsure
    paper = np.full((PATCH_PX, PATCH_PX, 3), 200, np.uint8)
    paper[:, :PATCH_PX // 2] = 90  # a shade's band over half of it, no line at all
    (face, suit, conf), = read_faces(paper[None], INKS)
    assert (face, suit) == ("up", "moons") and conf <= 0.3


def _band(face: str, suit: str | None, lo_px: float, width_px: float, angle_deg: float,
          strength: float = 0.6) -> np.ndarray:
    """The patch under a blind's band of shade (``strength`` of the light taken, soft
    edges) between ``lo_px`` and ``lo_px + width_px`` from the centre across ``angle_deg``."""
    img = _patch(face, suit).astype(np.float32)
    yy, xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX].astype(np.float32) - (PATCH_PX - 1) / 2
    t = np.radians(angle_deg)
    d = xx * np.cos(t) + yy * np.sin(t)
    inside = 1.0 / (1.0 + np.exp(-(d - lo_px) / 1.5)) / (1.0 + np.exp(-(lo_px + width_px - d)
                                                                       / 1.5))
    return np.clip(img * (1.0 - strength * inside)[..., None], 0, 255).astype(np.uint8)


BANDS = [(lo, w, ang) for w in (14, 20) for lo in (-14, -8, -3) for ang in (0, 30, 80)]
"""Bands of shade 15-21 mm wide (narrower than the paper's closing reaches) over the centre."""


def test_a_back_under_a_blinds_band_across_its_centre_is_read_face_down() -> None:
    # the paper's closing fills over such a band, so its shade read as a moon's ink (main:
    # 13 of these 18 read as moons, and render 420207's three backs on grey felt under a
    # blind); the band runs on through the ring between symbol and border, a symbol does not
    patches = np.stack([_band("down", None, lo, w, ang) for lo, w, ang in BANDS])
    assert [(f, s) for f, s, _ in read_faces(patches, INKS)] == [("down", None)] * len(BANDS)


def test_a_moon_under_a_blinds_band_across_its_centre_stays_a_moon() -> None:
    # a moon's ink in the band is darker than the band's shade on the ring: no shade alone
    patches = np.stack([_band("up", "moons", lo, w, ang) for lo, w, ang in BANDS])
    read = read_faces(patches, INKS)
    assert [(f, s) for f, s, _ in read] == [("up", "moons")] * len(BANDS)
    assert min(c for *_, c in read) > 0.3  # not left unsure for the namer
