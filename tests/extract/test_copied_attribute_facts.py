"""What a class's constructor copies onto `self` from another object's attribute chain
(`ClassFact.attr_chains`), read from its text as the skeleton left it."""

from __future__ import annotations

import re
import textwrap

import pytest
from extract_samples import blanked_facts

from errdex.extract import extract_file, init_attrs
from errdex.facts import ClassFact

# the constructor raises nothing: the skeleton blanks it, and the facts come from its text
LAYER = """
    class Layer:
        def __init__(self, config, cache_config=None, quant_config=None):
            \"\"\"Build it.\"\"\"
            parallel_config = get_current_config().parallel_config
            self.hidden_size = config.hidden_size
            self.kv_cache_dtype = (
                cache_config.cache_dtype if cache_config is not None else "auto"
            )
            self.dcp_size = parallel_config.decode_context_parallel_size
            self.block_size = cache_config.block_size or 16
            self.use_pcp = parallel_config.prefill_context_parallel_size > 1
            self.scheme = quant_config.get_scheme()
            self.other = config.name if config.flag else "x"
            self.ratio = self.hidden_size
            self.twice = config.twice
            self.twice = None
            if quant_config is not None:
                self.group = quant_config.group_size
            self.impl = make_impl(
                dtype=cache_config.cache_dtype,
            )

        def forward(self):
            assert self.kv_cache_dtype != "fp16", "no fp16 cache"
    """


def layer_of(source: str) -> ClassFact:
    (layer,) = blanked_facts(source).classes
    return layer


def test_attribute_chains_copied_as_they_are_or_behind_a_default_for_their_object() -> None:
    assert layer_of(LAYER).attr_chains == {
        "hidden_size": "config.hidden_size",
        "kv_cache_dtype": "cache_config.cache_dtype",
        "dcp_size": "parallel_config.decode_context_parallel_size",
        "block_size": "cache_config.block_size",
        "ratio": "self.hidden_size",
    }
    # not copied: a comparison (`use_pcp`), a call's result (`scheme`), a branch on something
    # else than the object (`other`), an attribute set twice (`twice`), one set under an
    # `if` (`group`), and a keyword inside a call's brackets (`dtype=`)


def test_a_root_the_constructor_rebinds_copies_nothing() -> None:
    source = LAYER.replace(
        '"""Build it."""', '"""Build it."""\n            cache_config = cache_config or Default()'
    )
    chains = layer_of(source).attr_chains
    assert "kv_cache_dtype" not in chains
    assert "block_size" not in chains
    assert chains["hidden_size"] == "config.hidden_size"


def test_a_local_root_assigned_twice_copies_nothing() -> None:
    source = LAYER.replace(
        "            self.dcp_size", "            parallel_config = None\n            self.dcp_size"
    )
    assert "dcp_size" not in layer_of(source).attr_chains


def test_a_chain_behind_a_default_a_call_gives_is_kept() -> None:
    source = """
        from pkg.impl import select_impl


        def build(cache_config, heads):
            if heads < 1:
                raise ValueError("no heads")
            dtype = cache_config.cache_dtype if cache_config is not None else "auto"
            select_impl(kv_cache_dtype=dtype, heads=heads)
            select_impl(
                kv_cache_dtype=cache_config.cache_dtype if cache_config else "auto",
                block_size=cache_config.block_size or 16,
                heads=heads + 1,
            )
        """
    facts = extract_file("pkg/build.py", textwrap.dedent(source).encode())
    first, second = [c.passes for c in facts.call_sites if c.callee == "select_impl"]
    assert ("kv_cache_dtype", "cache_config.cache_dtype", -1) in first
    assert ("kv_cache_dtype", "cache_config.cache_dtype", -1) in second
    assert ("block_size", "cache_config.block_size", -1) in second
    assert ("heads", "", -1) in second


def test_a_local_root_is_looked_for_in_the_lines_that_name_it_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Whether a loop, `as`, `:=` or `del` binds the chain's root again: the line's binding
    # words are looked for only where the root is named (`_elsewhere` finds nothing else).
    searched: list[str] = []
    may_bind = init_attrs._MAY_BIND

    class Counted:
        def search(self, line: str) -> re.Match[str] | None:
            searched.append(line)
            return may_bind.search(line)

    monkeypatch.setattr(init_attrs, "_MAY_BIND", Counted())
    source = """
        class Layer:
            def __init__(self):
                parallel = current().parallel_config
                for item in range(4):
                    register(item)
                self.dcp_size = parallel.dcp_size

            def forward(self):
                assert self.dcp_size > 1, "too small"
        """
    assert layer_of(source).attr_chains == {"dcp_size": "parallel.dcp_size"}
    assert searched and all("parallel" in line for line in searched)
    bound_again = source.replace("for item in", "for parallel in").replace("(item)", "(parallel)")
    assert layer_of(bound_again).attr_chains == {}


def test_a_root_many_chains_share_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A constructor copying many fields of one config asks whether its root holds one
    # object once, not once per field.
    asked: list[str] = []
    held_root = init_attrs._held_root

    def counted(
        body: list[str], depths: list[int], root: str, params: set[str], indent: str
    ) -> bool:
        asked.append(root)
        return held_root(body, depths, root, params, indent)

    monkeypatch.setattr(init_attrs, "_held_root", counted)
    source = """
        class Layer:
            def __init__(self, config, other):
                self.hidden_size = config.hidden_size
                self.num_heads = config.num_heads
                self.head_dim = config.head_dim
                self.dtype = other.dtype

            def forward(self):
                assert self.head_dim > 1, "too small"
        """
    assert layer_of(source).attr_chains == {
        "hidden_size": "config.hidden_size",
        "num_heads": "config.num_heads",
        "head_dim": "config.head_dim",
        "dtype": "other.dtype",
    }
    assert asked == ["config", "other"]
