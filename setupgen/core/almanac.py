"""Rule sets as data: what a table plays by, read from the ``almanac/`` folder.

* ``almanac/presets/<name>.toml``: a tournament's house rules (``swiss-2010``,
  ``australian-2006``); the name ``none`` is the empty preset.
* ``almanac/scenarios.toml``: each scenario's special rules, its Longest
  Road or Longest Trade Route rules, the maritime trade rules, and the game
  boxes and pieces a table needs (:func:`table_material`).
* ``almanac/variants/<name>.toml``: a variant (``fishermen``): its rules in
  each form (with Seafarers, without, with Cities & Knights) and its
  material per table.

A rule is a key (kebab-case) and when it applies: ``"rounds"`` (the
preliminary rounds), ``"final"`` or ``"both"``; its text is
``almanac.rule.<key>`` in each language's template file. The format is
documented in ``almanac/README.md``.

Files are read on each call (they are small); nothing happens at import
time. Every error is a :class:`~setupgen.core.errors.SetupgenError` with a
lowercase one-line message: ``field="rules"`` for a request naming an
unknown preset or rule key or a bad line, ``field="variant"`` for an
unknown variant; a malformed file is named with the entry at fault (no
field: no request value is to blame).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, NoReturn

from .data import data_dir, read_toml
from .errors import SetupgenError, quoted
from .templates import texts

#: when a rule applies: preliminary rounds, the final, or both
WHEN = ("rounds", "final", "both")
#: where a rule goes on the page: the house rules or the disputes
SECTIONS = ("house", "disputes")
#: longest printed line of a rule text (a text may have two lines, "\n")
MAX_LINE_CHARS = 110
#: most lines one rule text may have
MAX_LINES = 2
#: longest line a director may add (``select(add=...)``)
MAX_OWN_CHARS = 200
#: the preset without house rules
NO_PRESET = "none"
#: most players a table may have (:func:`table_material`)
MAX_PLAYERS = 6

_KEY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: ``key`` names its text (``almanac.rule.<key>``), ``when``
    is one of :data:`WHEN`, ``section`` one of :data:`SECTIONS`. A
    director's own line has ``text`` set (printed as it is) and a key
    ``own-<n>``."""

    key: str
    when: str = "both"
    section: str = "house"
    text: str | None = None

    def applies(self, final: bool) -> bool:
        """Whether the rule holds in the final (``final=True``) or in the
        preliminary rounds."""
        return self.when == "both" or self.when == ("final" if final else "rounds")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A preset of house rules: ``name`` (the file name) and its rules in
    page order."""

    name: str
    rules: tuple[Rule, ...]

    def keys(self) -> tuple[str, ...]:
        """The rule keys, in page order."""
        return tuple(r.key for r in self.rules)


@dataclass(frozen=True, slots=True)
class AlmanacRequest:
    """What the almanac page of a table is made of: the house-rule
    ``preset`` (:data:`NO_PRESET` for none), whether the round is the
    ``final`` (semi-finals count as preliminary rounds), rule keys of the
    preset to ``drop``, the director's own lines to ``add`` (in the
    tournament's language, printed as written) and a ``variant``
    (``None`` or a name from :func:`variants`, e.g. ``"fishermen"``).

    Checked by :func:`check_request`, not here (a request is a plain
    value; the data files are read only when asked)."""

    preset: str = NO_PRESET
    final: bool = False
    drop: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    variant: str | None = None


def check_request(request: AlmanacRequest, folder: Path | None = None) -> None:
    """Raise :class:`SetupgenError` (``field="rules"``) for an unknown
    preset, a dropped key the preset does not have, an added line that is
    not one line of at most :data:`MAX_OWN_CHARS` characters, or
    (``field="variant"``) an unknown variant. Whether the page fits is known only when it is laid
    out (:func:`setupgen.render.almanac.almanac_page`)."""
    if not isinstance(request, AlmanacRequest):
        raise SetupgenError(f"expected an almanac request, got {type(request).__name__}", field="rules")
    if not isinstance(request.drop, tuple) or not isinstance(request.add, tuple):
        raise SetupgenError("drop and add take lists of texts", field="rules")
    select(load_preset(request.preset, folder).rules, request.final, request.drop, request.add)
    if request.variant is not None:
        variant(request.variant, folder)


@dataclass(frozen=True, slots=True)
class MaterialSpec:
    """One kind of a variant's material: ``per_player`` pieces per player,
    or by table size ``per_table`` = ((fewest, most, count), ...); ``forms``
    limits it to those forms (empty: every form)."""

    key: str
    per_player: int = 0
    per_table: tuple[tuple[int, int, int], ...] = ()
    forms: tuple[str, ...] = ()

    def count(self, players: int, form: str) -> int:
        """How many a table of ``players`` needs in ``form`` (0: none).
        Raises :class:`SetupgenError` when no table size band covers
        ``players``."""
        if self.forms and form not in self.forms:
            return 0
        total = self.per_player * players
        if self.per_table:
            band = [n for low, high, n in self.per_table if low <= players <= high]
            if not band:
                raise SetupgenError(f"variant material {self.key!r}: no count for a table of {players} players",
                                    field="rules")
            total += band[0]
        return total


#: what a :class:`Material` is: a game box or an extension (text
#: ``almanac.box.<key>``), or countable pieces (text ``almanac.material.<key>``)
MATERIAL_KINDS = ("box", "piece")


@dataclass(frozen=True, slots=True)
class Material:
    """Material a table needs: ``count`` of ``key``; ``kind`` (one of
    :data:`MATERIAL_KINDS`) says whether it is a game box or extension
    (text ``almanac.box.<key>``) or pieces (text
    ``almanac.material.<key>``, the default)."""

    key: str
    count: int
    kind: str = "piece"

    def text_key(self) -> str:
        """The key of its name in the template files
        (``almanac.box.seafarers``, ``almanac.material.fish-token``)."""
        return f"almanac.{'box' if self.kind == 'box' else 'material'}.{self.key}"


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant: ``forms`` maps a form name to (scenarios, rules);
    ``default`` is the form of any scenario no form lists."""

    name: str
    default: str
    forms: Mapping[str, tuple[tuple[str, ...], tuple[Rule, ...]]]
    material_specs: tuple[MaterialSpec, ...]

    def form_for(self, scenario: str) -> str:
        """The form a round of ``scenario`` plays (``"seafarers"``, ...)."""
        for form, (scenarios, _) in self.forms.items():
            if scenario in scenarios:
                return form
        return self.default

    def rules(self, scenario: str) -> tuple[Rule, ...]:
        """The variant's rules for a round of ``scenario``, in page order."""
        return self.forms[self.form_for(scenario)][1]

    def material(self, players: int, scenario: str) -> tuple[Material, ...]:
        """What a table of ``players`` needs for a round of ``scenario``
        (kinds it does not need left out). Raises :class:`SetupgenError`
        for a table size the variant has no count for."""
        form = self.form_for(scenario)
        counts = ((m.key, m.count(players, form)) for m in self.material_specs)
        return tuple(Material(key, n) for key, n in counts if n)


