"""Ways out that a neighbouring check refuses on the same input (any value but one, where
the other branch takes only a few), switches that hide the error, a setting of one part of
what must all change, a list's last member read as an instruction, a local read at its
first value, and a JSON flag's fix that drops the fields the path holds: none is offered as
a way out (or the fix keeps the fields)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import msgspec
import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain import refused_ways
from errdex.explain.build import gather_facts
from errdex.explain.first_actions import first_action
from errdex.explain.fix_forms import command_fix
from errdex.explain.kept_fields import with_kept_fields
from errdex.explain.named_settings import typed_fields
from errdex.explain.page import Page
from errdex.explain.refused_ways import KnownValues, branch_refuses
from errdex.facts import ConditionKind
from errdex.store import Store

WAYS = {
    "ways/__init__.py": "",
    "ways/backbone.py": """
        class Backbone:
            def __init__(self, fused=True):
                if not fused:
                    raise ValueError("only the fused backbone is supported")
                self.fused = fused

            def forward(self, pixels):
                if self.fused and pixels.shape[1] != 6:
                    raise ValueError("the fused backbone expects 6 channels")
                return pixels
        """,
    "ways/kernels.py": """
        def masked(hidden, scale, experts):
            if isinstance(hidden, tuple):
                assert scale is None, "a tuple input carries its own scale"
                return hidden
            else:
                assert scale.shape == (experts,), "scale must be (experts,)"
            return hidden
        """,
    "ways/conv.py": """
        def conv_update(x, state, width, validate=True):
            if validate:
                assert state >= width - 1, "state shorter than the kernel"
                assert x is not None
            return x
        """,
    "ways/embed.py": """
        class EmbedRequest:
            def __init__(self, texts=None, images=None, inputs=None):
                self.texts = texts
                self.images = images
                self.inputs = inputs

            def validate_fields(self):
                given = [f for f in (self.texts, self.images, self.inputs) if f is not None]
                if len(given) != 1 or not given[0]:
                    raise ValueError(
                        "Exactly one of texts, images, or inputs must be provided, "
                        "and it must be non-empty"
                    )
        """,
    "ways/beam.py": """
        import logging

        logger = logging.getLogger(__name__)


        def template_tag(strict, tools):
            constrained = None
            if strict:
                constrained = list(tools)
            tag = None
            seen = {}
            seen[tag] = strict
            if tag is None and constrained is not None:
                logger.warning("cannot enforce strict tools for this request")
            return tag
        """,
    "ways/envs.py": """
        import os

        WAYS_ALWAYS = os.getenv("WAYS_ALWAYS", "1") == "1"
        """,
    "ways/gate.py": """
        import logging

        from ways import envs

        logger = logging.getLogger(__name__)


        def gate(tools, output, forced):
            always = envs.WAYS_ALWAYS and not forced
            if tools is None and output is None and not always:
                return None
            logger.warning("the gate cannot enforce this request")
            return tools
        """,
    "ways/args.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            draft_method: str = "greedy"
            rejection_method: str = "standard"


        @dataclass
        class EngineArgs:
            hybrid_lb: bool = False
            external_lb: bool = False
            size_local: int | None = None
            spec_config: SpecConfig | None = None

            def create_engine_config(self):
                if self.hybrid_lb and self.external_lb:
                    raise ValueError("hybrid and external balancing exclude each other")
                if self.external_lb:
                    return None
                if self.size_local is None:
                    if self.hybrid_lb:
                        raise ValueError("hybrid balancing needs a local size")

            def check_watermark(self):
                if self.spec_config is not None:
                    spec = self.spec_config
                    if spec.draft_method != "probabilistic":
                        return
                    if spec.rejection_method != "standard":
                        raise ValueError("watermarking requires rejection_method='standard'")
        """,
    "ways/scatter.py": """
        def scatter(recv, rows, align, experts, psum=False):
            if psum:
                assert rows.shape == (experts,), "one row per expert"
            else:
                assert rows.shape[0] % align == 0, "rows not aligned"
            return recv


        def split_path(path, has_host):
            if has_host:
                if path and not path.startswith("/"):
                    raise ValueError("with a host the path must start with a slash")
            else:
                if path.startswith("//"):
                    raise ValueError("without a host the path cannot start with //")
            return path


        def gather(recv, rows, align, experts, psum=False):
            if psum:
                assert experts > 0, "no experts"
            else:
                assert rows.shape[0] % align == 0, "gathered rows not aligned"
            return recv
        """,
    "ways/dispatch.py": """
        from ways import envs


        def quantize(x, dtype):
            if dtype == "fp4" and envs.WAYS_ALWAYS:
                assert isinstance(x, tuple), "fp4 dispatch gives a tuple"
            else:
                assert isinstance(x, list), "plain dispatch gives a list"
            return x
        """,
    "ways/limits.py": """
        class Unset:
            pass


        UNSET = Unset()


        class Limits:
            def __init__(self, total=UNSET, *, soft=UNSET, hard=UNSET):
                if isinstance(total, Limits):
                    assert soft is UNSET
                    self.soft = total.soft
                    self.hard = total.hard
                elif isinstance(total, tuple):
                    self.soft = total[0]
                    self.hard = total[1]
                elif not (isinstance(soft, Unset) or isinstance(hard, Unset)):
                    self.soft = soft
                    self.hard = hard
                else:
                    if isinstance(total, Unset):
                        raise ValueError("give a total, or both limits")
                    self.soft = total if isinstance(soft, Unset) else soft
                    self.hard = total if isinstance(hard, Unset) else hard


        def pack(data, mode, level=None):
            if isinstance(data, bytes):
                out = data
            elif isinstance(data, str):
                out = data.encode()
            else:
                if level is None:
                    raise TypeError("a level is needed to pack other data")
                out = bytes(level)
            return out, mode


        def window(size, stride, pad=0):
            if isinstance(size, tuple):
                width = size[0]
            elif stride is None:
                width = size
            else:
                if pad < 0:
                    raise ValueError("no negative padding with a stride")
                width = size + pad
            return width
        """,
    "ways/blocks.py": """
        def _pair(name, cnt, idx):
            if (cnt is None) != (idx is None):
                raise ValueError(f"{name} cnt and idx must both be given or both be None")
            if cnt is None or idx is None:
                return None
            if not cnt.is_contiguous() or not idx.is_contiguous():
                raise ValueError(f"{name} block tensors must be contiguous")
            return cnt


        def normalize_blocks(tensors):
            return _pair("full", tensors.full_cnt, tensors.full_idx)
        """,
    "ways/deploy.py": """
        def _validate(config, precision):
            if config.dp_size != 1:
                raise NotImplementedError(f"{precision} requires DP1.")
            if config.sequence_parallel:
                raise NotImplementedError(f"{precision} does not support sequence parallel.")
            if config.enable_eplb:
                raise NotImplementedError(f"{precision} does not support EPLB.")


        def validate_fp8(config):
            _validate(config, "FP8")
        """,
    "ways/dtypes.py": """
        import torch

        TABLE = dict(half=16, float=32)


        def cache_bits(cache_dtype, model_dtype=None):
            if cache_dtype == "auto":
                if isinstance(model_dtype, str) and model_dtype in TABLE:
                    bits = TABLE[model_dtype]
                elif isinstance(model_dtype, torch.dtype):
                    bits = model_dtype.bits
                else:
                    raise ValueError(f"Invalid model dtype: {model_dtype}")
            elif cache_dtype in TABLE:
                bits = TABLE[cache_dtype]
            else:
                raise ValueError(f"Invalid cache dtype: {cache_dtype}")
            return bits


        def scale_bits(scale, model_dtype=None):
            if scale == "auto":
                if not isinstance(model_dtype, torch.dtype):
                    raise ValueError(f"Invalid scale dtype: {model_dtype}")
                return model_dtype.bits
            return scale


        def kv_bits(kv_dtype, model_dtype=None):
            if kv_dtype != "auto":
                if kv_dtype in TABLE:
                    bits = TABLE[kv_dtype]
                else:
                    print(f"unknown kv dtype {kv_dtype}")
                    raise ValueError(f"Invalid kv dtype: {kv_dtype}")
            else:
                if not isinstance(model_dtype, torch.dtype):
                    raise ValueError(f"Invalid kv model dtype: {model_dtype}")
                bits = model_dtype.bits
            return bits


        def backend_bits(backend, model_dtype=None):
            if backend == "hf":
                if not isinstance(model_dtype, torch.dtype):
                    raise ValueError(f"Invalid backend model dtype: {model_dtype}")
                return model_dtype.bits
            elif isinstance(backend, str):
                return 8
            else:
                raise ValueError(f"Invalid backend: {backend}")


        def mode_bits(mode, model_dtype=None, fallback=False):
            if mode == "auto":
                if not isinstance(model_dtype, torch.dtype):
                    raise ValueError(f"Invalid mode model dtype: {model_dtype}")
                return model_dtype.bits
            elif mode in TABLE:
                return TABLE[mode]
            elif fallback:
                return 16
            else:
                raise ValueError(f"Invalid mode: {mode}")
        """,
}


