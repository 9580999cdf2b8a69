"""Writing output so that nothing is ever half-written and nothing setupgen
did not write is ever replaced.

- A file goes to a temporary file in the same folder and is renamed over
  the target (:func:`write_bytes`; :func:`write_stream` writes it chunk by
  chunk as the chunks are made, in constant memory); several files are all
  staged first and renamed together, the old versions restored if a rename
  fails (:func:`write_files`).
- A folder is built under a temporary name and renamed into place
  (:func:`staged_dir`); an existing folder is replaced only when its owner
  check says every file in it is setupgen's own.
- Folders created on the way to an output are removed again when the
  command fails (:func:`folder_for`).

Every temporary name starts with ``.`` and ends with ``.tmp``; every exit
path, signals included (they arrive as exceptions), removes them. Special
targets are respected: a symlink is followed (its target is replaced, the
link stays), a device or named pipe (``/dev/null``, ``-o fifo``) is
written into directly. Files and folders get the usual permissions (0666 /
0777 less the umask), not the private ones of ``tempfile``.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from . import interrupts
from .errors import SetupgenError, quoted

#: longest output path accepted, in bytes (Linux PATH_MAX is 4096)
MAX_PATH_BYTES = 4000
#: longest file or folder name, in bytes (NAME_MAX)
MAX_NAME_BYTES = 255


class OutputError(SetupgenError):
    """The output path cannot be written."""


#: what a file is made of: its bytes, or its bytes chunk by chunk (an
#: iterable of bytes, consumed once, while the file is written)
Content = bytes | Iterable[bytes]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fail(path: Path, why: str) -> OutputError:
    return OutputError(f"cannot write {shown(path)}: {why}")


def shown(path: str | Path, limit: int = 120) -> str:
    """A path for a one-line message (:func:`~setupgen.core.errors.quoted`)."""
    return quoted(str(path), limit)


def check_path(path: str | Path) -> Path:
    """``path`` as a :class:`Path` after the checks every output path gets:
    not empty, valid text, not longer than :data:`MAX_PATH_BYTES`, no name
    longer than :data:`MAX_NAME_BYTES`. Raises :class:`OutputError`."""
    text = str(path)
    if text == "":
        raise OutputError("the output path must not be empty", field="output")
    try:
        raw = os.fsencode(text)
    except UnicodeError:
        raise OutputError(f"the output path {shown(text)} is not valid text", field="output") from None
    if b"\0" in raw:
        raise OutputError("the output path contains a NUL byte", field="output")
    if len(raw) > MAX_PATH_BYTES:
        raise OutputError(f"the output path is too long ({len(raw)} bytes; at most {MAX_PATH_BYTES})", field="output")
    if any(len(part) > MAX_NAME_BYTES for part in raw.split(b"/")):
        raise OutputError(
            f"a name in the output path {shown(text)} is longer than {MAX_NAME_BYTES} bytes", field="output"
        )
    return Path(text)


#: how the start of a file setupgen wrote looks, by extension (a file that
#: exists and does not look so is never replaced)
SIGNATURES: dict[str, tuple[bytes, ...]] = {
    ".pdf": (b"%PDF-",),
    ".svg": (b'<?xml version="1.0" encoding="utf-8"?>\n<svg baseProfile="full"',),
    ".png": (b"\x89PNG\r\n\x1a\n",),
    ".json": (
        b'{\n  "format": "setupgen.board/1"',
        b'{"format":"setupgen.board/1"',
        b'{"format": "setupgen.balance/1"',
    ),
    ".jsonl": (b'{"format":"setupgen.board/1"', b'{"format": "setupgen.balance/1"'),
    ".txt": (b"board balance (setupgen stats;",),
    ".csv": (
        b"round,table,seat,player\n",
        b"rank,player,placing_points,victory_points,vp_share,games\n",
        b"change,from_round,id,name,group\n",
        b"place,player,stage,table,placing_points,vp,rank\n",
        b"place,player,stage,table,placing_points,vp,rank,decided_by\n",
    ),
}


def check_ours(path: Path) -> None:
    """Raise :class:`OutputError` unless the existing regular file ``path``
    looks like one setupgen wrote (its start matches :data:`SIGNATURES`;
    a PDF must also name setupgen as its producer or creator; a CSV file
    saved again by a spreadsheet, with a byte-order mark, CRLF line ends or
    an upper-case header, still counts)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
            fh.seek(max(0, path.stat().st_size - 65536))
            tail = fh.read()
    except OSError as exc:
        raise _fail(path, exc.strerror or str(exc)) from None
    starts = SIGNATURES.get(path.suffix.lower(), ())
    if path.suffix.lower() == ".csv":
        head = _csv_head(head)
    ours = any(head.startswith(s) for s in starts)
    if ours and path.suffix.lower() == ".pdf":
        ours = any(mark in part for mark in (b"/Producer (setupgen)", b"/Creator (setupgen)") for part in (head, tail))
    if not ours:
        raise OutputError(
            f"cannot write {shown(path)}: the file exists and setupgen did not write it "
            f"(choose another name, or remove it first)",
            field="output",
        )


