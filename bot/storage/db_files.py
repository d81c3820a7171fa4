"""The SQLite files on disk: private to the bot's user whatever the umask.

A database holds every hidden bone and dice seed, so its folder is created 0700 and the database,
`-wal` and `-shm` files are 0600. The folder's mode is set only when the bot creates it (a folder the
operator chose, e.g. /var/lib, is his to set); the files are the bot's own and are tightened at every
start, which also fixes databases created by earlier versions.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
log = logging.getLogger(__name__)
COMPANIONS = ("-wal", "-shm", "-journal")


def prepare(path: Path) -> None:
    """Create the folder (0700) and an empty database file (0600) if missing, and tighten the file."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, mode=FOLDER_MODE)
        os.chmod(folder, FOLDER_MODE)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, FILE_MODE))
    tighten(path)


def tighten(path: Path) -> None:
    """The database and whichever of its companion files exist: readable by the bot's user only
    (permissions are only taken away, never added).

    SQLite gives `-wal` and `-shm` the database file's mode when it creates them; this covers files
    left by an earlier run with a looser mode.
    """
    for file in (path, *(Path(f"{path}{suffix}") for suffix in COMPANIONS)):
        with contextlib.suppress(FileNotFoundError):
            mode = file.stat().st_mode & 0o777
            private = mode & FILE_MODE  # only ever removes: a read-only database stays read-only
            if mode != private:
                try:
                    os.chmod(file, private)
                except PermissionError:
                    log.warning("cannot make %s readable by its owner only: the bot's user does not own it", file)