@pytest.fixture(scope="module")
def ways(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("ways"), "ways", WAYS)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "ways", message)


def texts(page: Page) -> list[str]:
    return [s.text for s in page.solutions]


def test_a_value_the_constructor_refuses_is_no_way_out(ways: Store) -> None:
    page = page_of(ways, "the fused backbone expects 6 channels")
    assert not any("`fused`" in t for t in texts(page)), texts(page)
    fix = page.example_fix
    assert fix is None or "fused=None" not in fix.after


def test_a_branch_that_asserts_the_same_input_again_is_no_way_out(ways: Store) -> None:
    page = page_of(ways, "scale must be (experts,)")
    assert not any("instance of `tuple`" in t for t in texts(page)), texts(page)
    assert "no way out" in page.what_it_means


def test_a_validation_switch_hides_the_error_and_is_not_offered(ways: Store) -> None:
    page = page_of(ways, "state shorter than the kernel")
    assert not any("`validate`" in t for t in texts(page)), texts(page)
    assert "would only hide the error" in page.what_it_means


def test_the_last_member_of_a_list_is_no_instruction(ways: Store) -> None:
    page = page_of(ways, "Exactly one of texts, images, or inputs")
    assert not any(t.startswith("Provide or inputs") for t in texts(page)), texts(page)


