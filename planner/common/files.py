"""Files written whole or not at all: a reader, or a crash, sees the old file or the new, never half of one.

The table's save file and the trainer's score file both live through restarts; both go through here.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``path`` through a temporary file beside it, synced, then
    renamed over it; the temporary file is removed when anything fails.

    Raises:
        OSError: the folder is missing or not writable (the caller says what was being saved).
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8") if isinstance(text, str) else text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
