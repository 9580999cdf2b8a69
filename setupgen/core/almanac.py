"""Rule sets as data: what a table plays by, read from the ``almanac/`` folder.

* ``almanac/presets/<name>.toml``: a tournament's house rules (``swiss-2010``,
  ``australian-2006``); the name ``none`` is the empty preset.
* ``almanac/scenarios.toml``: each scenario's special rules, its Longest
  Road or Longest Trade Route rules, the maritime trade rules, and the game
  boxes and pieces a table needs (:func:`table_material`).
* ``almanac/variants/<name>.toml``: a variant (``fishermen``): its rules in
  each form (with Seafarers, without, with Cities & Knights) and its
  material per table.

A rule is a key (kebab-case), when it applies (``"rounds"``: the
preliminary rounds and semi-finals, ``"final"`` or ``"both"``) and its
``source``: a document of ``almanac/sources.toml`` and its part, or
``"tournament file"`` (never ``"setupgen"``: that names the page's own
instructions, which are not rules). Its text is ``almanac.rule.<key>`` in
each language's template file. The format is documented in
``almanac/README.md``; every rule's source, the source's words and our
reading in ``docs/rules.md``, "Almanac rules". What one page prints, with
rules that meet resolved as docs/rules.md 7.8 says: :func:`page_rules`.

Files are read on each call (they are small); nothing happens at import
time. Every error is a :class:`~setupgen.core.errors.SetupgenError` with a
lowercase one-line message: ``field="rules"`` for a request naming an
unknown preset or rule key or a bad line, ``field="variant"`` for an
unknown variant; a malformed file is named with the entry at fault (no
field: no request value is to blame).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from .data import data_dir, read_data_toml
from .errors import SetupgenError, quoted
from .fields import Fields
from .templates import texts

#: when a rule applies: preliminary rounds, the final, or both
WHEN = ("rounds", "final", "both")
#: where a rule goes on the page: the house rules or the disputes
SECTIONS = ("preamble", "house", "disputes")
#: who decides an optional rule (a rule's ``option``): the director (the
#: organiser announces it) or the table (every player agrees before the game)
OPTIONS = ("director", "table")
#: longest printed line of a rule text (a text may have two lines, "\n")
MAX_LINE_CHARS = 110
#: most lines one rule text may have
MAX_LINES = 2
#: longest line a director may add (``select(add=...)``)
MAX_OWN_CHARS = 200
#: the preset without house rules
NO_PRESET = "none"
#: the source of a line the director's settings make (their own lines, the win threshold)
TOURNAMENT_FILE = "tournament file"
#: the source of the page's own instructions (headings): never a rule's
SETUPGEN = "setupgen"
#: most players a table may have (:func:`table_material`)
MAX_PLAYERS = 6

_KEY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: ``key`` names its text (``almanac.rule.<key>``), ``when``
    is one of :data:`WHEN`, ``section`` one of :data:`SECTIONS`;
    ``source`` the document and part it comes from (``"Catan Australian
    Championships 2006, additional rule 10"``), ``quote`` the source's
    words in its language and ``reading`` why our text is an
    interpretation (empty where it is not); ``scenarios``, where not
    empty, the only scenarios (layout names) the rule is printed for. A
    director's own line has ``text`` set (printed as it is), a key
    ``own-<n>`` and the source :data:`TOURNAMENT_FILE`. ``option``, where
    not empty, marks an optional rule and names who decides it (one of
    :data:`OPTIONS`); the page prints it under that label, with its
    default (off). ``end`` marks a rule about when and how a game ends:
    the page prints those together (the house rules' right after the win
    line). ``analogy``: the scenarios (layout names) on whose pages a rule
    written for the base game applies by analogy (the page says so, with
    the scenario's reading, ``almanac.analogy.<scenario>``)."""

    key: str
    when: str = "both"
    section: str = "house"
    text: str | None = None
    source: str = ""
    quote: str = ""
    reading: str = ""
    scenarios: tuple[str, ...] = ()
    option: str = ""
    end: bool = False
    analogy: tuple[str, ...] = ()

    def applies(self, final: bool, scenario: str | None = None) -> bool:
        """Whether the rule holds in the final (``final=True``) or in the
        preliminary rounds, on a page of ``scenario`` (``None``: any)."""
        if scenario is not None and self.scenarios and scenario not in self.scenarios:
            return False
        return self.when == "both" or self.when == ("final" if final else "rounds")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A preset of house rules: ``name`` (the file name), its rules in
    page order and ``aliases``, ``((old key, new key or ""), ...)``: keys
    an older tournament file may still name in ``drop`` (``""``: a line
    the preset no longer prints)."""

    name: str
    rules: tuple[Rule, ...]
    aliases: tuple[tuple[str, str], ...] = ()

    def keys(self) -> tuple[str, ...]:
        """The rule keys, in page order."""
        return tuple(r.key for r in self.rules)


@dataclass(frozen=True, slots=True)
class PageRules:
    """What one almanac page prints, by section, each in page order:
    ``house`` (the preset's house rules and the director's own lines,
    without those the scenario replaces), ``scenario``, ``variant``,
    ``trade``, ``longest`` and ``disputes`` (the preset's alone); and
    ``replaced``, the keys of the house rules the scenario's own rules
    replace on this page (docs/rules.md 7.8), for the page's footnote line."""

    house: tuple[Rule, ...]
    scenario: tuple[Rule, ...]
    variant: tuple[Rule, ...]
    trade: tuple[Rule, ...]
    longest: tuple[Rule, ...]
    disputes: tuple[Rule, ...]
    replaced: tuple[str, ...] = ()
    preamble: tuple[Rule, ...] = ()

    def keys(self) -> tuple[str, ...]:
        """Every printed rule's key, in page order."""
        return tuple(
            r.key
            for part in (
                self.preamble,
                self.house,
                self.scenario,
                self.variant,
                self.trade,
                self.longest,
                self.disputes,
            )
            for r in part
        )

    def numbers(self) -> dict[str, int]:
        """The number each printed rule has on the page, numbered from 1 in
        each section (the house rules from 2: the win line is 1), under
        its key and under ``rule_<key with _ for ->`` (e.g.
        ``rule_sea_pirate_harbors``), the field a text citing it fills
        (:func:`rule_text`): a text citing a rule not on the page cannot
        be filled, so every cross-reference resolves on its page."""
        out: dict[str, int] = {}
        for first, part in (
            (2, self.house),
            (1, self.scenario),
            (1, self.variant),
            (1, self.trade),
            (1, self.longest),
            (1, self.disputes),
        ):
            for n, r in enumerate(part, start=first):
                out[r.key] = n
                out["rule_" + r.key.replace("-", "_")] = n
        return out


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
    preset = load_preset(request.preset, folder)
    select(preset.rules, request.final, request.drop, request.add, aliases=preset.aliases)
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
    source: str = ""

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
                raise SetupgenError(
                    f"variant material {self.key!r}: no count for a table of {players} players", field="rules"
                )
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
    ``almanac.material.<key>``, the default); ``source`` as a
    :class:`Rule`'s (empty for a box: the scenario's own; not compared)."""

    key: str
    count: int
    kind: str = "piece"
    source: str = field(default="", compare=False)

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
        counts = ((m, m.count(players, form)) for m in self.material_specs)
        return tuple(Material(m.key, n, source=m.source) for m, n in counts if n)


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
    _only(path, "", data, ("name", "rules", "aliases"))
    if data.get("name") != name:
        _bad(path, "name", f"expected {name!r} (the file name)")
    rules_ = _rules(path, "rules", data.get("rules"), folder)
    return RuleSet(name, rules_, _aliases(path, data.get("aliases", {}), rules_))


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
        return _rules(path, f"scenario.{parent}.rules", table[parent].get("rules"), folder)
    return _rules(path, f"scenario.{scenario}.rules", entry.get("rules"), folder)


def scenario_rulebook(scenario: str, folder: Path | None = None) -> str | None:
    """The key (texts in ``[almanac.rulebook]``) of the published rulebook
    whose own rules ``scenario`` plays by when the project has no text of
    them to print (issue 50: the almanac page then says so and prints none);
    None for a scenario whose rules the page prints. Raises
    :class:`SetupgenError` for a scenario without an entry or a key that is
    not kebab-case."""
    path, table = _scenario_table(folder)
    entry = _scenario_entry(path, table, scenario)
    if "rulebook" not in entry:
        return None
    return _key(path, f"scenario.{scenario}.rulebook", entry["rulebook"])


def scenario_replaces(scenario: str, folder: Path | None = None) -> tuple[str, ...]:
    """The house-rule keys (of any preset) that the own rules of
    ``scenario`` replace, so its pages leave them off (docs/rules.md 7.8; the
    ``replaces`` list of ``scenarios.toml``; an entry that inherits: its
    parent's, then its own). Raises :class:`SetupgenError` for a scenario without
    an entry or a malformed list."""
    path, table = _scenario_table(folder)
    entry = _scenario_entry(path, table, scenario)
    own = _replaces_list(path, scenario, entry)
    if "inherits" not in entry:
        return own
    parent = str(entry["inherits"])
    inherited = _replaces_list(path, parent, _scenario_entry(path, table, parent))
    return inherited + tuple(k for k in own if k not in inherited)


def _replaces_list(path: Path, name: str, entry: Mapping[str, Any]) -> tuple[str, ...]:
    """An entry's own ``replaces`` keys (an inheriting entry's: those it
    replaces beside its parent's, the fixed set-ups' the director's random
    set-up)."""
    keys = entry.get("replaces", [])
    if not isinstance(keys, list) or len(set(map(str, keys))) != len(keys):
        _bad(path, f"scenario.{name}.replaces", "expected a list of distinct house-rule keys")
    return tuple(_key(path, f"scenario.{name}.replaces", k) for k in keys)


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
    return _rules(path, f"longest.{kind}.rules", lists[kind].get("rules"), folder)


def table_material(
    scenario: str, players: int, variant: str | None = None, folder: Path | None = None
) -> tuple[Material, ...]:
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
        raise SetupgenError(f"players: expected a whole number 1-{MAX_PLAYERS}, not {quoted(players)}", field="rules")
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
    return _rules(path, "trade.rules", trade.get("rules"), folder)


def variant(name: str, folder: Path | None = None) -> Variant:
    """The variant ``name`` (``"fishermen"``).

    Raises :class:`SetupgenError` for an unknown variant or a malformed
    file."""
    known = variants(folder)
    if not isinstance(name, str) or name not in known:
        raise SetupgenError(f"unknown variant {quoted(name)} (known: {', '.join(known) or 'none'})", field="variant")
    path = (folder or almanac_dir()) / "variants" / f"{name}.toml"
    data = _read(path)
    _only(path, "", data, ("name", "default", "form", "material"))
    if data.get("name") != name:
        _bad(path, "name", f"expected {name!r} (the file name)")
    forms = data.get("form")
    if not isinstance(forms, dict) or not forms:
        _bad(path, "form", "expected one table [form.<name>] per form")
    out = {form: _form(path, form, entry, folder) for form, entry in forms.items()}
    default = data.get("default")
    if default not in out:
        _bad(path, "default", f"expected one of the forms ({', '.join(out)})")
    material = data.get("material", [])
    if not isinstance(material, list):
        _bad(path, "material", "expected [[material]] entries")
    specs = tuple(_material(path, f"material[{i}]", m, tuple(out), folder) for i, m in enumerate(material))
    return Variant(name, str(default), MappingProxyType(out), specs)


_load_variant = variant  # for functions whose parameter is named ``variant``


def select(
    rules: Iterable[Rule],
    final: bool,
    drop: Iterable[str] = (),
    add: Iterable[str] = (),
    *,
    aliases: Iterable[tuple[str, str]] = (),
    scenario: str | None = None,
) -> tuple[Rule, ...]:
    """The rules that hold in the final (``final=True``) or in the
    preliminary rounds (on a page of ``scenario``, where given: see
    :meth:`Rule.applies`), without the keys in ``drop``, followed by the
    director's own lines ``add`` (texts, section "house"). A key of
    ``drop`` that is an old key of ``aliases`` (``(old, new)`` pairs, as
    :attr:`RuleSet.aliases`) drops its new key, or nothing where the new
    key is ``""``.

    Raises :class:`SetupgenError` for a key in ``drop`` that names none of
    ``rules`` nor an alias, and for an added line that is not one line of
    text of at most :data:`MAX_OWN_CHARS` characters."""
    rules = tuple(rules)
    if isinstance(drop, str) or isinstance(add, str):
        raise SetupgenError("drop and add take lists, not a single text", field="rules")
    known = [r.key for r in rules]
    renamed = dict(aliases)
    dropped = set()
    for key in drop:
        if key in known:
            dropped.add(key)
        elif key in renamed:
            dropped.add(renamed[key])
        else:
            raise SetupgenError(
                f"unknown rule key {quoted(key)} in drop (known: {', '.join(known) or 'none'})", field="rules"
            )
    kept = [r for r in rules if r.applies(final, scenario) and r.key not in dropped]
    own = [_own_line(i, line) for i, line in enumerate(add, start=1)]
    return (*kept, *own)


def page_rules(request: AlmanacRequest, scenario: str | None, folder: Path | None = None) -> PageRules:
    """What the almanac page of a table playing ``scenario`` (a layout
    name; ``None`` for a layout without an entry in ``scenarios.toml``:
    no scenario or Longest Road rules) prints under ``request``, with the
    rules that meet on one page resolved as docs/rules.md 7.8 says (docs:
    docs/rules.md, "Almanac rules"):

    * the preset's rules for the stage (``request.final``), less the keys
      of ``request.drop`` (old keys through the preset's aliases), then
      the director's own lines;
    * house rules the scenario's own rules replace
      (:func:`scenario_replaces`) left off, their keys in
      :attr:`PageRules.replaced`; a rule that names its scenarios
      (Fiesepeter: the final's Cities & Knights tables) only there;
    * the dispute rules are the preset's alone;
    * the house rules about the end of a game (:attr:`Rule.end`) first, in
      their order, then the others in theirs.

    Raises :class:`SetupgenError` as :func:`check_request` and
    :func:`scenario_rules` do."""
    preset = load_preset(request.preset, folder)
    chosen = select(preset.rules, request.final, request.drop, request.add, aliases=preset.aliases, scenario=scenario)
    replaces = set() if scenario is None else set(scenario_replaces(scenario, folder))
    house = [r for r in chosen if r.section == "house"]
    house = [r for r in house if r.end] + [r for r in house if not r.end]
    own_or_kept = tuple(r for r in house if r.text is not None or r.key not in replaces)
    replaced = tuple(r.key for r in house if r.text is None and r.key in replaces)
    if scenario is None:
        scen: tuple[Rule, ...] = ()
        longest: tuple[Rule, ...] = ()
    else:
        scen = tuple(r for r in scenario_rules(scenario, folder) if r.applies(request.final, scenario))
        longest = tuple(r for r in longest_rules(scenario, folder) if r.applies(request.final, scenario))
    var: tuple[Rule, ...] = ()
    if request.variant is not None:
        var = tuple(
            r
            for r in _load_variant(request.variant, folder).rules(scenario or "")
            if r.applies(request.final, scenario)
        )
    disputes = tuple(r for r in chosen if r.section == "disputes")
    preamble = tuple(r for r in chosen if r.section == "preamble")
    return PageRules(own_or_kept, scen, var, trade_rules(folder), longest, disputes, replaced, preamble)


def rule_text(rule: Rule, lang: str, *, short: bool = False, **values: Any) -> str:
    """The printed text of ``rule`` in language ``lang`` (lines separated by
    ``"\\n"``), its fields (``{vp}``) filled from ``values``; with
    ``short``, its short text (``almanac.rule_short.<key>``) where it has
    one, for a page that does not fit otherwise; a director's own line as
    it is. Raises :class:`SetupgenError` for a missing text."""
    if rule.text is not None:
        return rule.text
    tx = texts(lang)
    if short and tx.has(f"almanac.rule_short.{rule.key}"):
        return tx.get(f"almanac.rule_short.{rule.key}", **values)
    return tx.get(f"almanac.rule.{rule.key}", **values)


def data_keys(folder: Path | None = None) -> dict[str, set[str]]:
    """Every key the data files use: ``{"rule": ..., "material": ...,
    "box": ..., "preset": ..., "variant": ..., "form": ...}`` (each needs a text
    ``almanac.<kind>.<key>``). Raises :class:`SetupgenError` for a
    malformed file."""
    rule_keys: set[str] = set()
    for name in presets(folder):
        preset = load_preset(name, folder)
        rule_keys |= set(preset.keys())
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
    replaced = {k for scenario in scenarios(folder) for k in scenario_replaces(scenario, folder)}
    return {
        "rule": rule_keys,
        "material": material_keys | {m.key for v in found for m in v.material_specs},
        "box": box_keys,
        "preset": set(presets(folder)) - {NO_PRESET},
        "variant": set(variants(folder)),
        "form": {f for v in found for f in v.forms},
        "rule_name": replaced,
    }


def all_rules(folder: Path | None = None) -> tuple[tuple[str, Rule], ...]:
    """Every rule entry of the data files with where it is listed, in
    file order: ``("preset swiss-2010", rule)``, ``("trade", rule)``,
    ``("longest.road", rule)``, ``("scenario cities-knights", rule)``,
    ``("variant fishermen, form base", rule)``. A scenario that inherits
    is not listed again. Raises :class:`SetupgenError` for a malformed
    file."""
    out: list[tuple[str, Rule]] = []
    for name in presets(folder):
        out += [(f"preset {name}", r) for r in load_preset(name, folder).rules]
    out += [("trade", r) for r in trade_rules(folder)]
    path, table = _scenario_table(folder)
    lists = _read(path).get("longest")
    longest: dict[str, Any] = lists if isinstance(lists, dict) else {}
    for kind, entry in longest.items():
        listed = entry.get("rules") if isinstance(entry, dict) else None
        out += [(f"longest.{kind}", r) for r in _rules(path, f"longest.{kind}.rules", listed, folder)]
    for scenario in scenarios(folder):
        if "inherits" not in table[scenario]:
            out += [(f"scenario {scenario}", r) for r in scenario_rules(scenario, folder)]
    for name in variants(folder):
        for form, (_, rules_) in variant(name, folder).forms.items():
            out += [(f"variant {name}, form {form}", r) for r in rules_]
    return tuple(out)


def _own_line(i: int, line: Any) -> Rule:
    if not isinstance(line, str) or not line.strip() or "\n" in line or "\r" in line:
        raise SetupgenError(f"added rule {i}: expected one line of text", field="rules")
    bad = next((c for c in line if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")), None)
    if bad is not None:
        raise SetupgenError(f"added rule {i}: contains a control character (U+{ord(bad):04X})", field="rules")
    if len(line) > MAX_OWN_CHARS:
        raise SetupgenError(f"added rule {i}: longer than {MAX_OWN_CHARS} characters", field="rules")
    return Rule(f"own-{i}", "both", "house", line.strip(), source=TOURNAMENT_FILE)


def _scenario_table(folder: Path | None) -> tuple[Path, dict[str, Any]]:
    path = (folder or almanac_dir()) / "scenarios.toml"
    data = _read(path)
    _only(path, "", data, ("trade", "longest", "scenario"))
    return path, _fields(path).table(
        data.get("scenario"), "scenario", "expected one table [scenario.<name>] per scenario"
    )


def _scenario_entry(path: Path, table: dict[str, Any], scenario: str) -> dict[str, Any]:
    if not isinstance(scenario, str) or scenario not in table:
        raise SetupgenError(
            f"no almanac rules for scenario {quoted(scenario)} (known: {', '.join(sorted(table))})", field="rules"
        )
    entry = _fields(path).table(table[scenario], f"scenario.{scenario}")
    _only(
        path,
        f"scenario.{scenario}",
        entry,
        ("rules", "longest", "inherits", "boxes", "material", "replaces", "rulebook"),
    )
    return entry


def _scenario_material(scenario: str, folder: Path | None) -> tuple[tuple[str, ...], tuple[Material, ...]]:
    """``(box keys, pieces)`` of ``scenario``, from the scenario it inherits
    from where it names one; an inheriting entry may name its own
    ``boxes`` (Cities & Knights for 5-6 players needs the 5-6 extensions
    beside the 3-4 boxes), never its own ``material``."""
    path, table = _scenario_table(folder)
    entry = _scenario_entry(path, table, scenario)
    name, own_boxes = scenario, entry.get("boxes")
    if "inherits" in entry:
        if "material" in entry:
            _bad(path, f"scenario.{scenario}.material", "an entry that inherits takes this from its parent")
        name = entry["inherits"]
        if not isinstance(name, str) or not isinstance(table.get(name), dict) or "inherits" in table[name]:
            _bad(path, f"scenario.{scenario}.inherits", "expected a scenario listing its own rules")
        entry = _scenario_entry(path, table, name)
    where = f"scenario.{name}" if own_boxes is None else f"scenario.{scenario}"
    boxes = entry.get("boxes") if own_boxes is None else own_boxes
    if (
        not isinstance(boxes, list)
        or not boxes
        or len(set(map(str, boxes))) != len(boxes)
        or not all(isinstance(b, str) and _KEY.fullmatch(b) for b in boxes)
    ):
        _bad(path, f"{where}.boxes", 'expected a list of distinct kebab-case box keys such as ["base", "seafarers"]')
    fields = _fields(path)
    pieces = fields.items(
        entry.get("material", []), f"{where}.material", "expected a list of { key = ..., count = n } entries"
    )
    out: list[Material] = []
    for i, piece in enumerate(pieces):
        at = f"{where}.material[{i}]"
        fields.table(piece, at, "expected { key = ..., count = n }")
        _only(path, at, piece, ("key", "count", "source"))
        key = _key(path, at, piece.get("key"))
        n = fields.whole(piece.get("count"), f"{at} (key {key!r}).count", 1, 1000)
        if any(m.key == key for m in out):
            _bad(path, f"{at} (key {key!r})", "the key is listed twice")
        problem = check_source(piece.get("source"), source_documents(folder))
        if problem:
            _bad(path, f"{at} (key {key!r}).source", problem)
        out.append(Material(key, n, source=piece["source"]))
    return tuple(boxes), tuple(out)


def _form(path: Path, form: str, entry: Any, folder: Path | None) -> tuple[tuple[str, ...], tuple[Rule, ...]]:
    where, fields = f"form.{form}", _fields(path)
    fields.table(entry, where, "expected a table with scenarios and rules")
    _only(path, where, entry, ("scenarios", "rules"))
    scenarios_ = fields.texts(entry.get("scenarios", []), f"{where}.scenarios", "expected a list of scenario names")
    return tuple(scenarios_), _rules(path, f"{where}.rules", entry.get("rules"), folder)


def _material(path: Path, where: str, entry: Any, forms: tuple[str, ...], folder: Path | None) -> MaterialSpec:
    fields = _fields(path)
    fields.table(entry, where)
    _only(path, where, entry, ("key", "per_player", "per_table", "forms", "source"))
    key = _key(path, where, entry.get("key"))
    problem = check_source(entry.get("source"), source_documents(folder))
    if problem:
        _bad(path, f"{where} (key {key!r}).source", problem)
    per_player = fields.whole(entry.get("per_player", 0), f"{where} (key {key!r}).per_player", 0, 100)
    bands = []
    for band in entry.get("per_table", []):
        players, count = (band.get("players"), band.get("count")) if isinstance(band, dict) else (None, None)
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(type(n) is int for n in players)
            or players[0] > players[1]
            or type(count) is not int
            or not 0 <= count <= 1000
        ):
            _bad(path, f"{where} (key {key!r}).per_table", "expected { players = [fewest, most], count = n } entries")
        bands.append((players[0], players[1], count))
    only = entry.get("forms", [])
    if not isinstance(only, list) or any(f not in forms for f in only):
        _bad(path, f"{where} (key {key!r}).forms", f"expected a list of forms ({', '.join(forms)})")
    return MaterialSpec(key, per_player, tuple(bands), tuple(only), entry["source"])


_RULE_FIELDS = ("key", "when", "section", "source", "quote", "reading", "scenarios", "option", "end", "analogy")


def _rules(path: Path, where: str, entries: Any, folder: Path | None) -> tuple[Rule, ...]:
    """The rule list at ``where``: tables ``{ key, when, source, ... }``
    (:data:`_RULE_FIELDS`), each with a source :func:`check_source`
    accepts."""
    fields = _fields(path)
    fields.items(entries, where, "expected a list of { key = ..., when = ..., source = ... } entries")
    documents = source_documents(folder)
    out: list[Rule] = []
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        fields.table(entry, at, "expected { key = ..., when = ..., source = ... }")
        _only(path, at, entry, _RULE_FIELDS)
        key = _key(path, at, entry.get("key"))
        named = f"{at} (key {key!r})"
        when, section = entry.get("when"), entry.get("section", "house")
        if when not in WHEN:
            _bad(path, f"{named}.when", f"expected one of {', '.join(WHEN)}, not {quoted(when)}")
        if section not in SECTIONS:
            _bad(path, f"{named}.section", f"expected one of {', '.join(SECTIONS)}, not {quoted(section)}")
        if any(r.key == key for r in out):
            _bad(path, named, "the key is listed twice")
        option = entry.get("option", "")
        if option != "" and option not in OPTIONS:
            _bad(path, f"{named}.option", f"expected one of {', '.join(OPTIONS)}, not {quoted(option)}")
        end = entry.get("end", False)
        if not isinstance(end, bool):
            _bad(path, f"{named}.end", f"expected true or false, not {quoted(end)}")
        problem = check_source(entry.get("source"), documents)
        if problem:
            _bad(path, f"{named}.source", problem)
        words = [entry.get(f, "") for f in ("quote", "reading")]
        if not all(isinstance(w, str) and "\n" not in w for w in words):
            _bad(path, named, "quote and reading take one line of text")
        only = fields.texts(
            entry.get("scenarios", []),
            f"{named}.scenarios",
            "expected a list of scenario names",
            empty="scenarios" not in entry,
        )
        analogy = fields.texts(
            entry.get("analogy", []),
            f"{named}.analogy",
            "expected a list of scenario names",
            empty="analogy" not in entry,
        )
        out.append(
            Rule(
                key,
                when,
                section,
                source=entry["source"],
                quote=words[0],
                reading=words[1],
                scenarios=tuple(only),
                option=option,
                end=end,
                analogy=tuple(analogy),
            )
        )
    return tuple(out)


def source_documents(folder: Path | None = None) -> tuple[str, ...]:
    """The names of the published documents a rule may cite
    (``almanac/sources.toml``, ``[[document]] name``), in file order.
    Raises :class:`SetupgenError` for a malformed file."""
    path = (folder or almanac_dir()) / "sources.toml"
    data = _read(path)
    _only(path, "", data, ("document",))
    fields = _fields(path)
    docs = fields.items(data.get("document"), "document", "expected [[document]] entries", empty=False)
    names: list[str] = []
    for i, doc in enumerate(docs):
        fields.table(doc, f"document[{i}]")
        _only(path, f"document[{i}]", doc, ("name", "seed", "lang"))
        name = doc.get("name")
        if not isinstance(name, str) or not name.strip() or "," in name or name in names:
            _bad(path, f"document[{i}].name", "expected a distinct name without a comma")
        names.append(name)
    return tuple(names)


def check_source(source: Any, documents: Iterable[str]) -> str | None:
    """Why ``source`` cannot be a rule's source, or ``None`` when it can:
    :data:`TOURNAMENT_FILE`, or one of ``documents`` alone or followed by
    ``", "`` and its part (``"Catan Australian Championships 2006,
    additional rule 10"``). :data:`SETUPGEN` is refused: it names the
    page's own instructions, never a game rule."""
    if not isinstance(source, str) or not source.strip():
        return "every entry names its source (a document of sources.toml and its part, or 'tournament file')"
    if source == SETUPGEN:
        return "a game rule cannot have the source 'setupgen' (that is for the page's own instructions)"
    if source == TOURNAMENT_FILE or any(source == d or source.startswith(d + ", ") for d in documents):
        return None
    return f"{quoted(source)} names no document of sources.toml ({', '.join(documents)})"


def _aliases(path: Path, table: Any, rules: tuple[Rule, ...]) -> tuple[tuple[str, str], ...]:
    _fields(path).table(table, "aliases", 'expected a table of old key = "new key" (or "")')
    known = {r.key for r in rules}
    out = []
    for old, new in table.items():
        _key(path, f"aliases.{old}", old)
        if old in known or not isinstance(new, str) or (new and new not in known):
            _bad(path, f"aliases.{old}", 'expected a key the preset no longer has, naming one it has (or "")')
        out.append((old, new))
    return tuple(out)


def _key(path: Path, where: str, key: Any) -> str:
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        _bad(path, f"{where}.key", f"expected a kebab-case key such as 'dev-card-before-roll', not {quoted(key)}")
    return key


def _only(path: Path, where: str, table: dict[str, Any], allowed: tuple[str, ...]) -> None:
    _fields(path).known(table, allowed, f"{where}." if where else "")


def _read(path: Path) -> dict[str, Any]:
    """The almanac file ``path``, parsed once per process (callers only read it)."""
    return read_data_toml(path, "almanac file")


def _fields(path: Path) -> Fields:
    """The shared reader (:class:`~setupgen.core.fields.Fields`), its problems ``<file>: <key>: <problem>``."""
    return Fields(lambda where, problem: SetupgenError(f"{path}: {where}: {problem}"), unknown="field")


def _bad(path: Path, where: str, problem: str) -> NoReturn:
    _fields(path).fail(where, problem)


__all__ = [
    "WHEN",
    "SECTIONS",
    "OPTIONS",
    "MAX_LINE_CHARS",
    "MAX_LINES",
    "MAX_OWN_CHARS",
    "NO_PRESET",
    "TOURNAMENT_FILE",
    "SETUPGEN",
    "Rule",
    "RuleSet",
    "PageRules",
    "page_rules",
    "scenario_replaces",
    "source_documents",
    "check_source",
    "all_rules",
    "AlmanacRequest",
    "check_request",
    "MaterialSpec",
    "Material",
    "Variant",
    "almanac_dir",
    "presets",
    "variants",
    "scenarios",
    "load_preset",
    "scenario_rules",
    "scenario_rulebook",
    "longest_rules",
    "trade_rules",
    "variant",
    "select",
    "rule_text",
    "data_keys",
    "MATERIAL_KINDS",
    "MAX_PLAYERS",
    "table_material",
    "material_text",
]
