"""Writing output so that nothing is ever half-written: each file goes to a
temporary file in the same folder and is renamed over the target; a folder
is built under a temporary name and renamed into place.

Special targets are respected: a symlink is followed (its target is
replaced, the link stays), a device or named pipe (``/dev/null``, ``-o
fifo``) is written into directly. Files and folders get the usual
permissions (0666 / 0777 less the umask), not the private ones of
``tempfile``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Iterator

from .errors import SetupgenError

#: the file that marks a folder as a setupgen round pack (may be replaced)
PACK_MARKER = "manifest.json"


class OutputError(SetupgenError):
    """The output path cannot be written."""


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fail(path: Path, why: str) -> OutputError:
    return OutputError(f"cannot write {str(path)!r}: {why}")


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file + rename); into a
    device or named pipe directly. Raises :class:`OutputError` when the
    folder is missing or not writable."""
    if str(path) == "":
        raise OutputError("the output path must not be empty")
    path = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
    try:
        mode = path.stat().st_mode if path.exists() else None
    except OSError as exc:
        raise _fail(path, exc.strerror or str(exc)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise _fail(path, "it is a folder")
    if mode is not None and not stat.S_ISREG(mode):
        try:
            with open(path, "wb") as fh:  # device or pipe: nothing to replace
                fh.write(data)
        except OSError as exc:
            raise _fail(path, exc.strerror or str(exc)) from None
        return
    folder = path.parent
    if not folder.is_dir():
        why = f"{str(folder)!r} is not a folder" if folder.exists() else f"folder {str(folder)!r} does not exist"
        raise _fail(path, why)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _fail(path, exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _fail(path, exc.strerror or str(exc)) from None
        raise


def write_text(path: str | Path, text: str) -> None:
    """:func:`write_bytes` of UTF-8 text (``\\n`` line ends)."""
    write_bytes(path, text.encode("utf-8"))


def check_dir_target(path: str | Path, marker: str = PACK_MARKER) -> Path:
    """Check that folder ``path`` can be created or replaced, and return it
    with symlinks resolved. A folder that exists must be empty or hold
    ``marker`` (an earlier pack): a folder of other files is never replaced.
    Raises :class:`OutputError`."""
    if str(path) == "":
        raise OutputError("the output folder must not be empty")
    path = Path(os.path.realpath(path))
    parent = path.parent
    where = f"cannot write to {str(path)!r}"
    if path.exists() and not path.is_dir():
        raise OutputError(f"{where}: it is a file, not a folder")
    if path.is_dir():
        cwd = Path.cwd().resolve()
        if path == cwd or path in cwd.parents:
            raise OutputError(f"{where}: it is the current folder or contains it")
        if any(path.iterdir()) and not (path / marker).is_file():
            raise OutputError(f"{where}: the folder holds other files (only an empty folder or an earlier pack is replaced)")
    if not parent.is_dir():
        why = f"{str(parent)!r} is not a folder" if parent.exists() else f"folder {str(parent)!r} does not exist"
        raise OutputError(f"{where}: {why}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{where}: folder {str(parent)!r} is not writable")
    return path


@contextlib.contextmanager
def staged_dir(path: str | Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``path``; when the block ends
    without error it replaces ``path`` (an existing pack folder is swapped
    out and removed), otherwise it is deleted and ``path`` is left as it was.
    Raises :class:`OutputError` (see :func:`check_dir_target`)."""
    path = check_dir_target(path)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    except OSError as exc:
        raise OutputError(f"cannot write to {str(path)!r}: {exc.strerror or exc}") from None
    try:
        yield tmp
        mask = _umask()
        os.chmod(tmp, 0o777 & ~mask)
        for child in tmp.iterdir():
            if child.is_file():
                os.chmod(child, 0o666 & ~mask)
        old = None
        if path.exists():
            old = path.parent / f"{tmp.name[:-4]}.old"
            os.replace(path, old)
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write to {str(path)!r}: {exc.strerror or exc}") from None
        raise
