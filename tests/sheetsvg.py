"""Reading a sheet back from its SVG, independently of setupgen's layout
code: text boxes measured with the real DejaVu fonts (PIL), marker boxes
from the shapes' own attributes, lines of the coast and frame from their
path data. Used by tests/test_sheet_layout.py."""

from __future__ import annotations

import math
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache

from PIL import ImageFont

NS = "{http://www.w3.org/2000/svg}"
_NUM = re.compile(r"-?\d+(?:\.\d+)?")
#: a text's box reaches this share of its size above / below the baseline
#: (DejaVu caps and digits are 0.73 em tall; descenders reach 0.24 em)
ASCENT, DESCENT = 0.76, 0.24


@cache
def _font(bold: bool, mono: bool) -> ImageFont.FreeTypeFont:
    family = "DejaVu Sans Mono" if mono else "DejaVu Sans"
    style = ":bold" if bold else ""
    path = subprocess.run(
        ["fc-match", "-f", "%{file}", family + style], capture_output=True, text=True, check=True
    ).stdout.strip()
    return ImageFont.truetype(path, 1000)


def text_width(text: str, size: float, bold: bool, mono: bool) -> float:
    return _font(bold, mono).getlength(text) / 1000 * size


@dataclass
class Text:
    text: str
    x: float
    y: float
    size: float
    bold: bool
    anchor: str
    fill: str
    mono: bool

    def box(self) -> tuple[float, float, float, float]:
        w = text_width(self.text, self.size, self.bold, self.mono)
        x0 = self.x - (w / 2 if self.anchor == "middle" else w if self.anchor == "end" else 0.0)
        return (x0, self.y - self.size * ASCENT, x0 + w, self.y + self.size * DESCENT)


#: the scenario pieces' marks (docs/sheet.md, "Nothing collides"): they stand on intersections, edges and
#: hexes of the map, drawn opaque over the coast and frame lines, so they may cross them (never other marks)
OVER_COAST = frozenset({"village", "gift", "no-start", "settlement", "ship", "fortress", "lone-settlement", "path"})


@dataclass
class Item:
    """One object on the page: a ``<g class="mark KIND">`` (its shapes and
    texts), a reserved box, or a text outside any group."""

    kind: str
    box: tuple[float, float, float, float]
    texts: list[Text]
    #: ``(cx, cy, r)`` when the item is a disc holding all else it draws (a number token): what the
    #: coast may not cross is the disc, not its square box
    disc: tuple[float, float, float] | None = None


def _text(el: ET.Element) -> Text:
    return Text(
        el.text or "",
        float(el.get("x")),
        float(el.get("y")),
        float(el.get("font-size")),
        el.get("font-weight") == "bold",
        el.get("text-anchor", "start"),
        el.get("fill", "#000000"),
        "Mono" in el.get("font-family", ""),
    )


def _shape_box(el: ET.Element) -> tuple[float, float, float, float] | None:
    tag = el.tag.replace(NS, "")
    sw = float(el.get("stroke-width", "0")) / 2 if el.get("stroke") else 0.0
    if tag == "circle":
        cx, cy, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
        return (cx - r - sw, cy - r - sw, cx + r + sw, cy + r + sw)
    if tag == "rect":
        x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
        return (x - sw, y - sw, x + w + sw, y + h + sw)
    if tag == "path":
        nums = [float(v) for v in _NUM.findall(el.get("d", ""))]
        xs, ys = nums[0::2], nums[1::2]
        return (min(xs) - sw, min(ys) - sw, max(xs) + sw, max(ys) + sw)
    return None


def _union(boxes):
    boxes = [b for b in boxes if b is not None]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _disc(group: ET.Element, box: tuple[float, float, float, float]) -> tuple[float, float, float] | None:
    """The group's first shape as ``(cx, cy, r)`` (stroke included) if it
    is a circle whose box is the whole group's, else None."""
    first = next((k for k in group if k.tag != NS + "text"), None)
    if first is None or first.tag != NS + "circle" or _shape_box(first) != box:
        return None
    sw = float(first.get("stroke-width", "0")) / 2 if first.get("stroke") else 0.0
    return (float(first.get("cx")), float(first.get("cy")), float(first.get("r")) + sw)


