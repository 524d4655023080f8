"""A setting that guards every call of the site's function is a way out: turning it off
avoids the check, and the feature with it. Not when some caller reaches it unguarded."""

from __future__ import annotations

import textwrap
from pathlib import Path

from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.caller_guards import _other_value
from errdex.explain.page import Page
from samples import COMM_ENVS as ENVS
from samples import DRAFT_ARGS, DRAFT_CONFIG, TUNED_BELOW

# vllm's SymmMemCommunicator (device_communicators/symm_mem.py) and CudaCommunicator
SYMM = """
    import logging

    logger = logging.getLogger(__name__)

    class SymmCommunicator:
        def __init__(self, group, capability):
            self.disabled = True
            if capability is None:
                logger.warning("SymmCommunicator: device capability is unknown.")
                return
            self.disabled = False
    """

CUDA = """
    import comm.envs as envs

    class CudaCommunicator:
        def __init__(self, group, capability, unique_name):
            if unique_name != "tp":
                use_symm = False
            else:
                use_symm = envs.COMM_USE_SYMM
            from .symm import SymmCommunicator

            self.symm_comm = None
            if use_symm and group is not None:
                self.symm_comm = SymmCommunicator(group, capability)
    """

# a second caller that builds it whatever the setting says
UNGUARDED = """
    from comm.symm import SymmCommunicator

    def probe(group, capability):
        return SymmCommunicator(group, capability)
    """


def symm_page(tmp_path: Path, files: dict[str, str]) -> Page:
    package = {"comm/__init__.py": "", "comm/envs.py": ENVS, "comm/symm.py": SYMM}
    package.update(files)
    for store in indexed_package(tmp_path, "comm", package):
        return page_with_message(store, "comm", "SymmCommunicator: device capability")
    raise AssertionError("no store")


def symm_solutions(tmp_path: Path, files: dict[str, str]) -> list[str]:
    return [s.text for s in symm_page(tmp_path, files).solutions]


def test_the_setting_every_caller_needs_on_is_turned_off(tmp_path: Path) -> None:
    texts = symm_solutions(tmp_path, {"comm/cuda.py": CUDA})
    assert texts[0] == (
        "Set `COMM_USE_SYMM=0` (`CudaCommunicator.__init__` calls `SymmCommunicator.__init__`"
        " only when `use_symm`, so the check runs only when `COMM_USE_SYMM` is on: turning it"
        " off avoids it, and the feature with it)."
    )


# raised (a log record needs nothing done, and says so instead), and also under state of its
# own module that no setting decides
PROBED = (
    SYMM.replace(
        "    class SymmCommunicator:",
        "    def _probe():\n        return None\n\n    CAPS = _probe()\n\n"
        "    class SymmCommunicator:",
    )
    .replace(
        "            if capability is None:\n                logger.warning(",
        "            if CAPS is None:\n                if capability is None:\n"
        "                    raise RuntimeError(",
    )
    .replace('unknown.")\n                return', 'unknown.")')
)


def test_what_it_means_does_not_deny_the_setting_the_solutions_give(tmp_path: Path) -> None:
    guarded = symm_page(tmp_path / "guarded", {"comm/cuda.py": CUDA, "comm/symm.py": PROBED})
    assert guarded.solutions, guarded.what_it_means
    guarded_text = guarded.what_it_means
    assert "behind that; the ways out below avoid the check another way." in guarded_text
    # the site's own argument is no setting: without its caller's guard, no such clause
    alone = symm_page(tmp_path / "alone", {"comm/symm.py": PROBED})
    assert "errdex found no setting behind that" in alone.what_it_means
    assert ("another way" in alone.what_it_means) == bool(alone.solutions)


def test_no_setting_when_another_caller_reaches_the_function_unguarded(tmp_path: Path) -> None:
    texts = symm_solutions(tmp_path, {"comm/cuda.py": CUDA, "comm/probe.py": UNGUARDED})
    assert not any("COMM_USE_SYMM" in t for t in texts), texts


def test_no_mode_turned_on_to_keep_a_conjunct_of_the_guard_off(tmp_path: Path) -> None:
    # vllm's QuickAllReduce: built only `... and not envs.VLLM_BATCH_INVARIANT`; turning
    # batch-invariant mode on to skip it trades the feature for a mode of its own
    cuda = CUDA.replace(
        "if use_symm and group is not None:",
        "if group is not None and not envs.COMM_DETERMINISTIC:",
    )
    texts = symm_solutions(tmp_path, {"comm/cuda.py": cuda})
    assert not any("COMM_DETERMINISTIC" in t for t in texts), texts


