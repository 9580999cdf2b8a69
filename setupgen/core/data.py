"""Where the shipped data lives: the ``layouts/``, ``templates/``,
``almanac/``, ``balance/``, ``designs/`` and ``scoring/`` folders (layouts,
words, sheet style, rule sets, balance presets, known seating designs,
scoring presets) a director can read and edit."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import SetupgenError, quoted

#: largest input file read (a layout, tournament, players, results or board file)
MAX_INPUT_BYTES = 10_000_000


def data_dir(name: str) -> Path:
    """A shipped data folder (``layouts``, ``templates`` or ``almanac``): the copy inside
    an installed wheel (``setupgen/_data/<name>``), else the top-level folder
    of a source checkout. Raises :class:`SetupgenError` (an environment
    problem: exit 2, one line) when neither exists."""
    package = Path(__file__).resolve().parent.parent
    for cand in (package / "_data" / name, package.parent / name):
        if cand.is_dir():
            return cand
    raise SetupgenError(
        f"setupgen's data folder {name!r} is missing: the installation is broken; install setupgen again"
    )


class DataFileError(SetupgenError):
    """An input or data file that cannot be read or parsed: ``path`` as
    given, ``problem`` in lowercase plain words ("it does not exist"),
    ``syntax`` true for malformed TOML (``problem`` the parser's message).
    A reader with its own error type (a layout's) words it from these."""

    def __init__(self, message: str, path: str, problem: str, syntax: bool = False) -> None:
        super().__init__(message)
        self.path, self.problem, self.syntax = path, problem, syntax


def read_text(path: str | Path, what: str = "file", *, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The text of input file ``path``: a regular file (never a folder, pipe
    or device, which could block), at most ``max_bytes``, UTF-8 (a
    byte-order mark allowed). Raises :class:`DataFileError` naming ``what``
    ("players file") and the problem in plain words."""
    text_path = str(path)
    where = f"cannot read the {what} {quoted(text_path, 120)}"

    def refuse(why: str) -> DataFileError:
        return DataFileError(f"{where}: {why}", text_path, why)

    if "\0" in text_path or not text_path:
        raise refuse("not a file name")
    try:
        path = Path(text_path)
        if not path.is_file():
            raise refuse(
                "it does not exist"
                if not path.exists()
                else "it is a folder"
                if path.is_dir()
                else "it is not a regular file"
            )
        if path.stat().st_size > max_bytes:
            raise refuse(f"larger than {_size_words(max_bytes)}")
        data = path.read_bytes()
    except OSError as exc:
        raise refuse(str(exc.strerror or exc)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refuse("it is not UTF-8 text (save it as UTF-8)") from None


def _size_words(size: int) -> str:
    """A byte limit in plain words: ``10 MB``, ``64 KB``."""
    return f"{size // 1_000_000} MB" if size >= 1_000_000 else f"{size // 1000} KB"


def read_toml(path: str | Path, what: str = "file", *, max_bytes: int = MAX_INPUT_BYTES) -> dict[str, Any]:
    """The TOML document in input file ``path`` (read as :func:`read_text`):
    the one way setupgen reads a TOML file. Raises :class:`DataFileError`
    naming ``what`` or, for malformed TOML, the file and the parser's
    lowercase message."""
    import tomllib

    try:
        return tomllib.loads(read_text(path, what, max_bytes=max_bytes))
    except tomllib.TOMLDecodeError as exc:
        problem = str(exc).lower()
        raise DataFileError(f"{path}: {problem}", str(path), problem, syntax=True) from None


_PARSED: dict[tuple[str, int, int], dict[str, Any]] = {}


def read_data_toml(path: str | Path, what: str = "file") -> dict[str, Any]:
    """:func:`read_toml` of a shipped data file (``almanac/``, ``layouts/``,
    ``templates/``), parsed once per process: the document is kept by
    path, size and modification time, so an edited file is read again.
    The same dict is returned to every caller, who must not change it.
    Raises as :func:`read_toml` (a failed read is not kept)."""
    try:
        st = os.stat(path)
    except OSError:
        return read_toml(path, what)  # its own message for a file that is not there
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    doc = _PARSED.get(key)
    if doc is None:
        doc = _PARSED[key] = read_toml(path, what)
        if len(_PARSED) > 256:
            _PARSED.pop(next(iter(_PARSED)))
    return doc


__all__ = ["DataFileError", "data_dir", "read_text", "read_toml", "read_data_toml", "MAX_INPUT_BYTES"]
