"""Settings every path into a site's function passes, callers up (`link.path_gates`)."""

from __future__ import annotations

import re
import textwrap

from errdex.extract import extract_file
from errdex.link import link_version, path_gates
from errdex.link.path_gates import _handed_on
from errdex.linked_facts import IndexedSite
from samples import DRAFT_ARGS, DRAFT_CONFIG, QUIET_FUNCTIONS, TUNED_BELOW

ARGS = """
    import argparse
    from dataclasses import dataclass

    @dataclass
    class EngineArgs:
        enable_tune: bool = False

        def add_cli_args(parser):
            parser.add_argument("--enable-tune", action="store_true")
            return parser
    """

# The shape of vllm's ROCm autotuner: the check sits two calls below an early exit on an
# opt-in field, in a function whose body the skeleton blanks (no site of its own).
TUNE = (
    textwrap.dedent("""
    def tune_all(worker):
        if not worker.config.enable_tune:
            return
        for layer in worker.layers:
            _tune_layer(layer)
    """)
    + TUNED_BELOW
)


def link(files: dict[str, str]) -> list[IndexedSite]:
    data = {path: textwrap.dedent(text).encode() for path, text in files.items()}
    facts = [extract_file(path, text) for path, text in data.items()]
    return link_version("eng", facts, texts=data)


def tuned(files: dict[str, str]) -> IndexedSite:
    (site,) = [s for s in link(files) if s.site.message and "tuning" in s.site.message.text]
    return site


def test_an_early_exit_two_callers_up_gates_every_path() -> None:
    site = tuned({"eng/args.py": ARGS, "eng/tune.py": TUNE + QUIET_FUNCTIONS})
    assert [(g.function, g.depth, g.calls) for g in site.gates] == [
        ("tune_all", 2, "eng.tune._tune_layer")
    ]
    assert [c.statement for c in site.gates[0].guard] == ["worker.config.enable_tune"]
    assert site.gates[0].guard_known  # read from the text the skeleton blanked
    assert "--enable-tune" in {k.name for k in site.knobs}


def test_every_site_of_a_gated_function_has_its_gates() -> None:
    # the gates of a function are worked out once: each of its sites gets them
    below = TUNED_BELOW.replace(
        "        raise RuntimeError", '        assert dim != 7, "seven"\n        raise RuntimeError'
    )
    sites = link({"eng/args.py": ARGS, "eng/tune.py": TUNE.replace(TUNED_BELOW, below)})
    found = {s.site.message.text: s for s in sites if s.site.message is not None}
    first, second = found["tuning failed for {dim}"], found["seven"]
    assert first.gates and first.gates == second.gates
    assert "--enable-tune" in {k.name for k in first.knobs}
    assert "--enable-tune" in {k.name for k in second.knobs}


def test_one_path_without_the_test_is_no_gate() -> None:
    other = TUNE + "\n\ndef tune_now(layer):\n    _tune_layer(layer)\n"
    site = tuned({"eng/args.py": ARGS, "eng/tune.py": other})
    assert site.gates == ()
    assert "--enable-tune" not in {k.name for k in site.knobs}


def test_a_function_handed_on_uncalled_may_be_called_anywhere() -> None:
    other = TUNE + "\n\nHOOKS = [_tune_layer]\n"
    assert tuned({"eng/args.py": ARGS, "eng/tune.py": other}).gates == ()


def test_a_function_with_no_known_caller_has_no_gate() -> None:
    other = TUNE.replace("_tune_layer(layer)\n\n", "print(layer)\n\n")
    assert tuned({"eng/args.py": ARGS, "eng/tune.py": other}).gates == ()


def test_a_test_that_is_no_setting_is_no_gate() -> None:
    other = TUNE.replace("worker.config.enable_tune", "worker.ready")
    assert tuned({"eng/args.py": ARGS, "eng/tune.py": other}).gates == ()


