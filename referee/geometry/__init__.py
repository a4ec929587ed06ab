"""Geometry shared by the referees and the dashboard: obstacles and the gap fit.

Pure shapely 2 and numpy (never OpenCV): :class:`ObstacleSet` holds prepared obstacles
(tiles are rotated squares, round pieces are discs) and :func:`fit_path` answers "can a coin
slide from A to B, how wide is the narrowest place on the best path, and where is it?";
:func:`cross_straight` answers "does the coin go through the gap I point at?";
:func:`fit_in_scene` and :func:`crossing_in_scene` ask them of a whole scene (cached per
scene, for the dashboard).
"""

from referee.geometry.crossing import Crossing, cross_straight, gap_at
from referee.geometry.fit import FitResult, Roadmap, fit_path, roadmap_for
from referee.geometry.obstacles import ObstacleSet, piece_shape, tile_polygon
from referee.geometry.scene_fit import crossing_in_scene, fit_in_scene, scene_obstacles

__all__ = ["Crossing", "FitResult", "ObstacleSet", "Roadmap", "cross_straight",
           "crossing_in_scene", "fit_in_scene", "fit_path", "gap_at", "piece_shape",
           "roadmap_for", "scene_obstacles", "tile_polygon"]
