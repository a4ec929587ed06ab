"""Worm Up!'s segment stage made in windows is the plain form's, bit for bit: the table's
saturation of the frame's coloured pixels made plane by plane over their box
(vision/segment_mask.table_saturation_view) is the gathered pixels' (table_saturation); the
judge's features made in windows round the candidates (vision/segment_features
.candidate_features) are those of the whole view's images; a kept segment's hues read in a
window round its disc (vision/segments.disc_hues) are those of a disc drawn on the whole view;
the pieces' blobs given back to the segments are cleared each in its own box
(vision/segments.pieces_not_segments) as a look-up of every label would. The plain forms are
kept here; the frames are rendered Worm Up! tables where segments are hard to see (a cloth of
a segment's own colour, a wood)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import Detector, DetectorConfig
from vision.prepare import prepare
from vision.segment_features import candidate_features, candidate_images, disc_features
from vision.segment_mask import table_colour, table_saturation, table_saturation_view
from vision.segments import disc_hues, pieces_not_segments, segment_candidates


def _prepared(table: str, seed: int):
    variety = pytest.importorskip("tabletop.render.variety")
    r = variety.draw_game_case(seed, "worm-up", table=table).render()
    det = Detector(r.calibration(), config=DetectorConfig.for_game("worm-up"))
    cfg = det.config
    prep = prepare(cfg.prepare, det.view, r.image, det._valid, everywhere=True)
    return cfg, prep


def _plain_hues(top, mask, coloured, c, r, min_own):
    disc = np.zeros(mask.shape, np.uint8)
    cv2.circle(disc, (round(c[0]), round(c[1])), max(1, round(0.8 * r)), 255, -1)
    own = cv2.bitwise_and(disc, mask)
    if coloured is not None and np.count_nonzero(own) < min_own * np.count_nonzero(disc):
        own = cv2.bitwise_and(disc, coloured)
    return cv2.cvtColor(top, cv2.COLOR_BGR2HSV_FULL)[..., 0][own > 0].astype(float)


@pytest.mark.parametrize(("table", "seed"), [("felt-red", 77), ("oak", 78)])
def test_the_segment_stage_in_windows_is_the_whole_views(table: str, seed: int) -> None:
    cfg, prep = _prepared(table, seed)
    top = prep.top
    table_bgr = table_colour(top, prep.view.px_per_mm, cfg.segments.mask.table_window_mm)
    # the table's saturation, every pixel, against the gathered pixels' own
    gathered = table_saturation(top.reshape(-1, 3), table_bgr.reshape(-1, 3)).reshape(
        top.shape[:2])
    assert np.array_equal(table_saturation_view(top, table_bgr), gathered)
    cand = segment_candidates(cfg.segments, prep)
    assert len(cand.centres_px) > 5
    h, w = cand.mask.shape
    r = cand.r_px
    # the candidates, and discs at (and beyond) the view's edges and corners
    centres = np.concatenate([cand.centres_px, [[0.3, 0.2], [w - 1.4, h - 0.6], [-3.0, h / 2],
                                                [w / 2, h + 2.5], [-50.0, -50.0]]])
    plain = disc_features(candidate_images(prep, cand.mask, cand.off_table), centres, r)
    assert np.array_equal(candidate_features(prep, cand.mask, cand.off_table, centres, r),
                          plain, equal_nan=True)
    for c in centres:
        for coloured in (cand.coloured, None):
            assert np.array_equal(
                disc_hues(top, cand.mask, coloured, c, r, cfg.segments.min_own_colour),
                _plain_hues(top, cand.mask, coloured, c, r, cfg.segments.min_own_colour))


def test_random_colours_saturation_is_the_gathered_pixels() -> None:
    rng = np.random.default_rng(3)
    top = rng.integers(0, 256, (90, 130, 3), dtype=np.uint8)
    table_bgr = rng.integers(0, 256, (90, 130, 3), dtype=np.uint8)
    table_bgr[:9] = 0  # (a black table: each channel's divisor is at least 1)
    gathered = table_saturation(top.reshape(-1, 3), table_bgr.reshape(-1, 3)).reshape(90, 130)
    assert np.array_equal(table_saturation_view(top, table_bgr), gathered)


def _plain_pieces_not_segments(exclude, mask, max_share):
    n, lab = cv2.connectedComponents(exclude)
    area = np.bincount(lab.ravel(), minlength=n)
    coloured = np.bincount(lab[mask > 0], minlength=n)
    keep = coloured <= max_share * np.maximum(area, 1)
    keep[0] = False
    return np.where(keep[lab], 255, 0).astype(np.uint8)


@pytest.mark.parametrize("seed", range(4))
def test_pieces_given_back_to_the_segments_are_the_plain_forms(seed: int) -> None:
    rng = np.random.default_rng(seed)
    exclude = np.zeros((120, 160), np.uint8)
    mask = np.zeros_like(exclude)
    for _ in range(12):  # pieces' blobs (some touching), some mostly of a segment's colour
        x, y = int(rng.integers(0, 150)), int(rng.integers(0, 110))
        cv2.rectangle(exclude, (x, y), (x + int(rng.integers(3, 30)), y + int(rng.integers(3, 30))),
                      255, -1)
        cv2.circle(mask, (int(rng.integers(0, 160)), int(rng.integers(0, 120))),
                   int(rng.integers(2, 25)), 255, -1)
    for share in (0.0, 0.3, 0.5, 1.0):
        assert np.array_equal(pieces_not_segments(exclude, mask, share),
                              _plain_pieces_not_segments(exclude, mask, share))
