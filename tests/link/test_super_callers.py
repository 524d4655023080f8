"""Callers through `super()`: a subclass's constructor calls its base's, and each caller
carries the path a user imports it by."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version

FILES = {
    "net/__init__.py": "from net._client import Client\n",
    "net/_client.py": """
        class BaseClient:
            def __init__(self, auth=None):
                if auth == "":
                    raise ValueError("an empty auth")


        class Client(BaseClient):
            def __init__(self, auth=None):
                super().__init__(auth=auth)


        class _Private(BaseClient):
            def __init__(self, auth):
                super().__init__(auth)
        """,
}


def test_a_subclass_constructor_calling_super_is_a_caller_with_its_public_path() -> None:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()]
    (site,) = [s for s in link_version("net", facts) if s.site.function == "BaseClient.__init__"]
    found = {(c.function, c.calls, c.public) for c in site.caller_links}
    assert found == {
        ("Client.__init__", "net._client.BaseClient.__init__", "net.Client.__init__"),
        ("_Private.__init__", "net._client.BaseClient.__init__", None),
    }
