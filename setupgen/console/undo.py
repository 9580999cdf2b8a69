"""Undo on the director's side (docs/console.md, "Undo"): a confirmed
table back to reported, a result removed (the table waits again), a
drop-out or late entry taken back before a re-plan uses it, a finals
pack withdrawn (its folder kept as ``final.withdrawn-<time>/``, never
deleted). Each is one transaction with its audit entry, and is refused
(:class:`~setupgen.console.store.StoreError` or :class:`~setupgen.core.
errors.SetupgenError`, naming why) where later work depends on it: a
preliminary result once a finals pack is made, a semi-final once the
final's pack is made, a change the schedule already follows, a pack whose
stage has results.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence

from ..core.errors import SetupgenError
from ..core.messages import keyed
from ..tournament import entries, jobs
from ..tournament.games import FINAL, SEMI_FINAL, Game
from . import day as dayday
from .day import Day
from .store import StoreError, TableResult

__all__: Sequence[str] = ("REPORTED", "WAITING", "undo_result", "remove_change", "withdraw_pack")

#: where :func:`undo_result` takes a table back to
REPORTED, WAITING = dayday.REPORTED, dayday.WAITING


def undo_result(day: Day, game: Game, to: str, version: int | None) -> TableResult | None:
    """Take ``game``'s result back to ``reported`` (a confirmed one: the
    director confirms it again) or to ``waiting`` (removed; the table or
    the director enters it again); ``version``: the version the director's
    page showed (another is refused, as a correction is). Writes the
    stage's results file. Returns the result now (None: waiting)."""
    if to not in (REPORTED, WAITING):
        raise keyed(SetupgenError, "undo_target", to=repr(to[:20]), field="to")
    with day.store.lock:
        dayday.check_change(day, game)
        if game.stage == SEMI_FINAL and FINAL in dayday.finals_made(day):
            raise keyed(StoreError, "undo_final_made")
        seen = dayday.same_version(day, game, version)
        if to == WAITING:
            day.store.remove(game, "director", seen)
        else:
            old = day.store.result(game)

            def allowed(found: TableResult | None) -> None:
                seen(found)
                if found is None or found.state != dayday.CONFIRMED:
                    raise keyed(StoreError, "undo_not_confirmed")

            if old is None:
                raise keyed(StoreError, "undo_no_result")
            back = dataclasses.replace(old, state=REPORTED, by="director", at=day.store.clock())
            day.store.record(back, "unconfirm", allowed)
        dayday.write_stage(day, game.stage)
        return day.store.result(game)


def remove_change(day: Day, index: int, change: entries.Entry) -> entries.Entries:
    """Take back drop-out or late entry ``change`` (at ``index`` in
    ``entries.csv``) while no re-plan has used it (it was recorded after
    the last re-plan, :func:`~setupgen.console.day.planned_entries`);
    audit-logged (``remove-change``). Returns the changes left."""
    with day.store.lock:
        if day.replanning is not None:
            raise keyed(StoreError, "undo_replanning", n=day.replanning)
        if index < dayday.planned_entries(day):
            raise keyed(StoreError, "undo_change_used")
        rest = jobs.remove_entry(day.t, day.folder, index, change)
        day.t = jobs.with_entries(day.t, day.folder)
        day.changed()
        record = {"change": change.change, "from_round": change.from_round, "id": change.player}
        if change.change == entries.JOINED:
            record.update(name=change.name, group=change.group)
        day.store.note("director", change.from_round, "remove-change", "", json.dumps(record, sort_keys=True))
    return rest


def withdraw_pack(day: Day, stage: str, now: float | None = None) -> str:
    """Move finals ``stage``'s pack folder aside as ``<stage>.withdrawn-
    <YYYYmmdd-HHMMSS>/`` (never deleted), so the stage can be seated and
    made again; refused while the stage has a result, or (the semi-finals)
    while the final's pack is made. Audit-logged (``withdraw-pack``).
    Returns the folder's new name."""
    if stage not in dayday.FINAL_STAGES:
        raise keyed(SetupgenError, "no_finals_stage", stage=repr(stage[:20]), field="stage")
    with day.store.lock, day.pack_lock:
        if stage not in dayday.finals_made(day):
            raise keyed(StoreError, "pack_not_made", stage=stage)
        if stage == SEMI_FINAL and FINAL in dayday.finals_made(day):
            raise keyed(StoreError, "withdraw_final_first")
        results = day.store.results(stage)
        if results:
            raise keyed(
                StoreError, "stage_has_results" if len(results) > 1 else "stage_has_result", stage=stage, n=len(results)
            )
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
        target = day.folder / f"{stage}.withdrawn-{stamp}"
        k = 1
        while target.exists():
            k += 1
            target = day.folder / f"{stage}.withdrawn-{stamp}-{k}"
        (day.folder / stage).rename(target)
        day.changed()
        day.store.note(
            "director", 1, "withdraw-pack", json.dumps({"kept_as": target.name, "stage": stage}), stage=stage
        )
    return target.name
