"""A setting's example fix reaches the check: the "before" line carries the other settings
the path holds (else it would not fail), and a switch that only returns before a failing
sum of settings is no way out (it hides the error)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.fix_forms import change_fix
from errdex.explain.page import Change, ExampleFix, Page
from errdex.explain.retired_flags import kept_flags
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            enable_elastic_ep: bool = False
            enable_eplb: bool = False
            pipeline_parallel_size: int = 1
            nnodes: int = 1
            data_parallel_size: int = 1
            data_parallel_external_lb: bool = False
            api_server_count: int = 1
            data_parallel_hybrid_lb: bool = False
            cache_dtype: str = "auto"
            comm_backend: str = "mp"

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--enable-elastic-ep", action="store_true")
                parser.add_argument("--enable-eplb", action="store_true")
                parser.add_argument("--pipeline-parallel-size", type=int, default=1)
                parser.add_argument("--nnodes", type=int, default=1)
                parser.add_argument("--data-parallel-size", type=int, default=1)
                parser.add_argument("--data-parallel-external-lb", action="store_true")
                parser.add_argument("--api-server-count", type=int, default=1)
                parser.add_argument("--data-parallel-hybrid-lb", action="store_true")
                parser.add_argument("--backend", choices=["vllm", "hf"], default="vllm")
                parser.add_argument("--kernel", choices=["fused", "triton"], default=None)
                parser.add_argument("--profile", action="store_true")
                parser.add_argument("--cache-dtype", default="auto")
                parser.add_argument("--comm-backend", default="mp")
                return parser
        """,
    "eng/serve.py": """
        def cmd(args):
            if args.api_server_count < 1:
                run_headless(args)


        def run_headless(args):
            if args.api_server_count > 1:
                raise ValueError("api_server_count can't be set in headless mode")
            if args.data_parallel_hybrid_lb:
                raise ValueError("hybrid LB is not applicable in headless mode")


        def profile(args):
            if args.backend != "vllm":
                if args.backend == "hf" and args.profile:
                    raise NotImplementedError("profiling is only implemented for vllm")


        def run(args):
            if args.backend != "vllm":
                if args.backend != "hf":
                    raise ValueError("unknown backend")


        def kernel(args):
            if args.kernel is not None:
                if args.kernel == "fused" and not on_rocm():
                    raise ValueError("the fused kernel needs ROCm")
        """,
    "eng/config.py": """
        class ParallelConfig:
            def check_elastic(self):
                if self.enable_elastic_ep:
                    if not self.enable_eplb:
                        raise ValueError("elastic EP needs EPLB")

            def check_pipeline(self):
                if self.enable_elastic_ep:
                    if self.pipeline_parallel_size > 1:
                        raise ValueError("elastic EP does not take pipeline parallelism")

            def check_comm(self):
                if self.enable_eplb:
                    if self.comm_backend != "ray":
                        raise ValueError("EPLB needs the ray backend")

            def check_cache(self):
                if self.enable_eplb:
                    if self.cache_dtype not in ("auto", "half"):
                        raise ValueError("EPLB needs an unquantized cache")

            def check_balance(self):
                if self.enable_eplb:
                    if self.nnodes % self.data_parallel_size != 0:
                        raise ValueError("EPLB needs whole node groups")

            def node_groups(self):
                if self.data_parallel_external_lb:
                    return 1
                if self.nnodes % self.data_parallel_size != 0:
                    raise ValueError("nnodes must be divisible by the data parallel size")
                return self.nnodes // self.data_parallel_size
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "eng", message)


def fixes_of(page: Page) -> dict[str, tuple[str, str]]:
    """Each solution's fix by the setting it turns."""
    return {s.knob or "": (s.fix.before, s.fix.after) for s in page.solutions if s.fix}


def test_the_other_switch_the_check_needs_is_given_in_both_lines(eng: Store) -> None:
    fixes = fixes_of(page_of(eng, "elastic EP needs EPLB"))
    assert fixes["--enable-eplb"] == (
        "eng serve MODEL_TAG --enable-elastic-ep",
        "eng serve MODEL_TAG --enable-elastic-ep --enable-eplb",
    )
    # turning the other switch off reaches the check as it is: nothing is added
    assert fixes["--enable-elastic-ep"] == (
        "eng serve MODEL_TAG --enable-elastic-ep",
        "eng serve MODEL_TAG",
    )


def test_a_guard_around_the_check_is_held_in_both_lines(eng: Store) -> None:
    page = page_of(eng, "elastic EP does not take")
    # the flag the fix changes is given, before, a value the path's bound holds (any value
    # would not fail)
    assert fixes_of(page)["--pipeline-parallel-size"] == (
        "eng serve MODEL_TAG --enable-elastic-ep --pipeline-parallel-size 2",
        "eng serve MODEL_TAG --enable-elastic-ep --pipeline-parallel-size 1",
    )
    # a bound the path holds is given a value that holds it
    assert fixes_of(page)["--enable-elastic-ep"] == (
        "eng serve MODEL_TAG --pipeline-parallel-size 2 --enable-elastic-ep",
        "eng serve MODEL_TAG --pipeline-parallel-size 2",
    )
    fix = next(s.fix for s in page.solutions if s.knob == "--pipeline-parallel-size")
    assert fix is not None and fix.note is not None
    assert "The check is met only with `--enable-elastic-ep` as well" in fix.note


