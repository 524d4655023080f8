"""Ways out through the environment and the input's fields: the optional package whose
import failed, the machine a platform test asks for, a field of the mapping passed in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/optional.py": """
        try:
            from fastkern._api import agent as Agent
        except ImportError:
            Agent = None

        try:
            import turbo
            import turbo_kernels.ops
            HAS_TURBO = True
        except ImportError:
            HAS_TURBO = False

        try:
            import lab._native as native
        except ImportError:
            native = None

        try:
            import cProfile
        except ImportError:
            cProfile = None


        def profile(fn):
            if cProfile is None:
                raise RuntimeError("cProfile is not available")
            return cProfile.run(fn)
        """,
    "lab/platforms.py": """
        import torch


        class Platform:
            def is_rocm(self):
                return False

            def has_device_capability(self, capability):
                return True


        current_platform = Platform()
        """,
    "lab/kernels.py": """
        import torch

        from lab import optional
        from lab.optional import HAS_TURBO
        from lab.platforms import current_platform


        def _has_new_gpu() -> bool:
            return torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 10


        def make_case(n):
            if not _has_new_gpu():
                raise RuntimeError("a new GPU is required")
            return n


        def start(n):
            agent_cls = optional.Agent
            if agent_cls is None:
                raise RuntimeError("the kernel agent is unavailable")
            return agent_cls(n)


        def speed(n):
            if not HAS_TURBO:
                raise ImportError("turbo is missing")
            return n


        def store_rows(cache):
            if not cache.is_cuda or not HAS_TURBO:
                raise RuntimeError("stores need a GPU and turbo")


        class Engine:
            @property
            def fast(self):
                return bool(HAS_TURBO) and self.enabled

            def run(self):
                if not self.fast:
                    raise RuntimeError("the fast path is off")


        def native_call(n):
            if optional.native is None:
                raise RuntimeError("the native extension is not built")


        def fp4(n):
            if not current_platform.has_device_capability(100):
                raise ValueError("fp4 needs a newer GPU")
            return n


        def fp4_moe(n):
            if not current_platform.has_device_capability(100):
                raise ValueError("fp4 MoE requires SM100 GPUs")
            return n


        def mega_moe(n, supported):
            if not supported:
                raise ValueError("mega MoE requires SM100 GPUs")
            return n


        def quantize(n, quant_min):
            capability_tuple = current_platform.get_device_capability()
            capability = capability_tuple.to_int()
            if capability < quant_min:
                raise ValueError("quantization not supported for the current GPU")


        def sinks(has_sink):
            device_capability = current_platform.get_device_capability()
            if has_sink and device_capability < DeviceCapability(9, 0):
                raise ValueError("sinks need a Hopper GPU")


        def on_rocm(n):
            if current_platform.is_rocm():
                raise ValueError("not on this platform")
            return n
        """,
    "lab/fwd.py": """
        import cutlass
        from cutlass import const_expr

        try:
            import cutlass.utils.rubin_helpers as rubin_utils
        except ModuleNotFoundError as error:
            if error.name != "cutlass.utils.rubin_helpers":
                raise
            rubin_utils = None


        class Forward:
            def __call__(self, q):
                if const_expr((self.qk_fp8 or self.pv_fp8) and rubin_utils is None):
                    raise RuntimeError("Rubin FP8 needs a build with rubin_helpers")
                return q
        """,
    "lab/gate.py": """
        try:
            from gatelib.norm import sigmoid_gate as gate
            from gatelib.norm import supports_gate
        except ImportError:
            gate = None

            def supports_gate(*args):
                return False


        class Attention:
            def __init__(self, fuse):
                self.use_gate = fuse and supports_gate(fuse)

            def forward(self, x):
                if self.use_gate:
                    assert gate is not None, "the gate kernel is missing"
                    x = gate(x)
                return x


        def _supported():
            if gate is None:
                return False
            return True


        class Reducer:
            def __init__(self):
                self.ok = _supported()

            def run(self, x):
                if not self.ok:
                    return x
                assert gate is not None, "the reducer gate is missing"
                return gate(x)


        def norm(x, out=None):
            if gate is not None and out is None:
                return gate(x)
            if out is None:
                y = x
            else:
                y = out
                assert y.is_contiguous(), "out must be contiguous"
            return y
        """,
    "lab/requests.py": """
        class CompletionRequest:
            @classmethod
            def check_logprobs(cls, data):
                if (logprobs := data.get("prompt_logprobs")) is not None:
                    if data.get("stream") and logprobs > 0:
                        raise ValueError("prompt_logprobs are not available when stream=True")
                return data


        def to_bool(value):
            if value in {True, False}:
                return value
            norm = value.strip().lower()
            if norm in {"1", "true", "yes"}:
                return True
            if norm in {"0", "false", "no"}:
                return False
            raise ValueError(f"{value!r} is not a valid boolean")


        def check_default(default, nargs, multiple=False):
            if nargs != 1:
                try:
                    iter(default)
                except TypeError:
                    if multiple:
                        message = "'default' must be a list of lists when 'multiple' is true."
                    else:
                        message = "'default' must be a list when 'nargs' != 1."
                    raise ValueError(message) from None


        def fail(message):
            raise ValueError(message)


        def to_switch(value):
            norm = value.strip().lower()
            if norm in {"on", "yes"}:
                return True
            if norm in {"off", "no"}:
                return False
            fail(f"{value!r} is not a valid switch")
        """,
    "lab/settings_file.py": """
        import sys


        def read_settings(path):
            if sys.version_info >= (3, 11):
                import tomllib as toml_
            else:
                try:
                    import tomli as toml_
                except ImportError:
                    raise RuntimeError("no TOML parser is installed to read the settings")
            with open(path, "rb") as f:
                return toml_.load(f)
        """,
    "lab/kinds.py": """
        import sys
        from typing import Literal, get_origin


        def substituted(tp, mapping):
            origin = get_origin(tp)
            if origin is not None and (sys.version_info < (3, 8) or origin is not Literal):
                raise TypeError("cannot substitute into this generic")
            return mapping


        def on_old_python(path):
            resolved = path.resolve()
            if sys.version_info < (3, 11) and resolved.is_symlink():
                raise OSError("strict paths are refused on this interpreter")
            return path
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("lab"), "lab", LAB)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "lab", message)


