import pytest

from ledgersync.config import ConfigError, parse_config

BASE = {"upstream": {"base_url": "https://upstream.test/v2"}}


def test_defaults_apply():
    cfg = parse_config(BASE)
    assert cfg.upstream.batch_size == 500
    assert cfg.status.port == 8080
    assert cfg.reconcile.lookback_days == 7


def test_base_url_required():
    with pytest.raises(ConfigError, match="base_url"):
        parse_config({"upstream": {}})


def test_unknown_key_rejected():
    with pytest.raises(ConfigError, match="unknown key"):
        parse_config({**BASE, "status": {"prot": 1}})


@pytest.mark.parametrize("size", [0, 1001])
def test_batch_size_bounds(size):
    with pytest.raises(ConfigError, match="batch_size"):
        parse_config({"upstream": {**BASE["upstream"], "batch_size": size}})


def test_backoff_initial_above_ceiling():
    raw = {**BASE, "outbox": {"backoff_initial_seconds": 60, "backoff_ceiling_seconds": 30}}
    with pytest.raises(ConfigError, match="ceiling"):
        parse_config(raw)
