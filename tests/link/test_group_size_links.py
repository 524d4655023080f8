"""A size read through a group accessor, followed to the flag its callers pass it from
(`link.group_sizes`)."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from errdex.extract import extract_file
from errdex.facts import KnobKind
from errdex.link import link_version
from errdex.link.group_sizes import GroupSizes
from errdex.linked_facts import IndexedSite, KnobLink

CONFIG = """
    from dataclasses import dataclass


    @dataclass
    class ParallelConfig:
        tensor_parallel_size: int = 1
        \"\"\"Number of tensor parallel groups.\"\"\"
        pipeline_parallel_size: int = 1
        \"\"\"Number of pipeline stages.\"\"\"


    @dataclass
    class EngineArgs:
        tensor_parallel_size: int = ParallelConfig.tensor_parallel_size
        pipeline_parallel_size: int = ParallelConfig.pipeline_parallel_size

        def add_cli_args(parser):
            parser.add_argument("--tensor-parallel-size", type=int)
            parser.add_argument("--pipeline-parallel-size", type=int)
"""

STATE = """
    _TP = None
    _PP = None


    def get_pp_group():
        return _PP


    def get_tensor_model_parallel_rank() -> int:
        return get_tp_group().rank_in_group


    def get_tp_group():
        assert _TP is not None, "not initialized"
        return _TP


    def get_tensor_model_parallel_world_size() -> int:
        return get_tp_group().world_size


    def initialize_model_parallel(tp_size: int = 1, pp_size: int = 1, backend=None) -> None:
        backend = backend or "nccl"
        ranks = torch.arange(8).reshape(-1, pp_size, tp_size)
        global _TP
        group_ranks = ranks.view(-1, tp_size).unbind(0)
        _TP = make_group(group_ranks, backend)
        global _PP
        _PP = make_group(torch.arange(8).view(-1, pp_size).unbind(0), backend)


    def ensure_model_parallel_initialized(tp_size: int, pp_size: int) -> None:
        initialize_model_parallel(tp_size, pp_size)
"""

WORKER = """
    from eng.state import ensure_model_parallel_initialized


    def init_worker(vllm_config):
        parallel_config = vllm_config.parallel_config
        ensure_model_parallel_initialized(
            parallel_config.tensor_parallel_size,
            parallel_config.pipeline_parallel_size,
        )
"""

MODEL = """
    from eng.state import (
        get_pp_group,
        get_tensor_model_parallel_rank,
        get_tensor_model_parallel_world_size,
    )


    def stages(num_layers: int):
        pp_size = get_pp_group().world_size
        if num_layers % pp_size != 0:
            raise ValueError("layers must split into the stages")


    def stages_again(num_layers: int):
        from eng.state import get_pp_group as pp_group

        stages = pp_group().world_size
        if num_layers < stages:
            raise ValueError("fewer layers than stages")


    def last_stage(num_layers: int):
        pp_rank = get_pp_group().rank_in_group
        if pp_rank > num_layers:
            raise ValueError("a stage past the layers")


    def last_rank(num_layers: int):
        tp_rank = get_tensor_model_parallel_rank()
        if tp_rank > num_layers:
            raise ValueError("a rank past the layers")


    class Attention:
        def __init__(self, num_kv_heads: int):
            tp_size = get_tensor_model_parallel_world_size()
            if num_kv_heads % tp_size != 0:
                raise ValueError("KV heads must divide evenly")


    class Sink:
        def __init__(self, num_heads: int, num_kv_heads: int):
            self.tp_size = get_tensor_model_parallel_world_size()
            self.tp_rank = get_tensor_model_parallel_rank()
            self.lock = make_lock()
            self.num_kv_heads = num_kv_heads
            if self.num_kv_heads < self.tp_size:
                raise ValueError("fewer KV heads than ranks")

        def check(self, num_heads: int):
            if self.tp_rank > num_heads:
                raise ValueError("a kept rank past the heads")
            if self.lock is None:
                raise ValueError("no lock")


    class LinearSink(Sink):
        def split(self, group_norm_size: int):
            if group_norm_size % self.tp_size != 0:
                raise ValueError("norm groups must split across the ranks")


    class SingleSink(Sink):
        def __init__(self, num_heads: int, num_kv_heads: int):
            super().__init__(num_heads, num_kv_heads)
            self.tp_size = 1

        def split(self, group_norm_size: int):
            if group_norm_size % self.tp_size != 0:
                raise ValueError("norm groups must split across one rank")