def crosses(item: Item, p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether segment ``p``-``q`` crosses ``item``: its disc when it is one
    (:attr:`Item.disc`), else its box."""
    if item.disc is None:
        return segment_hits_box(p, q, item.box)
    cx, cy, r = item.disc
    dx, dy = q[0] - p[0], q[1] - p[1]
    t = max(0.0, min(1.0, ((cx - p[0]) * dx + (cy - p[1]) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.hypot(cx - p[0] - t * dx, cy - p[1] - t * dy) < r


def parse(svg: str) -> tuple[list[Item], list[Text], dict[str, list], ET.Element]:
    """``(items, all texts, paths by class, root)``."""
    root = ET.fromstring(svg.encode("utf-8"))
    items: list[Item] = []
    texts: list[Text] = []
    paths: dict[str, list] = {}
    for el in root:
        tag = el.tag.replace(NS, "")
        if tag == "g":
            cls = el.get("class", "")
            kids_texts = [_text(k) for k in el if k.tag == NS + "text"]
            texts.extend(kids_texts)
            boxes = [_shape_box(k) for k in el if k.tag != NS + "text"] + [t.box() for t in kids_texts]
            kind = cls[5:] if cls.startswith("mark ") else cls
            items.append(Item(kind, _union(boxes), kids_texts, _disc(el, _union(boxes))))
        elif tag == "text":
            t = _text(el)
            texts.append(t)
            items.append(Item("text", t.box(), [t]))
        elif tag == "path" and el.get("class"):
            paths.setdefault(el.get("class"), []).append(el.get("d"))
    return items, texts, paths, root


def segments(d: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight segments of ``M``/``L`` path data."""
    out = []
    for part in d.split("M")[1:]:
        nums = [float(v) for v in _NUM.findall(part)]
        pts = list(zip(nums[0::2], nums[1::2]))
        out.extend(zip(pts, pts[1:]))
    return out


def polygons(d: str) -> list[list[tuple[float, float]]]:
    """The closed polygons (sub-paths) of ``M``/``L``/``Z`` path data."""
    out = []
    for part in d.split("M")[1:]:
        nums = [float(v) for v in _NUM.findall(part)]
        out.append(list(zip(nums[0::2], nums[1::2])))
    return out


def overlap(a, b, tol: float = 0.02) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def segment_hits_box(p, q, box) -> bool:
    """Whether the segment ``p``-``q`` passes through the inside of ``box``
    (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pk == 0:
            if qk <= 0:
                return False
        else:
            t = qk / pk
            if pk < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 < t1


def sheet_rows(board):
    """The build list's rows worked out from the tiles: per row (``r``,
    top to bottom) its hexes that are not frame, by ``q``."""
    rows = {}
    for t in board.tiles:
        if t.kind != "frame":
            rows.setdefault(t.hex[1], []).append(t)
    return [sorted(rows[r], key=lambda t: t.hex[0]) for r in sorted(rows)]


def text_boxes(svg: str) -> list[tuple[float, float, float, float, str]]:
    """``(x0, top, x1, bottom, text)`` of every text element: the advance
    width from the DejaVu fonts, the anchor applied, from 0.75 of the size
    above the baseline to 0.2 below it (caps and descenders)."""
    out = []
    for e in ET.fromstring(svg.encode("utf-8")).iter(f"{NS}text"):
        size, x, y = float(e.get("font-size")), float(e.get("x")), float(e.get("y"))
        w = text_width(e.text or "", size, e.get("font-weight") == "bold", "Mono" in e.get("font-family", ""))
        x0 = x - {"middle": w / 2, "end": w}.get(e.get("text-anchor", "start"), 0.0)
        out.append((x0, y - 0.75 * size, x0 + w, y + 0.2 * size, e.text or ""))
    return out