def almanac_dir() -> Path:
    """The folder of rule data (see :func:`setupgen.core.data.data_dir`)."""
    return data_dir("almanac")


def presets(folder: Path | None = None) -> tuple[str, ...]:
    """The preset names, sorted, :data:`NO_PRESET` included."""
    base = folder or almanac_dir()
    return tuple(sorted([NO_PRESET, *(p.stem for p in (base / "presets").glob("*.toml"))]))


def variants(folder: Path | None = None) -> tuple[str, ...]:
    """The variant names, sorted."""
    return tuple(sorted(p.stem for p in ((folder or almanac_dir()) / "variants").glob("*.toml")))


def load_preset(name: str, folder: Path | None = None) -> RuleSet:
    """The house-rule preset ``name`` (``"swiss-2010"``; ``"none"``: no
    rules), read from ``folder`` (default :func:`almanac_dir`).

    Raises :class:`SetupgenError` for an unknown preset or a malformed file.
    """
    if name == NO_PRESET:
        return RuleSet(NO_PRESET, ())
    known = presets(folder)
    if not isinstance(name, str) or name not in known:
        raise SetupgenError(f"unknown rule preset {quoted(name)} (known: {', '.join(known)})", field="rules")
    path = (folder or almanac_dir()) / "presets" / f"{name}.toml"
    data = _read(path)
    _only(path, "", data, ("name", "rules"))
    if data.get("name") != name:
        _bad(path, "name", f"expected {name!r} (the file name)")
    return RuleSet(name, _rules(path, "rules", data.get("rules")))


