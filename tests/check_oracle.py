"""An independent checker for the differential tests of ``setupgen check``
(tests/test_check_rules.py): the rules of docs/rules.md sections 1-3 that
it covers, written apart from setupgen. It reads the board JSON
(docs/format.md) and the layout TOML (layouts/README.md) itself, finds
neighbours by the six axial direction vectors and harbor corners by plane
geometry (two edges share an intersection when an end point coincides),
and imports nothing of setupgen.

``errors(board, layout)`` is the set of ``(rule, hexes)`` pairs, ``hexes``
a frozenset, of the rules in :data:`RULES` the board breaks (errors only,
not notes)."""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from pathlib import Path

LAYOUTS = Path(__file__).resolve().parent.parent / "layouts"
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # facing 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE
RED = (6, 8)
#: the rules this oracle decides (check's names for them)
RULES = frozenset(
    {
        "equal-adjacent",
        "red-adjacent",
        "hex-missing",
        "hex-extra",
        "harbor-place",
        "harbor-one-per-sea-hex",
        "harbor-shared-intersection",
        "harbor-coast",
        "harbor-pool",
        "red-on-barred-terrain",
        "pips-over-cap",
    }
)


def layout_of(name: str) -> dict:
    """The layout file's map (hex -> kind), harbor places, harbor pool and
    whether it is an Oil Springs scenario."""
    data = tomllib.loads((LAYOUTS / f"{name}.toml").read_text(encoding="utf-8"))
    if "inherits" in data:  # layouts/README.md: the file's top-level keys replace the parent's
        data = {**tomllib.loads((LAYOUTS / f"{data['inherits']}.toml").read_text(encoding="utf-8")), **data}
    legend = data["map"]["legend"]
    kinds, caps = {}, {}
    for row in data["map"]["rows"]:
        for i, cell in enumerate(row["cells"].split()):
            if cell != ".":
                spec = legend[cell.split(":")[0]]  # SYM:N fixes a token
                kinds[(row["q"] + i, row["r"])] = spec["kind"]
                if "max_pips" in spec:  # the most dots a token there may have
                    caps[(row["q"] + i, row["r"])] = spec["max_pips"]
    harbors = data.get("harbors", {})
    places = [(p["q"], p["r"], p["facing"], p.get("type")) for p in harbors.get("places", [])]
    return {
        "kinds": kinds,
        "places": places,
        "pool": Counter(harbors.get("pool", {})),
        "oil": "oil" in data,
        "red_barred": set(data.get("numbers", {}).get("red_barred", [])),  # terrains no 6 or 8 may lie on
        "caps": caps,
    }


def _pool(counter: Counter) -> Counter:
    return Counter({k: v for k, v in counter.items() if v})


def centre(h):
    """A pointy-top hex's centre for hexes of size 1 (Red Blob Games)."""
    q, r = h
    return (math.sqrt(3) * (q + r / 2), 1.5 * r)


def edge_ends(h, facing):
    """The two end points of the edge between ``h`` and its neighbour at
    ``facing``: at the circumradius 1 from both centres."""
    dq, dr = DIRECTIONS[facing]
    (ax, ay), (bx, by) = centre(h), centre((h[0] + dq, h[1] + dr))
    d = math.dist((ax, ay), (bx, by))
    mx, my, ux, uy = (ax + bx) / 2, (ay + by) / 2, -(by - ay) / d, (bx - ax) / d
    return [(round(mx + ux * 0.5, 6), round(my + uy * 0.5, 6)), (round(mx - ux * 0.5, 6), round(my - uy * 0.5, 6))]


def errors(board: dict, layout: dict) -> set[tuple[str, frozenset]]:
    out: set[tuple[str, frozenset]] = set()
    tiles = {(t["q"], t["r"]): t for t in board["hexes"]}
    want = set(layout["kinds"])
    out |= {("hex-missing", frozenset([h])) for h in want - set(tiles)}
    out |= {("hex-extra", frozenset([h])) for h in set(tiles) - want}
    out |= _numbers(board, tiles, layout)
    out |= _harbors(board, tiles, layout)
    return out


def _numbers(board, tiles, layout):
    out = set()
    numbers = {h: t["number"] for h, t in tiles.items() if t.get("number") is not None}
    oil_deserts = {h for h, t in tiles.items() if layout["oil"] and t["terrain"] == "desert" and t.get("oil_spring")}
    for h, a in numbers.items():
        for dq, dr in DIRECTIONS:
            n = (h[0] + dq, h[1] + dr)
            b = numbers.get(n)
            if b is None or n < h:
                continue
            pair = frozenset([h, n])
            if a == b and board["number_method"] != "spiral" and not ({h, n} & oil_deserts):
                out.add(("equal-adjacent", pair))
            if a in RED and b in RED:
                out.add(("red-adjacent", pair))
    for h, a in numbers.items():
        if a in RED and tiles[h]["terrain"] in layout["red_barred"]:
            out.add(("red-on-barred-terrain", frozenset([h])))
        if h in layout["caps"] and 6 - abs(7 - a) > layout["caps"][h]:  # dots: the ways two dice roll it
            out.add(("pips-over-cap", frozenset([h])))
    return out


def _harbors(board, tiles, layout):
    out = set()
    method, harbors = board["harbor_method"], board["harbors"]
    if method == "players":
        return out
    if _pool(Counter(h["type"] for h in harbors)) != _pool(layout["pool"]):
        out.add(("harbor-pool", frozenset()))
    places = layout["places"]
    if method in ("shuffled", "fixed") and places:
        if method == "fixed" and all(p[3] for p in places):
            return out | _fixed(harbors, places)
        at = {(p[0], p[1], p[2]) for p in places}
        used = Counter((h["q"], h["r"], h["facing"]) for h in harbors)
        for (q, r, f), n in used.items():
            if (q, r, f) not in at:
                out.add(("harbor-place", frozenset([(q, r)])))
            if n > 1:
                out.add(("harbor-one-per-sea-hex", frozenset([(q, r)])))
        for q, r, _f in at - set(used):
            out.add(("harbor-place", frozenset([(q, r)])))
        return out
    return out | _free(harbors, tiles)


def _fixed(harbors, places):
    want = Counter(places)
    got = Counter((h["q"], h["r"], h["facing"], h["type"]) for h in harbors)
    return {("harbor-place", frozenset([(q, r)])) for (q, r, _, _) in (got - want) + (want - got)}


def _free(harbors, tiles):
    out = set()
    kind = {h: t["kind"] for h, t in tiles.items()}
    for h in harbors:
        sea = (h["q"], h["r"])
        dq, dr = DIRECTIONS[h["facing"]]
        if kind.get(sea) != "sea" or kind.get((sea[0] + dq, sea[1] + dr)) != "land":
            out.add(("harbor-coast", frozenset([sea])))
    per_sea = Counter((h["q"], h["r"]) for h in harbors)
    out |= {("harbor-one-per-sea-hex", frozenset([s])) for s, n in per_sea.items() if n > 1}
    for i, a in enumerate(harbors):
        for b in harbors[i + 1 :]:
            sa, sb = (a["q"], a["r"]), (b["q"], b["r"])
            if sa != sb and set(edge_ends(sa, a["facing"])) & set(edge_ends(sb, b["facing"])):
                out.add(("harbor-shared-intersection", frozenset([sa, sb])))
    return out