def test_a_decorator_that_may_hand_the_function_on_is_read_for_its_name_alone() -> None:
    text = (
        "def first(): pass\n"
        "@register_model\n"
        "def bare(): pass\n"
        '@router.post("/x")\n'
        "def routed(): pass\n"
        "@torch.inference_mode()\n"
        "def wrapped(): pass\n"
        "@staticmethod\n"
        "def plain(): pass\n"
        "@register(\n"
        '    "name",\n'
        ")\n"
        "async def spread(): pass\n"
        "@register_model\n"
        "def bare_too(): pass\n"
        "def bare_not(): bare()\n"
    )
    decorated = {n for n in re.findall(r"def (\w+)", text) if _handed_on(text, n, method=False)}
    assert decorated == {"bare", "routed", "spread", "bare_too"}


def test_a_def_is_found_after_any_blanks_and_among_other_hits_of_its_name() -> None:
    text = (
        "class A:\n"
        "    def use(self): return self.hook(1) + hook_count\n"
        "    @register\n"
        "    def\thook(self, x): pass\n"
        "@register\n"
        "def  spaced(): pass\n"
        "x = spaced()\n"
    )
    assert _handed_on(text, "hook", method=True)  # called as `self.hook(1)`: the decorator
    assert _handed_on(text, "spaced", method=False)
    assert not _handed_on(text, "use", method=True)


def test_a_function_named_other_than_to_call_it_is_handed_on() -> None:
    text = (
        "class A:\n"
        "    def run(self):\n"
        "        # self.step is called below\n"
        "        self.step (1)\n"
        "        self.stepper = 2\n"
        "        return self.done\n"
        "    def done(self): pass\n"
        "    def step(self, n): pass\n"
        "def helper(): pass\n"
        "handlers = {'x': helper_table, 'y': a.helper}\n"
        "callbacks = [helper]\n"
    )
    assert _handed_on(text, "done", method=True)  # `return self.done`
    assert not _handed_on(text, "step", method=True)  # called, or a longer name
    assert _handed_on(text, "helper", method=False)  # `[helper]`
    assert not _handed_on(text, "run", method=True)


# A cycle of calls: `hub` calls both checks, and `x_check` calls `hub` past a test of the
# setting. Walking up from `x_check` meets it again at `hub` (no gate holds for sure);
# walking up from `y_check` reaches `x_check` only from `hub`.
CYCLE = {
    "x": """
    def x_check(worker, n):
        if n > 4:
            raise RuntimeError("x failed")
        if not worker.config.enable_tune:
            return
        hub(worker, n)
    """,
    "y": """
    def y_check(n):
        if n > 5:
            raise RuntimeError("y failed")
    """,
    "hub": """
    def hub(worker, n):
        y_check(n)
        x_check(worker, n - 1)
    """,
}


def test_the_gates_of_a_function_in_a_cycle_do_not_depend_on_which_site_asks_first() -> None:
    found = []
    for order in (("x", "y", "hub"), ("y", "x", "hub")):
        text = "".join(textwrap.dedent(CYCLE[part]) for part in order)
        sites = link({"eng/args.py": ARGS, "eng/tune.py": text})
        gates = {
            s.site.message.text: [(g.function, g.calls, g.depth) for g in s.gates]
            for s in sites
            if s.site.message is not None
        }
        assert gates["x failed"] == []  # the path into it comes through itself
        found.append(gates)
    assert found[0] == found[1]
    assert found[0]["y failed"] == [("x_check", "eng.tune.hub", 2)]


