"""Data flows one way, and so do the imports: no module imports a layer above its own.

frames -> calibration -> vision -> referee -> log -> web, with the ``tabletop`` core (scene,
events, pieces, the Calibration value, printed boards, the renderer) below all of them:

- ``tabletop`` (the core) imports no layer;
- ``calibration`` imports the core only; ``vision`` the core and ``calibration``;
- ``referee`` is pure: the core only (never vision, calibration, the web, OpenCV or Flask);
- ``live`` (the runtime without Flask: pipeline, sources, table, log) and ``web`` (the Flask
  app) may import every layer below;
- ``training`` may measure with the accuracy bench's own counting (``bench``), never the
  other way round (the bench must not depend on how a model was made);
- nothing in the product, ``bench``, ``scripts``, ``training`` or ``docs`` imports ``tests``.

The exception is the command-line dispatcher ``tabletop/cli.py``: it is the top, not the core.
It loads each layer's ``cli`` module by name (``importlib.import_module(name)``, with a
variable, which this test does not follow), so every layer's commands are reached from it.

Imports are read with :mod:`ast` from the source, at any depth (inside functions too), together
with ``importlib.import_module("...")`` and ``__import__("...")`` called with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PRODUCT = ("tabletop", "calibration", "vision", "referee", "live", "web")
"""The product's packages, bottom to top."""
TOOLS = ("bench", "scripts", "training", "docs")
"""Programs beside the product: they may use any layer, but not the tests."""

MAY_IMPORT: dict[str, frozenset[str]] = {
    "tabletop": frozenset({"tabletop"}),
    "calibration": frozenset({"tabletop", "calibration"}),
    "vision": frozenset({"tabletop", "calibration", "vision"}),
    "referee": frozenset({"tabletop", "referee"}),
    "live": frozenset({"tabletop", "calibration", "vision", "referee", "live"}),
    "web": frozenset(PRODUCT),
    **{tool: frozenset(PRODUCT) | {tool} for tool in TOOLS},
    "training": frozenset(PRODUCT) | {"training", "bench"},
}
"""For each package, the packages of this project it may import."""

NEVER_LIBRARIES: dict[str, frozenset[str]] = {
    "tabletop": frozenset({"flask", "werkzeug"}),
    "calibration": frozenset({"flask", "werkzeug"}),
    "vision": frozenset({"flask", "werkzeug"}),
    "referee": frozenset({"cv2", "flask", "werkzeug"}),
    "live": frozenset({"flask", "werkzeug"}),
}
"""Outside libraries a package must not import (the referee is pure; only the web is Flask)."""

TOP = frozenset({"tabletop.cli", "tabletop.__main__"})
"""The command-line entry point: it may import every layer (see the module's docstring)."""

PROJECT = frozenset(PRODUCT) | frozenset(TOOLS) | {"tests"}


def module_name(path: Path) -> str:
    """``live/fit_cli.py`` -> ``live.fit_cli``; a package's ``__init__.py`` -> the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(module: str, source: str, is_package: bool = False) -> list[tuple[str, int]]:
    """Every module ``source`` imports, with its line, at any depth (absolute names).

    >>> imported_names("vision.x", "def f():\\n    from referee.jungle import geometry\\n")
    [('referee.jungle', 2)]
    >>> imported_names("web.x", "from . import api\\nfrom .log import Log\\n")
    [('web', 1), ('live.log', 2)]
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((name, node.lineno))
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name)
                       and node.func.id in ("__import__", "import_module")))):
            out.append((node.args[0].value, node.lineno))
    return sorted(out, key=lambda item: item[1])