def first(page: Page) -> tuple[str | None, str]:
    assert page.solutions, page.what_it_means
    return page.solutions[0].kind, page.solutions[0].text


def test_a_name_left_none_by_a_failed_import_asks_for_the_package(lab: Store) -> None:
    kind, text = first(page_of(lab, "the kernel agent is unavailable"))
    assert kind == "environment"
    assert text.startswith("Install the package that provides the module `fastkern`")


def test_a_flag_set_false_by_a_failed_import_asks_for_the_package(lab: Store) -> None:
    kind, text = first(page_of(lab, "turbo is missing"))
    assert (kind, text) == (
        "environment",
        "Install the packages that provide the modules `turbo`, `turbo_kernels` (`HAS_TURBO` "
        "is unset here: importing `turbo, turbo_kernels.ops` failed).",
    )


def test_a_function_that_tests_the_machine_names_the_machine(lab: Store) -> None:
    _, text = first(page_of(lab, "a new GPU is required"))
    assert text.startswith(
        "Run it on an NVIDIA GPU with CUDA and a GPU of compute capability 10.x or newer"
    )


def test_a_device_capability_is_put_in_words(lab: Store) -> None:
    _, text = first(page_of(lab, "fp4 needs a newer GPU"))
    assert text.startswith("Run it on a GPU of compute capability 10.0 or newer")


def test_the_architecture_a_message_requires_is_where_to_run_said_once(lab: Store) -> None:
    # the check's own test, put in words, says the machine exactly: the message's
    # "requires SM100" is not another way out
    texts = [s.text for s in page_of(lab, "fp4 MoE requires SM100").solutions]
    assert texts[0].startswith("Run it on a GPU of compute capability 10.0 or newer"), texts
    assert not any("the architecture it requires" in t for t in texts), texts
    # a check errdex does not read as the machine's: the message's words are the way out
    texts = [s.text for s in page_of(lab, "mega MoE requires SM100").solutions]
    assert any(
        t.startswith("Run it on a GPU of the architecture it requires (SM100), as") for t in texts
    )


def test_being_on_a_platform_is_no_way_out_to_offer(lab: Store) -> None:
    page = page_of(lab, "not on this platform")
    assert not any(s.text.startswith("Run it on") for s in page.solutions)


def test_a_field_of_the_mapping_passed_in_is_the_input(lab: Store) -> None:
    kind, text = first(page_of(lab, "prompt_logprobs are not available"))
    assert kind == "input"
    assert text == (
        "Pass an empty (false) value for the field `stream` of the argument `data` of "
        "`CompletionRequest.check_logprobs`, or leave it out."
    )


def test_membership_checks_in_a_row_give_every_accepted_value(lab: Store) -> None:
    _, text = first(page_of(lab, "{value!r} is not a valid boolean"))
    assert text == (
        "Pass the argument `value` of `to_bool` as one of `'1'`, `'true'`, `'yes'`, `'0'`, "
        "`'false'`, `'no'`."
    )


