"""A configuration class's getter methods (`calls.getter_fact`): a method returning one of
its object's attributes as it is, or one of its own parameters, is recorded with what it
returns; a method returning anything computed is not."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file

SOURCE = textwrap.dedent(
    """
    class AttentionConfig:
        indexer_kv_dtype: str = "auto"

        def resolve_indexer_kv_dtype(self, default):
            if self.indexer_kv_dtype == "auto":
                return default
            return self.indexer_kv_dtype

        def scaled(self, factor):
            return self.block * factor

        def nested(self):
            def inner():
                return 1
            return self.block

        def of_another(self):
            return self.helper.block

        @classmethod
        def default_mode(self):
            return self.mode

        def resolved_mode(self):
            if self.mode is None:
                self.mode = compute_mode()
            return self.mode


    class Helper:
        def block_size(self):
            return self.block
    """
)


def test_getters_of_a_configuration_class() -> None:
    facts = extract_file("pkg/config.py", SOURCE.encode())
    getters = {p.qualname: p for p in facts.properties if p.method}
    assert sorted(getters) == [
        "AttentionConfig.nested",
        "AttentionConfig.resolve_indexer_kv_dtype",
    ]
    resolve = getters["AttentionConfig.resolve_indexer_kv_dtype"]
    assert set(resolve.returns) == {"default", "self.indexer_kv_dtype"}
    assert getters["AttentionConfig.nested"].returns == ("self.block",)


KEY_GETTERS = textwrap.dedent(
    """
    class TransferConfig:
        extra_config: dict = {}

        def get_from_extra_config(self, key, default):
            \"\"\"One key of the extra config.\"\"\"
            return self.extra_config.get(key, default)

        def get_key(self, key):
            return self.extra_config.get(key)

        def get_swapped(self, key, default):
            return self.extra_config.get(default, key)

        def get_of_another(self, key, default):
            return self.helper.extra.get(key, default)

        def get_and_log(self, key, default):
            log(key)
            return self.extra_config.get(key, default)
    """
)


def test_key_getters_of_a_configuration_class() -> None:
    # a method whose body returns `self.<dict>.get(key, default)` of its own parameters
    facts = extract_file("pkg/config.py", KEY_GETTERS.encode())
    found = {p.qualname: p.returns for p in facts.properties if p.gets_key}
    assert found == {
        "TransferConfig.get_from_extra_config": ("self.extra_config",),
        "TransferConfig.get_key": ("self.extra_config",),
    }
