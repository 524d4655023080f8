"""How a user imports what a package defines: the shortest path through public modules'
re-exports, never a module that imports the name for its own use."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link.public import PublicPaths

FILES = {
    "pkg/__init__.py": "from ._client import Client\nfrom .tools import *\n",
    "pkg/_client.py": "class Client:\n    def send(self):\n        pass\n",
    "pkg/tools.py": "__all__ = ['render']\n\ndef render():\n    pass\n",
    "pkg/_hidden.py": "class Hidden:\n    pass\n",
    "pkg/user.py": "from pkg._hidden import Hidden\n\ndef use():\n    return Hidden()\n",
    "pkg/api.py": "from pkg._hidden import Hidden as Hidden\n__all__ = ['Hidden']\n",
}


def paths() -> PublicPaths:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()]
    return PublicPaths({f.module: f for f in facts})


def test_a_package_re_export_is_the_path_a_user_imports() -> None:
    public = paths()
    assert public.of("pkg._client", "Client.send") == "pkg.Client.send"
    assert public.of("pkg.tools", "render") == "pkg.render"  # through `from .tools import *`


def test_a_name_listed_in_all_is_re_exported_one_imported_for_use_is_not() -> None:
    assert paths().of("pkg._hidden", "Hidden") == "pkg.api.Hidden"
    only_used = {k: v for k, v in FILES.items() if k != "pkg/api.py"}
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in only_used.items()]
    assert PublicPaths({f.module: f for f in facts}).of("pkg._hidden", "Hidden") is None


def test_private_names_and_local_classes_have_no_public_path() -> None:
    public = paths()
    assert public.of("pkg._client", "_helper") is None
    assert public.of("pkg.tools", "render.<locals>.inner") is None


# a package importing its names when first read (PEP 562): a table of `"module:attr"`
LAZY = {
    "lazy/__init__.py": """
        import typing

        MODULE_ATTRS = {
            "Engine": ".core.engine:Engine",
            "Helper": ".core.engine:Helper",
        }

        if typing.TYPE_CHECKING:
            from lazy.core.engine import Engine
        else:

            def __getattr__(name):
                from importlib import import_module

                module_name, attr_name = MODULE_ATTRS[name].split(":")
                return getattr(import_module(module_name, __package__), attr_name)


        __all__ = ["Engine"]
        """,
    "lazy/core/__init__.py": "",
    "lazy/core/engine.py": "class Engine:\n    pass\n\nclass Helper:\n    pass\n",
}


def test_a_name_a_package_imports_when_first_read_is_re_exported() -> None:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in LAZY.items()]
    public = PublicPaths({f.module: f for f in facts})
    assert public.of("lazy.core.engine", "Engine") == "lazy.Engine"
    # not listed in `__all__`: no name the package offers its users
    assert public.of("lazy.core.engine", "Helper") == "lazy.core.engine.Helper"