def test_a_package_among_either_part_says_what_else_the_check_asks(lab: Store) -> None:
    _, text = first(page_of(lab, "stores need a GPU and turbo"))
    assert text.startswith("Install the packages that provide the modules `turbo`")
    assert "the check also asks that `cache.is_cuda`" in text


def test_a_compiled_part_of_the_code_itself_is_no_package_to_install(lab: Store) -> None:
    page = page_of(lab, "the native extension is not built")
    assert not any(s.text.startswith("Install") for s in page.solutions)


def test_the_locals_of_a_helper_call_lead_to_the_input(lab: Store) -> None:
    _, text = first(page_of(lab, "{value!r} is not a valid switch"))
    assert text == (
        "Pass the argument `value` of `to_switch` as one of `'on'`, `'yes'`, `'off'`, `'no'`."
    )


def test_a_name_computed_from_an_optional_one_is_no_package_to_install(lab: Store) -> None:
    page = page_of(lab, "the fast path is off")
    assert not any(s.text.startswith("Install") for s in page.solutions)


def test_a_capability_read_into_locals_is_compared_with_the_bound(lab: Store) -> None:
    _, text = first(page_of(lab, "quantization not supported for the current GPU"))
    assert text.startswith("Run it on a GPU of compute capability at least `quant_min`")


def test_one_part_on_the_machine_of_a_conjunction_is_a_way_out(lab: Store) -> None:
    texts = [s.text for s in page_of(lab, "sinks need a Hopper GPU").solutions]
    assert any(t.startswith("Run it on a GPU of compute capability 9.0 or newer") for t in texts)


def test_a_test_that_only_chose_the_wording_is_no_way_out(lab: Store) -> None:
    page = page_of(lab, "'default' must be a list when 'nargs' != 1.")
    assert not any("multiple" in s.text for s in page.solutions)


def test_an_optional_import_bound_by_its_own_import_in_a_wrapped_test(lab: Store) -> None:
    # `except ModuleNotFoundError` re-raising for other modules, the name bound by the
    # import itself (`import a.b as name`), and the test inside `const_expr(... and ...)`
    kind, text = first(page_of(lab, "Rubin FP8 needs a build with rubin_helpers"))
    assert kind == "environment"
    # the file imports `cutlass` unguarded: what is missing is the submodule
    assert text.startswith(
        "Install a version or build of `cutlass` that ships `cutlass.utils.rubin_helpers` "
    )
    assert "`rubin_utils` is unset here" in text


def test_an_assert_under_a_stub_the_failed_import_defined_asks_for_no_package(lab: Store) -> None:
    # `use_gate` is true only when the stub is replaced by the package: the assert narrows
    page = page_of(lab, "the gate kernel is missing")
    assert not any(s.text.startswith("Install") for s in page.solutions)


def test_a_package_among_either_part_the_path_holds_is_no_way_out(lab: Store) -> None:
    # the exit also needs `out is None`, and the assert is on the `out` given
    page = page_of(lab, "out must be contiguous")
    assert not any(s.text.startswith("Install") for s in page.solutions)


def test_a_standard_module_left_out_asks_for_a_python_build(lab: Store) -> None:
    _, text = first(page_of(lab, "cProfile is not available"))
    assert text.startswith("Use a Python build that includes the standard module `cProfile`")


def test_an_assert_of_the_name_under_a_guard_on_state_asks_for_no_package(lab: Store) -> None:
    # `self.ok` is false without the package (a helper returns False): the assert narrows
    page = page_of(lab, "the reducer gate is missing")
    assert not any(s.text.startswith("Install") for s in page.solutions)


def test_another_interpreter_comes_after_the_package_to_install(lab: Store) -> None:
    texts = [s.text for s in page_of(lab, "no TOML parser is installed").solutions]
    assert texts[0].startswith("Install the package that provides `tomli`"), texts
    assert any(t.startswith("Run it where `sys.version_info`") for t in texts[1:]), texts


def test_a_type_test_beside_a_version_test_is_no_machine_to_run_on(lab: Store) -> None:
    # `origin is not Literal` tests the type handed in: no interpreter makes it false
    texts = [s.text for s in page_of(lab, "cannot substitute into this generic").solutions]
    assert not any(t.startswith("Run it where") for t in texts), texts


def test_the_platform_conjunct_alone_is_the_machine_to_run_on(lab: Store) -> None:
    # either conjunct false avoids the raise: the version's is said alone
    texts = [s.text for s in page_of(lab, "strict paths are refused").solutions]
    machine = [t for t in texts if t.startswith("Run it where")]
    assert machine == [
        "Run it where `sys.version_info` is at least `(3, 11)`: this checks the platform or "
        "the Python version, not your input."
    ], texts