def arrows_against_the_flow(module: str, source: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` (its text ``source``) that point up the layers, one line each.

    >>> arrows_against_the_flow("referee.x", "import cv2\\n")
    ['referee.x:1 imports cv2']
    >>> arrows_against_the_flow("vision.x", "from calibration.model import Calibration\\n")
    []
    >>> arrows_against_the_flow("bench.x", "from training.forests import forest\\n")
    ['bench.x:1 imports training.forests']
    """
    if module in TOP:
        return []
    own = module.split(".")[0]
    allowed = MAY_IMPORT.get(own)
    never = NEVER_LIBRARIES.get(own, frozenset())
    out = []
    for name, line in imported_names(module, source, is_package):
        top = name.split(".")[0]
        if top in never or (top in PROJECT and (allowed is None or top not in allowed)):
            out.append(f"{module}:{line} imports {name}")
    return out


def _files() -> list[Path]:
    return sorted(p for package in PRODUCT + TOOLS if (ROOT / package).is_dir()
                  for p in (ROOT / package).rglob("*.py"))


def test_every_package_is_placed_in_the_layers():
    assert set(MAY_IMPORT) == set(PRODUCT) | set(TOOLS)
    assert _files(), "no source found"


def test_every_command_module_the_dispatcher_names_exists():
    # The dispatcher skips a module it cannot find, so a command moved without it would vanish.
    from tabletop.cli import COMMAND_MODULES

    missing = [name for name in COMMAND_MODULES
               if not (ROOT / (name.replace(".", "/") + ".py")).is_file()]
    assert not missing


def test_no_module_imports_against_the_flow():
    found = []
    for path in _files():
        found += arrows_against_the_flow(module_name(path), path.read_text(encoding="utf-8"),
                                         path.name == "__init__.py")
    assert not found, "imports against the flow:\n" + "\n".join(found)


BACK_ARROWS = [
    # The five the issue found, as they were written.
    ("calibration.jungle_board", "from referee.jungle import geometry as g\n"),
    ("vision.sheets", "def _board_layout():\n    from referee.jungle import geometry as g\n"),
    ("tabletop.render.render", "from calibration.model import Calibration, Lens\n"),
    ("tabletop.fit_cli", "def _scene_of(args):\n    from vision import Detector\n"),
    ("tabletop.fit_cli", "def _scene_of(args):\n    from calibration.model import Calibration\n"),
    ("tabletop.fit_cli", "def run(args):\n    from referee.geometry import fit_in_scene\n"),
    ("bench.bench_web", "def serve():\n    from tests.web.fakes import FakeStabiliser\n"),
    # And the other kinds of arrow the rules forbid.
    ("referee.worm_derby.game", "import cv2\n"),
    ("referee.record", "from flask import current_app\n"),
    ("referee.registry", "import importlib\nimportlib.import_module('vision.detector')\n"),
    ("referee.cli", "from live.log import Log\n"),
    ("vision.detector", "from referee.registry import find_game\n"),
    ("vision.sheets", "from web import create_app\n"),
    ("calibration.mat", "import vision\n"),
    ("tabletop.export.walk", "from referee.record import Referee\n"),
    ("tabletop.scene", "from calibration import model\n"),
    ("live.pipeline", "from web.api import bp\n"),
    ("live.pipeline", "import flask\n"),
    ("live.pipeline", "from tests.factories import scene\n"),
    ("scripts.make_sample_images", "from tests.factories import scene\n"),
]


@pytest.mark.parametrize(("module", "source"), BACK_ARROWS)
def test_an_import_against_the_flow_is_found(module, source):
    assert len(arrows_against_the_flow(module, source)) == 1


FORWARD = [
    ("web.cli", "from referee.registry import find_game\nfrom vision import Detector\n"),
    ("vision.detector", "from calibration.model import Calibration\nimport cv2\n"),
    ("referee.jungle.game", "from tabletop.boards import jungle\nfrom . import rules\n"),
    ("calibration.jungle_board", "from tabletop.boards import jungle as g\n"),
    ("tabletop.render.render", "from tabletop.calibration import Calibration\nimport cv2\n"),
    ("tabletop.cli", "importlib.import_module('web.cli')\n"),
    ("bench.bench_web", "from web import create_app\nfrom live.vision_glue import load_vision\n"),
]


@pytest.mark.parametrize(("module", "source"), FORWARD)
def test_an_import_along_the_flow_is_allowed(module, source):
    assert arrows_against_the_flow(module, source) == []
