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

- World frame: table millimetres, ``x`` right and ``y`` down the image of the default pose (as
  a printed sheet reads from above; the calibration mat's frame), ``z`` up from the table; see
  :mod:`tabletop.render.camera` (``R`` has determinant -1 because of it).
- Pieces are ray traced (:mod:`~tabletop.render.raytrace`): raised tops are displaced under a
  tilted camera, sides show, and edges are antialiased with extra rays, so the ground truth
  (``centre_px`` on the table, ``top_px`` on the top face) matches the drawing to a fraction
  of a pixel. ``visible_fraction`` is the share of a piece's top face in view (the hand and
  nearer pieces hide it); ``occluded`` is ``visible_fraction < 0.95``.
- Decals (:class:`Decal`) are flat sheets under the pieces: the mat, the Jungle board.
- Seeded and deterministic. Table textures (four per kind unless ``table_seed`` is given) and
  the traced layers of pieces that have not moved are cached, so a sequence of frames of one
  table renders fast; ``bench/bench_render.py`` measures it.
- ``RenderSettings.clean()`` turns noise, blur, vignetting and JPEG off (exact measurements);
  ``RenderSettings.random(seed)`` draws a varied, plausible look (robustness tests).
- Light beyond one lamp (:mod:`~tabletop.render.lights`): ``RenderSettings(lamps=(Lamp(...),),
  blind=Blind(...), daylight=Daylight(...))``; ``table_edge=TableEdge(...)`` shows the floor
  past the table's edge. Left out, the render is exactly the one-lamp picture.
- Variety (:mod:`~tabletop.render.variety`): ``draw_case(seed)`` draws a whole case (one of
  :data:`TABLE_KINDS` tables, :data:`LIGHT_KINDS` lights, :data:`CLUTTER_KINDS` clutter, a
  game-like layout, a camera and its faults); ``Case.render()`` draws it with its truth
  (``truth_json()`` then lists the distractors and the conditions).
- ``tabletop render SCENE.json -o OUT.jpg`` renders from the command line;
  ``scripts/make_sample_images.py`` makes ``sample_images/worm_derby``.
"""

from tabletop.render.camera import CameraPose
from tabletop.render.edge import TableEdge
from tabletop.render.errors import RenderError
from tabletop.render.lights import Blind, Daylight, Lamp
from tabletop.render.render import PieceTruth, Rendered, default_pose_for, render_scene
from tabletop.render.settings import SURFACES, TABLES, Decal, RenderSettings
from tabletop.render.variety import (
    CLUTTER_KINDS,
    LIGHT_KINDS,
    TABLE_FAMILY,
    TABLE_KINDS,
    Case,
    draw_case,
)

__all__ = ["CLUTTER_KINDS", "LIGHT_KINDS", "SURFACES", "TABLES", "TABLE_FAMILY", "TABLE_KINDS",
           "Blind", "CameraPose", "Case", "Daylight", "Decal", "Lamp", "PieceTruth",
           "RenderError", "RenderSettings", "Rendered", "TableEdge", "default_pose_for",
           "draw_case", "render_scene"]
