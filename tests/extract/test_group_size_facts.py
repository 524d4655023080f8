"""Group sizes: accessors of a module global, globals set from a parameter, and calls
passing names (`extract.group_sizes`)."""

from __future__ import annotations

import re

from errdex.extract import extract_file
from errdex.extract.group_sizes import _ASCII_RUN, global_sets, group_accessors, name_calls

STATE = """\
_TP = None
_PP = None


def get_tp_group():
    assert _TP is not None, "not initialized"
    return _TP


def get_pp_group():
    \"\"\"The pipeline group.\"\"\"
    return _PP


def get_tp_world_size() -> int:
    \"\"\"Return the size.\"\"\"
    return get_tp_group().world_size


def get_rank(group) -> int:
    return group.rank


def initialize(tp_size: int = 1, pp_size: int = 1, backend: str | None = None) -> None:
    backend = backend or "nccl"
    ranks = torch.arange(8).reshape(-1, pp_size, tp_size)
    global _TP
    group_ranks = ranks.view(-1, tp_size).unbind(0)
    group_ranks = [x.tolist() for x in group_ranks]
    _TP = make_group(group_ranks, backend)
    global _PP
    group_ranks = ranks.transpose(1, 2).reshape(-1, pp_size).unbind(0)
    _PP = make_group(group_ranks, backend)


def destroy() -> None:
    global _TP
    _TP = None
"""


def test_an_accessor_asserting_before_it_returns_a_global_and_one_returning_its_attribute() -> None:
    assert group_accessors(STATE) == {
        "get_tp_group": "_TP",
        "get_pp_group": "_PP",
        "get_tp_world_size": "get_tp_group().world_size",
    }


def test_a_global_is_set_from_the_one_parameter_its_value_is_built_from() -> None:
    # `ranks` reads both sizes, but the value reads the local `group_ranks` last assigned
    # from `tp_size` (then from itself); `backend` is bound again, no longer the caller's
    assert global_sets(STATE) == {
        "_TP": ("initialize", "tp_size", 0),
        "_PP": ("initialize", "pp_size", 1),
    }


def test_a_global_built_from_two_parameters_is_left_out() -> None:
    text = "def init(a, b):\n    global _G\n    _G = make(a, b)\n"
    assert global_sets(text) == {}


def test_calls_passing_names_are_read_from_the_text() -> None:
    text = (
        "def init_worker(vllm_config):\n"
        "    parallel_config = vllm_config.parallel_config\n"
        "    ensure_initialized(\n"
        "        parallel_config.tensor_parallel_size,\n"
        "        parallel_config.pipeline_parallel_size,\n"
        "    )\n"
        "    other(parallel_config, 2)\n"
    )
    assert name_calls(text, {"ensure_initialized"}, ()) == (
        (
            "ensure_initialized",
            3,
            ("parallel_config.tensor_parallel_size", "parallel_config.pipeline_parallel_size"),
        ),
    )


def test_the_scans_skip_what_they_cannot_take_and_keep_what_they_can() -> None:
    # a call without a dot among names, a trailing comma, a call among the arguments;
    # `global` twice on one line, in a comment, and in a function of no parameter
    text = (
        "def reset():\n"
        "    global _A\n"
        "    _A = other_config.size\n"
        "\n"
        "def init(a_config, size):  # global setup\n"
        "    global _A; global _B\n"
        "    _A = make(size)\n"
        "    _B = make(a_config)\n"
        "    f(a, b)\n"
        "    g(a_config.x, size,)\n"
        "    h(a_config(1).x, y.z)\n"
    )
    assert global_sets(text) == {"_A": ("init", "size", 1), "_B": ("init", "a_config", 0)}
    assert name_calls(text, {"g", "h", "f"}, {"reset", "init"}) == (
        ("g", 10, ("a_config.x", "size")),
    )


def test_only_calls_the_linker_can_follow_are_kept_whatever_the_names_read() -> None:
    # a name imported, a dotted name under an imported module and a function of the
    # module's own are followed to a function; a method of a local object, a builtin
    # and a name neither imported nor defined are not. No setting's name is needed:
    # `args.size` is an attribute read as `parallel_config.size` is.
    text = (
        "import dist\n"
        "from state import init_groups\n"
        "\n"
        "def start(args, worker):\n"
        "    init_groups(args.size, args.rank)\n"
        "    dist.init(args.size)\n"
        "    _own(args.size)\n"
        "    worker.setup(args.size)\n"
        "    print(args.size)\n"
        "    unknown(args.size)\n"
        "\n"
        "async def _own(size):\n"
        "    pass\n"
    )
    assert name_calls(text, {"dist", "init_groups"}, {"start", "_own"}) == (
        ("init_groups", 5, ("args.size", "args.rank")),
        ("dist.init", 6, ("args.size",)),
        ("_own", 7, ("args.size",)),
    )


def test_a_function_is_the_modules_own_as_the_walker_finds_it_not_as_a_line_starts() -> None:
    # a function defined under a module-level `if` is the module's own; a `def` at a
    # line's start inside a string is none; a name a function imports itself is followed
    text = (
        "import sys\n"
        "\n"
        "if sys.version_info >= (3, 11):\n"
        "    def _start(size):\n"
        "        pass\n"
        "else:\n"
        "    def _start(size):\n"
        "        pass\n"
        "\n"
        'USAGE = """\n'
        "def _quoted(size): ...\n"
        '"""\n'
        "\n"
        "def run(args):\n"
        "    from state import init_groups\n"
        "\n"
        "    _start(args.size)\n"
        "    _quoted(args.size)\n"
        "    init_groups(args.size)\n"
    )
    assert extract_file("pkg/run.py", text.encode()).name_calls == (
        ("_start", 17, ("args.size",)),
        ("init_groups", 19, ("args.size",)),
    )


def test_arguments_with_non_ascii_characters_are_read_as_ascii_ones_are() -> None:
    # a name with a non-ASCII letter before its dot, a non-ASCII blank among the
    # arguments (both taken as `\w` and `\s` take them), and no dot at all
    text = (
        "def start(konfig, größe):\n"
        "    init(größe.tp, konfig.pp)\n"
        "    init(größe, konfig)\n"
        "    init(a\u00a0, b.c)\n"
        "    init(é)\n"
    )
    assert name_calls(text, {"init"}, ()) == (
        ("init", 2, ("größe.tp", "konfig.pp")),
        ("init", 4, ("a", "b.c")),
    )


def test_the_first_lookahead_takes_exactly_the_ascii_characters_the_exact_one_takes() -> None:
    # a character it took and the exact one did not would let it pass a call the exact one
    # fails; one it left out, fail a call the exact one passes
    for c in map(chr, range(128)):
        assert (re.fullmatch(_ASCII_RUN, c) is None) == (re.fullmatch(r"[\w\s,]", c) is None)
