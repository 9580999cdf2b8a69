"""What the director prints from the console (docs/console.md, "Print
from the console"): the standings and the final placings as PDF, the
same bytes as ``setupgen standings`` and ``setupgen placings`` write
from the console's folder, and for the hall's wall a round's table list
and the player list (the pages of ``setupgen schedule``'s
``schedule.pdf``: a round's tables, the player lookup).

Each document is made once per change (:meth:`~setupgen.console.day.Day.
view`) and kept. Errors: :class:`~setupgen.core.errors.SetupgenError`
when there is nothing to print yet (no confirmed result, the finals not
all in) or a file of the folder no longer reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import SetupgenError
from ..core.messages import keyed
from ..tournament import jobs
from ..tournament import placings as pl
from . import day as dayday
from .day import RESULTS_FILE, Day

__all__: Sequence[str] = ("standings_pdf", "placings_pdf", "round_tables_pdf", "players_pdf")


def standings_pdf(day: Day) -> bytes:
    """``standings.pdf`` as ``setupgen standings T.toml DIR/results.csv -o DIR`` writes it."""
    if not day.store.results(state=dayday.CONFIRMED):
        raise keyed(SetupgenError, "no_results_to_rank")
    return day.view(
        "standings.pdf", lambda: _pdf(jobs.make_standings(day.t, day.schedule, day.folder / RESULTS_FILE)[2])
    )


def placings_pdf(day: Day) -> bytes:
    """``placings.pdf`` as ``setupgen placings T.toml DIR/results.csv -o DIR`` writes it, once every finals
    table is in."""
    placed, why = dayday.final_placings(day)
    if not placed:
        if why is None:
            raise keyed(SetupgenError, "placings_no_final")
        raise keyed(SetupgenError, "placings_not_complete", why=why)
    found = dayday.finals(day)
    sixteen = found is not None and found.players == 16
    semi = day.folder / jobs.STAGE_RESULTS[pl.SEMI_FINAL] if sixteen else None

    def make() -> bytes:
        return _pdf(
            jobs.make_placings(
                day.t, day.schedule, day.folder / RESULTS_FILE, day.folder / jobs.STAGE_RESULTS[pl.FINAL], semi
            )[2]
        )

    return day.view("placings.pdf", make, packs=True)


def round_tables_pdf(day: Day, round_number: int) -> bytes:
    """Round ``round_number``'s tables, players in start order (the round's page of ``schedule.pdf``)."""
    if round_number not in day.rounds:
        raise SetupgenError(f"there is no round {round_number}", field="round")

    def make() -> bytes:
        listings = jobs.schedule_listings(day.t, day.schedule)
        return _pdf(_render([listings[day.rounds.index(round_number)]], day.t.paper))

    return day.view(f"tables-{round_number}.pdf", make)


def players_pdf(day: Day) -> bytes:
    """Every player in alphabetical order with table and start position per round (the player lookup of
    ``schedule.pdf``)."""
    from ..core import templates

    def make() -> bytes:
        return _pdf(
            _render(
                [
                    jobs.lookup_listing(
                        day.t, day.schedule, templates.texts(day.t.language).for_positions(day.t.positions)
                    )
                ],
                day.t.paper,
            )
        )

    return day.view("players.pdf", make)


def _render(listings: list, paper: str) -> list:
    from ..render import listing

    return [page for item in listings for page in listing.render_listing(item, paper=paper)]


def _pdf(pages: list) -> bytes:
    from ..render import pdf

    return pdf.svgs_to_pdf(pages)
