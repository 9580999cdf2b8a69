"""Writing output so that nothing is ever half-written: each file goes to a
temporary file in the same folder and is renamed over the target; a folder
is built under a temporary name and renamed into place."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

from .errors import SetupgenError


class OutputError(SetupgenError):
    """The output path cannot be written."""


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file + rename). Raises
    :class:`OutputError` when the folder is missing or not writable."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"cannot write {str(path)!r}: folder {str(folder)!r} does not exist")
    if path.is_dir():
        raise OutputError(f"cannot write {str(path)!r}: it is a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
        raise


def write_text(path: str | Path, text: str) -> None:
    """:func:`write_bytes` of UTF-8 text (``\\n`` line ends)."""
    write_bytes(path, text.encode("utf-8"))


def check_dir_target(path: str | Path) -> Path:
    """Check that folder ``path`` can be created or replaced: its parent
    exists and is writable, and it is not a file. Raises :class:`OutputError`."""
    path = Path(path)
    parent = path.parent
    if path.exists() and not path.is_dir():
        raise OutputError(f"cannot write to {str(path)!r}: it is a file, not a folder")
    if not parent.is_dir():
        raise OutputError(f"cannot write to {str(path)!r}: folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write to {str(path)!r}: folder {str(parent)!r} is not writable")
    return path


@contextlib.contextmanager
def staged_dir(path: str | Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``path``; when the block ends
    without error it replaces ``path`` (an existing folder is swapped out and
    removed), otherwise it is deleted and ``path`` is left as it was.
    Raises :class:`OutputError` when the folder cannot be created."""
    path = check_dir_target(path)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    except OSError as exc:
        raise OutputError(f"cannot write to {str(path)!r}: {exc.strerror or exc}") from None
    try:
        yield tmp
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.rmdir(old)
            os.replace(path, old)
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
