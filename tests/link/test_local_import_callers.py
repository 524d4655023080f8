"""Callers through a function's own import, and the settings behind a local its guard tests."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite
from samples import COMM_ENVS as ENVS

SYMM = """
    import logging

    logger = logging.getLogger(__name__)

    class SymmCommunicator:
        def __init__(self, group, device):
            self.disabled = True
            if device is None:
                logger.warning("SymmCommunicator: symmetric memory is not available.")
                return
            self.disabled = False
    """


def link(files: dict[str, str]) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("comm", facts)


def symm_site(cuda: str) -> IndexedSite:
    files = {"comm/envs.py": ENVS, "comm/symm.py": SYMM, "comm/cuda.py": cuda}
    (site,) = [s for s in link(files) if s.site.function == "SymmCommunicator.__init__"]
    return site


# The shape of vllm's CudaCommunicator: the class is imported inside `__init__`, the
# setting read into a local that one branch sets False.
GUARDED = """
    import comm.envs as envs

    class CudaCommunicator:
        def __init__(self, group, device, unique_name):
            if unique_name != "tp":
                use_symm = False
            else:
                use_symm = envs.COMM_USE_SYMM
            from comm.symm import SymmCommunicator

            self.symm_comm = None
            if use_symm and device is not None:
                self.symm_comm = SymmCommunicator(group=group, device=device)
    """


def test_a_class_a_function_imports_itself_is_called_from_there() -> None:
    site = symm_site(GUARDED)
    (caller,) = [c for c in site.caller_links if c.depth == 1]
    assert (caller.function, caller.file, caller.line) == (
        "CudaCommunicator.__init__",
        "comm/cuda.py",
        14,
    )
    assert caller.calls == "comm.symm.SymmCommunicator.__init__"


def test_a_relative_import_inside_a_function_resolves_too() -> None:
    site = symm_site(GUARDED.replace("from comm.symm import", "from .symm import"))
    assert [c.function for c in site.caller_links] == ["CudaCommunicator.__init__"]


def test_the_setting_a_guard_local_is_true_through_is_the_callers_knob() -> None:
    site = symm_site(GUARDED)
    (caller,) = site.caller_links
    assert [(b.name, b.value) for b in caller.bindings] == [("use_symm", "envs.COMM_USE_SYMM")]
    knobs = {k.behind: k.name for k in site.knobs}
    assert knobs == {"use_symm": "COMM_USE_SYMM"}


def test_a_local_true_through_two_things_links_no_setting() -> None:
    cuda = GUARDED.replace("use_symm = False", "use_symm = envs.COMM_FORCE")
    site = symm_site(cuda)
    (caller,) = site.caller_links
    assert caller.bindings == ()
    assert not any(k.behind == "use_symm" for k in site.knobs)


def test_a_guard_that_tests_the_local_false_links_no_setting() -> None:
    # under `if not use_symm`, the branch that sets it False reaches the call too
    site = symm_site(GUARDED.replace("if use_symm and", "if not use_symm and"))
    (caller,) = site.caller_links
    assert caller.bindings == ()


def test_two_functions_importing_one_name_from_two_modules_resolve_neither() -> None:
    other = GUARDED + textwrap.indent(
        textwrap.dedent(
            """
            def other(self):
                from comm.elsewhere import SymmCommunicator

                return SymmCommunicator(None, None)
            """
        ),
        "    ",
    )
    site = symm_site(other)
    assert site.caller_links == ()


# vllm's validate_multi_port_external_lb_args: the message names the flag that asks for
# more; one caller checks only under that flag, another always.
MULTI_PORT = {
    "tool/args.py": """
        import argparse

        def make_parser():
            parser = argparse.ArgumentParser()
            parser.add_argument("--multi-port-lb", action="store_true")
            parser.add_argument("--dp-size", type=int, default=1)
            return parser
        """,
    "tool/checks.py": """
        def validate_multi_port(args):
            if args.dp_size < 2:
                raise ValueError("Error: --multi-port-lb requires --dp-size > 1")
        """,
    "tool/serve.py": """
        def validate_serve_args(args):
            if args.multi_port_lb:
                from tool.checks import validate_multi_port

                validate_multi_port(args)

        class Supervisor:
            def __init__(self, args):
                from tool.checks import validate_multi_port

                validate_multi_port(args)
        """,
}


def test_a_flag_the_message_names_stays_its_knob_when_a_caller_guard_links_it() -> None:
    facts = [
        extract_file(path, textwrap.dedent(text).encode()) for path, text in MULTI_PORT.items()
    ]
    (site,) = [s for s in link_version("tool", facts) if s.site.function == "validate_multi_port"]
    assert {c.function for c in site.caller_links} == {"validate_serve_args", "Supervisor.__init__"}
    behind = {(k.name, k.behind) for k in site.knobs}
    assert ("--multi-port-lb", "--multi-port-lb") in behind, behind


# SQLAlchemy's engine/util.py: one name bound to the compiled module's function (built from
# `.pyx`, no module of the version) or to its Python twin's
TWINS = {
    "db/_py_util.py": """
        def distill(params):
            if not isinstance(params, list):
                raise TypeError("List argument must consist only of tuples or dictionaries")
            return params
        """,
    "db/cext/__init__.py": "",
    "db/util.py": """
        import typing
        from ._has_c import HAS_C

        if typing.TYPE_CHECKING or not HAS_C:
            from ._py_util import distill as distill
        else:
            from db.cext.util import distill as distill
        """,
    "db/base.py": """
        from .util import distill

        class Connection:
            def exec_sql(self, statement, parameters=None):
                return distill(parameters)
        """,
}


def test_a_name_bound_to_a_compiled_module_or_its_python_twin_reaches_the_twin() -> None:
    (site,) = [s for s in link(TWINS) if s.site.function == "distill"]
    assert [(c.function, c.file) for c in site.caller_links] == [
        ("Connection.exec_sql", "db/base.py")
    ]


def test_a_twin_is_not_taken_where_the_kept_import_is_of_the_version() -> None:
    files = {**TWINS, "db/cext/util.py": "def distill(params):\n    return params\n"}
    (site,) = [s for s in link(files) if s.site.function == "distill"]
    assert site.caller_links == ()
