"""A Python call's example fix reaches the check as written: its "before" gives every
argument the path's conditions read, a class method is called on its class, a check in
another method than the constructor is reached by calling that method; where no line a
user writes reaches it (a step the package runs itself, a validator a framework calls, the
code of a package driven by its command) no fix is drawn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.explain import build_page
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import ExampleFix, Page
from errdex.store import Store
from samples import indexed_store

KIT = {
    "pyproject.toml": """
        [project]
        name = "kit"
        version = "1.0"
        """,
    "kit/__init__.py": """
        from ._jar import Jar
        from ._engine import M2NEngine
        from ._pool import Pool, Layer
        from ._sets import BoundedSet
        from .models import make_model
        from ._box import Box
        from ._rack import Slot, Rack
        """,
    "kit/_rack.py": """
        class Slot:
            def __init__(self, size, timeout=None):
                self.timeout = timeout

            def fill(self):
                if self.timeout is not None:
                    raise ValueError("slots take no timeout")


        class Rack(Slot):
            def __init__(self):
                super().__init__(4)
                self.fill()
        """,
    "kit/_box.py": """
        class Box:
            def clear(self, domain=None, path=None):
                if not path:
                    return
                assert domain is not None
        """,
    "kit/_jar.py": """
        class Jar:
            def clear(self, domain=None, path=None):
                if path is not None:
                    assert domain is not None
        """,
    "kit/models.py": """
        def make_model(name, *, config=None, base=None, mode="fast", workers=1):
            if base is not None:
                if config is not None:
                    raise TypeError("config and base cannot be used together")
            if mode == "slow":
                if workers > 4:
                    raise ValueError("a slow model takes at most 4 workers")
        """,
    "kit/_engine.py": """
        class M2NEngine:
            @classmethod
            def trainer_init(cls, info, client, source=None):
                if source is None:
                    raise ValueError("trainer needs a weight source")
                return cls()
        """,
    "kit/_pool.py": """
        class Pool:
            def __init__(self, size, timeout=None):
                self.timeout = timeout

            def acquire(self):
                if self.timeout is not None:
                    raise ValueError("pool timeouts are not supported")


        class Layer:
            def __init__(self, width, cache=None):
                self.cache = cache

            def forward(self, x):
                return self.step(x)

            def step(self, x):
                if self.cache is None:
                    raise ValueError("the layer has no cache to step with")
                return x
        """,
    "kit/_sets.py": """
        class BoundedSet(frozenset):
            max_items = 3

            @classmethod
            def __get_validators__(cls):
                yield cls.length_validator

            @classmethod
            def length_validator(cls, v, strict=None):
                if strict is not None:
                    raise ValueError("the set has too many items")
                return v
        """,
}

SRV = {
    "pyproject.toml": """
        [project]
        name = "srv"
        version = "1.0"
        [project.scripts]
        srv = "srv.cli:main"
        """,
    "srv/__init__.py": """
        from srv.api import Api
        from srv.tools import *
        from srv import plans

        __all__ = ["Api", "Tool", "plans"]


        def __getattr__(name):
            raise AttributeError(f"module srv has no attribute {name}")
        """,
    "srv/cli.py": """
        def main():
            pass
        """,
    "srv/api.py": """
        class Api:
            def __init__(self, model, eager=None):
                if eager is not None:
                    raise ValueError("the api has no eager mode")
        """,
    "srv/tools.py": """
        __all__ = ["Tool"]


        class Tool:
            def __init__(self, name, eager=None):
                if eager is not None:
                    raise ValueError("the tool has no eager mode")


        class Helper:
            def __init__(self, name, eager=None):
                if eager is not None:
                    raise ValueError("the helper has no eager mode")
        """,
    "srv/plans.py": """
        class Plan:
            def __init__(self, name, eager=None):
                if eager is not None:
                    raise ValueError("the plan has no eager mode")
        """,
    "srv/layers/mixer.py": """
        class Mixer:
            def __init__(self, width, eager=None):
                if eager is not None:
                    raise ValueError("the mixer has no eager mode")
        """,
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = indexed_store(tmp_path_factory.mktemp("kit"), "kit", {"1.0": KIT})
    try:
        yield store
    finally:
        store.close()


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = indexed_store(tmp_path_factory.mktemp("srv"), "srv", {"1.0": SRV})
    try:
        yield store
    finally:
        store.close()


def page_of(store: Store, project: str, message: str) -> Page:
    """The page of the site whose message starts with `message` (or in the file named)."""
    (site,) = [
        s
        for s in store.list_sites(project)
        if (s.site.message is not None and s.site.message.text.startswith(message))
        or (s.site.message is None and s.file.endswith(message))
    ]
    return build_page(store, site.id)


def fix_of(page: Page) -> ExampleFix:
    assert page.example_fix is not None, [s.text for s in page.solutions]
    return page.example_fix


def test_the_before_gives_the_argument_an_assert_runs_under(kit: Store) -> None:
    fix = fix_of(page_of(kit, "kit", "_jar.py"))
    assert fix.before == "jar.clear(path=PATH)"
    assert fix.after == "jar.clear(path=PATH, domain=DOMAIN)"


def test_the_before_gives_the_argument_an_early_exit_of_its_default_tests(kit: Store) -> None:
    # `if not path: return`: left out, `path` takes the exit and the assert never runs
    fix = fix_of(page_of(kit, "kit", "_box.py"))
    assert fix.before == "box.clear(path=PATH)"
    assert fix.after == "box.clear(path=PATH, domain=DOMAIN)"


def test_the_before_gives_the_argument_the_check_is_nested_under(kit: Store) -> None:
    fix = fix_of(page_of(kit, "kit", "config and base"))
    assert fix.before.endswith("make_model(name=NAME, base=BASE, config=CONFIG)")
    assert fix.after.endswith("make_model(name=NAME, base=BASE)")


def test_a_literal_the_path_compares_is_given_as_that_literal(kit: Store) -> None:
    fix = fix_of(page_of(kit, "kit", "a slow model"))
    assert fix.before.endswith("make_model(name=NAME, mode='slow', workers=WORKERS)")
    assert fix.after.endswith("make_model(name=NAME, mode='slow', workers=4)")


def test_a_class_method_is_called_on_its_class(kit: Store) -> None:
    fix = fix_of(page_of(kit, "kit", "trainer needs"))
    assert (
        fix.before == "from kit import M2NEngine\nM2NEngine.trainer_init(info=INFO, client=CLIENT)"
    )
    assert fix.after.endswith("M2NEngine.trainer_init(info=INFO, client=CLIENT, source=SOURCE)")
    assert "m2_n" not in (fix.note or "")


def test_an_objects_name_keeps_the_words_of_its_class() -> None:
    assert instance_name("M2NTrainerWeightTransferEngine") == "m2n_trainer_weight_transfer_engine"
    assert instance_name("LRUCacheWorkerLoRAManager") == "lru_cache_worker_lora_manager"
    assert instance_name("Step5RMSNorm") == "step5_rms_norm"
    assert instance_name("BaseModel") == "base_model"
    # a two-letter word before an acronym is a word of its own
    assert instance_name("MyAPI") == "my_api"
    assert instance_name("NoGPUError") == "no_gpu_error"
    assert instance_name("FusedMoEConfig") == "fused_moe_config"


def test_a_constructor_keyword_checked_by_a_method_calls_that_method(kit: Store) -> None:
    fix = fix_of(page_of(kit, "kit", "pool timeouts"))
    assert (
        fix.before
        == "from kit import Pool\npool = Pool(size=SIZE, timeout=TIMEOUT)\npool.acquire()"
    )
    assert fix.after == "from kit import Pool\npool = Pool(size=SIZE)\npool.acquire()"


def test_no_fix_for_a_check_in_a_step_the_package_runs_itself(kit: Store) -> None:
    page = page_of(kit, "kit", "the layer has no cache")
    assert page.solutions  # the way out is still said
    assert page.example_fix is None


def test_a_subclass_constructor_calling_the_method_is_none_of_its_class(kit: Store) -> None:
    # `Rack.__init__` calls `self.fill()`: `Slot(...)` alone never runs the check
    page = page_of(kit, "kit", "slots take no timeout")
    assert page.example_fix is None or "fill()" in page.example_fix.before


def test_no_fix_calls_a_validator_a_framework_runs(kit: Store) -> None:
    page = page_of(kit, "kit", "the set has too many")
    assert all(s.fix is None for s in page.solutions)
    assert page.example_fix is None


def test_a_package_driven_by_its_command_keeps_only_its_exported_calls(srv: Store) -> None:
    kept = fix_of(page_of(srv, "srv", "the api has no eager"))
    assert kept.after == "from srv import Api\nApi(model=MODEL)"
    page = page_of(srv, "srv", "the mixer has no eager")
    assert page.solutions
    assert page.example_fix is None


def test_a_module_the_top_package_exports_whole_or_starred_keeps_its_calls(srv: Store) -> None:
    # `from srv.tools import *` (its `__all__`: `Tool`) and `from srv import plans`
    tool = fix_of(page_of(srv, "srv", "the tool has no eager"))
    assert tool.after == "from srv import Tool\nTool(name=NAME)"
    plan = fix_of(page_of(srv, "srv", "the plan has no eager"))
    assert plan.after == "from srv.plans import Plan\nPlan(name=NAME)"
    assert page_of(srv, "srv", "the helper has no eager").example_fix is None
