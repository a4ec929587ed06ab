"""The scene renderer: a scene of pieces drawn as an overhead webcam would see it.

>>> from tabletop.render import CameraPose, RenderSettings, render_scene
>>> from tabletop.scene import Piece, Scene
>>> scene = Scene((Piece("coin", 0.0, 0.0, suit="suns"),))
>>> r = render_scene(scene, CameraPose.looking_at((0, 0), image_size=(320, 240)),
...                  RenderSettings(seed=1))
>>> r.image.shape
(240, 320, 3)
>>> [round(v, 2) for v in r.truth[0].centre_px]
[159.5, 119.5]

World frame: table millimetres, ``x`` right and ``y`` down the image of the default pose (as a
printed sheet reads from above), ``z`` up from the table; see :mod:`tabletop.render.camera`.
"""

from tabletop.render.camera import CameraPose
from tabletop.render.errors import RenderError
from tabletop.render.render import PieceTruth, Rendered, default_pose_for, render_scene
from tabletop.render.settings import TABLES, Decal, RenderSettings

__all__ = ["TABLES", "CameraPose", "Decal", "PieceTruth", "RenderError", "RenderSettings",
           "Rendered", "default_pose_for", "render_scene"]
