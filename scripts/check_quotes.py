"""List every almanac `quote` that does not stand verbatim in the source
text it names (issue 43): each rule entry of almanac/ names a document of
almanac/sources.toml (its `seed` number) and quotes its words; the quote
must be found in that seed's text, whitespace aside, and a `…` in a quote
marks a gap the seed really has (the parts either side found in order).
A source naming a numbered item (``additional rule 5``, ``Seefahrer-Szenario,
Regel 8``) must have the quote in that item.

    python scripts/check_quotes.py SEEDS_FOLDER

The repository does not carry the seeds: their folder is the argument. Exit 0
when every quote is found, 1 when one is not (each listed: the key, where
it is listed, the document), 2 for a folder without the seeds."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAP = "…"
#: a numbered part as a source names it -> the heading its numbered items follow in the seed
NUMBERED = {
    "additional rule": "Additional & Supplementary Rules",
    "General Rules, Referees": "Referees",
    "Responsibilities of Players": "Responsibilities of Players",
    "Tournament Mode": "Tournament Mode",
    "Seefahrer-Szenario, Regel": "Spielverlauf / Regeln",
}


def squeeze(text: str) -> str:
    """``text`` with every run of whitespace one space, typographic quotes
    and dashes as the seeds may write them made plain."""
    text = text.replace("„", '"').replace("“", '"').replace("”", '"').replace("’", "'").replace("–", "-")
    return re.sub(r"\s+", " ", text).strip()


def found(quote: str, seed: str) -> bool:
    """Whether ``quote`` stands in ``seed``: its parts between gaps, in order."""
    at = 0
    for part in (squeeze(p) for p in quote.split(GAP)):
        if not part:
            continue
        at = seed.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def wrong_item(part: str, quote: str, seed: str) -> str | None:
    """For a numbered part (``additional rule 5``): the number of the item
    the quote stands in, when it is not the one named; else None."""
    match = re.fullmatch(r"(.+?) (\d+)", part)
    if match is None or match.group(1) not in NUMBERED:
        return None
    heading = seed.find(NUMBERED[match.group(1)])
    first = squeeze(quote.split(GAP)[0])
    at = seed.find(first, max(heading, 0))
    if heading < 0 or at < 0:
        return "?"
    items = re.findall(r"(?:^| )(\d{1,2})\. ", seed[heading:at])
    return None if items and items[-1] == match.group(2) else (items[-1] if items else "?")


def seeds(folder: Path) -> dict[str, str]:
    """The seed texts of ``folder`` by number (``000``), squeezed."""
    out = {
        path.name[:3]: squeeze(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("[0-9][0-9][0-9]_*.txt"))
    }
    if not out:
        print(f"error: no seed texts (NNN_*.txt) in {folder}", file=sys.stderr)
        raise SystemExit(2)
    return out


def missing(folder: Path) -> list[str]:
    """One line per quote not found in its seed."""
    import tomllib

    from setupgen.core import almanac

    texts = seeds(folder)
    documents = tomllib.loads((ROOT / "almanac" / "sources.toml").read_text(encoding="utf-8"))["document"]
    seed_of = {d["name"]: d["seed"] for d in documents}
    out = []
    for where, rule in almanac.all_rules():
        if not rule.quote:
            continue
        document = next((name for name in seed_of if rule.source.startswith(name + ",")), None)
        if document is None:
            continue  # "tournament file": the director's settings, nothing to quote
        seed = texts.get(seed_of[document], "")
        if not found(rule.quote, seed):
            out.append(f"{rule.key} ({where}): not in {document} (seed {seed_of[document]}): {rule.quote!r}")
            continue
        item = wrong_item(rule.source[len(document) + 2 :], rule.quote, seed)
        if item is not None:
            out.append(f"{rule.key} ({where}): the source names {rule.source!r}, the quote stands in item {item}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not Path(argv[1]).is_dir():
        print("usage: python scripts/check_quotes.py SEEDS_FOLDER", file=sys.stderr)
        return 2
    lines = missing(Path(argv[1]))
    for line in lines:
        print(line)
    print(f"{len(lines)} quote(s) not found or not in the part named", file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
