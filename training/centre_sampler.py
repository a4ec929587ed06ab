"""Which conditions a centre-net training seed is pinned to: more of the kinds of table, light
and clutter where the net found no candidate, without changing any seed's ordinary case.

``draw_case(seed)`` draws every choice from the seed; a training seed picked as *hard* (a
share of them, chosen by its own generator, not by ``draw_case``'s) pins some of those choices
through ``draw_case``'s keyword arguments instead. The benches call ``draw_case(seed)`` with no
pins, so their scenes stay the same.

>>> pinned_choices(1234, 0.0)
{}
>>> sorted(pinned_choices(1234, 1.0)) != []
True
>>> post_rich_choices(1234, 0.0, 0.0, None)
{}
>>> post_rich_choices(1234, 0.0, 1.0, None)["table"] in DARK_TABLES
True
>>> only_choices(7, parse_only(["light=blind,glare"]))["light"] in ("blind", "glare")
True
"""

from __future__ import annotations

import numpy as np

from tabletop.render.variety import TABLE_FAMILY

HARD_LIGHTS: dict[str, float] = {"blind": 0.35, "glare": 0.12, "soft": 0.08, "dim-warm": 0.05}
"""Per light kind, the chance a hard seed is pinned to it (else drawn)."""

HARD_FAMILIES: dict[str, float] = {"stone": 0.2, "white": 0.12, "felt": 0.12, "cloth": 0.12}
"""Per table family, the chance a hard seed is pinned to one of its kinds (else drawn)."""

HARD_CLUTTER: dict[str, float] = {"cards": 0.15, "mixed": 0.15, "dice": 0.1}
"""Per clutter kind, the chance a hard seed is pinned to it (else drawn)."""


def _one(rng: np.random.Generator, chances: dict[str, float]) -> str | None:
    roll, acc = rng.uniform(), 0.0
    for name, p in chances.items():
        acc += p
        if roll < acc:
            return name
    return None


def pinned_choices(seed: int, hard: float) -> dict[str, str]:
    """``draw_case`` keyword arguments for ``seed``: none for an ordinary seed, some of
    ``table``, ``light`` and ``clutter`` for a hard one (a share ``hard`` of the seeds)."""
    rng = np.random.default_rng([seed, 71717])
    if rng.uniform() >= hard:
        return {}
    pins: dict[str, str] = {}
    light = _one(rng, HARD_LIGHTS)
    family = _one(rng, HARD_FAMILIES)
    clutter = _one(rng, HARD_CLUTTER)
    if light is None and family is None and clutter is None:
        light = "blind"
    if light is not None:
        pins["light"] = light
    if family is not None:
        kinds = sorted(k for k, f in TABLE_FAMILY.items() if f == family)
        pins["table"] = kinds[int(rng.integers(len(kinds)))]
    if clutter is not None:
        pins["clutter"] = clutter
    return pins


DARK_TABLES: tuple[str, ...] = ("cloth-black", "felt-black", "dark-wood", "walnut", "slate",
                                "felt-green", "felt-blue", "cloth-blue")
"""Tables whose level is near a post's wall (the posts the detector misses there)."""


def post_rich_choices(seed: int, hard: float, dark: float,
                      post_weight: float | None) -> dict[str, object]:
    """:func:`pinned_choices` for ``seed``, then, for a share ``dark`` of the seeds (its own
    generator), a dark table (:data:`DARK_TABLES`) in place of any pinned table, and, when
    ``post_weight`` is given, that weight for a group of posts among the layout's groups (the
    usual mix gives them 0.1: ``tabletop.render.layouts.GROUP_WEIGHTS``). With ``dark`` 0 and
    no ``post_weight`` it is :func:`pinned_choices` itself."""
    pins: dict[str, object] = dict(pinned_choices(seed, hard))
    rng = np.random.default_rng([seed, 71718])
    if rng.uniform() < dark:
        pins["table"] = DARK_TABLES[int(rng.integers(len(DARK_TABLES)))]
    if post_weight is not None:
        if post_weight <= 0.0:
            raise ValueError(f"post_weight: a positive group weight, not {post_weight}")
        pins["weights"] = {"post": float(post_weight)}
    return pins


PINNABLE: tuple[str, ...] = ("light", "table", "clutter")
"""``draw_case``'s choices a seed can be pinned to by :func:`only_choices`."""


def parse_only(items: list[str]) -> dict[str, tuple[str, ...]]:
    """``["light=blind,glare", "table=marble"]`` -> ``{"light": ("blind", "glare"), ...}``;
    a ValueError names an item that is no ``choice=value,...`` of :data:`PINNABLE`."""
    out: dict[str, tuple[str, ...]] = {}
    for item in items:
        name, _, values = item.partition("=")
        vals = tuple(v for v in values.split(",") if v)
        if name not in PINNABLE or not vals:
            raise ValueError(f"expected one of {', '.join(PINNABLE)}=V1,V2,..., not {item!r}")
        out[name] = out.get(name, ()) + vals
    return out


def only_choices(seed: int, only: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """``draw_case`` keyword arguments pinning each choice of ``only`` to one of its values,
    drawn by the seed's own generator (not ``draw_case``'s)."""
    rng = np.random.default_rng([seed, 71719])
    return {name: vals[int(rng.integers(len(vals)))] for name, vals in sorted(only.items())}