def scenarios(folder: Path | None = None) -> tuple[str, ...]:
    """The scenarios with an entry in ``scenarios.toml``, sorted."""
    return tuple(sorted(_scenario_table(folder)[1]))


def scenario_rules(scenario: str, folder: Path | None = None) -> tuple[Rule, ...]:
    """The special rules of ``scenario`` (a layout name), in page order
    (none for the base games).

    Raises :class:`SetupgenError` for a scenario without an entry or a
    malformed file."""
    path, table = _scenario_table(folder)
    entry = _scenario_entry(path, table, scenario)
    if "inherits" in entry:
        parent = entry["inherits"]
        if not isinstance(parent, str) or not isinstance(table.get(parent), dict) or "inherits" in table[parent]:
            _bad(path, f"scenario.{scenario}.inherits", "expected a scenario listing its own rules")
        return _rules(path, f"scenario.{parent}.rules", table[parent].get("rules"))
    return _rules(path, f"scenario.{scenario}.rules", entry.get("rules"))


def longest_rules(scenario: str, folder: Path | None = None) -> tuple[Rule, ...]:
    """The Longest Road rules of ``scenario``, or the Longest Trade Route
    rules where it names them (``longest = "trade-route"``).

    Raises :class:`SetupgenError` for a scenario without an entry or a
    malformed file."""
    path, table = _scenario_table(folder)
    entry = _scenario_entry(path, table, scenario)
    if "inherits" in entry:
        entry = _scenario_entry(path, table, str(entry["inherits"]))
    kind = entry.get("longest", "road")
    lists = _read(path).get("longest")
    if not isinstance(lists, dict) or not isinstance(kind, str) or not isinstance(lists.get(kind), dict):
        _bad(path, f"scenario.{scenario}.longest", f"no list [longest.{kind}]")
    return _rules(path, f"longest.{kind}.rules", lists[kind].get("rules"))


def table_material(scenario: str, players: int, variant: str | None = None,
                   folder: Path | None = None) -> tuple[Material, ...]:
    """What one table of ``players`` needs for a round of ``scenario`` (a
    layout name), in this order: the game boxes and extensions of the
    scenario's ``boxes`` (``kind="box"``, count 1 each, in the file's
    order), the scenario's own pieces (its ``material`` list), then the
    material of the variant named ``variant`` (``"fishermen"``; None: no
    variant) for a table of that size and the scenario's form, kinds it
    needs none of left out (:meth:`Variant.material`). A fixed Oil
    Springs setup takes both lists from the scenario it ``inherits``.

    ``table_material("base-3-4", 4, "fishermen")`` is ``(Material("base",
    1, "box"), Material("fish-token", 30), Material("fishing-ship-marker",
    4), Material("matchstick", 4))``. Names: :func:`material_text`.

    Raises :class:`SetupgenError`: ``field="rules"`` for a scenario
    without an entry, ``players`` not a whole number from 1 to
    :data:`MAX_PLAYERS` or a table size the variant has no count for; an
    unknown variant as :func:`variant` does; a malformed file (an entry
    without ``boxes`` included) named with the entry at fault."""
    if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
        raise SetupgenError(f"players: expected a whole number 1-{MAX_PLAYERS}, not {quoted(players)}",
                            field="rules")
    boxes, pieces = _scenario_material(scenario, folder)
    extra = () if variant is None else _load_variant(variant, folder).material(players, scenario)
    return (*(Material(key, 1, "box") for key in boxes), *pieces, *extra)


def material_text(material: Material, lang: str, *, count: bool = True) -> str:
    """The printed name of ``material`` in ``lang``: ``"30 × fish tokens
    (1 token = 2 fish)"``, ``"1 × Seafarers"``; with ``count=False`` the
    name alone (``"Seafarers"``). Raises :class:`SetupgenError` for a
    missing text or an unknown language."""
    tx = texts(lang)
    what = tx.get(material.text_key())
    return tx.get("almanac.material_count", n=material.count, what=what) if count else what


