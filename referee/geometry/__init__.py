"""Geometry shared by the referees and the dashboard: obstacles and the gap fit.

Pure shapely 2 and numpy (never OpenCV): :class:`ObstacleSet` holds prepared obstacles
(tiles are rotated squares, round pieces are discs) and :func:`fit_path` answers "can a coin
slide from A to B, how wide is the narrowest place on the best path, and where is it?";
:func:`fit_in_scene` asks it of a whole scene (cached per scene, for the dashboard).
"""

from referee.geometry.fit import FitResult, Roadmap, fit_path, roadmap_for
from referee.geometry.obstacles import ObstacleSet, piece_shape, tile_polygon
from referee.geometry.scene_fit import fit_in_scene, scene_obstacles

__all__ = ["FitResult", "ObstacleSet", "Roadmap", "fit_in_scene", "fit_path", "piece_shape",
           "roadmap_for", "scene_obstacles", "tile_polygon"]
