"""Many conversations kept in one folder: `HistoryStore`.

Each history is one file, `<id>.json`, written by `ChatHistory.save` (a
temporary file renamed over the old one once all is written), so a reader never
finds half a file. An id is used as the file's name, so it is 1 to 128
letters, digits, `_`, `-` and `.`, not starting with a dot; anything else (a
path separator above all) is refused with `ValueError`.
"""

from __future__ import annotations

import re
from pathlib import Path

from interlingua._history import ChatHistory

__all__ = ["HistoryStore"]

_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}")
_SUFFIX = ".json"


class HistoryStore:
    """Chat histories saved in `folder` (made on the first save), one file each,
    listed, loaded and deleted by id."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def __repr__(self) -> str:
        return f"HistoryStore({str(self.folder)!r})"

    def save(self, history: ChatHistory, id: str | None = None) -> str:
        """Save `history` under `id`, or its own id, or a new one, and return it.
        The history's `id` is set to it, so saving it again replaces the same file."""
        if id is None and history.id is None:
            import uuid  # only a new id needs it

            id = uuid.uuid4().hex
        name = _checked(id if id is not None else history.id)
        self.folder.mkdir(parents=True, exist_ok=True)
        history.id = name
        history.save(self._path(name))
        return name

    def load(self, id: str) -> ChatHistory:
        """The history saved under `id`; `KeyError` if there is none."""
        try:
            return ChatHistory.load(self._path(id))
        except FileNotFoundError:
            raise KeyError(id) from None

    def delete(self, id: str) -> None:
        """Remove the history saved under `id`; `KeyError` if there is none."""
        try:
            self._path(id).unlink()
        except FileNotFoundError:
            raise KeyError(id) from None

    def ids(self) -> list[str]:
        """The ids of the histories saved, sorted."""
        if not self.folder.is_dir():
            return []
        found = (path for path in self.folder.iterdir() if path.suffix == _SUFFIX)
        return sorted(path.stem for path in found if _ID.fullmatch(path.stem) and path.is_file())

    def __contains__(self, id: object) -> bool:
        return isinstance(id, str) and _ID.fullmatch(id) is not None and self._path(id).is_file()

    def _path(self, id: str) -> Path:
        return self.folder / f"{_checked(id)}{_SUFFIX}"


def _checked(id: object) -> str:
    if isinstance(id, str) and _ID.fullmatch(id):
        return id
    raise ValueError(
        "a history id names its file: 1 to 128 letters, digits, '_', '-' or '.' "
        f"(not first); got {id!r}"
    )
