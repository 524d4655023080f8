"""Settings a site's parameter is given by its callers (`link.passed`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import Condition, ConditionKind
from errdex.link import link_version
from errdex.link.passed import ParsedTests, _decided
from errdex.linked_facts import IndexedSite, KnobLink
from samples import BACKEND_ARGS, MODEL_FOLDER

# vllm's shape: a platform object chosen at run time (`current_platform`, imported inside
# the function) whose method raises on the backend a setting chose, passed through a
# cached helper that gives it on as it is.
PLATFORMS = {
    "eng/args.py": BACKEND_ARGS,
    "eng/platforms/interface.py": """
        class Platform:
            def get_backend_cls(self, selected_backend, config, num_heads=None):
                return None
        """,
    "eng/platforms/rocm.py": """
        from eng.platforms.interface import Platform

        class RocmPlatform(Platform):
            def get_backend_cls(self, selected_backend, config, num_heads=None):
                reasons = check(config)
                if selected_backend is not None and reasons:
                    raise ValueError(f"Selected backend {selected_backend} is not valid")
                return "x"
        """,
    "eng/platforms/cuda.py": """
        from eng.platforms.interface import Platform

        class CudaPlatform(Platform):
            def get_backend_cls(self, selected_backend, config, num_heads=None):
                return "y"
        """,
    "eng/selector.py": """
        def get_backend(config, attention_config, num_heads):
            backend = attention_config.backend
            return _cached_get_backend(backend=backend, config=config)

        def _cached_get_backend(backend, config):
            from eng.platforms import current_platform

            cls = current_platform.get_backend_cls(backend, config=config)
            if not cls:
                raise ValueError("no backend")
            return cls
        """,
}


def link(files: dict[str, str]) -> dict[str, IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    sites = link_version("demo", facts)
    return {s.site.message.text: s for s in sites if s.site.message is not None}


def test_a_parameter_passed_on_from_a_config_field_is_that_flag() -> None:
    site = link(PLATFORMS)["Selected backend {selected_backend} is not valid"]
    knobs = {k.name: k for k in site.knobs if k.behind == "selected_backend"}
    # the plain flag whose field defaults to the config's, and the field of the JSON flag
    assert sorted(knobs) == ["--attention-backend", "--attention-config"]
    assert knobs["--attention-backend"].json_key is None
    knob = knobs["--attention-config"]
    assert knob.json_key == "backend"
    # it says through which functions the value arrives, nearest first
    assert knob.passed_by == ("_cached_get_backend", "get_backend")
    assert "_cached_get_backend" in (knob.via or "")
    assert "get_backend" in (knob.via or "")


def test_a_caller_giving_something_no_setting_decides_links_nothing() -> None:
    files = dict(PLATFORMS)
    files["eng/other.py"] = """
        from eng.selector import _cached_get_backend

        def pick(config, chosen):
            name = chosen.strip()
            return _cached_get_backend(backend=name, config=config)
        """
    site = link(files)["Selected backend {selected_backend} is not valid"]
    assert "selected_backend" not in {k.behind for k in site.knobs}


def test_a_method_other_classes_define_apart_is_no_call_of_it() -> None:
    # `get_backend_cls` also defined by a class outside the platforms' family: the object
    # the call is made on may be any of them, and nothing says which
    files = dict(PLATFORMS)
    files["eng/registry.py"] = """
        class Registry:
            def get_backend_cls(self, selected_backend, config, num_heads=None):
                return None
        """
    site = link(files)["Selected backend {selected_backend} is not valid"]
    assert "selected_backend" not in {k.behind for k in site.knobs}


# A helper taking a limit its caller reads from a configuration object.
SPLIT = """
    def _split(items, size):
        if len(items) > size:
            raise ValueError("too many items for one batch")
        return [items]
    """


def split_knobs(run: str) -> dict[str, KnobLink]:
    """The knobs behind the helper's raise, its caller written as `run`."""
    files = {
        "eng/args.py": BACKEND_ARGS,
        "eng/batch.py": textwrap.dedent(run) + textwrap.dedent(SPLIT),
    }
    return {k.behind: k for k in link(files)["too many items for one batch"].knobs}


def test_a_plain_flag_given_through_a_helper_is_that_flag() -> None:
    knob = split_knobs(
        """
        def run(scheduler_config, items):
            return _split(items, scheduler_config.max_batch)
        """
    )["size"]
    assert knob.name == "--max-batch"
    assert knob.json_key is None
    assert "`run`" in (knob.via or "")


def test_a_field_of_an_object_no_class_declares_is_no_flag() -> None:
    # a checkpoint's `config.max_batch` is no `SchedulerConfig`: `--max-batch` does not set it
    run = """
        def run(config, items):
            return _split(items, config.max_batch)
        """
    assert "size" not in split_knobs(run)


def test_a_call_giving_a_literal_or_unpacked_arguments_links_nothing() -> None:
    for call in ("_split(items, 4)", "_split(items, *sizes)", "_split(items, **sizes)"):
        run = f"""
            def run(scheduler_config, items, sizes):
                _split(items, scheduler_config.max_batch)
                return {call}
            """
        assert "size" not in split_knobs(run), call


def test_extraction_records_the_names_a_call_passes() -> None:
    facts = extract_file("eng/selector.py", textwrap.dedent(PLATFORMS["eng/selector.py"]).encode())
    calls = {c.callee: c for c in facts.call_sites}
    # a local is recorded as what it surely holds; a parameter by its position
    assert ("backend", "attention_config.backend", -1) in calls["_cached_get_backend"].passes
    assert ("0", "backend", 0) in calls["get_backend_cls"].passes
    assert ("config", "config", 1) in calls["get_backend_cls"].passes


