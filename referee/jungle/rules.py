"""The rules of the Animal Game as hooks, and the variants as subclasses overriding them.

:class:`Rules` holds the standard rules; each variant is a subclass overriding one hook, with a
``name`` and ``aliases``. Several variants at once combine by multiple inheritance
(:func:`rules_for`). The hooks are asked once per rule set to build the move tables
(:class:`Tables`) that move generation uses, so variants cost nothing at search time.

>>> rules_for(["dog-swims"]).swims("dog")
True
>>> rules_for([]).captures("elephant", "rat")
False
>>> rules_for(["old-elephant"]).captures("elephant", "rat")
True
>>> rules_for(["dog-over-wolf"]).rank("dog")
4
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from referee.jungle import geometry as g
from referee.jungle.errors import UnknownVariantError
from tabletop.boards.jungle import ANIMALS

LETTERS = "RCDWPTLE"
"""One letter per animal (P for the leopard, panther), in :data:`ANIMALS` order; upper case is
the first player's, lower case the second's in the text form."""

SIDE_NAMES = ("first", "second")


def kind_of(code: int) -> int:
    """Animal 1..8 (standard rank) of a piece code 1..16."""
    return ((code - 1) & 7) + 1


def side_of(code: int) -> int:
    """Side (0 first player, 1 second) of a piece code 1..16."""
    return (code - 1) >> 3


def code_of(side: int, kind: int) -> int:
    """The piece code of a side's animal: ``8 * side + kind``; token id = 49 + code."""
    return 8 * side + kind


def token_id(code: int) -> int:
    """The ArUco id on a piece's token (50 + 8 * side + rank - 1)."""
    return 49 + code


def piece_name(code: int) -> str:
    """``tiger`` (the animal's name)."""
    return ANIMALS[kind_of(code) - 1]


@dataclass(frozen=True)
class Tables:
    """Move tables of one rule set (built once from the hooks).

    Attributes:
        steps: ``steps[code][square]``: squares one step away that the piece may stand on
            (its own den and, for non-swimmers, water left out).
        jumps: ``jumps[code][square]``: ``(landing, water squares crossed)`` river jumps.
        beats: ``beats[code][target]``: whether piece ``code`` may capture piece ``target``
            by rank (on land, off traps); False for the own side and for 0.
        foe: ``foe[side][target]``: whether ``target`` (0..16) is an enemy piece of ``side``.
        trap: ``trap[side][square]``: squares where an enemy of ``side`` has rank 0.
        water: ``water[square]``.
        codes: ``codes[side]``: the side's piece codes.
        jumpers: ``jumpers[side]``: the side's piece codes that can jump a river at all.
    """

    steps: tuple[tuple[tuple[int, ...], ...], ...]
    jumps: tuple[tuple[tuple[tuple[int, tuple[int, ...]], ...], ...], ...]
    beats: tuple[tuple[bool, ...], ...]
    foe: tuple[tuple[bool, ...], ...]
    trap: tuple[tuple[bool, ...], ...]
    water: tuple[bool, ...]
    codes: tuple[tuple[int, ...], ...]
    jumpers: tuple[tuple[int, ...], ...]


class Rules:
    """The standard rules of the Animal Game (Jungle / Dou Shou Qi).

    Subclasses (variants) override the hooks; ``name`` and ``aliases`` find them
    (:func:`find_variant`).
    """

    name: ClassVar[str] = "standard"
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = "the standard rules"
    variants: ClassVar[tuple[str, ...]] = ()

    # ---------------------------------------------------------------- hooks
    @classmethod
    def rank(cls, animal: str) -> int:
        """An animal's strength (elephant 8 ... rat 1)."""
        return ANIMALS.index(animal) + 1

    @classmethod
    def captures(cls, attacker: str, defender: str) -> bool:
        """Whether ``attacker`` may capture ``defender`` by rank (both on land, no trap).

        Equal or lower rank; the rat takes the elephant; the elephant never takes the rat.
        """
        if attacker == "rat" and defender == "elephant":
            return True
        if attacker == "elephant" and defender == "rat":
            return False
        return cls.rank(attacker) >= cls.rank(defender)

    @classmethod
    def swims(cls, animal: str) -> bool:
        """Whether the animal may enter the water (only the rat)."""
        return animal == "rat"

    @classmethod
    def jumps(cls, animal: str) -> tuple[bool, bool]:
        """Which river jumps the animal makes: ``(short, long)``.

        ``short`` crosses a river's width (two water squares, along a rank), ``long`` its length
        (three water squares, along a file). The lion and the tiger make both. Any animal in the
        water on the jump's line (a rat; a dog when dogs swim) blocks it.
        """
        both = animal in ("lion", "tiger")
        return (both, both)

    # ---------------------------------------------------------------- tables
    @classmethod
    def tables(cls) -> Tables:
        """The move tables of this rule set (built once, cached per class)."""
        return _tables(cls)

    @classmethod
    def describe_variants(cls) -> list[str]:
        """The names of the variants this rule set combines (empty for the standard rules)."""
        return list(cls.variants)


_TABLES: dict[type[Rules], Tables] = {}


