"""Callers with their guards, knobs behind conditions, and tests that expect an error."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.skeleton import MIN_SKELETON_BYTES
from errdex.link import link_version
from errdex.linked_facts import IndexedSite
from samples import QUIET_FUNCTIONS


def link(files: dict[str, str], project: str = "demo") -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version(project, facts)


def by_message(sites: list[IndexedSite]) -> dict[str, IndexedSite]:
    return {s.site.message.text: s for s in sites if s.site.message is not None}


# The shape of vllm's envs.py, VllmConfig (vllm/config/vllm.py) and EngineArgs.
ENGINE = {
    "eng/envs.py": """
        import os
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            ENG_USE_V2: bool | None = None
            ENG_CACHE: str = "~/.cache"

        environment_variables = {
            "ENG_USE_V2": lambda: maybe_convert_bool(os.getenv("ENG_USE_V2", None)),
            "ENG_CACHE": lambda: os.path.expanduser(os.getenv("ENG_CACHE", "~/.cache")),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "eng/config.py": """
        from eng import envs

        class Config:
            def __post_init__(self):
                if self.model_config is None:
                    return
                if self.use_v2:
                    self._validate_v2()
                else:
                    self._validate_v1()

            @property
            def use_v2(self) -> bool:
                if self.sparse is not None:
                    if envs.ENG_USE_V2 is False:
                        raise ValueError("Sparse requires V2; remove ENG_USE_V2=0.")
                    return True
                use_v2 = envs.ENG_USE_V2
                if use_v2 is not None:
                    return use_v2
                return False

            def _validate_v1(self):
                unsupported = []
                if self.model_config.enforce_eager:
                    unsupported.append("eager mode")
                if unsupported:
                    raise ValueError(f"V1 does not support: {', '.join(unsupported)}")

            def _validate_v2(self):
                pass
        """,
    "eng/args.py": """
        import argparse
        from dataclasses import dataclass

        from eng.config import Config

        @dataclass
        class EngineArgs:
            enforce_eager: bool = False
            max_model_len: int | None = None

            def add_cli_args(parser):
                parser.add_argument("--enforce-eager", action="store_true")
                return parser

            def create_config(self):
                if self.max_model_len is not None and self.max_model_len < 16:
                    raise ValueError("max_model_len is too small")
                return Config()
        """,
}


def test_a_caller_is_found_with_the_guard_of_its_call() -> None:
    site = by_message(link(ENGINE))["V1 does not support: {', '.join(unsupported)}"]
    direct = [c for c in site.caller_links if c.depth == 1]
    assert [(c.function, c.file, c.line) for c in direct] == [
        ("Config.__post_init__", "eng/config.py", 11)
    ]
    assert [(c.statement, str(c.kind)) for c in direct[0].guard] == [
        ("self.model_config is not None", "early_exit"),
        ("not self.use_v2", "else"),
    ]
    assert site.callers == ("eng.config.Config.__post_init__",)


def test_callers_go_up_through_constructors_to_other_modules() -> None:
    site = by_message(link(ENGINE))["V1 does not support: {', '.join(unsupported)}"]
    assert [(c.function, c.depth, c.calls) for c in site.caller_links] == [
        ("Config.__post_init__", 1, "eng.config.Config._validate_v1"),
        ("EngineArgs.create_config", 2, "eng.config.Config.__post_init__"),
    ]


def test_a_module_of_env_getters_makes_its_attributes_env_knobs() -> None:
    site = by_message(link(ENGINE))["Sparse requires V2; remove ENG_USE_V2=0."]
    (knob,) = site.knobs
    assert (knob.name, knob.kind, knob.behind, knob.file, knob.value_type) == (
        "ENG_USE_V2",
        "env",
        "envs.ENG_USE_V2",
        "eng/envs.py",
        "bool | None",
    )
    assert knob.same_value
    # the TYPE_CHECKING default is not what the variable holds at run time
    assert site.site.bindings == ()


def test_a_property_that_returns_an_env_var_puts_it_behind_self_attribute() -> None:
    site = by_message(link(ENGINE))["V1 does not support: {', '.join(unsupported)}"]
    knobs = {k.behind: k for k in site.knobs}
    through = knobs["self.use_v2"]
    assert through.name == "ENG_USE_V2"
    assert through.via is not None and through.via.startswith("property Config.use_v2")
    assert through.same_value  # `use_v2 = envs.ENG_USE_V2 ... return use_v2`


def test_argparse_flags_and_args_fields_are_flag_knobs() -> None:
    sites = by_message(link(ENGINE))
    reasons = sites["V1 does not support: {', '.join(unsupported)}"]
    flag = {k.behind: k for k in reasons.knobs}["self.model_config.enforce_eager"]
    assert (flag.name, flag.kind, flag.file, flag.line) == (
        "--enforce-eager",
        "flag",
        "eng/args.py",
        13,
    )
    field = {k.behind: k for k in sites["max_model_len is too small"].knobs}
    assert field["self.max_model_len"].name == "--max-model-len"
    assert field["self.max_model_len"].value_type == "int | None"


def test_env_reads_in_a_condition_or_its_local_are_knobs() -> None:
    sites = by_message(
        link(
            {
                "app/run.py": """
                import os

                def start():
                    if os.environ.get("APP_MODE") == "fork":
                        raise RuntimeError("fork mode is gone")
                    workers = os.getenv("APP_WORKERS")
                    if workers is None:
                        raise RuntimeError("set the number of workers")
                """
            }
        )
    )
    (direct,) = sites["fork mode is gone"].knobs
    assert (direct.name, direct.behind) == ("APP_MODE", "os.environ.get('APP_MODE')")
    # the early exit before it holds on the way too
    assert [(k.name, k.behind, k.same_value) for k in sites["set the number of workers"].knobs] == [
        ("APP_MODE", "os.environ.get('APP_MODE')", True),
        ("APP_WORKERS", "workers", True),
    ]