def test_another_value_of_a_chain_of_branches_is_no_way_out() -> None:
    # vllm's init_speculator builds the n-gram speculator in an `elif` after `method ==
    # "dflash"`, `"dspark"`, `"mtp"`: passing one of those picks other code with needs of
    # its own (a draft model), so these guards give no way out
    assert _other_value("speculative_config.method != 'dflash'")
    assert _other_value("self.load_config.load_format not in ('npcache', 'fastsafetensors')")
    assert not _other_value("self.model_config is not None")
    assert not _other_value("args.api_server_count < 1")


# vllm's ROCm autotuner: the check sits two calls below the function that returns early
# unless the setting is on (`link.path_gates`)
TUNE = (
    textwrap.dedent("""
    import comm.envs as envs

    def tune_all(layers):
        if not envs.COMM_DETERMINISTIC:
            return
        for layer in layers:
            _tune_layer(layer)
    """)
    + TUNED_BELOW
)


def tune_page(tmp_path: Path, tune: str) -> Page:
    package = {"comm/__init__.py": "", "comm/envs.py": ENVS, "comm/ops/kernels/tune.py": tune}
    package.update({"comm/ops/__init__.py": "", "comm/ops/kernels/__init__.py": ""})
    for store in indexed_package(tmp_path, "comm", package):
        return page_with_message(store, "comm", "tuning failed")
    raise AssertionError("no store")


def test_a_setting_every_path_passes_two_calls_up_is_turned_off(tmp_path: Path) -> None:
    page = tune_page(tmp_path, TUNE)
    # first: the function's own argument is no user's to pass (a module three dots deep)
    assert page.solutions[0].text == (
        "Set `COMM_DETERMINISTIC=0` (every way into `tune` passes `tune_all`, which calls"
        " `_tune_layer` only when `envs.COMM_DETERMINISTIC` is set (not empty, zero or None),"
        " so the check runs only when `COMM_DETERMINISTIC` is on: turning it off avoids it,"
        " and the feature with it)."
    )
    assert page.solutions[1].text.startswith("Pass the argument `dim` of `tune`")
    assert page.example_fix is not None
    assert page.example_fix.after == "export COMM_DETERMINISTIC=0"
    assert "worth reporting" not in page.what_it_means


def test_no_setting_when_one_path_up_passes_no_test_of_it(tmp_path: Path) -> None:
    page = tune_page(tmp_path, TUNE + "\ndef tune_now(layer):\n    _tune_layer(layer)\n")
    assert not any("COMM_DETERMINISTIC" in s.text for s in page.solutions)


def test_the_setting_comes_after_a_way_out_that_keeps_the_feature(tmp_path: Path) -> None:
    # a function the package hands to users (`comm.tune.tune`): its argument is theirs to
    # pass, and keeps the tuning on
    package = {"comm/__init__.py": "", "comm/envs.py": ENVS, "comm/tune.py": TUNE}
    for store in indexed_package(tmp_path, "comm", package):
        page = page_with_message(store, "comm", "tuning failed")
        texts = [s.text for s in page.solutions]
        assert texts[0].startswith("Pass the argument `dim` of `tune`")
        assert texts[1].startswith("Set `COMM_DETERMINISTIC=0` (every way into `tune`")


def test_no_way_out_by_turning_off_a_switch_whose_feature_is_the_check(tmp_path: Path) -> None:
    # vllm's VLLM_RAISE_ON_LOGIT_NANS: off, the run goes on with what the check refuses
    envs = ENVS.replace("COMM_DETERMINISTIC", "COMM_RAISE_ON_NAN")
    tune = TUNE.replace("COMM_DETERMINISTIC", "COMM_RAISE_ON_NAN")
    package = {"comm/__init__.py": "", "comm/envs.py": envs, "comm/ops/kernels/tune.py": tune}
    package.update({"comm/ops/__init__.py": "", "comm/ops/kernels/__init__.py": ""})
    for store in indexed_package(tmp_path, "comm", package):
        page = page_with_message(store, "comm", "tuning failed")
        assert not any("COMM_RAISE_ON_NAN" in s.text for s in page.solutions)


def test_a_setting_with_no_value_to_write_is_left_out(tmp_path: Path) -> None:
    # vllm's VLLM_TRACE_FUNCTION: read as a text, so no value turns it off but leaving it out
    envs = ENVS.replace(
        '"COMM_DETERMINISTIC": lambda: bool(int(os.getenv("COMM_DETERMINISTIC", "0"))),',
        '"COMM_TUNE_LOG": lambda: os.getenv("COMM_TUNE_LOG"),',
    ).replace("COMM_DETERMINISTIC: bool = False", "COMM_TUNE_LOG: str | None = None")
    tune = TUNE.replace("COMM_DETERMINISTIC", "COMM_TUNE_LOG")
    package = {"comm/__init__.py": "", "comm/envs.py": envs, "comm/ops/kernels/tune.py": tune}
    package.update({"comm/ops/__init__.py": "", "comm/ops/kernels/__init__.py": ""})
    for store in indexed_package(tmp_path, "comm", package):
        page = page_with_message(store, "comm", "tuning failed")
        assert page.solutions[0].text.startswith(
            "Leave `COMM_TUNE_LOG` unset or empty (every way into `tune` passes `tune_all`"
        )