def test_a_parameter_compared_with_the_programs_own_state_links_nothing() -> None:
    # the setting gives `size`, but whether the test holds is the object's own doing
    files = {
        "eng/args.py": BACKEND_ARGS,
        "eng/batch.py": """
            def run(scheduler_config, pool):
                return _check(pool, scheduler_config.max_batch)

            def _check(pool, size):
                if pool.indices.numel() != size:
                    raise RuntimeError("pool does not match max_batch")
            """,
    }
    knobs = link(files)["pool does not match max_batch"].knobs
    assert "size" not in {k.behind for k in knobs}


def test_extraction_records_a_value_that_is_no_name_as_given() -> None:
    run = "def run(items):\n    return _split(items, 4)\n"
    facts = extract_file("eng/batch.py", (run + textwrap.dedent(SPLIT)).encode())
    # given, with nothing to follow: the linker must not take the default for it
    (call,) = [c for c in facts.call_sites if c.callee == "_split"]
    assert ("1", "", -1) in call.passes


def test_a_config_class_passing_its_own_field_gives_that_flag() -> None:
    # `SchedulerConfig` declares `max_batch`: `self.max_batch` read in it is the flag
    files = {
        "eng/args.py": BACKEND_ARGS,
        "eng/sched.py": """
            from eng.batch import _split

            class SchedulerConfig:
                def check(self, items):
                    return _split(items, self.max_batch)
            """,
        "eng/batch.py": textwrap.dedent(SPLIT),
    }
    sites = link(files)
    knob = {k.behind: k for k in sites["too many items for one batch"].knobs}["size"]
    assert knob.name == "--max-batch"
    assert knob.passed_by == ("SchedulerConfig.check",)


def validated(mode: str, check: str, message: str) -> tuple[KnobLink, ...]:
    """The knobs behind a validator of `AttentionConfig.backend` that raises `message`
    when `check` holds."""
    files = {
        "eng/args.py": BACKEND_ARGS,
        "eng/config.py": f"""
            from pydantic import field_validator

            class AttentionConfig:
                @field_validator("backend", mode="{mode}")
                @classmethod
                def _check_backend(cls, backend):
                    if {check}:
                        raise ValueError("{message}")
                    return backend
            """,
    }
    return link(files)[message].knobs


def test_the_value_a_field_validator_checks_is_the_flag_defaulting_to_that_field() -> None:
    # `EngineArgs.attention_backend` defaults to `AttentionConfig.backend`: the value
    # pydantic hands the validator of `backend` is what `--attention-backend` gives
    knobs = validated("after", 'backend not in ("FLASH", "TRITON")', "Invalid backend")
    assert [(k.name, k.behind) for k in knobs] == [("--attention-backend", "backend")]
    assert "_check_backend" in (knobs[0].via or "")


def test_a_validator_testing_its_values_type_links_no_flag() -> None:
    # what the command line hands the validator is a string: its type is no choice
    check = 'isinstance(backend, str) and backend.upper() == "OLD"'
    assert not validated("before", check, "The OLD backend was removed")


TOKENIZER_MISSING = "Audio tokenizer not found at {tokenizer_path}"


def test_the_folder_a_path_is_looked_for_in_is_the_flag_naming_it() -> None:
    # `model_path` is only tested for truth and as the folder of a path tested for being
    # there: `--model` (never empty) decides where the path is looked for
    (knob,) = link(MODEL_FOLDER)[TOKENIZER_MISSING].knobs
    assert (knob.name, knob.behind) == ("--model", "model_path")
    assert knob.passed_by == ("OmniModel.__init__",)


def test_a_path_computed_otherwise_from_the_folder_links_nothing() -> None:
    files = dict(MODEL_FOLDER)
    files["eng/encoder.py"] = files["eng/encoder.py"].replace(
        'os.path.join(model_path, "audio_tokenizer")', "os.path.join(model_path, self.name)"
    )
    computed = link(files)[TOKENIZER_MISSING].knobs
    assert computed == () != link(MODEL_FOLDER)[TOKENIZER_MISSING].knobs


def test_a_path_joined_outside_the_folder_links_nothing() -> None:
    # `os.path.join(model_path, "/opt/tok")` is `/opt/tok`: the folder is dropped; `..`
    # looks beside the folder, not in it
    for part in ('"/opt/audio_tokenizer"', '"..", "audio_tokenizer"', '"../audio_tokenizer"'):
        files = dict(MODEL_FOLDER)
        files["eng/encoder.py"] = files["eng/encoder.py"].replace('"audio_tokenizer"', part)
        assert part in files["eng/encoder.py"]
        assert link(files)[TOKENIZER_MISSING].knobs == (), part


def test_a_truth_test_of_a_never_empty_setting_beside_a_comparison_decides_nothing() -> None:
    # `if model_path:` holds for every value `--model` (never empty) gives: the setting
    # decides such a check only where it names the folder of a path tested, so the
    # comparison beside it does not make the check the setting's; a setting that can be
    # empty decides its truth test
    def decided(*tests: str, may_be_false: bool) -> bool:
        conditions = [
            Condition(test=t, kind=ConditionKind.IF, holds=True, line=line)
            for line, t in enumerate(tests, 2)
        ]
        return _decided(ParsedTests(conditions), "model_path", may_be_false)

    assert decided('model_path == "auto"', may_be_false=False)
    assert not decided("model_path", 'model_path == "auto"', may_be_false=False)
    assert decided("model_path", 'model_path == "auto"', may_be_false=True)