def trade_rules(folder: Path | None = None) -> tuple[Rule, ...]:
    """The maritime trade rules printed on every almanac page.

    Raises :class:`SetupgenError` for a malformed file."""
    path = (folder or almanac_dir()) / "scenarios.toml"
    trade = _read(path).get("trade")
    if not isinstance(trade, dict):
        _bad(path, "trade", "expected a table with a list of rules")
    return _rules(path, "trade.rules", trade.get("rules"))


def variant(name: str, folder: Path | None = None) -> Variant:
    """The variant ``name`` (``"fishermen"``).

    Raises :class:`SetupgenError` for an unknown variant or a malformed
    file."""
    known = variants(folder)
    if not isinstance(name, str) or name not in known:
        raise SetupgenError(f"unknown variant {quoted(name)} (known: {', '.join(known) or 'none'})",
                            field="variant")
    path = (folder or almanac_dir()) / "variants" / f"{name}.toml"
    data = _read(path)
    _only(path, "", data, ("name", "default", "form", "material"))
    if data.get("name") != name:
        _bad(path, "name", f"expected {name!r} (the file name)")
    forms = data.get("form")
    if not isinstance(forms, dict) or not forms:
        _bad(path, "form", "expected one table [form.<name>] per form")
    out = {form: _form(path, form, entry) for form, entry in forms.items()}
    default = data.get("default")
    if default not in out:
        _bad(path, "default", f"expected one of the forms ({', '.join(out)})")
    material = data.get("material", [])
    if not isinstance(material, list):
        _bad(path, "material", "expected [[material]] entries")
    specs = tuple(_material(path, f"material[{i}]", m, tuple(out)) for i, m in enumerate(material))
    return Variant(name, str(default), MappingProxyType(out), specs)


_load_variant = variant  # for functions whose parameter is named ``variant``


def select(rules: Iterable[Rule], final: bool, drop: Iterable[str] = (), add: Iterable[str] = ()) -> tuple[Rule, ...]:
    """The rules that hold in the final (``final=True``) or in the
    preliminary rounds, without the keys in ``drop``, followed by the
    director's own lines ``add`` (texts, section "house").

    Raises :class:`SetupgenError` for a key in ``drop`` that names none of
    ``rules``, and for an added line that is not one line of text of at
    most :data:`MAX_OWN_CHARS` characters."""
    rules = tuple(rules)
    if isinstance(drop, str) or isinstance(add, str):
        raise SetupgenError("drop and add take lists, not a single text", field="rules")
    known = [r.key for r in rules]
    for key in drop:
        if key not in known:
            raise SetupgenError(f"unknown rule key {quoted(key)} in drop (known: {', '.join(known) or 'none'})",
                                field="rules")
    dropped = set(drop)
    kept = [r for r in rules if r.applies(final) and r.key not in dropped]
    own = [_own_line(i, line) for i, line in enumerate(add, start=1)]
    return (*kept, *own)


def rule_text(rule: Rule, lang: str, **values: Any) -> str:
    """The printed text of ``rule`` in language ``lang`` (lines separated by
    ``"\\n"``), its fields (``{vp}``) filled from ``values``; a director's
    own line as it is. Raises :class:`SetupgenError` for a missing text."""
    if rule.text is not None:
        return rule.text
    return texts(lang).get(f"almanac.rule.{rule.key}", **values)


def data_keys(folder: Path | None = None) -> dict[str, set[str]]:
    """Every key the data files use: ``{"rule": ..., "material": ...,
    "box": ..., "preset": ..., "variant": ..., "form": ...}`` (each needs a text
    ``almanac.<kind>.<key>``). Raises :class:`SetupgenError` for a
    malformed file."""
    rule_keys: set[str] = set()
    for name in presets(folder):
        rule_keys |= set(load_preset(name, folder).keys())
    rule_keys |= {r.key for r in trade_rules(folder)}
    box_keys: set[str] = set()
    material_keys: set[str] = set()
    for scenario in scenarios(folder):
        rule_keys |= {r.key for r in (*scenario_rules(scenario, folder), *longest_rules(scenario, folder))}
        boxes, pieces = _scenario_material(scenario, folder)
        box_keys |= set(boxes)
        material_keys |= {m.key for m in pieces}
    found = [variant(name, folder) for name in variants(folder)]
    for v in found:
        rule_keys |= {r.key for _, rules in v.forms.values() for r in rules}
    return {"rule": rule_keys, "material": material_keys | {m.key for v in found for m in v.material_specs},
            "box": box_keys, "preset": set(presets(folder)) - {NO_PRESET}, "variant": set(variants(folder)),
            "form": {f for v in found for f in v.forms}}