def _tables(cls: type[Rules]) -> Tables:
    if cls not in _TABLES:
        _TABLES[cls] = _build_tables(cls)
    return _TABLES[cls]


def _build_tables(cls: type[Rules]) -> Tables:
    steps: list[tuple[tuple[int, ...], ...]] = [()]
    jumps: list[tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]] = [()]
    beats: list[tuple[bool, ...]] = [(False,) * 17]
    for code in range(1, 17):
        side, animal = side_of(code), piece_name(code)
        swims = cls.swims(animal)
        short, long = cls.jumps(animal)
        steps.append(tuple(
            tuple(t for t in g.neighbours(s) if t != g.DENS[side] and (swims or t not in g.WATER))
            for s in range(g.N_SQUARES)))
        jumps.append(tuple(
            tuple((t, w) for t, w in g.river_jumps(s, short=short, long=long)
                  if t != g.DENS[side]) if (short or long) else ()
            for s in range(g.N_SQUARES)))
        beats.append((False, *(side_of(t) != side and cls.captures(animal, piece_name(t))
                               for t in range(1, 17))))
    foe = tuple(tuple(t != 0 and side_of(t) != side for t in range(17)) for side in (0, 1))
    trap = tuple(tuple(s in g.TRAPS[side] for s in range(g.N_SQUARES)) for side in (0, 1))
    water = tuple(s in g.WATER for s in range(g.N_SQUARES))
    codes = tuple(tuple(range(8 * side + 1, 8 * side + 9)) for side in (0, 1))
    jumpers = tuple(tuple(c for c in codes[side] if any(jumps[c])) for side in (0, 1))
    return Tables(tuple(steps), tuple(jumps), tuple(beats), foe, trap, water, codes, jumpers)


# --------------------------------------------------------------------------- the variants

class ElephantCapturesRat(Rules):
    """The old rule: the elephant may capture the rat (the rat still captures the elephant)."""

    name = "elephant-captures-rat"
    aliases = ("old-elephant", "elephant-takes-rat")
    summary = "the elephant may capture the rat (old rule)"

    @classmethod
    def captures(cls, attacker: str, defender: str) -> bool:
        if attacker == "elephant" and defender == "rat":
            return True
        return super().captures(attacker, defender)


class DogOverWolf(Rules):
    """The dog is stronger than the wolf: dog rank 4, wolf rank 3."""

    name = "dog-over-wolf"
    aliases = ("strong-dog", "dog-beats-wolf")
    summary = "the dog is stronger than the wolf (dog 4, wolf 3)"

    @classmethod
    def rank(cls, animal: str) -> int:
        if animal == "dog":
            return 4
        if animal == "wolf":
            return 3
        return super().rank(animal)


class DogSwims(Rules):
    """The dog may enter the water, like the rat (and like it, cannot capture across the shore;
    a dog in the water blocks river jumps)."""

    name = "dog-swims"
    aliases = ("swimming-dog",)
    summary = "the dog may swim"

    @classmethod
    def swims(cls, animal: str) -> bool:
        return animal == "dog" or super().swims(animal)


class LeopardJumps(Rules):
    """The leopard jumps a river the short way (across its width of two water squares)."""

    name = "leopard-jumps"
    aliases = ("leopard-short-jump", "jumping-leopard")
    summary = "the leopard jumps the river the short way (two water squares)"

    @classmethod
    def jumps(cls, animal: str) -> tuple[bool, bool]:
        if animal == "leopard":
            return (True, False)
        return super().jumps(animal)


VARIANTS: tuple[type[Rules], ...] = (ElephantCapturesRat, DogOverWolf, DogSwims, LeopardJumps)
"""Every variant, in a fixed order."""
_VARIANTS_BY_NAME = {n: v for v in VARIANTS for n in (v.name, *v.aliases)}


def variant_names() -> list[str]:
    """The main names of the variants."""
    return [v.name for v in VARIANTS]


def find_variant(name: str) -> type[Rules]:
    """The variant class with that name or alias.

    Raises:
        UnknownVariantError: naming the known variants.
    """
    try:
        return _VARIANTS_BY_NAME[name]
    except (KeyError, TypeError):
        raise UnknownVariantError(
            f"unknown Jungle variant {name!r} (known: {', '.join(variant_names())})") from None


def rules_for(names: Iterable[str]) -> type[Rules]:
    """The rule set combining the named variants (the standard rules for none).

    Raises:
        UnknownVariantError: a name that is no variant.
    """
    chosen = {find_variant(n) for n in names}
    return _combine(frozenset(chosen))


@cache
def _combine(chosen: frozenset[type[Rules]]) -> type[Rules]:
    if not chosen:
        return Rules
    bases = tuple(v for v in VARIANTS if v in chosen)
    if len(bases) == 1:
        return bases[0]
    names = tuple(b.name for b in bases)
    return type("Rules[" + "+".join(names) + "]", bases,
                {"name": "+".join(names), "aliases": (), "variants": names,
                 "summary": "; ".join(b.summary for b in bases)})


for _v in VARIANTS:
    _v.variants = (_v.name,)