def test_a_permission_switch_the_check_runs_without_is_turned_on(tmp_path: Path) -> None:
    files = {**SERVE_CLI, "eng/config.py": DRAFT_CONFIG, "eng/args.py": DRAFT_ARGS}
    for store in indexed_package(tmp_path, "eng", files):
        page = page_with_message(store, "eng", "the draft and target vocabularies")
        assert page.solutions[0].text == (
            """Pass `--draft-config '{"allow_mixed_vocab": true}'` (with the rest of your"""
            " --draft-config fields) (`DraftConfig.__post_init__` calls"
            " `DraftConfig.check_vocab` only when `self.allow_mixed_vocab` is false, so this"
            " avoids the check)."
        )
        # the method the site's own test holds is kept: without it the check is not reached
        assert page.example_fix is not None
        command = (
            """eng serve MODEL_TAG --draft-config '{"method": "draft", "allow_mixed_vocab": """
        )
        assert page.example_fix.before == command + "false}'"
        assert page.example_fix.after == command + "true}'"
        # the why is the doc of the key turned on, not of the method the fix keeps
        assert page.why[0].text == (
            "Allow the draft and target models to use different vocabularies."
        ), page.why
        assert page.why[0].of.startswith("doc of `allow_mixed_vocab` in `--draft-config`")


def test_an_attribute_no_field_declares_is_not_kept_in_the_json(tmp_path: Path) -> None:
    # `self._kind` is set in `__post_init__`, no key of the flag's object: the JSON would
    # refuse it
    config = DRAFT_CONFIG.replace('if self.method == "draft"', 'if self._kind == "draft"')
    config = config.replace(
        "        def __post_init__(self):\n",
        "        def __post_init__(self):\n            self._kind = self.method\n",
    )
    assert "self._kind = self.method" in config
    files = {**SERVE_CLI, "eng/config.py": config, "eng/args.py": DRAFT_ARGS}
    for store in indexed_package(tmp_path, "eng", files):
        page = page_with_message(store, "eng", "the draft and target vocabularies")
        assert page.example_fix is not None
        assert page.example_fix.after == (
            """eng serve MODEL_TAG --draft-config '{"allow_mixed_vocab": true}'"""
        )


# vllm's `ServeSubcommand.cmd` (entrypoints/cli/serve.py): headless mode refuses any API
# server count above 0 before the call that the count decides
SERVE = """
    import argparse


    def run_headless(args):
        if args.api_server_count > 1:
            raise ValueError("too many API servers for headless mode")


    def run_server(args):
        return args


    def cmd(args):
        if args.headless:
            if args.api_server_count is not None and args.api_server_count > 0:
                raise ValueError("--api-server-count cannot be used with --headless")
            args.api_server_count = 0
        if args.api_server_count < 1:
            run_headless(args)
        else:
            run_server(args)


    def main():
        parser = argparse.ArgumentParser(prog="srv")
        parser.add_argument("--headless", action="store_true")
        parser.add_argument("--api-server-count", type=int, default=1)
        cmd(parser.parse_args())
    """

SERVE_PROJECT = """
    [project]
    name = "srv"
    version = "1.0"
    [project.scripts]
    srv = "srv.cli:main"
    """


def serve_ways(tmp_path: Path, source: str) -> list[str]:
    files = {"pyproject.toml": SERVE_PROJECT, "srv/__init__.py": "", "srv/cli.py": source}
    for store in indexed_package(tmp_path, "srv", files):
        page = page_with_message(store, "srv", "too many API servers")
        return [s.text for s in page.solutions]
    raise AssertionError("not indexed")


def test_a_value_the_caller_refuses_before_the_call_is_no_way_out(tmp_path: Path) -> None:
    ways = serve_ways(tmp_path, SERVE)
    assert any(w.startswith("Pass `--api-server-count` with a value at most 1") for w in ways)
    # "at least 1" keeps `cmd` from calling `run_headless`, but with `--headless` `cmd`
    # raises on any such count first
    assert not any("calls `run_headless` only when" in w for w in ways), ways


def test_without_that_check_the_callers_guard_is_a_way_out(tmp_path: Path) -> None:
    unchecked = SERVE.replace(
        "            if args.api_server_count is not None and args.api_server_count > 0:\n"
        '                raise ValueError("--api-server-count cannot be used with --headless")\n',
        "",
    )
    assert "cannot be used" not in unchecked
    ways = serve_ways(tmp_path, unchecked)
    assert any("calls `run_headless` only when" in w for w in ways), ways