"""


# the caller imports the function it passes the size to in its own body
WORKER_IMPORTING_IN_ITS_BODY = """
    def init_worker(vllm_config):
        from eng.state import ensure_model_parallel_initialized

        parallel_config = vllm_config.parallel_config
        ensure_model_parallel_initialized(
            parallel_config.tensor_parallel_size,
            parallel_config.pipeline_parallel_size,
        )
"""


def link(
    worker: str = WORKER, model: tuple[str, str] = ("eng/model.py", MODEL)
) -> dict[str, IndexedSite]:
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in (
            ("eng/config.py", CONFIG),
            ("eng/state.py", STATE),
            ("eng/worker.py", worker),
            model,
        )
    ]
    sites = link_version("demo", facts)
    return {s.site.message.text: s for s in sites if s.site.message is not None}


def test_a_size_read_through_a_group_accessor_reaches_the_flag_its_callers_pass() -> None:
    site = link()["KV heads must divide evenly"]
    flags = [k for k in site.knobs if k.kind == KnobKind.FLAG]
    assert [k.name for k in flags] == ["--tensor-parallel-size"]
    (knob,) = flags
    # named as the check writes it: the local bound to the accessor's call
    assert knob.behind == "tp_size"
    assert knob.via is not None
    assert "the local `tp_size` = `get_tensor_model_parallel_world_size()`" in knob.via
    assert "`initialize_model_parallel` builds from its parameter `tp_size`" in knob.via
    assert "passes `parallel_config.tensor_parallel_size`" in knob.via
    # the group's size, not the value the flag holds: the link claims no same value
    assert not knob.same_value
    assert knob.group_size


def test_a_size_of_the_group_an_accessor_returns_reaches_its_flag_and_a_rank_does_not() -> None:
    sites = link()
    # `get_pp_group().world_size` read directly: the pipeline group's size
    (knob,) = [k for k in sites["layers must split into the stages"].knobs if k.group_size]
    assert knob.name == "--pipeline-parallel-size"
    assert knob.behind == "pp_size"
    assert knob.via is not None
    assert "`get_pp_group()` (eng/state.py) returns `_PP`, which" in knob.via
    # the accessor imported (and renamed) in the function that reads it
    (knob,) = [k for k in sites["fewer layers than stages"].knobs if k.group_size]
    assert knob.name == "--pipeline-parallel-size"
    assert knob.behind == "stages"
    # the rank within a group is no size the flag sets, read directly or by an accessor
    for message in ("a stage past the layers", "a rank past the layers"):
        assert not [k for k in sites[message].knobs if k.kind == KnobKind.FLAG]


def test_a_size_the_constructor_keeps_from_a_group_accessor_reaches_its_flag() -> None:
    sites = link()
    # `self.tp_size = get_tensor_model_parallel_world_size()`, read in the constructor
    (knob,) = [k for k in sites["fewer KV heads than ranks"].knobs if k.group_size]
    assert knob.name == "--tensor-parallel-size"
    assert knob.behind == "self.tp_size"
    assert knob.via is not None
    assert "`self.tp_size` is `get_tensor_model_parallel_world_size()`, which `Sink`" in knob.via
    assert "passes `parallel_config.tensor_parallel_size`" in knob.via
    assert not knob.same_value
    # read in a subclass's method, the base's constructor assigning it
    (knob,) = [k for k in sites["norm groups must split across the ranks"].knobs if k.group_size]
    assert (knob.name, knob.behind) == ("--tensor-parallel-size", "self.tp_size")
    # a subclass assigning it another value, a rank, another call's result: no flag
    for message in (
        "norm groups must split across one rank",
        "a kept rank past the heads",
        "no lock",
    ):
        assert not [k for k in sites[message].knobs if k.kind == KnobKind.FLAG], message


def test_a_caller_importing_the_function_in_its_body_is_followed_to_its_flag() -> None:
    site = link(WORKER_IMPORTING_IN_ITS_BODY)["KV heads must divide evenly"]
    assert [k.name for k in site.knobs if k.group_size] == ["--tensor-parallel-size"]


# a helper whose size parameter every caller fills with the accessor's call, in the call
# or through a local; and one whose other caller passes a number of its own
HELPERS = """
    from eng.state import get_tensor_model_parallel_world_size


    def groups_per_rank(total_groups: int, tp_size: int) -> int:
        if total_groups <= 0 or tp_size <= 0:
            raise ValueError("sizes must be positive")
        if total_groups % tp_size == 0:
            return total_groups // tp_size
        if tp_size % total_groups == 0:
            return 1
        raise ValueError("one must divide the other")


    def partition(*, total_groups: int, tp_size: int) -> int:
        return groups_per_rank(total_groups, tp_size)


    def scaled(tp_size: int, n: int) -> int:
        if tp_size * 2 > n:
            raise ValueError("twice the size past n")
        return n


    def mixed(heads: int, tp_size: int) -> int:
        if heads % tp_size != 0:
            raise ValueError("heads split unevenly")
        return heads


    def per_rank(total_groups: int, tp_size: int) -> int:
        if total_groups % tp_size != 0:
            raise ValueError("the ranks must split the groups")
        return total_groups // tp_size


    class Base:
        def __init__(self):
            self.tp_size = get_tensor_model_parallel_world_size()


    class Norm(Base):
        def groups(self, total_groups: int) -> int:
            return per_rank(total_groups, self.tp_size)


    class Layer:
        def __init__(self, kv_heads: int, n: int):
            partition(total_groups=kv_heads, tp_size=get_tensor_model_parallel_world_size())
            tp_size = get_tensor_model_parallel_world_size()
            groups_per_rank(kv_heads, tp_size)
            scaled(get_tensor_model_parallel_world_size(), n)
            mixed(kv_heads, get_tensor_model_parallel_world_size())
            mixed(kv_heads, 4)
