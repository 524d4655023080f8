"""A group size's check under a comparison of the model's KV heads with the size, on the
page: the other branch's way is said beside the first solution (`first_actions`,
`group_size_branches`), not where that branch raises."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered

from errdex.explain.build import build_page
from errdex.store import Store
from link.test_group_size_links import CONFIG, STATE, WORKER

FILES = {
    "eng/__init__.py": "",
    "eng/config.py": CONFIG,
    "eng/state.py": STATE,
    "eng/worker.py": WORKER,
    "eng/model.py": """
        from eng.state import get_tensor_model_parallel_world_size


        class Attention:
            def __init__(self, num_kv_heads: int):
                tp_size = get_tensor_model_parallel_world_size()
                if num_kv_heads >= tp_size:
                    if num_kv_heads % tp_size != 0:
                        raise ValueError("KV heads must divide evenly")
                else:
                    if tp_size % num_kv_heads != 0:
                        raise ValueError("the size must divide by the KV heads")


        class RaisingAttention:
            def __init__(self, num_kv_heads: int):
                tp_size = get_tensor_model_parallel_world_size()
                if num_kv_heads >= tp_size:
                    if num_kv_heads % tp_size != 0:
                        raise ValueError("KV heads must divide evenly")
                else:
                    raise ValueError("fewer KV heads than ranks")


        class SparseMoeBlock:
            def __init__(self, num_experts: int):
                self.tp_size = get_tensor_model_parallel_world_size()
                if self.tp_size > num_experts:
                    raise ValueError("more ranks than experts")
        """,
    # a helper whose size parameter its callers fill with the accessor's call
    "eng/groups.py": """
        from eng.state import get_tensor_model_parallel_world_size


        def groups_per_rank(total_groups: int, tp_size: int) -> int:
            if total_groups % tp_size == 0:
                return total_groups // tp_size
            if tp_size % total_groups == 0:
                return 1
            raise ValueError("one must divide the other")


        def heads_per_rank(num_heads: int, tp_size: int) -> int:
            if num_heads % tp_size != 0:
                raise ValueError("heads must divide evenly")
            return num_heads // tp_size


        class Layer:
            def __init__(self, groups: int, num_heads: int):
                tp_size = get_tensor_model_parallel_world_size()
                groups_per_rank(groups, tp_size)
                heads_per_rank(num_heads, get_tensor_model_parallel_world_size())
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", FILES)


def _first(store: Store, function: str, message: str) -> str:
    (site,) = [
        s
        for s in store.list_sites("eng")
        if s.site.function == function and s.site.message and s.site.message.text == message
    ]
    page = build_page(store, site.id)
    assert page.solutions, page.what_it_means
    return page.solutions[0].text


def test_the_other_branch_is_said_beside_the_first_solution(eng: Store) -> None:
    first = _first(eng, "Attention.__init__", "KV heads must divide evenly")
    assert first.startswith(
        "Pass `--tensor-parallel-size` with a size that divides `num_kv_heads`"
    ), first
    assert "Or pass a multiple of `num_kv_heads`" in first
    assert "the test at line 8 then takes its other branch" in first


def test_no_other_branch_where_it_raises(eng: Store) -> None:
    first = _first(eng, "RaisingAttention.__init__", "KV heads must divide evenly")
    assert first.startswith("Pass `--tensor-parallel-size` with a size that divides"), first
    assert "other branch" not in first


def test_a_size_above_the_experts_takes_one_at_most_them(eng: Store) -> None:
    first = _first(eng, "SparseMoeBlock.__init__", "more ranks than experts")
    assert first.startswith(
        "Pass `--tensor-parallel-size` with a size at most `num_experts` that divides the "
        "attention heads"
    ), first


def test_neither_dividing_the_other_takes_a_size_that_divides_or_a_multiple(eng: Store) -> None:
    (site,) = [s for s in eng.list_sites("eng") if s.site.function == "groups_per_rank"]
    texts = [s.text for s in build_page(eng, site.id).solutions]
    assert texts[0].startswith(
        "Pass `--tensor-parallel-size` with a size that divides `total_groups`"
    ), texts
    assert texts[1].startswith("Pass `--tensor-parallel-size` with a multiple of `total_groups`")


def test_one_remainder_of_another_count_names_no_size(eng: Store) -> None:
    (site,) = [s for s in eng.list_sites("eng") if s.site.function == "heads_per_rank"]
    page = build_page(eng, site.id)
    assert not any("--tensor-parallel-size" in s.text for s in page.solutions), page.solutions
    assert offered(page) == [
        "Pass the argument `num_heads` of `heads_per_rank` as a multiple of the argument `tp_size`."
    ]
