"""The full detector's post precision and recall on renders of dark tables, the post judge's
dark forest on (``PostJudgeConfig.dark_model``: the readings of a table read in the
unlikeness judged by a forest of such tables' rows) and off (one forest for every reading,
as before it): a check of that one change, both read from the same render in one process.

    .venv/bin/python training/post_dark_check.py --seeds 414000:414033 --cache /tmp/renders

Each seed is drawn as ``training/post_level_check.py`` draws it (``--post-weight 0.8
--hard-share 1.0``, the table pinned to one of :data:`training.make_posts.DARK_TABLES` in
turn; ``--tables``: these instead). ``--dark-model``: another dark forest than the committed
one. A post is found when a reading stands within the accuracy bench's 12 mm of it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from training.make_posts import DARK_TABLES, seed_range
from training.post_level_check import compare
from vision import DetectorConfig
from vision.post_judge import PostJudgeConfig


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seed_range, required=True, help="A:B")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--tables", default=None, metavar="K1,K2,...")
    ap.add_argument("--dark-model", type=Path, default=None)
    args = ap.parse_args(argv)
    tables = args.tables.split(",") if args.tables else list(DARK_TABLES)
    base = DetectorConfig()
    on = PostJudgeConfig() if args.dark_model is None else PostJudgeConfig(
        dark_model=args.dark_model)
    judges = {"one": PostJudgeConfig(dark_model=None), "dark": on}
    compare(args.seeds, args.cache, tables,
            {name: replace(base, posts=replace(base.posts, judge=judge))
             for name, judge in judges.items()})
    return 0

if __name__ == "__main__":
    sys.exit(main())
