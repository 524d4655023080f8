"""An `assert` in a function the package does not hand to users offers no way out through
that function's own arguments: their values are its own callers' (traced or not).
"What it means" says errdex followed them to no setting or argument. An `assert` in a
function the package hands to users (near its top, or a private module's re-exported)
keeps its argument solution."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_in_function, page_with_message

from errdex.store import Store

KERN = {
    "kern/__init__.py": "from kern._config import Limits\n",
    "kern/ops/__init__.py": "",
    "kern/ops/layers.py": """
        class Layer:
            def __init__(self, rank):
                self.is_first = rank == 0

            def forward(self, hidden, carried=None):
                if not self.is_first:
                    assert carried is not None
                    hidden = hidden + carried
                return hidden

            def line(self, count=1):
                assert count >= 0
                return "\\n" * count

            def scale(self, factor=None):
                if factor is not None:
                    assert factor > 0
                return factor
        """,
    "kern/ops/sharded.py": """
        __all__ = ["Sharded"]


        class Sharded:
            def __init__(self, count=1):
                assert count >= 0
                self.count = count

            def take(self, limit=None):
                assert limit is None or limit > 0
                return limit


        class Shard:
            def __init__(self, count=1):
                assert count >= 0
                self.count = count
        """,
    "kern/ops/backend.py": """
        class Backend:
            def __init__(self, graph, shape_indices):
                self.graph = graph
                self.shape_indices = shape_indices

            def __call__(self, *args):
                if self.shape_indices:
                    return self.graph(args[self.shape_indices[0]])
                assert len(self.graph.entries) == 1, "expected one compiled entry"
                return self.graph(*args)
        """,
    "kern/ops/experts.py": """
        class Experts:
            def apply(self, hidden, weight_on_input=False):
                if weight_on_input:
                    raise NotImplementedError("Experts does not support weight_on_input=True.")
                return hidden

            def mix(self, hidden, weight_on_input=False):
                if weight_on_input:
                    raise ValueError("Experts cannot mix weight_on_input=True.")
                return hidden
        """,
    "kern/third_party/__init__.py": "",
    "kern/third_party/fmha.py": """
        def plan(query, causal=True):
            if not causal:
                raise NotImplementedError("only causal attention is planned")
            return query
        """,
    "kern/ops/plans.py": """
        def plan(query, causal=True):
            if not causal:
                raise NotImplementedError("only causal attention is built")
            return query
        """,
    "kern/tables.py": """
        from kern.state import MODES


        class Table:
            def __init__(self, name, schema=None):
                if MODES.strict:
                    assert schema is None
                self.name = name
                self.schema = schema

            def render(self):
                assert self.schema is None, "a schema is not rendered"
                return self.name
        """,
    "kern/_config.py": """
        from kern.state import MODES


        class Limits:
            def __init__(self, low=None, high=None):
                if MODES.strict:
                    assert high is None or low is None
                self.low = low
                self.high = high
        """,
    "kern/state.py": """
        class _Modes:
            strict = True


        MODES = _Modes()
        """,
}


# The same deep module in a package driven by the command it installs: its Python API is
# what its top package exports, not what a deep module lists.
CMD = {
    "pyproject.toml": """
        [project]
        name = "cmd"
        version = "1.0"
        [project.scripts]
        cmd = "cmd.cli:main"
        """,
    "cmd/__init__.py": "",
    "cmd/cli.py": """
        def main():
            pass
        """,
    "cmd/ops/__init__.py": "",
    "cmd/ops/sharded.py": KERN["kern/ops/sharded.py"],
    "cmd/ops/experts.py": KERN["kern/ops/experts.py"],
    "cmd/ops/runner.py": """
        class Runner:
            def __init__(self, server_cmd):
                self.server_cmd = server_cmd

            def reset(self):
                if "--disk-cache" in self.server_cmd:
                    raise NotImplementedError("the server cannot reset its disk cache")
        """,
    "cmd/ops/layer.py": """
        class Layer:
            def __init__(self, config):
                if config.cache_config.cache_dtype not in ("auto", "fp8"):
                    raise NotImplementedError("Layer needs an fp8 or automatic cache")
                if config.model_config.hf_config.tied:
                    raise NotImplementedError("Layer cannot tie its embeddings")
                self.config = config
        """,
    "cmd/serve/__init__.py": "",
    "cmd/serve/beam.py": """
        class BeamMixin:
            def beam_search(self, prompt, params):
                if prompt["type"] == "embeds":
                    raise NotImplementedError("Embedding prompt not supported for beam search")
                return prompt


        class Kernel:
            def apply(self, batch):
                if batch["type"] == "sparse":
                    raise NotImplementedError("Kernel does not support sparse batches")
                return batch
        """,
    "cmd/serve/completion.py": """
        from .beam import BeamMixin, Kernel


        class CompletionRequest:
            def __init__(self, prompt=None, prompt_embeds=None, use_beam_search=False):
                self.prompt = prompt
                self.prompt_embeds = prompt_embeds
                self.use_beam_search = use_beam_search


        class ServingCompletion(BeamMixin):
            def create_completion(self, request: CompletionRequest, raw_request=None):
                engine_input = self.render(request)
                if request.use_beam_search:
                    return self.beam_search(engine_input, None)
                return engine_input

            def render(self, request):
                if request.prompt_embeds is not None:
                    return {"type": "embeds", "embeds": request.prompt_embeds}
                if request.prompt is None:
                    raise ValueError("a prompt or prompt_embeds is required")
                return {"type": "text", "prompt": request.prompt}


        class Model:
            def forward(self, batch):
                if not batch:
                    raise ValueError("an empty batch")
                return Kernel().apply(batch)
        """,
}


@pytest.fixture(scope="module")
def kern(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kern"), "kern", KERN)


def test_an_assert_behind_the_programs_own_state_offers_no_argument(kern: Store) -> None:
    page = page_in_function(kern, "kern", "Layer.forward")
    # before: "Give the argument `carried` of `Layer.forward` a value (it is None here)."
    assert page.solutions == []
    assert page.example_fix is None
    assert "`self.is_first` is false" in page.what_it_means
    assert "errdex found no setting or argument a user passes behind that." in page.what_it_means
    # no evidence that only the program's own state decides it: not sent to the project
    assert "worth reporting" not in page.what_it_means
    assert "the traceback's frames above this one show which call led here" in page.what_it_means
    assert "the ways out below" not in page.what_it_means


def test_an_assert_on_an_internal_functions_argument_alone_offers_none(kern: Store) -> None:
    # `kern.ops.layers.Layer` is the package's own: what `count` is, its callers decide
    page = page_in_function(kern, "kern", "Layer.line")
    # before: "Pass the argument `count` of `Layer.line` at least `0`."
    assert page.solutions == []
    assert "`count` is less than `0`" in page.what_it_means
    # no evidence that only the program's own state decides it: not sent to the project
    assert "worth reporting" not in page.what_it_means
    assert "the traceback's frames above this one show which call led here" in page.what_it_means


def test_an_assert_of_a_class_near_the_packages_top_keeps_its_way_out(kern: Store) -> None:
    # `kern.tables.Table` is a user's own call: its `schema` is theirs
    page = page_in_function(kern, "kern", "Table.__init__")
    assert any("`schema`" in s.text for s in page.solutions)


def test_an_assert_of_a_private_module_handed_out_publicly_keeps_its_way_out(
    kern: Store,
) -> None:
    # `kern.Limits` is the user's own call: its arguments are theirs, as a `raise`'s are
    page = page_in_function(kern, "kern", "Limits.__init__")
    assert any("`Limits`" in s.text for s in page.solutions)


def test_a_path_on_an_internal_functions_argument_offers_none(kern: Store) -> None:
    # `if factor is not None:` leads to the check on the value its callers give
    page = page_in_function(kern, "kern", "Layer.scale")
    assert not any("`factor`" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_an_assert_of_a_class_a_librarys_deep_module_exports_keeps_its_way_out(
    kern: Store, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # `kern.ops.sharded` lists `Sharded` in its `__all__`: a library hands it to its users
    # at any depth, and they make it. Before: no solution (3 dots to the class)
    page = page_in_function(kern, "kern", "Sharded.__init__")
    assert any("`count` of `Sharded`" in s.text for s in page.solutions)
    # a method of it may be the package's own to call; the module's other class is its own
    assert page_in_function(kern, "kern", "Sharded.take").solutions == []
    assert page_in_function(kern, "kern", "Shard.__init__").solutions == []
    # a package driven by its command keeps the depth gate
    for store in indexed_package(tmp_path_factory.mktemp("cmd"), "cmd", CMD):
        assert page_in_function(store, "cmd", "Sharded.__init__").solutions == []


def test_an_assert_in_a_method_offers_no_keyword_of_an_internal_classs_constructor(
    kern: Store,
) -> None:
    # `kern.ops.backend.Backend` is the package's own: its objects are made with the values
    # the package computes, so its constructor's `shape_indices` is no user's to pass
    page = page_in_function(kern, "kern", "Backend.__call__")
    # not offered: "Pass a non-empty (true) value for the argument `shape_indices` of `Backend`."
    assert page.solutions == []
    assert "errdex found no setting or argument a user passes behind that." in page.what_it_means


def test_an_assert_in_a_method_of_a_users_class_keeps_its_constructors_keyword(
    kern: Store,
) -> None:
    # `kern.tables.Table` is a user's own call: the `schema` it was made with is theirs
    page = page_in_function(kern, "kern", "Table.render")
    assert any("`schema` of `Table`" in s.text for s in page.solutions)


def test_a_raise_in_code_copied_in_offers_none_of_its_arguments(kern: Store) -> None:
    # `kern/third_party/` is another project's code the package alone calls
    page = page_with_message(kern, "kern", "only causal attention is planned")
    # not offered: "Pass a non-empty (true) value for the argument `causal` of `plan`, or leave
    # it out (it is `True` by default)."
    assert page.solutions == []
    # the same raise in the package's own module keeps its way out
    page = page_with_message(kern, "kern", "only causal attention is built")
    assert any("`causal` of `plan`" in s.text for s in page.solutions)


def test_a_raise_of_an_invariants_class_in_an_internal_method_offers_no_argument(
    kern: Store, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # `NotImplementedError` says this implementation lacks what its caller asks; in a package
    # driven by its command, the caller is the package, on an object of a class it hands no
    # user
    for store in indexed_package(tmp_path_factory.mktemp("cmd"), "cmd", CMD):
        page = page_with_message(store, "cmd", "Experts does not support weight_on_input=True.")
        # not offered: "Pass an empty (false) value for the argument `weight_on_input` of
        # `Experts.apply`, or leave it out (it is `False` by default)."
        assert page.solutions == []
        # a refused value of another class keeps it
        page = page_with_message(store, "cmd", "Experts cannot mix weight_on_input=True.")
        assert any("`weight_on_input` of `Experts.mix`" in s.text for s in page.solutions)
        # the argument every caller hands on from the request a client sent (a handler
        # taking a `CompletionRequest`): what the client sent decides it
        page = page_with_message(store, "cmd", "Embedding prompt not supported")
        assert offered(page) == [
            "Pass the field `type` of the argument `prompt` of `BeamMixin.beam_search` other "
            "than `'embeds'`."
        ]
        # handed on by the package's own model: not offered
        page = page_with_message(store, "cmd", "Kernel does not support sparse batches")
        assert offered(page) == [] and checks(page)
    # a library's users hold its objects and call their methods: kept
    page = page_with_message(kern, "kern", "Experts does not support weight_on_input=True.")
    assert any("`weight_on_input` of `Experts.apply`" in s.text for s in page.solutions)


def test_an_invariants_raise_on_what_the_user_gave_handed_down_keeps_its_way_out(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # an option of the command line the user wrote, which the package hands its own object
    for store in indexed_package(tmp_path_factory.mktemp("cmd"), "cmd", CMD):
        page = page_with_message(store, "cmd", "the server cannot reset its disk cache")
        assert any("`'--disk-cache'` out of the argument" in s.text for s in page.solutions)
        # a field of a configuration the argument holds: the user's setting, handed down
        page = page_with_message(store, "cmd", "Layer needs an fp8 or automatic cache")
        assert any("`.cache_config.cache_dtype`" in s.text for s in page.solutions)
        # deeper is what a configuration read, not a setting: still nothing
        page = page_with_message(store, "cmd", "Layer cannot tie its embeddings")
        assert page.solutions == []


# A package driven by its command whose top package lists a deep class in its `__all__`,
# handed out through a lazy `__getattr__` over an alias module (as `vllm.LLMEngine`).
LAZY = {
    "pyproject.toml": """
        [project]
        name = "lazy"
        version = "1.0"
        [project.scripts]
        lazy = "lazy.cli:main"
        """,
    "lazy/__init__.py": """
        import importlib

        MODULE_ATTRS = {"Engine": ".engine:Engine"}

        __all__ = ["Engine"]


        def __getattr__(name):
            if name not in MODULE_ATTRS:
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            module, _, attr = MODULE_ATTRS[name].partition(":")
            return getattr(importlib.import_module(module, __name__), attr)
        """,
    "lazy/cli.py": """
        def main():
            pass
        """,
    "lazy/engine.py": """
        from lazy.core.engine.runner import Engine as CoreEngine

        Engine = CoreEngine
        """,
    "lazy/core/__init__.py": "",
    "lazy/core/engine/__init__.py": "",
    "lazy/core/engine/runner.py": """
        class Engine:
            def __init__(self, config, log_stats=False):
                self.config = config
                self.log_stats = log_stats

            def get_metrics(self):
                assert self.log_stats, "Stat logging disabled"
                return []


        class Scheduler:
            def __init__(self, config, log_stats=False):
                self.config = config
                self.log_stats = log_stats

            def get_metrics(self):
                assert self.log_stats, "Scheduler stats disabled"
                return []
        """,
}


def test_an_assert_in_a_method_of_a_class_the_top_package_lists_keeps_its_keyword(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    for store in indexed_package(tmp_path_factory.mktemp("lazy"), "lazy", LAZY):
        # `lazy.Engine` is the user's own (the top package's `__all__` names it), though its
        # class lives four dots down. Before: no solution
        page = page_in_function(store, "lazy", "Engine.get_metrics")
        assert any("`log_stats` of `Engine`" in s.text for s in page.solutions)
        # the same assert of a class the top package does not list offers none
        assert page_in_function(store, "lazy", "Scheduler.get_metrics").solutions == []
