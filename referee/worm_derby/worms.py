"""Worms in a scene: chains of touching coins of one suit.

A worm's shape is a status, never an exception (python-chess's ``Status`` bits): ``ok`` for a
chain (ends touch one coin, body coins exactly two), else ``missing``, ``split``, ``loop`` or
``branch``, with the pieces concerned.

>>> from tabletop.scene import Piece, Scene
>>> s = Scene.of([Piece("coin", 0, 0, suit="suns"), Piece("coin", 19.2, 0, suit="suns"),
...               Piece("coin", 38.3, 0, suit="suns")])
>>> w = extract_worm(s, "suns", 19.05)
>>> w.status, w.coins
('ok', (0, 1, 2))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from tabletop.scene import Scene

STATUSES = ("ok", "missing", "split", "loop", "branch")


@dataclass(frozen=True)
class WormShape:
    """One suit's coins in a scene, read as a worm.

    Attributes:
        suit: The suit.
        status: One of :data:`STATUSES`.
        coins: Scene indices of the coins in chain order (``ok``), else every coin of the suit.
        pieces: Scene indices the status is about (the coin with three neighbours, the stray
            part of a split worm...).
        detail: A plain phrase saying what is wrong ('' when ``ok``).
    """

    suit: str
    status: str
    coins: tuple[int, ...]
    pieces: tuple[int, ...] = ()
    detail: str = ""

    @property
    def ok(self) -> bool:
        """Whether the coins form one chain."""
        return self.status == "ok"


def touch_matrix(centres_mm: np.ndarray, diameter_mm: float, touch_factor: float,
                 nearest: int = 0) -> np.ndarray:
    """Which coins touch which: boolean (N, N) from centres of shape (N, 2).

    With ``nearest`` > 0, two coins within the tolerance touch only when one of them is among
    the other's ``nearest`` nearest coins (a chain's coin touches at most two): a generous
    tolerance for measuring noise then does not join a coin to the one beyond its neighbour
    where a worm bends.

    >>> pts = np.array([[0.0, 0.0], [19.0, 0.0], [28.5, 16.5]])  # bent: 0 and 2 are 1.7 D apart
    >>> touch_matrix(pts, 19.05, 1.2, nearest=2).sum(axis=1).tolist()
    [1, 2, 1]
    """
    d = np.hypot(*(centres_mm[:, None, :] - centres_mm[None, :, :]).transpose(2, 0, 1))
    t = d <= touch_factor * diameter_mm
    np.fill_diagonal(t, False)
    n = len(centres_mm)
    if nearest and n > nearest + 1:
        np.fill_diagonal(d, np.inf)
        near = np.zeros_like(t)
        rows = np.arange(n)[:, None]
        near[rows, np.argsort(d, axis=1, kind="stable")[:, :nearest]] = True
        t &= near | near.T
    return t


def _connected(t: np.ndarray) -> bool:
    """Whether the touch graph ``t`` (N, N) is one connected part."""
    seen, stack = {0}, [0]
    while stack:
        for b in np.flatnonzero(t[stack.pop()]):
            if int(b) not in seen:
                seen.add(int(b))
                stack.append(int(b))
    return len(seen) == len(t)


def _unbranch_within_noise(t: np.ndarray, centres_mm: np.ndarray, sure_mm: float
                           ) -> np.ndarray:
    """The touch graph with the links that make a coin touch three coins of its worm dropped
    where they are not sure: a coin read touching a third coin no nearer than ``sure_mm``
    (touching less the measuring noise of two centres) may lie just clear of it, so the worm
    is not called branched on that link (its farthest first, while the worm stays one part).
    A branch every reading within the noise shows is still one.

    >>> pts = np.array([[0.0, 0.0], [19.05, 0.0], [38.1, 0.0], [31.18, 17.75]])  # 21.5 mm
    >>> t = touch_matrix(pts, 19.05, 1.2, nearest=2)
    >>> int(t.sum(axis=1).max()), int(_unbranch_within_noise(t, pts, 20.36).sum(axis=1).max())
    (3, 2)
    """
    t = t.copy()
    while True:
        deg = t.sum(axis=1)
        over = np.flatnonzero(deg > 2)
        if not len(over):
            return t
        a = int(over[0])
        links = sorted(np.flatnonzero(t[a]), key=lambda b: -math.dist(centres_mm[a],
                                                                      centres_mm[b]))
        b = int(links[0])
        if math.dist(centres_mm[a], centres_mm[b]) <= sure_mm:
            return t
        t[a, b] = t[b, a] = False
        if not _connected(t):
            t[a, b] = t[b, a] = True
            return t


def extract_worm(scene: Scene, suit: str, coin_diameter_mm: float,
                 settings: WormSettings = DEFAULT_SETTINGS) -> WormShape:
    """Reads the coins of one suit (suit up) as a worm."""
    idx = [i for i, p in enumerate(scene.pieces)
           if p.kind == "coin" and p.suit == suit and p.face != "down"]
    return chain_shape(np.array([scene.pieces[i].centre_mm for i in idx]).reshape(-1, 2),
                       coin_diameter_mm, settings, suit, idx)


def chain_shape(centres_mm: np.ndarray, coin_diameter_mm: float,
                settings: WormSettings = DEFAULT_SETTINGS, suit: str = "",
                idx: list[int] | None = None) -> WormShape:
    """Coins at ``centres_mm`` (N, 2) read as one worm (:func:`extract_worm` of a scene's
    coins of one suit; the worm's chain wherever its coins come from): ``coins`` and
    ``pieces`` are indices into ``idx`` (default: into ``centres_mm``).

    >>> d = 19.05
    >>> chain_shape(np.array([[2 * d, 0], [0, 0], [d, 0]]), d).coins
    (0, 2, 1)
    >>> chain_shape(np.array([[0, 0], [d, 0], [3 * d, 0]]), d).status
    'split'
    """
    if idx is None:
        idx = list(range(len(centres_mm)))
    if not idx:
        return WormShape(suit, "missing", (), (), f"no {suit} coins are on the table")
    if len(idx) == 1:
        return WormShape(suit, "ok", tuple(idx))
    centres = np.asarray(centres_mm, dtype=float)
    t = touch_matrix(centres, coin_diameter_mm, settings.touch_factor, nearest=2)
    t = _unbranch_within_noise(t, centres, settings.touch_factor * coin_diameter_mm
                               - settings.centre_noise_mm)
    deg = t.sum(axis=1)
    # connected parts
    part = [-1] * len(idx)
    parts: list[list[int]] = []
    for s in range(len(idx)):
        if part[s] >= 0:
            continue
        stack, comp = [s], []
        part[s] = len(parts)
        while stack:
            a = stack.pop()
            comp.append(a)
            for b in np.flatnonzero(t[a]):
                if part[b] < 0:
                    part[b] = len(parts)
                    stack.append(int(b))
        parts.append(comp)
    if len(parts) > 1:
        parts.sort(key=len, reverse=True)
        stray = tuple(sorted(idx[a] for comp in parts[1:] for a in comp))
        return WormShape(suit, "split", tuple(idx), stray,
                         f"the {suit} coins form {len(parts)} separate chains")
    if deg.max() > 2:
        a = int(np.argmax(deg))
        return WormShape(suit, "branch", tuple(idx), (idx[a],),
                         f"the {suit} coin at ({centres[a][0]:.0f}, {centres[a][1]:.0f}) "
                         f"touches {int(deg[a])} coins of its worm; a worm never branches")
    ends = np.flatnonzero(deg == 1)
    if len(ends) == 0:
        return WormShape(suit, "loop", tuple(idx), tuple(idx),
                         f"the {suit} coins close into a loop; a worm never loops")
    order = [int(ends[0])]
    prev = -1
    while len(order) < len(idx):
        nxt = [int(b) for b in np.flatnonzero(t[order[-1]]) if b != prev]
        if not nxt:
            break
        prev = order[-1]
        order.append(nxt[0])
    return WormShape(suit, "ok", tuple(idx[a] for a in order))


def split_whatever_one_coin(centres_mm: np.ndarray, coin_diameter_mm: float,
                            touch_factor: float) -> bool:
    """Whether coins at ``centres_mm`` (N, 2) stay a split worm wherever one more coin lies:
    two of their parts (chains of touching coins) are more than two touching distances apart,
    so no single coin can touch both.

    >>> d = 19.05
    >>> split_whatever_one_coin(np.array([[0, 0], [d, 0], [3.5 * d, 0]]), d, 1.2)
    True
    >>> split_whatever_one_coin(np.array([[0, 0], [d, 0], [3 * d, 0]]), d, 1.2)
    False
    """
    n = len(centres_mm)
    if n < 2:
        return False
    t = touch_matrix(centres_mm, coin_diameter_mm, touch_factor)
    part = [-1] * n
    k = 0
    for s in range(n):
        if part[s] >= 0:
            continue
        part[s], stack = k, [s]
        while stack:
            a = stack.pop()
            for b in np.flatnonzero(t[a]):
                if part[b] < 0:
                    part[b] = k
                    stack.append(int(b))
        k += 1
    if k < 2:
        return False
    reach = 2 * touch_factor * coin_diameter_mm
    dist = np.hypot(*(centres_mm[:, None] - centres_mm[None]).transpose(2, 0, 1))
    labels = np.array(part)
    return any(float(dist[np.ix_(labels == i, labels == j)].min()) > reach
               for i in range(k) for j in range(i + 1, k))


def straightness_mm(centres_mm: np.ndarray) -> float:
    """Largest distance of a coin's centre from the line through the two end coins."""
    if len(centres_mm) < 3:
        return 0.0
    a, b = centres_mm[0], centres_mm[-1]
    d = b - a
    n = math.hypot(*d)
    if n < 1e-9:
        return float(np.hypot(*(centres_mm - a).T).max())
    return float(np.abs((centres_mm[:, 0] - a[0]) * d[1] - (centres_mm[:, 1] - a[1]) * d[0]).max()
                 / n)