"""


def test_a_size_parameter_its_callers_fill_with_the_accessor_reaches_the_flag() -> None:
    sites = link(model=("eng/helpers.py", HELPERS))
    sized = [k for k in sites["one must divide the other"].knobs if k.group_size]
    assert [(k.name, k.behind) for k in sized] == [("--tensor-parallel-size", "tp_size")]
    (knob,) = sized
    assert knob.via is not None
    assert "`tp_size` is the `tp_size` that `partition`" in knob.via
    assert "`tp_size` is `get_tensor_model_parallel_world_size()`, given by" in knob.via
    assert "passes `parallel_config.tensor_parallel_size`" in knob.via
    assert not knob.same_value
    # `self.tp_size` a base's constructor sets to the accessor's call
    sized = [k for k in sites["the ranks must split the groups"].knobs if k.group_size]
    assert [(k.name, k.behind) for k in sized] == [("--tensor-parallel-size", "tp_size")]
    assert sized[0].via is not None
    assert "`tp_size` is `self.tp_size`, given by `Norm.groups`" in sized[0].via
    assert "`self.tp_size` is `get_tensor_model_parallel_world_size()`, which `Base`" in (
        sized[0].via
    )
    # the size compared only with a literal (no remainder), read in a product: the flag
    # does not say which way the test goes; a caller passing a number of its own: no
    # setting decides the parameter
    for message in ("sizes must be positive", "twice the size past n", "heads split unevenly"):
        assert not [k for k in sites[message].knobs if k.group_size], sites[message].knobs


def test_a_group_s_size_read_in_several_places_is_followed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walked: list[int] = []
    passed = GroupSizes._passed

    def counted(self: GroupSizes, *args: Any) -> list[KnobLink]:
        walked.append(args[-1])  # the hops up from the global
        return passed(self, *args)

    monkeypatch.setattr(GroupSizes, "_passed", counted)
    experts = """
        from eng.state import get_tensor_model_parallel_world_size


        class Experts:
            def __init__(self, num_experts: int):
                tp_size = get_tensor_model_parallel_world_size()
                if num_experts % tp_size != 0:
                    raise ValueError("experts must divide evenly")
    """
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in (
            ("eng/config.py", CONFIG),
            ("eng/state.py", STATE),
            ("eng/worker.py", WORKER),
            ("eng/model.py", MODEL),
            ("eng/experts.py", experts),
        )
    ]
    sites = {s.site.message.text: s for s in link_version("demo", facts) if s.site.message}
    for message in ("KV heads must divide evenly", "experts must divide evenly"):
        knobs = [k.name for k in sites[message].knobs if k.group_size]
        assert knobs == ["--tensor-parallel-size"]
    # the tensor group's size from the global up, once for the two files reading it (and
    # the pipeline group's once for each name its accessor is read by)
    assert walked.count(0) == 3
