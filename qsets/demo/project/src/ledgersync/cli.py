"""Command-line entry point."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from ledgersync import __version__
from ledgersync.config import ConfigError, load_config
from ledgersync.daemon import Daemon
from ledgersync.logging_setup import configure_logging
from ledgersync.store.db import Store


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ledgersync")
    parser.add_argument("--config", type=Path, required=True, help="TOML config file")
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the daemon until stopped")
    sub.add_parser("check-config", help="validate the config file and exit")
    outbox = sub.add_parser("outbox", help="inspect the correction outbox")
    outbox.add_argument("--parked", action="store_true", help="list parked corrections only")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 2

    if args.command == "check-config":
        print(f"{args.config}: ok")
        return 0

    configure_logging()
    if args.command == "outbox":
        store = Store.connect(config.store.path)
        for row in store.list_corrections(parked_only=args.parked):
            print(f"{row.id}\t{row.status}\t{row.entry_ref}\t{row.attempts}")
        return 0

    daemon = Daemon(config)
    asyncio.run(daemon.run())
    return 0
