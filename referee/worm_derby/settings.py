"""The named tolerances and limits of the Worm Derby referee (one frozen value)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WormSettings:
    """Tolerances for real placement and limits of the searches.

    Attributes:
        touch_factor: Two coins touch when their centres are at most this many coin diameters
            apart (real placement is never exact, and vision measures each coordinate with
            about 0.6 mm of noise: neighbours then read up to about 1.15 diameters apart).
            Worms are chained by nearest neighbours within it (a coin touches at most its two
            nearest), so a bend never joins a coin to the one beyond its neighbour.
        overlap_tolerance_mm: A coin may reach this far into another piece without overlapping
            it (placement and measuring noise).
        centre_noise_mm: Two coins' centre distance as measured may read this much shorter
            than it is (vision's noise of about 0.6 mm per coordinate, three standard
            deviations of a distance between two measured centres): a placed coin overlaps its
            own worm's coins only when nearer than that allows.
        gap_tolerance_mm: A coin slides through a gap at least ``diameter - this`` wide.
        same_place_mm: A piece that moved less than this has not moved.
        same_angle_deg: A tile that turned less than this has not turned.
        slide_reach: A growing coin slides within this many coin diameters of the coin it
            grows from.
        start_apart_tiles: Start tiles' centres may be this far apart (tile widths, min, max).
        start_apart_usual_tiles: Outside this range (about four tile widths) a warning is given.
        pylon_offset_tiles: Farthest the pylon may be from the start line's perpendicular
            bisector (tile widths).
        small_table_mm: A pylon nearer the start line than this (3 feet) gives a warning.
        obstacle_clear_tiles: Obstacles keep this far (tile widths) from the start line and the
            pylon.
        straight_mm: Most a starting worm's coin may stray from a straight line.
        perpendicular_deg: Most a starting worm may lean from the start line's normal.
        rounding_back_deg: A worm has rounded the pylon once its head, having crossed the
            far-side ray, has come this far back round (degrees past the ray).
        gate_reach_tiles: A worm passes a gate when its head goes by within this many tile
            widths of the gate's centre.
        eat_reach: An attacking coin overlays an end coin when their centres are at most this
            many coin diameters apart (Cannibal).
        y_axis_down: The table frame's y axis points towards the viewer's bottom when seen from
            above (the printed calibration mat's frame: x right, y down). Left and right (Slalom
            gates) are judged as seen from above.
        search_angles: Placements tried around a worm's end when searching for possible steps.
        search_budget: Most placements tried in one search.
    """

    touch_factor: float = 1.2
    overlap_tolerance_mm: float = 0.5
    centre_noise_mm: float = 2.5
    gap_tolerance_mm: float = 0.25
    same_place_mm: float = 4.0
    same_angle_deg: float = 6.0
    slide_reach: float = 1.6
    start_apart_tiles: tuple[float, float] = (2.5, 6.0)
    start_apart_usual_tiles: tuple[float, float] = (3.5, 5.0)
    pylon_offset_tiles: float = 1.5
    small_table_mm: float = 914.4
    obstacle_clear_tiles: float = 3.0
    straight_mm: float = 6.0
    perpendicular_deg: float = 15.0
    rounding_back_deg: float = 90.0
    gate_reach_tiles: float = 2.5
    eat_reach: float = 0.5
    y_axis_down: bool = True
    search_angles: int = 36
    search_budget: int = 3000

    def overlap_mm(self, coin_mm: float) -> float:
        """Two coins of ``coin_mm`` width overlap when their centres, as measured, lie nearer
        than this (each may reach ``overlap_tolerance_mm`` into the other, and the measured
        distance may read ``centre_noise_mm`` short)."""
        return coin_mm - 2 * self.overlap_tolerance_mm - self.centre_noise_mm


DEFAULT_SETTINGS = WormSettings()