def test_a_local_assigned_again_is_not_said_at_its_first_value(ways: Store) -> None:
    page = page_of(ways, "cannot enforce strict tools")
    assert "`constrained` is `None`" not in page.what_it_means, page.what_it_means
    # the key of an item assigned (`seen[tag] = strict`) is read, not assigned again
    assert "`tag` is `None`" in page.what_it_means, page.what_it_means


def test_a_setting_of_one_part_of_what_must_all_change_is_no_way_out(ways: Store) -> None:
    # `WAYS_ALWAYS` decides `always` alone: the early exit needs `tools` and `output` None too
    page = page_of(ways, "the gate cannot enforce this request")
    assert not any("WAYS_ALWAYS" in t for t in texts(page)), texts(page)


def test_a_setting_that_completes_a_refusing_guard_is_no_way_out(ways: Store) -> None:
    page = page_of(ways, "hybrid balancing needs a local size")
    assert not any("--external-lb" in t for t in texts(page)), texts(page)
    # the other ways out stay: a local size, or no hybrid balancing
    assert any("--size-local" in t for t in texts(page)), texts(page)
    assert any("--hybrid-lb" in t for t in texts(page)), texts(page)


def test_a_json_flag_fix_keeps_the_fields_the_path_holds(ways: Store) -> None:
    (site,) = [
        s
        for s in ways.list_sites("ways")
        if s.site.message is not None and s.site.message.text.startswith("watermarking")
    ]
    facts = gather_facts(site)
    facts.knobs = typed_fields(ways, site, facts.knobs)  # as the page reads them
    (condition,) = [c for c in facts.conditions if "rejection_method" in c.test]
    action = first_action(condition, facts)
    assert action is not None and action.keyword == repr({"rejection_method": "standard"})
    kept = with_kept_fields(action, condition, facts)
    assert kept.kept == (("draft_method", "probabilistic"),)
    knob = next(k for k in facts.knobs if k.name == "--spec-config")
    serve = msgspec.structs.replace(knob, command="ways serve MODEL")
    fix = command_fix(serve, kept.keyword or "", "note.", kept.kept)
    assert fix is not None
    assert fix.before == (
        "ways serve MODEL --spec-config "
        '\'{"draft_method": "probabilistic", "rejection_method": "VALUE"}\''
    )
    assert fix.after == (
        "ways serve MODEL --spec-config "
        '\'{"draft_method": "probabilistic", "rejection_method": "standard"}\''
    )