def test_names_that_only_look_like_flags_are_not_knobs() -> None:
    sites = by_message(
        link(
            {
                "lib/args.py": """
                import argparse
                def cli(parser):
                    parser.add_argument("--batch-size")
                """,
                "lib/model.py": """
                def run(model, batch):
                    if model.batch_size > 8:
                        raise ValueError("batch too big for this model")
                """,
            }
        )
    )
    assert sites["batch too big for this model"].knobs == ()  # `model` is not a config


def test_facts_of_blanked_functions_survive_the_skeleton() -> None:
    padding = "".join(f"\ndef filler_{i}(x):\n    y = x + {i}\n    return y\n" for i in range(400))
    text = (
        "import os\n\nclass Settings:\n"
        "    @property\n"
        "    def turbo(self):\n"
        "        return os.environ.get('TURBO')\n"
        "\n    def check(self):\n"
        "        if self.turbo:\n"
        "            raise ValueError('turbo is not allowed')\n" + padding
    )
    assert len(text) > MIN_SKELETON_BYTES
    (site,) = [s for s in link({"big/settings.py": text}) if s.site.message]
    (knob,) = site.knobs
    assert (knob.name, knob.behind) == ("TURBO", "self.turbo")


def test_tests_that_expect_the_message_are_linked() -> None:
    sites = by_message(
        link(
            {
                "shop/cart.py": """
                def add(count):
                    if count <= 0:
                        raise ValueError(f"count must be positive, got {count}")
                """,
                "tests/test_cart.py": """
                import pytest
                from shop.cart import add

                def test_zero():
                    with pytest.raises(ValueError, match="must be positive"):
                        add(0)

                def test_other():
                    with pytest.raises(ValueError, match="no such text"):
                        add(1)

                def test_regex():
                    with pytest.raises(ValueError, match=r"count must be \\w+, got"):
                        add(-1)

                def test_bad_regex():
                    with pytest.raises(ValueError, match="must be positive ("):
                        add(-2)
                """,
            }
        )
    )
    # A plain pattern is a substring test, the others regex searches; a bad regex links none.
    plain, pattern = sites["count must be positive, got {count}"].tests
    assert (plain.file, plain.line, plain.function, plain.match) == (
        "tests/test_cart.py",
        6,
        "test_zero",
        "must be positive",
    )
    assert (pattern.function, pattern.match) == ("test_regex", r"count must be \w+, got")


def test_a_local_assigned_in_another_branch_is_not_what_the_site_sees() -> None:
    # vllm/config/speculative.py: `if size is None: size = target.tp ... elif size not in ...`
    sites = by_message(
        link(
            {
                "spec/config.py": """
                def verify(size, target):
                    if size is None:
                        size = target.tensor_parallel_size
                    elif size not in (1, target.tensor_parallel_size):
                        raise ValueError(f"size {size} must be 1 or the target's size")
                """
            }
        )
    )
    site = sites["size {size} must be 1 or the target's size"]
    assert site.site.bindings == ()
    assert site.knobs == ()


def test_a_caller_whose_body_the_skeleton_blanked_is_still_a_caller() -> None:
    filler = QUIET_FUNCTIONS
    server = filler + textwrap.dedent(
        """
        from srv.config import load_config


        def serve(path):
            config = load_config(path)
            return config


        def serve_checked(path):
            if path is None:
                return None
            return load_config(path)
        """
    )
    assert len(server) > MIN_SKELETON_BYTES
    sites = link(
        {
            "srv/config.py": """
            def load_config(path):
                if not path.endswith(".toml"):
                    raise ValueError(f"not a TOML file: {path}")
                return path
            """,
            "srv/server.py": server,
        }
    )
    site = by_message(sites)["not a TOML file: {path}"]
    assert site.callers == ("srv.server.serve", "srv.server.serve_checked")
    straight, branched = site.caller_links
    # Read from the text: the first call comes before any branch, so it has no condition;
    # the second comes after one, and its guard is unknown rather than empty.
    assert (straight.guard, straight.guard_known) == ((), True)
    assert (branched.guard, branched.guard_known) == ((), False)


def test_the_checks_own_setting_comes_before_an_earlier_exits() -> None:
    # Two names with knobs: the one the raise's own `if` tests is listed first, the one of
    # the early exit above it after (past the cap, the exit's would be the one dropped).
    sites = by_message(
        link(
            {
                "pkg/run.py": """
                import os

                FAST = os.getenv("PKG_FAST_PATH")
                STRICT = os.getenv("PKG_STRICT_MODE")

                def run(x):
                    if FAST:
                        return x
                    if STRICT:
                        raise ValueError("strict mode refuses this input")
                    return x
                """
            }
        )
    )
    knobs = sites["strict mode refuses this input"].knobs
    assert [(k.name, k.behind) for k in knobs] == [
        ("PKG_STRICT_MODE", "STRICT"),
        ("PKG_FAST_PATH", "FAST"),
    ]


def test_one_setting_behind_a_check_is_found_whatever_the_order() -> None:
    sites = by_message(
        link(
            {
                "pkg/run.py": """
                import os

                STRICT = os.getenv("PKG_STRICT_MODE")

                def run(x, fast):
                    if fast:
                        return x
                    if STRICT:
                        raise ValueError("strict mode refuses this input")
                    return x
                """
            }
        )
    )
    knobs = sites["strict mode refuses this input"].knobs
    assert [(k.name, k.behind) for k in knobs] == [("PKG_STRICT_MODE", "STRICT")]
