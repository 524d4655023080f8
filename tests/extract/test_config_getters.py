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
