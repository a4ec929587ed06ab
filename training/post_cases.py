"""Renders of the renderer's variety kept on disk, so the post diagnostics and the choice of the
judge's thresholds read the same frames again without rendering them again.

A render is drawn as ``bench/bench_vision_accuracy.py`` draws it (``draw_case(seed, hand=False)``)
or, with ``post_weight`` / ``hard_share``, as ``training/make_posts.py`` draws its seeds (posts
laid more often, hard clutter, lights and dark tables pinned): the file's name says which.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from tabletop.render.render import Rendered
from tabletop.render.variety import draw_case
from training.make_posts import hard_pins


def cache_name(seed: int, post_weight: float | None, hard_share: float,
               table: str | None = None, light: str | None = None) -> str:
    """The file name of a seed's render drawn with these options (``table``, ``light``: pinned).

    >>> cache_name(45000, None, 0.0)
    'bench_45000.pkl'
    >>> cache_name(45000, 0.8, 0.6)
    'posts_w0.8_h0.6_45000.pkl'
    >>> cache_name(45000, None, 0.0, "marble")
    'bench_marble_45000.pkl'
    >>> cache_name(45000, None, 0.0, "marble", "hard")
    'bench_marble_hard_45000.pkl'
    """
    pin = "".join(f"{p}_" for p in (table, light) if p is not None)
    if post_weight is None and not hard_share:
        return f"bench_{pin}{seed}.pkl"
    return f"posts_w{post_weight}_h{hard_share}_{pin}{seed}.pkl"


def rendered(seed: int, cache: Path | None = None, post_weight: float | None = None,
             hard_share: float = 0.0, table: str | None = None, light: str | None = None
             ) -> Rendered:
    """The render of ``seed`` (no hand; ``table``, ``light``: that table kind, that light
    pinned), read from ``cache`` (a folder) when it holds it."""
    path = None if cache is None else cache / cache_name(seed, post_weight, hard_share, table,
                                                         light)
    if path is not None and path.exists():
        return pickle.loads(path.read_bytes())
    weights = None if post_weight is None else {"post": post_weight}
    pins = hard_pins(seed, hard_share)
    if table is not None:
        pins["table"] = table
    if light is not None:
        pins["light"] = light
    case = draw_case(seed, hand=False, weights=weights, **pins)
    r = case.render()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(r))
    return r
