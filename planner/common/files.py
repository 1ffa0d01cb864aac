"""Files written whole or not at all: a reader, or a crash, sees the old file or the new, never half of one.

The table's save file and the trainer's score file both live through restarts; both go through here.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``path`` through a temporary file beside it, synced, then
    renamed over it; the temporary file is removed when anything fails.

    An existing file keeps its permission bits (a 0644 file stays 0644), and a symbolic link stays a link: the
    file it points to is the one replaced. A new file is the user's alone (0600), as :func:`tempfile.mkstemp`
    makes it.

    Raises:
        OSError: the folder is missing or not writable, or ``path`` is not a regular file (the caller says what was
            being saved).
    """
    path = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        found = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    else:
        if not stat.S_ISREG(found):  # a folder, a FIFO, a device: never replaced by a file
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        mode = stat.S_IMODE(found)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            if mode is not None:
                os.fchmod(stream.fileno(), mode)
            stream.write(text.encode("utf-8") if isinstance(text, str) else text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
