"""structlog configuration shared by the daemon and the CLI."""

from __future__ import annotations

import logging
import os

import structlog

REDACTED = "[redacted]"
_REDACT_KEYS = frozenset({"client_secret", "authorization", "iban"})


def _redact(_: object, __: str, event: dict[str, object]) -> dict[str, object]:
    for key in _REDACT_KEYS & event.keys():
        event[key] = REDACTED
    return event


def configure_logging(level: str | None = None, fmt: str = "json") -> None:
    level_name = (level or os.environ.get("LEDGERSYNC_LOG_LEVEL", "INFO")).upper()
    renderer = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer()
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _redact,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level_name)),
    )