def test_a_path_no_guard_can_test_is_told_without_reading_the_text(monkeypatch) -> None:
    # `tune_all` (a body kept for its assert) calls `_tune_layer` under no branch and
    # nothing calls it; `_tune_layer` calls `tune` under none either: no walk can find a
    # gate, so the file is not searched for a function handed on, nor a body parsed
    read: list[str] = []
    handed_on, parsed_block = path_gates._handed_on, path_gates.parsed_block

    def searched(text: str, name: str, method: bool) -> bool:
        read.append(name)
        return handed_on(text, name, method)

    def parsed(lines: list[str], start: int, end: int) -> object:
        read.append(lines[start].strip())
        return parsed_block(lines, start, end)

    monkeypatch.setattr(path_gates, "_handed_on", searched)
    monkeypatch.setattr(path_gates, "parsed_block", parsed)
    unguarded = TUNE.replace(
        "    if not worker.config.enable_tune:\n        return\n",
        '    assert worker.layers, "no layers"\n',
    )
    site = tuned({"eng/args.py": ARGS, "eng/tune.py": unguarded + QUIET_FUNCTIONS})
    assert site.gates == ()
    assert read == []
    # under the `if`, the walk searches the file and reads the blanked body's guard
    site = tuned({"eng/args.py": ARGS, "eng/tune.py": TUNE + QUIET_FUNCTIONS})
    assert site.gates and "def tune_all(worker):" in read and "_tune_layer" in read


def vocab_site(config: str) -> IndexedSite:
    files = {"eng/config.py": config, "eng/args.py": DRAFT_ARGS}
    (site,) = [s for s in link(files) if "vocab" in str(s.site.message)]
    return site


def test_a_permission_switch_held_off_is_a_gate() -> None:
    site = vocab_site(DRAFT_CONFIG)
    assert [(g.function, g.depth) for g in site.gates] == [("DraftConfig.__post_init__", 1)]
    keys = [(k.name, k.json_key, k.key_default) for k in site.knobs]
    assert ("--draft-config", "allow_mixed_vocab", "False") in keys
    # turning on another mode is no way past the check: it has requirements of its own
    assert (
        vocab_site(DRAFT_CONFIG.replace("not self.allow_mixed_vocab", "not self.token_map")).gates
        == ()
    )
    # nor is a permission that is on when left out
    on = DRAFT_CONFIG.replace("allow_mixed_vocab: bool = False", "allow_mixed_vocab: bool = True")
    assert vocab_site(on).gates == ()


ALLOW_ENVS = """
    import os
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        ENG_ALLOW_REMOTE: bool = False
        ENG_ALLOWED_HOSTS: str = ""

    environment_variables = {
        "ENG_ALLOW_REMOTE": lambda: bool(int(os.getenv("ENG_ALLOW_REMOTE", "0"))),
        "ENG_ALLOWED_HOSTS": lambda: os.getenv("ENG_ALLOWED_HOSTS", ""),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """

SERVE_HOST = """
    import eng.envs as envs

    def serve(host):
        if not envs.ENG_ALLOW_REMOTE:
            _check_host(host)
        return host

    def _check_host(host):
        if host != "localhost":
            raise ValueError("remote host refused")
    """


def host_gates(envs: str, serve: str = SERVE_HOST) -> list[str]:
    files = {"eng/__init__.py": "", "eng/envs.py": envs, "eng/serve.py": serve}
    (site,) = [s for s in link(files) if "remote" in str(s.site.message)]
    return [g.function for g in site.gates]


def test_a_variable_on_by_default_or_holding_a_value_is_no_permission() -> None:
    assert host_gates(ALLOW_ENVS) == ["serve"]
    # on when left out, however the default is written
    for default in ('default="1"', "1", '"true"'):
        envs = ALLOW_ENVS.replace(
            'os.getenv("ENG_ALLOW_REMOTE", "0")', f'os.getenv("ENG_ALLOW_REMOTE", {default})'
        )
        assert default in envs
        assert host_gates(envs) == [], default
    # a value (the hosts allowed), no yes/no switch: nothing to turn on
    assert host_gates(ALLOW_ENVS, SERVE_HOST.replace("ENG_ALLOW_REMOTE", "ENG_ALLOWED_HOSTS")) == []
