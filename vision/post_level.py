"""What the post stage reads a table's view as: its level, or on a dark table how unlike the
table each pixel is.

A post is black (the renderer's albedo 0.07, a little gloss). On a pale or mid table it is the
darkest thing there, and the post stage looks for it in the level (:class:`vision.prepare.
Prepared`: the table at 100). On a table nearly as dark as the post (black felt or cloth, dark
wood, walnut), its wall catches the light the felt swallows or is of another tint than the
wood: it is as often *lighter* than the table, in one channel at least, as darker, and the dark
mask never sees it. There the post stage reads the *unlikeness* instead: 100 less the largest
difference of any channel from the table's (table = 100, so a post lighter or darker than the
table, or of another tint, is dark in it, as a post is in the level of a pale table), and its
dark mask from that. The stages after it (the template, the outline fit, the judge's features)
are the same either way.

A post is grey: the light it sends back is alike in every channel. The level is the largest
channel of the view divided by the table's colour, so in a channel the table barely sends back
(a blue felt's red, a red felt's blue and green) a post's wall divided by the table's few levels
there is nearly as bright as the table (a post on blue felt at 75 of the table's 100 in red,
15 in blue), and the post stage's template reads no post. So the level the post stage reads is
the largest channel of those the table sends back at least ``min_channel_share`` of its
brightest channel's light in (a grey, white or beige table: every channel, the level as it is).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.normalise import TABLE_LEVEL
from vision.prepare import Prepared


@dataclass(frozen=True)
class PostLevelConfig:
    """Attributes:
    dark_table: A table whose own brightness (the median of the largest channel of the
        warped frame, 0-255, where the level is the table's) is below this is dark: its posts
        are read in the unlikeness. 0: never.
    table_band: Pixels within this many levels of the table's (100) are the table's, when its
        brightness is measured.
    dark_sigmas, min_dark: A pixel is dark in the unlikeness where it is below the table's by
        this many sigmas of the table's noise, and by at least ``min_dark`` (as the prepared
        dark mask is made, :class:`vision.prepare.PrepareConfig`).
    noise_mm: The table's noise there is measured at a post's scale: the robust sigma of the
        unlikeness averaged over squares of this side (mm), where the view was made in full
        (:func:`post_scale_noise`); the smaller of it and the frame's pixel noise is taken.
        On a near-black table the pixel noise is the camera's grain divided by the table's
        few levels (sigma 10-35, so nothing passes 5 sigmas) while a post's wall, as wide as
        the square, stands 5-18 of its averaged sigmas out. 0: the frame's noise alone.
    min_channel_share: On a table that is not dark, the post stage's level is the largest
        channel of those in which the table's colour is at least this share of its brightest
        channel's (:func:`table_channels`); 0: every channel (the prepared level as it is).
    """

    dark_table: float = 48.0
    table_band: float = 8.0
    dark_sigmas: float = 5.0
    min_dark: float = 25.0
    noise_mm: float = 5.0
    min_channel_share: float = 0.5


def table_brightness(prep: Prepared, band: float) -> float:
    """The table's own brightness (0-255: the median of the largest channel of ``prep.top``
    where the level is within ``band`` of the table's, in the parts of the view made in full);
    255 when none is."""
    b, g, r = cv2.split(prep.top)
    made = cv2.max(cv2.max(b, g), r)
    lo, hi = math.ceil(TABLE_LEVEL - band), math.floor(TABLE_LEVEL + band)
    near = cv2.inRange(prep.level, lo, hi)
    near = cv2.bitwise_and(cv2.bitwise_and(near, prep.valid), cv2.compare(made, 0, cv2.CMP_GT))
    counts = np.bincount(made[near > 0], minlength=256)
    n = int(counts.sum())
    if n < 100:
        return 255.0
    return byte_median(counts)


def byte_median(counts: np.ndarray) -> float:
    """The median (as :func:`numpy.median` gives it: the mean of the middle two of an even
    count) of the bytes whose counts (by value, 0-255) are ``counts``.

    >>> v = np.array([3, 9, 9, 200, 7, 1], np.uint8)
    >>> byte_median(np.bincount(v, minlength=256)) == float(np.median(v))
    True
    >>> byte_median(np.bincount(v[:5], minlength=256))
    9.0
    """
    n = int(counts.sum())
    cum = np.cumsum(counts)
    lo = int(np.searchsorted(cum, (n - 1) // 2 + 1))  # the ((n - 1) // 2)-th value, from 0
    hi = int(np.searchsorted(cum, n // 2 + 1))
    return (lo + hi) / 2.0


def unlikeness(norm: np.ndarray) -> np.ndarray:
    """100 less the largest difference of any channel of a normalised view (table = 100,
    uint8 (H, W, 3), blurred 3x3 as :func:`vision.prepare._level` blurs it) from the table's,
    clipped at 0: the table at 100, anything unlike it darker (uint8 (H, W)).

    >>> px = np.array([[[100, 100, 100], [160, 150, 140], [30, 40, 50], [100, 100, 255]]],
    ...               np.uint8)
    >>> unlikeness(px).tolist()
    [[100, 40, 30, 0]]
    """
    blur = cv2.GaussianBlur(norm, (3, 3), 0) if norm.shape[0] > 2 and norm.shape[1] > 2 else norm
    dev = np.abs(blur.astype(np.int16) - TABLE_LEVEL).max(axis=2)
    return np.clip(TABLE_LEVEL - dev, 0, 255).astype(np.uint8)


def dark_table(prep: Prepared, cfg: PostLevelConfig) -> bool:
    """Whether the table is so dark that its posts are read in the unlikeness."""
    return cfg.dark_table > 0 and table_brightness(prep, cfg.table_band) < cfg.dark_table


def table_channels(prep: Prepared, share: float) -> tuple[int, ...]:
    """The channels (0-2, BGR) in which the table's colour (the median of its cells,
    :attr:`vision.prepare.Prepared.table`) is at least ``share`` of its brightest channel's:
    those a grey post is seen darker than the table in. Every channel when ``share`` is 0 or
    the table's colour is unknown.

    >>> from types import SimpleNamespace
    >>> def of(bgr):
    ...     return SimpleNamespace(table=SimpleNamespace(grid=np.array([[bgr]], np.uint8)))
    >>> table_channels(of((117, 66, 25)), 0.5), table_channels(of((30, 28, 122)), 0.5)
    ((0, 1), (2,))
    >>> table_channels(of((140, 173, 194)), 0.5), table_channels(of((117, 66, 25)), 0.0)
    ((0, 1, 2), (0, 1, 2))
    """
    if share <= 0 or prep.table is None:
        return (0, 1, 2)
    bgr = np.median(prep.table.grid.reshape(-1, 3), axis=0)
    top = float(bgr.max())
    return tuple(c for c in range(3) if float(bgr[c]) >= share * top) or (0, 1, 2)


def channel_level(norm: np.ndarray, channels: tuple[int, ...]) -> np.ndarray:
    """The largest of ``channels`` of a normalised view (uint8 (H, W, 3), table = 100), blurred
    3x3 as :func:`vision.prepare._level` blurs it (uint8 (H, W)).

    >>> px = np.array([[[10, 22, 76], [100, 100, 100]]], np.uint8)
    >>> channel_level(px, (0, 1)).tolist(), channel_level(px, (0, 1, 2)).tolist()
    ([[22, 100]], [[76, 100]])
    """
    planes = cv2.split(norm)
    out = None
    for c in channels:  # each plane blurred as the whole view is, the largest kept
        p = cv2.GaussianBlur(planes[c], (3, 3), 0) if min(norm.shape[:2]) > 2 else planes[c]
        out = p if out is None else cv2.max(out, p)
    assert out is not None
    return out


_MADE: dict[int, tuple[Prepared, PostLevelConfig, Prepared, tuple[int, ...] | None]] = {}


def for_posts(prep: Prepared, cfg: PostLevelConfig) -> Prepared:
    """``prep`` as the post stage reads it: on a dark table, a copy whose level is the
    unlikeness (where the view was made in full; the table's 100 elsewhere) and whose dark
    mask is made from that; on a table that sends back little light in some channel
    (:func:`table_channels`), a copy whose level and dark mask are made from the others; else
    ``prep`` itself. Made once per prepared frame (the stage and the centre net's post peaks
    ask for it in turn)."""
    return _made(prep, cfg)[0]


def post_channels(prep: Prepared, cfg: PostLevelConfig) -> tuple[int, ...] | None:
    """The channels the post stage's level of ``prep`` is the largest of (:func:`for_posts`;
    (0, 1, 2): the prepared level as it is), or None on a dark table (the unlikeness)."""
    return _made(prep, cfg)[1]


def _made(prep: Prepared, cfg: PostLevelConfig) -> tuple[Prepared, tuple[int, ...] | None]:
    """:func:`for_posts` and :func:`post_channels` of ``prep``, made once per frame."""
    hit = _MADE.get(id(prep))
    if hit is not None and hit[0] is prep and hit[1] == cfg:
        return hit[2], hit[3]
    if len(_MADE) > 4:
        _MADE.clear()
    channels: tuple[int, ...] | None
    if dark_table(prep, cfg):
        out, channels = _unlike(prep, cfg), None
    else:
        channels = table_channels(prep, cfg.min_channel_share)
        out = prep if len(channels) == 3 else _in_channels(prep, channels, cfg)
    _MADE[id(prep)] = (prep, cfg, out, channels)  # holds ``prep``, so its id stays unique
    return out, channels


def _unlike(prep: Prepared, cfg: PostLevelConfig) -> Prepared:
    """``prep`` with the unlikeness for its level and its dark mask made from that."""
    level = np.full_like(prep.level, TABLE_LEVEL)
    for x0, y0, x1, y1 in prep.rois_px:
        level[y0:y1, x0:x1] = unlikeness(prep.norm[y0:y1, x0:x1])
    noise = prep.noise
    if cfg.noise_mm > 0:
        side = max(3, round(cfg.noise_mm * prep.view.px_per_mm) | 1)
        noise = min(noise, post_scale_noise(level, prep, side))
    below = max(cfg.min_dark, cfg.dark_sigmas * noise)
    dark = cv2.threshold(level, int(np.ceil(TABLE_LEVEL - below)) - 1, 255,
                         cv2.THRESH_BINARY_INV)[1]
    return replace(prep, level=level, dark=cv2.bitwise_and(dark, prep.valid))


def _in_channels(prep: Prepared, channels: tuple[int, ...], cfg: PostLevelConfig) -> Prepared:
    """``prep`` with its level the largest of ``channels`` (:func:`channel_level`, where the
    view was made in full; the table's 100 elsewhere) and its dark mask made from that, at the
    frame's noise (measured in the largest channel, which is no less noisy)."""
    level = np.full_like(prep.level, TABLE_LEVEL)
    dark = np.zeros_like(prep.dark)  # the table's 100 outside the rectangles is never dark
    cut = int(np.ceil(TABLE_LEVEL - max(cfg.min_dark, cfg.dark_sigmas * prep.noise))) - 1
    for x0, y0, x1, y1 in prep.rois_px:
        lv = channel_level(prep.norm[y0:y1, x0:x1], channels)
        level[y0:y1, x0:x1] = lv
        dark[y0:y1, x0:x1] = cv2.bitwise_and(
            cv2.threshold(lv, cut, 255, cv2.THRESH_BINARY_INV)[1], prep.valid[y0:y1, x0:x1])
    return replace(prep, level=level, dark=dark)


def post_scale_noise(level: np.ndarray, prep: Prepared, side_px: int, step: int = 7
                     ) -> float:
    """The robust sigma (1.4826 MAD) of ``level`` (uint8, table = 100) averaged over squares of
    ``side_px``, on every ``step``-th pixel each way of the rectangles where the view was made
    in full (:attr:`vision.prepare.Prepared.rois_px`) and is play area; inf where fewer than
    100 are (then the frame's noise stands).

    >>> from types import SimpleNamespace
    >>> rng = np.random.default_rng(0)
    >>> grain = np.clip(100 + rng.normal(0, 20, (210, 210)), 0, 255).astype(np.uint8)
    >>> prep = SimpleNamespace(rois_px=((0, 0, 210, 210),), valid=np.full((210, 210), 255))
    >>> 2 < post_scale_noise(grain, prep, 7) < 4   # grain of sigma 20 averaged over 7 x 7
    True
    """
    mean = cv2.blur(level.astype(np.float32), (side_px, side_px))
    vals = [mean[y0:y1:step, x0:x1:step][prep.valid[y0:y1:step, x0:x1:step] > 0]
            for x0, y0, x1, y1 in prep.rois_px]
    sample = np.concatenate(vals) if vals else np.zeros(0, np.float32)
    if sample.size < 100:
        return math.inf
    med = float(np.median(sample))
    return 1.4826 * float(np.median(np.abs(sample - med)))


def window_level(win_bgr: np.ndarray, table_bgr: np.ndarray, unlike: bool,
                 channels: tuple[int, ...] = (0, 1, 2)) -> np.ndarray:
    """The post stage's level (uint8) of a window of the view (``win_bgr``) divided by its
    table's colour (``table_bgr``, (3,)): the largest of ``channels`` (:func:`post_channels`),
    or the unlikeness on a dark table (``unlike``)."""
    norm = win_bgr.astype(np.float32) * (TABLE_LEVEL / np.maximum(table_bgr, 1.0))
    if unlike:
        return unlikeness(np.clip(norm, 0, 255).astype(np.uint8))
    return np.clip(norm[..., list(channels)].max(axis=2), 0, 255).astype(np.uint8)