def _own_line(i: int, line: Any) -> Rule:
    if not isinstance(line, str) or not line.strip() or "\n" in line or "\r" in line:
        raise SetupgenError(f"added rule {i}: expected one line of text", field="rules")
    if len(line) > MAX_OWN_CHARS:
        raise SetupgenError(f"added rule {i}: longer than {MAX_OWN_CHARS} characters", field="rules")
    return Rule(f"own-{i}", "both", "house", line.strip())


def _scenario_table(folder: Path | None) -> tuple[Path, dict[str, Any]]:
    path = (folder or almanac_dir()) / "scenarios.toml"
    data = _read(path)
    _only(path, "", data, ("trade", "longest", "scenario"))
    table = data.get("scenario")
    if not isinstance(table, dict):
        _bad(path, "scenario", "expected one table [scenario.<name>] per scenario")
    return path, table


def _scenario_entry(path: Path, table: dict[str, Any], scenario: str) -> dict[str, Any]:
    if not isinstance(scenario, str) or scenario not in table:
        raise SetupgenError(f"no almanac rules for scenario {quoted(scenario)} (known: {', '.join(sorted(table))})",
                            field="rules")
    entry = table[scenario]
    if not isinstance(entry, dict):
        _bad(path, f"scenario.{scenario}", "expected a table")
    _only(path, f"scenario.{scenario}", entry, ("rules", "longest", "inherits", "boxes", "material"))
    return entry


def _scenario_material(scenario: str, folder: Path | None) -> tuple[tuple[str, ...], tuple[Material, ...]]:
    """``(box keys, pieces)`` of ``scenario``, from the scenario it inherits
    from where it names one."""
    path, table = _scenario_table(folder)
    entry = _scenario_entry(path, table, scenario)
    name = scenario
    if "inherits" in entry:
        for field in ("boxes", "material"):
            if field in entry:
                _bad(path, f"scenario.{scenario}.{field}", "an entry that inherits takes this from its parent")
        name = entry["inherits"]
        if not isinstance(name, str) or not isinstance(table.get(name), dict) or "inherits" in table[name]:
            _bad(path, f"scenario.{scenario}.inherits", "expected a scenario listing its own rules")
        entry = _scenario_entry(path, table, name)
    where = f"scenario.{name}"
    boxes = entry.get("boxes")
    if (not isinstance(boxes, list) or not boxes or len(set(map(str, boxes))) != len(boxes)
            or not all(isinstance(b, str) and _KEY.fullmatch(b) for b in boxes)):
        _bad(path, f"{where}.boxes", 'expected a list of distinct kebab-case box keys such as ["base", "seafarers"]')
    pieces = entry.get("material", [])
    if not isinstance(pieces, list):
        _bad(path, f"{where}.material", "expected a list of { key = ..., count = n } entries")
    out: list[Material] = []
    for i, piece in enumerate(pieces):
        at = f"{where}.material[{i}]"
        if not isinstance(piece, dict):
            _bad(path, at, "expected { key = ..., count = n }")
        _only(path, at, piece, ("key", "count"))
        key, n = _key(path, at, piece.get("key")), piece.get("count")
        if type(n) is not int or not 1 <= n <= 1000:
            _bad(path, f"{at} (key {key!r}).count", "expected a whole number 1-1000")
        if any(m.key == key for m in out):
            _bad(path, f"{at} (key {key!r})", "the key is listed twice")
        out.append(Material(key, n))
    return tuple(boxes), tuple(out)


