"""Typed configuration loaded from a TOML file."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class ConfigError(ValueError):
    """Raised when the config file is missing, malformed or out of range."""


@dataclass(frozen=True)
class UpstreamConfig:
    base_url: str
    batch_size: int = 500
    timeout_seconds: float = 20.0
    proxy: str | None = None


@dataclass(frozen=True)
class StoreConfig:
    path: Path = Path("ledger.db")
    busy_timeout_ms: int = 5000


@dataclass(frozen=True)
class ReconcileConfig:
    export_dir: Path = Path("exports")
    tolerance_minor_units: int = 0
    lookback_days: int = 7


@dataclass(frozen=True)
class OutboxConfig:
    max_attempts: int = 8
    backoff_initial_seconds: float = 2.0
    backoff_ceiling_seconds: float = 300.0


@dataclass(frozen=True)
class StatusConfig:
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class Config:
    upstream: UpstreamConfig
    store: StoreConfig = field(default_factory=StoreConfig)
    reconcile: ReconcileConfig = field(default_factory=ReconcileConfig)
    outbox: OutboxConfig = field(default_factory=OutboxConfig)
    status: StatusConfig = field(default_factory=StatusConfig)
    poll_interval_seconds: float = 60.0


def _section(raw: dict[str, Any], name: str) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table")
    return value


def parse_config(raw: dict[str, Any]) -> Config:
    upstream = _section(raw, "upstream")
    if "base_url" not in upstream:
        raise ConfigError("[upstream] base_url is required")
    try:
        config = Config(
            upstream=UpstreamConfig(**upstream),
            store=StoreConfig(**{k: Path(v) if k == "path" else v for k, v in _section(raw, "store").items()}),
            reconcile=ReconcileConfig(
                **{k: Path(v) if k == "export_dir" else v for k, v in _section(raw, "reconcile").items()}
            ),
            outbox=OutboxConfig(**_section(raw, "outbox")),
            status=StatusConfig(**_section(raw, "status")),
            poll_interval_seconds=_section(raw, "daemon").get("poll_interval_seconds", 60.0),
        )
    except TypeError as exc:
        raise ConfigError(f"unknown key: {exc}") from exc

    if not 1 <= config.upstream.batch_size <= 1000:
        raise ConfigError("upstream.batch_size must be between 1 and 1000")
    if not 0 < config.status.port < 65536:
        raise ConfigError("status.port is out of range")
    if config.outbox.backoff_initial_seconds > config.outbox.backoff_ceiling_seconds:
        raise ConfigError("outbox.backoff_initial_seconds exceeds the ceiling")
    return config


def load_config(path: Path) -> Config:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path} does not exist") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    return parse_config(raw)
