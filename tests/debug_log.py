"""Parlor's own logging at DEBUG into a buffer, for tests that read what the log would say."""

from __future__ import annotations

import io
import logging

from bot.logs import PAYLOAD_LOGGERS, configure_logging


class DebugLog:
    """Parlor's own logging at DEBUG, into a buffer, as LOG_LEVEL=DEBUG configures it; the loggers' levels and
    handlers put back afterwards."""

    def __enter__(self) -> io.StringIO:
        self.levels = {name: logging.getLogger(name).level for name in ("", *PAYLOAD_LOGGERS)}
        self.buffer = io.StringIO()
        self.handler = configure_logging("DEBUG", self.buffer)
        return self.buffer

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self.handler)
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)