def _form(path: Path, form: str, entry: Any) -> tuple[tuple[str, ...], tuple[Rule, ...]]:
    where = f"form.{form}"
    if not isinstance(entry, dict):
        _bad(path, where, "expected a table with scenarios and rules")
    _only(path, where, entry, ("scenarios", "rules"))
    scenarios_ = entry.get("scenarios", [])
    if not isinstance(scenarios_, list) or not all(isinstance(s, str) for s in scenarios_):
        _bad(path, f"{where}.scenarios", "expected a list of scenario names")
    return tuple(scenarios_), _rules(path, f"{where}.rules", entry.get("rules"))


def _material(path: Path, where: str, entry: Any, forms: tuple[str, ...]) -> MaterialSpec:
    if not isinstance(entry, dict):
        _bad(path, where, "expected a table")
    _only(path, where, entry, ("key", "per_player", "per_table", "forms"))
    key = _key(path, where, entry.get("key"))
    per_player = entry.get("per_player", 0)
    if type(per_player) is not int or not 0 <= per_player <= 100:
        _bad(path, f"{where} (key {key!r}).per_player", "expected a whole number 0-100")
    bands = []
    for band in entry.get("per_table", []):
        players, count = (band.get("players"), band.get("count")) if isinstance(band, dict) else (None, None)
        if (not isinstance(players, list) or len(players) != 2 or not all(type(n) is int for n in players)
                or players[0] > players[1] or type(count) is not int or not 0 <= count <= 1000):
            _bad(path, f"{where} (key {key!r}).per_table", "expected { players = [fewest, most], count = n } entries")
        bands.append((players[0], players[1], count))
    only = entry.get("forms", [])
    if not isinstance(only, list) or any(f not in forms for f in only):
        _bad(path, f"{where} (key {key!r}).forms", f"expected a list of forms ({', '.join(forms)})")
    return MaterialSpec(key, per_player, tuple(bands), tuple(only))


def _rules(path: Path, where: str, entries: Any) -> tuple[Rule, ...]:
    """The rule list at ``where``: inline tables ``{ key, when, section }``."""
    if not isinstance(entries, list):
        _bad(path, where, "expected a list of { key = ..., when = ... } entries")
    out: list[Rule] = []
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(entry, dict):
            _bad(path, at, "expected { key = ..., when = ... }")
        _only(path, at, entry, ("key", "when", "section"))
        key = _key(path, at, entry.get("key"))
        when, section = entry.get("when"), entry.get("section", "house")
        if when not in WHEN:
            _bad(path, f"{at} (key {key!r}).when", f"expected one of {', '.join(WHEN)}, not {quoted(when)}")
        if section not in SECTIONS:
            _bad(path, f"{at} (key {key!r}).section", f"expected one of {', '.join(SECTIONS)}, not {quoted(section)}")
        if any(r.key == key for r in out):
            _bad(path, f"{at} (key {key!r})", "the key is listed twice")
        out.append(Rule(key, when, section))
    return tuple(out)


def _key(path: Path, where: str, key: Any) -> str:
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        _bad(path, f"{where}.key", f"expected a kebab-case key such as 'dev-card-before-roll', not {quoted(key)}")
    return key


def _only(path: Path, where: str, table: dict[str, Any], allowed: tuple[str, ...]) -> None:
    extra = sorted(set(table) - set(allowed))
    if extra:
        _bad(path, f"{where}.{extra[0]}" if where else extra[0], f"unknown field (known: {', '.join(allowed)})")


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path, "almanac file")


def _bad(path: Path, where: str, problem: str) -> NoReturn:
    raise SetupgenError(f"{path}: {where}: {problem}")


__all__ = ["WHEN", "SECTIONS", "MAX_LINE_CHARS", "MAX_LINES", "MAX_OWN_CHARS", "NO_PRESET", "Rule", "RuleSet",
           "AlmanacRequest", "check_request",
           "MaterialSpec", "Material", "Variant", "almanac_dir", "presets", "variants", "scenarios", "load_preset",
           "scenario_rules", "longest_rules", "trade_rules", "variant", "select", "rule_text", "data_keys",
           "MATERIAL_KINDS", "MAX_PLAYERS", "table_material", "material_text"]
