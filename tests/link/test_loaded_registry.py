"""A registry that loads each plugin's module by its text, looked up by a setting's value:
the code only those names load runs only when the setting names them."""

from __future__ import annotations

import re
import textwrap

import pytest

from errdex.extract import extract_file
from errdex.link import link_version, loaded_registry
from errdex.linked_facts import IndexedSite
from selection_samples import LOADED


def site_of(message: str, package: dict[str, str] = LOADED) -> IndexedSite:
    texts = {path: textwrap.dedent(text).encode() for path, text in package.items()}
    facts = [extract_file(path, data) for path, data in texts.items() if path.endswith(".py")]
    (site,) = [
        s
        for s in link_version("serve", facts, texts=texts)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return site


def test_a_module_only_registered_names_load_is_picked_by_the_key_they_are_looked_up_by() -> None:
    (link,) = site_of("Pipe transfers do not support").selections
    assert (link.setting, link.key, link.how, link.value, link.aliases) == (
        "--transfer-config",
        "connector",
        "load",
        "PipeConnector",
        ("PipePullConnector",),
    )
    assert link.registry == "ConnectorFactory.register_connector"
    assert link.listed == "serve/transfer/factory.py:25-30"
    assert link.registered == (
        "PipeConnector",
        "PipePullConnector",
        "SharedConnector",
        "DiskConnector",
    )


def test_code_loaded_otherwise_is_not_picked() -> None:
    # imported by two registered modules: both names load it
    (link,) = site_of("The block size must be").selections
    assert (link.value, link.aliases) == (
        "PipeConnector",
        ("PipePullConnector", "SharedConnector"),
    )
    # a name the code writes into the setting itself runs without the user naming it
    assert site_of("Disk transfers need a path").selections == ()
    # a module another module imports is loaded without the registry
    imported = {
        **LOADED,
        "serve/offload.py": LOADED["serve/offload.py"]
        + "\n        from serve.transfer.shared import SharedConnector\n",
    }
    assert site_of("Shared transfers take at most", imported).selections == ()
    # the registry looked up by a name no setting decides
    unset = {
        **LOADED,
        "serve/transfer/factory.py": LOADED["serve/transfer/factory.py"].replace(
            "transfer_config.connector\n", "transfer_config.connector_name()\n"
        ),
    }
    assert site_of("Pipe transfers do not support", unset).selections == ()


def test_a_module_a_table_of_module_names_holds_is_not_picked() -> None:
    # `{"SharedModel": ("shared", "SharedConnector")}` beside it: loaded by that name too
    tabled = {
        **LOADED,
        "serve/transfer/models.py": """
            _TRANSFER_MODELS = {
                "SharedModel": ("shared", "SharedConnector"),
                "OtherModel": ("other", "OtherModel"),
            }
            """,
    }
    assert site_of("Shared transfers take at most", tabled).selections == ()
    (link,) = site_of("Shared transfers take at most").selections
    assert link.value == "SharedConnector"


def test_a_module_that_runs_as_a_script_of_its_own_is_not_picked() -> None:
    # the connector imports a server module that is also started on its own (`python -m`)
    served = {
        **LOADED,
        "serve/transfer/shared.py": LOADED["serve/transfer/shared.py"].replace(
            "from serve.transfer.common import block_size\n",
            "from serve.transfer.common import block_size\n"
            "        from serve.transfer.shared_server import serve_peers\n",
        ),
        "serve/transfer/shared_server.py": """
            from serve.transfer.shared_state import peers_of


            def serve_peers(port):
                if port < 1024:
                    raise ValueError("The shared server needs a port above 1023")
                return peers_of(port)


            if __name__ == "__main__":
                serve_peers(5555)
            """,
        "serve/transfer/shared_state.py": """
            def peers_of(port):
                if port > 65535:
                    raise ValueError("The shared state has no port above 65535")
                return []
            """,
    }
    assert site_of("The shared server needs a port", served).selections == ()
    # what only the script imports runs when the script runs
    assert site_of("The shared state has no port", served).selections == ()
    # the connector itself is still loaded only by its name
    (link,) = site_of("Shared transfers take at most", served).selections
    assert link.value == "SharedConnector"
    # a registered module that is a script of its own is not picked either
    started = {
        **LOADED,
        "serve/transfer/shared.py": LOADED["serve/transfer/shared.py"]
        + """
        if __name__ == "__main__":
            SharedConnector(None)
        """,
    }
    assert site_of("Shared transfers take at most", started).selections == ()


def test_a_script_its_own_class_starts_is_still_picked() -> None:
    # the connector's helper runs its own file as a child process: only the connector starts it
    beating = {
        **LOADED,
        "serve/transfer/shared.py": LOADED["serve/transfer/shared.py"].replace(
            "from serve.transfer.common import block_size\n",
            "from serve.transfer.common import block_size\n"
            "        from serve.transfer.beat import Beat\n",
        ),
        "serve/transfer/beat.py": """
            import subprocess
            import sys


            class Beat:
                def __init__(self, every):
                    if every <= 0:
                        raise ValueError("The beat needs a positive interval")
                    self.child = subprocess.Popen([sys.executable, __file__, str(every)])


            if __name__ == "__main__":
                print("beat")
            """,
    }
    (link,) = site_of("The beat needs a positive interval", beating).selections
    assert link.value == "SharedConnector"


def test_only_a_text_naming_main_is_searched_for_a_script_s_guard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the search of each line's start is slow: a text without `__main__` is never searched
    searched: list[bytes] = []
    script = loaded_registry._SCRIPT

    class Counted:
        def search(self, data: bytes) -> re.Match[bytes] | None:
            searched.append(data)
            return script.search(data)

    monkeypatch.setattr(loaded_registry, "_SCRIPT", Counted())
    started = {
        **LOADED,
        "serve/transfer/shared.py": LOADED["serve/transfer/shared.py"]
        + """
        if __name__ == "__main__":
            SharedConnector(None)
        """,
    }
    assert site_of("Shared transfers take at most", started).selections == ()
    assert searched and all(b"__main__" in data for data in searched)