def test_a_helpers_guard_whose_other_branch_raises_is_no_way_out(ways: Store) -> None:
    # the site is the call of the helper: the helper's earlier tests are on its path, and
    # leaving either for its other branch raises there instead
    page = page_of(ways, "FP8 does not support EPLB.")
    assert page.source.function == "validate_fp8"
    assert "The guards at lines 3, 5 are no way out" in page.what_it_means, page.what_it_means
    assert not any("dp_size" in t or "sequence_parallel" in t for t in texts(page)), texts(page)


def test_an_else_whose_if_asserts_the_same_value_is_no_way_out(ways: Store) -> None:
    # the other branch of the `if` the assert sits in asks its own of `rows`: taking it
    # is another assert on the same value, no way out
    page = page_of(ways, "rows not aligned")
    assert not any("`psum`" in t for t in texts(page)), texts(page)


def test_an_else_whose_if_raises_on_a_test_of_its_own_stays_a_way_out(ways: Store) -> None:
    # the other branch tests the same value with a test of its own (not an invariant it
    # asserts): taking it may well pass, as a host with a path of `//x` does
    page = page_of(ways, "without a host the path")
    assert any("`has_host`" in t for t in texts(page)), texts(page)


def test_an_else_whose_if_checks_another_value_stays_a_way_out(ways: Store) -> None:
    page = page_of(ways, "gathered rows not aligned")
    assert any("`psum`" in t for t in texts(page)), texts(page)


def test_a_setting_whose_other_branch_asserts_the_same_value_stays(ways: Store) -> None:
    # a setting picks the mode for the whole program: what reaches the check is made for
    # the mode it picks, so turning it off is a way out even though the other branch
    # asserts of the same value
    page = page_of(ways, "fp4 dispatch gives a tuple")
    assert any("WAYS_ALWAYS" in t for t in texts(page)), texts(page)


def test_a_branch_that_asserts_another_argument_of_the_users_is_no_way_out(ways: Store) -> None:
    # passing `total` as a `Limits` takes a branch that asserts `soft` unset, and as a
    # tuple one that sets the limits from the tuple while the others set them from `soft`
    # and `hard`: the user's own limits fail an assert, or are dropped without a word
    page = page_of(ways, "give a total, or both limits")
    assert not any("`tuple`" in t or "`Limits`" in t.partition(" as ")[2] for t in texts(page)), (
        texts(page)
    )


