"""The table diagram as an SVG file (plain text, no drawing library).

>>> from tabletop.events import Setup
>>> svg_text([Setup("worm-derby", ("suns", "moons"))]).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from referee.export.diagram import FELT, Diagram, diagram
from tabletop.events import Event


def _pts(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)


def render_svg(d: Diagram, width_px: int = 1000) -> str:
    """A diagram as SVG text (1 unit = 1 mm; ``width_px`` wide when shown as is)."""
    x0, y0, w, h = d.box
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} {w:.1f} '
           f'{h:.1f}" width="{width_px}" height="{round(width_px * h / w)}" '
           f'font-family="DejaVu Sans, sans-serif">',
           f"<title>{escape(d.title)}</title>",
           f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{FELT}"/>']
    for s in d.shapes:
        stroke = f' stroke="{s.stroke}" stroke-width="{s.width}"' if s.stroke else ""
        if s.kind == "circle":
            (cx, cy), = s.points
            out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{s.r:.2f}" '
                       f'fill="{s.fill}"{stroke}/>')
        elif s.kind == "polygon":
            out.append(f'<polygon points="{_pts(s.points)}" fill="{s.fill}"{stroke}/>')
        elif s.kind == "line":
            out.append(f'<polyline points="{_pts(s.points)}" fill="none"{stroke}/>')
        elif s.kind == "text":
            (tx, ty), = s.points
            out.append(f'<text x="{tx:.2f}" y="{ty:.2f}" font-size="{s.size:g}" '
                       f'text-anchor="middle" dominant-baseline="central" '
                       f'fill="{s.fill}">{escape(s.text)}</text>')
    out.append(f'<text x="{x0 + 4:.1f}" y="{y0 + 14:.1f}" font-size="12" fill="#ffffff">'
               f"{escape(d.title)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_text(events: Iterable[Event]) -> str:
    """The diagram of a record's last table as SVG."""
    return render_svg(diagram(events))
