"""How well each way of reading a coin's symbol names its suit, on the patches of
``make_suit_samples.py`` (and optionally other patch files of the same form).

    .venv/bin/python training/suit_figures.py training/data/suit_a.npz training/data/suit_c.npz

For each way (the symbol as every pixel darker than a share of the body, the old reading; the
darkest share of the face, :func:`vision.suits.darkest_colour_of`) prints the accuracy, the
confusion (true suit -> read suit) and the accuracy per light and per table family, as
``name=value`` lines. A coin lying value up (true suit ``none``) is right when read so: black
ink centred on its face (:func:`vision.coin_value.numeral_shown`); the accuracy without that
check is printed beside. Seconds on one core; nothing is learnt.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.coin_faces import face_offsets, face_pixels
from vision.coin_value import numeral_shown
from vision.stats import row_percentiles
from vision.suits import DEFAULT_SUIT_INKS, darkest_colour_of, neutral_inks, read_suits


def below_share(px: np.ndarray, depth: float) -> np.ndarray:
    """The symbol as the pixels darker than ``depth`` of the body (the old reading), relative
    to the body, RGB (N, 3); NaN where fewer than 3 are."""
    p = np.asarray(px, float)
    lum = p.sum(axis=2)
    top = lum >= row_percentiles(lum, 75)[:, None]
    body = (p * top[..., None]).sum(axis=1) / top.sum(axis=1)[:, None]
    ink = lum < depth * body.sum(axis=1)[:, None]
    n = ink.sum(axis=1)
    rel = (p * ink[..., None]).sum(axis=1) / np.maximum(n, 1)[:, None] / np.maximum(body, 1.0)
    rel[n < 3] = np.nan
    return rel[:, ::-1]


WAYS = {
    "below_0.8": lambda px: below_share(px, 0.8),
    "darkest_0.05": lambda px: darkest_colour_of(px, 0.05),
    "darkest_0.1": lambda px: darkest_colour_of(px, 0.1),
    "darkest_0.2": lambda px: darkest_colour_of(px, 0.2),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    args = ap.parse_args(argv)
    parts = [np.load(p) for p in args.data]

    def cat(k: str) -> np.ndarray:
        return np.concatenate([p[k] for p in parts])

    patches, suit = cat("patch"), cat("suit")
    conditions = {c: cat(c) for c in ("light", "family") if all(c in p for p in parts)}
    px = patches.reshape(len(patches), -1, 3)[:, face_pixels()]
    inks = dict(DEFAULT_SUIT_INKS)
    value = numeral_shown(px, face_offsets())
    print(f"coins={len(suit)}")
    print(f"value_up={int((suit == 'none').sum())}")
    for name, way in WAYS.items():
        read = np.array([s or "none" for s, _ in read_suits(way(px), inks)])
        print(f"{name}_no_value_check_suit_accuracy={(read == suit).mean():.4f}")
        read[np.isin(read, neutral_inks(inks)) & value] = "none"
        ok = read == suit
        print(f"{name}_suit_accuracy={ok.mean():.4f}")
        for (t, r), n in sorted(Counter(zip(suit[~ok], read[~ok], strict=True)).items()):
            print(f"{name}_confused_{t}_as_{r}={n}")
        for c, values in conditions.items():
            for v in sorted(set(values.tolist())):
                m = values == v
                print(f"{name}_{c}_{v}_suit_accuracy={ok[m].mean():.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
