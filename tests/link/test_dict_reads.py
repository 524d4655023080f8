"""What a local's value reads of a dict (`link.dict_keys`): the dict, the key and the
default leaving the key out gives, through conversions that keep the compared type."""

from __future__ import annotations

from errdex.link.dict_keys import DictRead, dict_alias, dict_read


def test_a_key_read_through_a_conversion_or_a_same_default_branch() -> None:
    assert dict_read('str(extra.get("backend", "cpu")).lower()') == DictRead(
        "extra", "backend", "'cpu'"
    )
    assert dict_read('cfg.extra["path"]') == DictRead("cfg.extra", "path", None)
    assert dict_read('extra.get("n")') == DictRead("extra", "n", "None")
    # `d.get("k", "auto") if isinstance(d, dict) else "auto"`: the key decides either way
    same = 'd.get("k", "auto") if isinstance(d, dict) else "auto"'
    assert dict_read(same) == DictRead("d", "k", "'auto'")
    # another value on the other branch, a computed default, a key that is no name
    assert dict_read('d.get("k", "auto") if isinstance(d, dict) else "off"') is None
    assert dict_read('d.get("k", DEFAULT)') is None
    assert dict_read('d.get("a-b")') is None


def test_a_dict_under_an_empty_fallback_is_that_dict() -> None:
    assert dict_alias("config.extra_config or {}") == "config.extra_config"
    assert dict_alias("config.extra_config or dict()") == "config.extra_config"
    assert dict_alias("config.extra_config or {'a': 1}") is None
    assert dict_alias("config.extra_config") is None


def test_a_key_read_under_an_empty_fallback_defaults_to_it() -> None:
    """`str(d.get("k") or "").upper()`: left out (or given empty), the key reads `""`."""
    assert dict_read('str(extra.get("pool") or "").upper()') == DictRead("extra", "pool", "''")
    assert dict_read('extra.get("n", 0) or 0') == DictRead("extra", "n", "0")
    # a fallback to a value, after a truthy default, or a key that must be given
    assert dict_read('extra.get("pool") or "cpu"') is None
    assert dict_read('extra.get("pool", "cpu") or ""') is None
    assert dict_read('extra["pool"] or ""') is None