def _csv_head(head: bytes) -> bytes:
    """The start of a CSV file as setupgen writes it, for one a spreadsheet
    saved again: without a byte-order mark, its header line in lower case
    and ``\n`` line ends."""
    head = head.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n")
    first, sep, rest = head.partition(b"\n")
    return first.lower() + sep + rest


def check_file_target(path: str | Path) -> Path:
    """Check, before any work, that a file can be written at ``path``: a
    valid name not ending in ``/``, in an existing writable folder, not a
    folder itself, and if it exists, a device, a pipe or a file setupgen
    wrote. Returns the path (symlinks followed). Raises
    :class:`OutputError`."""
    text = str(path)
    path = check_path(path)
    if text.endswith(os.sep):
        raise _fail(path, "the name ends in '/', which names a folder; give a file name")
    path = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = path.stat().st_mode if path.exists() else None
    except OSError as exc:
        raise _fail(path, exc.strerror or str(exc)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise _fail(path, "it is a folder")
    if mode is not None and stat.S_ISREG(mode):
        check_ours(path)
    if mode is None or stat.S_ISREG(mode):
        folder = path.parent
        if not folder.is_dir():
            why = f"{shown(folder)} is not a folder" if folder.exists() else f"folder {shown(folder)} does not exist"
            raise _fail(path, why)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise _fail(path, f"folder {shown(folder)} is not writable")
    return path


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file + rename); into a
    device or named pipe directly. Raises :class:`OutputError` when the
    folder is missing or not writable, ``path`` names a folder (or ends in
    ``/``), or names an existing file setupgen did not write
    (:func:`check_ours`)."""
    write_stream(path, (data,))


def write_stream(path: str | Path, chunks: Iterable[bytes]) -> None:
    """:func:`write_bytes` of the concatenated ``chunks``, each written as
    it comes, so memory stays constant however long the file: the target is
    checked before the first chunk is asked for, the temporary file is
    renamed over it only after the last. Whatever ends it early (an error
    of ``chunks``, which is raised as it is; a failed write, disk full
    included, as one :class:`OutputError`; a signal) removes the temporary
    file and leaves the target as it was. A device or named pipe gets the
    chunks directly."""
    path = check_file_target(path)
    mode = path.stat().st_mode if path.exists() else None
    if mode is not None and not stat.S_ISREG(mode):
        try:
            with open(path, "wb") as fh:  # device or pipe: nothing to replace
                _copy(chunks, fh)
        except _SourceError as exc:
            raise exc.error from None
        except OSError as exc:
            raise _fail(path, exc.strerror or str(exc)) from None
        return
    _replace_all(path.parent, {path.name: chunks})  # the target was checked above


def write_text(path: str | Path, text: str) -> None:
    """:func:`write_bytes` of UTF-8 text (``\\n`` line ends)."""
    write_bytes(path, text.encode("utf-8"))


def digest_of(path: str | Path) -> str | None:
    """The SHA-256 hex digest of the file at ``path``, None when it is
    missing. Raises :class:`OutputError` when it cannot be read."""
    import hashlib

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _fail(Path(path), exc.strerror or str(exc)) from None


def write_owned(path: str | Path, data: bytes, owned: Collection[str]) -> str:
    """Write ``data`` to ``path`` atomically when the file is missing or
    holds what its writer wrote (``owned``: the SHA-256 hex digests of the
    versions it wrote, e.g. the last and one being written when a crash
    came), for files whose ownership a writer records itself (the
    console's ``results.csv``, docs/console.md). Returns the digest of
    ``data``, to record. Raises :class:`OutputError` when the file was
    changed or made by someone else (it is kept), or cannot be written."""
    import hashlib

    path = check_path(path)
    now = digest_of(path)
    if now is not None:
        if now not in owned:
            raise OutputError(
                f"cannot write {shown(path)}: it was changed since setupgen wrote it, or setupgen "
                f"did not write it; it is kept",
                field="output",
            )
    elif not path.parent.is_dir():
        raise _fail(path, f"folder {shown(path.parent)} does not exist")
    _replace_all(path.parent, {path.name: data})
    return hashlib.sha256(data).hexdigest()


def write_files(folder: str | Path, files: Mapping[str, Content]) -> None:
    """Write every file of ``files`` (name -> bytes, or an iterable of byte
    chunks as for :func:`write_stream`) into ``folder``, all or
    nothing: each is staged beside its target first; only when all are
    staged are they renamed into place, and if a rename fails the files
    already renamed get their old versions back. Each target is checked
    first (:func:`check_file_target`): an existing file setupgen did not
    write is never replaced. Raises :class:`OutputError` (missing or
    unwritable folder, disk full, a file of someone else's)."""
    folder = check_path(folder)
    for name in files:
        check_file_target(folder / name)
    _replace_all(folder, files)


def _replace_all(folder: Path, files: Mapping[str, Content]) -> None:
    """:func:`write_files` once the folder and targets are checked: every
    file staged, then (signals held until the end, so a signal never
    undoes or interrupts a finished swap) renamed into place and the old
    versions' copies removed."""
    staged: dict[str, Path] = {}
    current = next(iter(files), "")  # the file being staged (named when that fails)
    try:
        for current, data in files.items():
            staged[current] = _stage(folder, current, data)
    except BaseException as exc:
        _unlink_all(staged.values())
        if isinstance(exc, _SourceError):
            raise exc.error from None
        if isinstance(exc, OSError):
            raise _fail(folder / current, exc.strerror or str(exc)) from None
        raise
    backups: dict[str, Path] = {}
    done: list[str] = []
    with interrupts.critical():  # a signal waits until every rename and the clean-up are done
        try:
            _rename_all(folder, files, staged, backups, done)
        except BaseException as exc:
            for name in done:  # put the old versions back (or remove what is new)
                with contextlib.suppress(OSError):
                    if name in backups:
                        os.replace(backups.pop(name), folder / name)
                    else:
                        os.unlink(folder / name)
            if isinstance(exc, OSError):
                failed = next((n for n in files if n not in done), current)
                raise _fail(folder / failed, exc.strerror or str(exc)) from None
            raise
        finally:
            _unlink_all([*staged.values(), *backups.values()])


def _unlink_all(paths: Iterable[Path]) -> None:
    for tmp in list(paths):
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _rename_all(
    folder: Path, files: Mapping[str, Content], staged: dict[str, Path], backups: dict[str, Path], done: list[str]
) -> None:
    """Rename every staged file over its target, keeping each old version
    in ``backups`` (several files: a way back if a rename fails), and
    record the output complete (:func:`setupgen.core.interrupts.completed`)."""
    for current in files:
        target = folder / current
        if target.exists() and len(files) > 1:  # one file alone needs no way back
            backups[current] = _keep_old(target)
        os.replace(staged[current], target)
        del staged[current]
        done.append(current)
    interrupts.completed()


def _keep_old(target: Path) -> Path:
    """A hidden copy of ``target`` beside it (a hard link where the file
    system has them, else a copy: FAT memory sticks have none)."""
    spare = _spare_name(target.parent, target.name)
    try:
        os.link(target, spare)
    except OSError:
        shutil.copyfile(target, spare)
    return spare


def _spare_name(folder: Path, name: str) -> Path:
    """An unused hidden name beside ``name`` for keeping an old version."""
    return folder / f".{name}.{os.getpid()}.{secrets.token_hex(4)}.old.tmp"


class _SourceError(Exception):
    """An OSError raised by the chunks of a file (not by writing them),
    carried past the handlers that report write failures."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _copy(data: Content, fh: BinaryIO) -> None:
    """Write ``data`` (bytes or byte chunks) into the open file ``fh``."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        fh.write(data)
        return
    chunks = iter(data)
    while True:
        try:
            chunk = next(chunks)
        except StopIteration:
            return
        except OSError as exc:
            raise _SourceError(exc) from exc
        fh.write(chunk)


def _stage(folder: Path, name: str, data: Content) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            _copy(data, fh)
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


@contextlib.contextmanager
def folder_for(path: str | Path) -> Iterator[Path]:
    """The folder ``path``, created (with missing parents) if need be; the
    folders this created are removed again, if still empty, when the block
    fails. Raises :class:`OutputError` when it is a file, under a file, or
    cannot be created."""
    path = check_path(path)
    created: list[Path] = []
    here = Path(os.path.abspath(path))
    missing = []
    while not here.exists():
        missing.append(here)
        here = here.parent
    if not here.is_dir():
        raise OutputError(f"cannot write to {shown(path)}: {shown(here)} is a file, not a folder", field="output")
    try:
        for folder in reversed(missing):
            folder.mkdir()
            created.append(folder)
    except OSError as exc:
        _remove_empty(created)
        raise OutputError(f"cannot create the folder {shown(path)}: {exc.strerror or exc}", field="output") from None
    try:
        yield path
    except BaseException:
        _remove_empty(created)
        raise


@contextlib.contextmanager
def folder_lock(path: str | Path) -> Iterator[Path]:
    """An exclusive lock on the tournament folder ``path`` (which must
    exist) for the block: ``flock`` on its file ``.setupgen.lock``
    (:data:`LOCK_FILE`, made empty when missing and left in place: removing
    it could let two writers lock different files). Every write to a
    tournament folder, by the console or the command line, takes it for
    that write only, so that no change is lost; it is released when the
    block ends or the process dies. Waits for another holder. Raises
    :class:`OutputError` when the lock file cannot be opened."""
    path = Path(path)
    try:
        fd = os.open(path / LOCK_FILE, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise OutputError(f"cannot lock the folder {shown(path)}: {exc.strerror or exc}", field="output") from None
    try:
        lock_fd(fd)
        yield path
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def lock_fd(fd: int, system: str | None = None) -> None:
    """Take the exclusive lock of the open file ``fd``, waiting for another
    holder: ``flock`` on POSIX (Linux, macOS), ``msvcrt.locking`` of the
    file's first byte on Windows (``system`` ``"nt"``; the default is this
    machine's ``os.name``), where its 10-second wait is simply taken again.
    Closing the descriptor releases it on both."""
    if (os.name if system is None else system) == "nt":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined]
                return
            except OSError:  # held for more than its 10 seconds of retries: wait on
                continue
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_EX)


#: the lock file of a tournament folder (:func:`folder_lock`)
LOCK_FILE = ".setupgen.lock"


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (made here), last first, each only when it holds
    nothing but an empty lock file of setupgen's (:data:`LOCK_FILE`)."""
    for folder in reversed(folders):
        lock = folder / LOCK_FILE
        with contextlib.suppress(OSError):
            if [p.name for p in folder.iterdir()] == [LOCK_FILE] and lock.is_file() and lock.stat().st_size == 0:
                lock.unlink()
        with contextlib.suppress(OSError):
            folder.rmdir()


#: an owner check: given an existing folder, raise OutputError unless every
#: file in it may be replaced
OwnerCheck = Callable[[Path], None]


def check_dir_target(path: str | Path, owned: OwnerCheck | None = None) -> Path:
    """Check that folder ``path`` can be created or replaced, and return it
    with symlinks resolved. A folder that exists must be empty or pass
    ``owned`` (without one, only an empty folder is replaced); it must be
    writable all the way down, so the old one can be removed. Raises
    :class:`OutputError`."""
    path = Path(os.path.realpath(check_path(path)))
    parent = path.parent
    where = f"cannot write to {shown(path)}"
    if path.exists() and not path.is_dir():
        raise OutputError(f"{where}: it is a file, not a folder", field="output")
    if path.is_dir():
        cwd = Path.cwd().resolve()
        if path == cwd or path in cwd.parents:
            raise OutputError(f"{where}: it is the current folder or contains it", field="output")
        if any(path.iterdir()):
            if owned is None:
                raise OutputError(
                    f"{where}: the folder holds other files (only an empty folder is replaced)", field="output"
                )
            owned(path)
        for folder, _, _ in os.walk(path):
            if not os.access(folder, os.W_OK | os.X_OK):
                raise OutputError(
                    f"{where}: folder {shown(folder)} is not writable, so it cannot be replaced", field="output"
                )
    if not parent.is_dir():
        why = f"{shown(parent)} is not a folder" if parent.exists() else f"folder {shown(parent)} does not exist"
        raise OutputError(f"{where}: {why}", field="output")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{where}: folder {shown(parent)} is not writable", field="output")
    return path


@contextlib.contextmanager
def staged_dir(path: str | Path, owned: OwnerCheck | None = None) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``path``; when the block ends
    without error it replaces ``path`` (an existing folder, checked by
    ``owned`` as in :func:`check_dir_target`, is swapped out and removed),
    otherwise it is deleted and ``path`` is left as it was, on every exit
    path. The two renames of the swap and the removal of the old copy hold
    signals back (:func:`setupgen.core.interrupts.critical`); a swap a
    killed process left half-done is first finished or undone
    (:func:`recover_swap`). Raises :class:`OutputError`."""
    path = check_dir_target(path, owned)
    recover_swap(path)
    tmp: Path | None = None
    old: Path | None = None
    try:
        with interrupts.critical():  # no signal between making the folder and knowing its name
            tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent))
        yield tmp
        _open_permissions(tmp)
        with interrupts.critical():
            if path.exists():
                old = _spare_name(path.parent, path.name)
                os.replace(path, old)
            os.replace(tmp, path)
            interrupts.completed()
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        with interrupts.critical():
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            if old is not None and not path.exists():
                with contextlib.suppress(OSError):
                    os.replace(old, path)  # the old folder back
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write to {shown(path)}: {exc.strerror or exc}") from None
        raise


def _open_permissions(folder: Path) -> None:
    """The usual permissions (0777 / 0666 less the umask) on a staged folder and its files."""
    mask = _umask()
    os.chmod(folder, 0o777 & ~mask)
    for child in folder.iterdir():
        if child.is_file():
            os.chmod(child, 0o666 & ~mask)


#: the notes of swaps finished or undone since the last :func:`take_notes` (for the command to print)
_NOTES: list[str] = []


def take_notes() -> list[str]:
    """The lines saying which half-done swaps were finished or undone, once each."""
    out = list(_NOTES)
    _NOTES.clear()
    return out


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running (where that cannot be asked
    safely, as on Windows, it counts as running)."""
    if os.name == "nt" or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def recover_swap(path: Path) -> None:
    """Finish or undo the folder swap of a process that died between its
    two renames (a kill -9), leaving a complete copy at ``path``: only for
    hidden copies of ``path``'s name whose process is no longer alive.
    Without ``path``, the staged new copy (complete: the old one is moved
    aside only after staging) is put in place and the old removed; with
    ``path`` present, a dead process's staged copy is removed. A copy that
    is the only complete one is never deleted. Each step is noted
    (:func:`take_notes`)."""
    parent, name = path.parent, path.name
    if not parent.is_dir():
        return
    pattern = re.compile(rf"\.{re.escape(name)}\.(\d+)\.([0-9a-z_]+)(\.old)?\.tmp")
    found: dict[str, list[Path]] = {"new": [], "old": []}
    for child in parent.iterdir():
        m = pattern.fullmatch(child.name)
        if m and child.is_dir() and not _alive(int(m.group(1))):
            found["old" if m.group(3) else "new"].append(child)
    if not found["new"] and not found["old"]:
        return
    with interrupts.critical():
        if not path.exists() and found["old"] and found["new"]:
            os.replace(found["new"].pop(), path)
            _NOTES.append(f"{shown(path)}: a write stopped half-way was finished (the new copy is in place)")
        elif not path.exists() and found["old"]:
            os.replace(found["old"].pop(), path)
            _NOTES.append(f"{shown(path)}: a write stopped half-way was undone (the old copy is back)")
        if path.exists():
            for leftover in found["new"] + found["old"]:
                shutil.rmtree(leftover, ignore_errors=True)