def test_the_flag_the_fix_changes_is_given_the_value_the_path_holds_before(eng: Store) -> None:
    """`args.kernel == "fused"` on the path: "before" gives `--kernel fused`, which fails,
    not any value."""
    fixes = fixes_of(page_of(eng, "the fused kernel needs ROCm"))
    assert fixes["--kernel"] == ("eng serve MODEL_TAG --kernel fused", "eng serve MODEL_TAG")


def test_no_fix_takes_another_branch_of_the_choice_the_user_made(eng: Store) -> None:
    """`args.backend == "hf"` on the path, under `args.backend != "vllm"`: `--backend vllm`
    is another program, not a way out of the hf backend's check; the solution stays."""
    page = page_of(eng, "profiling is only implemented")
    assert any(s.knob == "--backend" for s in page.solutions)
    assert "--backend" not in fixes_of(page)
    assert page.example_fix is None or "--backend vllm" not in page.example_fix.after
    # a value none of a chain of tests knows: one of theirs is the way out, with its fix
    page = page_of(eng, "unknown backend")
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "eng serve MODEL_TAG --backend VALUE",
        "eng serve MODEL_TAG --backend vllm",
    )


def test_a_value_outside_literals_is_not_a_placeholder_in_both_lines(eng: Store) -> None:
    """`self.cache_dtype not in ("auto", "half")` on the path: `--cache-dtype CACHE_DTYPE`
    kept in both lines asks for a value the page never names (the ones it names pass), so
    `--enable-eplb`'s fix, whose "before" cannot be written to fail, is dropped."""
    page = page_of(eng, "EPLB needs an unquantized cache")
    assert any(s.knob == "--enable-eplb" for s in page.solutions)
    assert "--enable-eplb" not in fixes_of(page)
    for fix in (s.fix for s in page.solutions if s.fix):
        assert "CACHE_DTYPE" not in fix.before + fix.after


def test_a_flag_whose_default_fails_as_well_is_kept_in_both_lines(eng: Store) -> None:
    """`self.comm_backend != "ray"` with `--comm-backend` left "mp": the user's own value
    and the default both fail it, so the "before" fails through `--enable-eplb`, the flag
    the fix changes; `--comm-backend COMM_BACKEND` is kept in both lines."""
    page = page_of(eng, "EPLB needs the ray backend")
    before, after = fixes_of(page)["--enable-eplb"]
    assert "--comm-backend COMM_BACKEND --enable-eplb" in before, before
    assert "--comm-backend COMM_BACKEND" in after and "--enable-eplb" not in after, after


def test_the_settings_of_a_failing_sum_are_the_users_own_values(eng: Store) -> None:
    """The page knows which flags the sum reads (here `--data-parallel-size`), not their
    failing values: the user's own, named after each flag."""
    fixes = fixes_of(page_of(eng, "EPLB needs whole node groups"))
    assert fixes["--enable-eplb"] == (
        "eng serve MODEL_TAG --data-parallel-size DATA_PARALLEL_SIZE --enable-eplb",
        "eng serve MODEL_TAG --data-parallel-size DATA_PARALLEL_SIZE",
    )


def test_the_callers_guard_and_the_paths_bound_are_met_by_one_value(eng: Store) -> None:
    """`api_server_count <= 1` on the path and `< 1` at the only caller: 0 meets both."""
    fixes = fixes_of(page_of(eng, "hybrid LB is not applicable"))
    assert fixes["--data-parallel-hybrid-lb"] == (
        "eng serve MODEL_TAG --api-server-count 0 --data-parallel-hybrid-lb",
        "eng serve MODEL_TAG --api-server-count 0",
    )


def test_a_switch_that_returns_before_a_failing_sum_is_no_way_out(eng: Store) -> None:
    page = page_of(eng, "nnodes must be divisible")
    assert not any(s.knob == "--data-parallel-external-lb" for s in page.solutions)
    assert page.solutions and "--data-parallel-size" in page.solutions[0].text
    assert page.example_fix is None or "--data-parallel-external-lb" not in page.example_fix.after
    assert "A switch would only hide the error" in page.what_it_means
    assert "`--data-parallel-external-lb`" in page.what_it_means


def test_a_yes_no_variable_the_message_sets_is_given_the_other_value_before() -> None:
    """Left unset, the variable's default may be the value the message asks for already:
    the line that meets the check gives the other value."""
    fix = change_fix(Change(form="env", target="ENG_FUSE", after="0"), "eng serve MODEL_TAG")
    assert fix is not None
    assert (fix.before, fix.after) == (
        "ENG_FUSE=1 eng serve MODEL_TAG",
        "ENG_FUSE=0 eng serve MODEL_TAG",
    )
    # a value that is no yes/no keeps the command alone before: the other value is not known
    fix = change_fix(Change(form="env", target="ENG_LAYOUT", after="NHD"), "eng serve MODEL_TAG")
    assert fix is not None
    assert (fix.before, fix.after) == ("eng serve MODEL_TAG", "ENG_LAYOUT=NHD eng serve MODEL_TAG")


def test_the_flags_kept_in_both_lines_are_not_the_ones_the_fix_sets() -> None:
    """A retired flag the check needs, kept in both lines, is not one the solution sets
    (that solution is not dropped for it; its fix is, in `verified`)."""
    fix = ExampleFix(
        before="eng serve MODEL_TAG --cache-mode none --replay --size VALUE",
        after="eng serve MODEL_TAG --cache-mode none --replay --size 1",
    )
    assert kept_flags(fix) == {"--cache-mode", "--replay"}