def _refused(store: Store, message: str) -> dict[str, bool]:
    """Each branch condition of the site's path: whether taking its other branch is no
    sure way out (`branch_refuses`, as the page's ways out read it)."""
    (site,) = [
        s
        for s in store.list_sites("ways")
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    facts = gather_facts(site)
    facts.source_text = store.file_text(site.version_id, site.file)
    return {
        c.test: branch_refuses(c, facts, surely=False)
        for c in facts.conditions[:-1]
        if c.kind != ConditionKind.EXCEPT
    }


def test_the_users_other_argument_asserted_or_dropped_in_a_branch(ways: Store) -> None:
    refused = _refused(ways, "give a total, or both limits")
    assert refused["isinstance(total, Limits)"] is True  # asserts `soft` unset
    assert refused["isinstance(total, tuple)"] is True  # sets the limits without them


def test_a_branch_that_drops_no_argument_passed_through_stays_a_way_out(ways: Store) -> None:
    # `pack`'s other branches store no argument as it is: `level` only feeds the failing
    # branch's own check, so passing bytes or str drops nothing of the user's
    assert _refused(ways, "a level is needed") == {
        "isinstance(data, bytes)": False,
        "isinstance(data, str)": False,
    }
    # `window`'s `pad` is read by the failing branch's check and sum, never stored as is
    assert not any(_refused(ways, "no negative padding").values())


def test_one_part_of_a_pair_an_earlier_check_holds_equal_is_no_way_out(ways: Store) -> None:
    # `full_cnt` None alone, with `full_idx` still set as the path has it, trips the
    # helper's "both or neither" check before the exit the way out aims at
    page = page_of(ways, "full block tensors must be contiguous")
    assert not any("`full_cnt` is None" in t for t in texts(page)), texts(page)


@pytest.mark.parametrize(
    ("given", "test", "truth"),
    [
        ({"x": False}, "x is True", False),
        ({"x": False}, "x is not True", True),
        ({"x": True}, "x is True and mode == 'a'", None),  # `mode` decides it
        ({"x": True, "mode": "a"}, "x is True and mode == 'a'", True),
        ({}, "x is False", None),
        ({"x": None}, "x is None or x", True),
    ],
)
def test_known_values_decide_a_test_by_what_is_given(
    given: dict[str, object], test: str, truth: bool | None
) -> None:
    assert KnownValues(given).truth_of(ast.parse(test, mode="eval").body) is truth


def test_any_value_but_one_where_the_other_branch_accepts_a_few_is_no_way_out(
    ways: Store,
) -> None:
    # `cache_dtype` other than "auto" takes the branch that raises unless it is in TABLE
    page = page_of(ways, "Invalid model dtype")
    assert not any("other than `'auto'`" in t for t in texts(page)), texts(page)
    # an `else` that takes any value keeps the way out
    page = page_of(ways, "Invalid scale dtype")
    assert any("`scale`" in t and "other than `'auto'`" in t for t in texts(page)), texts(page)


def test_any_value_but_one_tested_unequal_with_an_else_that_logs_first(ways: Store) -> None:
    # `kv_dtype != "auto"` takes the chain whose else logs, then raises
    page = page_of(ways, "Invalid kv model dtype")
    assert not any("other than `'auto'`" in t for t in texts(page)), texts(page)


def test_a_link_taking_an_open_set_keeps_any_value_but_one(ways: Store) -> None:
    # any `str` but "hf" takes the `isinstance` link, which accepts it
    page = page_of(ways, "Invalid backend model dtype")
    assert any("`backend`" in t and "other than `'hf'`" in t for t in texts(page)), texts(page)


def test_a_link_testing_something_else_keeps_any_value_but_one(ways: Store) -> None:
    # with `fallback` any mode but "auto" takes the third link, which accepts it
    page = page_of(ways, "Invalid mode model dtype")
    assert any("`mode`" in t and "other than `'auto'`" in t for t in texts(page)), texts(page)


def test_a_function_with_no_literal_default_is_not_walked_for_what_it_assigns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walked: list[ast.stmt] = []
    real = refused_ways.stored
    monkeypatch.setattr(refused_ways, "stored", lambda s: walked.append(s) or real(s))
    plain = ast.parse("def f(x, y=make(), *, z=LIMIT):\n    y = x\n    return y\n").body[0]
    assert isinstance(plain, ast.FunctionDef)
    assert refused_ways._literal_defaults(plain) == {} and walked == []
    literal = ast.parse("def f(x, y=1, *, z=None, w=2):\n    y = x\n    return y\n").body[0]
    assert isinstance(literal, ast.FunctionDef)
    assert refused_ways._literal_defaults(literal) == {"z": None, "w": 2}  # `y` is assigned
    assert len(walked) == 2
