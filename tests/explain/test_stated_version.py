"""A least version of a package or library the message states: the upgrade it asks for, with
pip for a module the file imports as written, by name otherwise (with the variable the file
reads to find the library), ranked before switching the feature off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.advice import message_advice
from errdex.explain.stated_version import stated_version, version_solution
from errdex.store import Store


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("psycopg version 3.0.2 or higher is required.", ("psycopg", "3.0.2")),
        ("shape_id='{shape_id}' requires PyTorch >= 2.11.0", ("PyTorch", "2.11.0")),
        ("ncclCommSuspend is missing (requires NCCL >= 2.29.7)", ("NCCL", "2.29.7")),
        ("To enable X please update your NCCL version to >= 2.27.03.", ("NCCL", "2.27.03")),
        ("The 'fastokens' package (>= 0.2.0) is required when X=1.", ("fastokens", "0.2.0")),
        ("Backend requires transformers>={required} for MTP", ("transformers", "{required}")),
        ("Offload requires ROCm 7.1+.", ("ROCm", "7.1")),
        ("Q8 requires CUDA Toolkit {(12, 9)[0]}.{(12, 9)[1]} or newer", ("CUDA Toolkit", "12.9")),
        ("Please upgrade to MariaDB 10.2.9 or greater", ("MariaDB", "10.2.9")),
        # the versions it supports, from the least on: after "version" a whole number too
        ("cx_Oracle version 8 and above are supported", ("cx_Oracle", "8")),
        ("oracledb version {self._min} and above are supported", ("oracledb", "{self._min}")),
    ],
)
def test_the_name_and_least_version_a_sentence_requires(
    sentence: str, stated: tuple[str, str]
) -> None:
    assert stated_version(sentence) == stated


@pytest.mark.parametrize(
    "sentence",
    [
        # one need among others: upgrading it alone is no way out
        "SparseMQAIndexer requires an SM100-class GPU and DeepGEMM >= 2.8.",
        "fp8 requires the FlashInfer cuDNN backend with cuDNN >= 9.17.1 on Blackwell or newer.",
        "It requires NCCL >= 2.29.7 and a Hopper GPU",
        # a property of the machine, a count, a value of the code's
        "The config requires GPU compute capability >= 8.9",
        "N-gram embedding requires context length >= 1.",
        "input.ndim needs to be >= 1, but got {input.ndim}.",
        "seqlen_k_per_split={s} needs num_splits>={splits_needed}, got {num_splits}",
        "requires local TP >= remote TP",
        # the need of the package the sentence before names
        "It needs NCCL 2.30.5 or newer.",
        # a count supported, not a release; a server's version the dialect reads
        "bound 5 and above is supported",
        "the X dialect supports server version info 5.0.2 and above.",
    ],
)
def test_no_version_where_the_sentence_requires_more_or_no_release(sentence: str) -> None:
    assert stated_version(sentence) is None


def test_a_module_the_file_imports_as_written_is_upgraded_with_pip() -> None:
    source = "def f():\n    import psycopg\n"
    solution = version_solution("psycopg", "3.0.2", "psycopg version 3.0.2 or higher", source)
    assert solution.text.startswith(
        "Upgrade psycopg to 3.0.2 or newer (`pip install --upgrade 'psycopg>=3.0.2'`)"
    )
    assert solution.change is not None
    assert solution.change.target == "pip install --upgrade 'psycopg>=3.0.2'"
    # a name the file does not import as written gets no command (PyTorch is `torch`)
    other = version_solution("PyTorch", "2.11.0", "requires PyTorch >= 2.11.0", "import torch\n")
    assert other.text.startswith("Upgrade PyTorch to 2.11.0 or newer, as the message says")
    assert other.change is None
    # a version only the user's message holds: the command, nothing runnable as data
    held = version_solution("transformers", "{required}", "requires transformers>={required}", "")
    assert "`pip install --upgrade 'transformers>={required}'`" in held.text
    assert held.change is None
    # a floor the file keeps as a tuple fills in as `(1,)`, which no requirement takes: the
    # upgrade is asked for without one
    source = "class D:\n    _min_version = (1,)\n    def f(self):\n        import oracledb\n"
    said = "oracledb version {self._min_version} and above are supported"
    bare = version_solution("oracledb", "{self._min_version}", said, source)
    assert "(`pip install --upgrade oracledb`)" in bare.text
    assert bare.change is not None and bare.change.target == "pip install --upgrade oracledb"


def test_a_library_found_by_a_variable_the_file_reads_names_it() -> None:
    source = (
        "import os\n"
        "def find_library():\n"
        "    inc = envs.LIBX_INCLUDE_PATH\n"
        "    return envs.VLLM_LIBX_SO_PATH or 'libx.so'\n"
    )
    solution = version_solution("LIBX", "2.29.7", "needs LIBX >= 2.29.7", source)
    assert solution.text.startswith(
        "Upgrade LIBX to 2.29.7 or newer, or point `VLLM_LIBX_SO_PATH` (read at line 4) at a "
        "build of LIBX 2.29.7 or newer"
    )
    # a variable of another library, or of the library's headers, is not named
    assert "point" not in version_solution("LIBX", "1.0", "x", "envs.LIBY_SO_PATH\n").text
    assert "point" not in version_solution("LIBX", "1.0", "x", "envs.LIBX_INCLUDE_PATH\n").text


def test_a_version_the_message_gives_a_command_for_is_left_to_the_command() -> None:
    (advice,) = message_advice(
        "Using X needs modelscope>=1.18.1, please install by `pip install modelscope -U`"
    )
    assert advice.command == "pip install modelscope -U"


def test_leave_unset_is_advice() -> None:
    (merge,) = message_advice(
        "Version id '{a}' does not match existing version '{b}'. Leave the version "
        "attribute unset when merging to update the most recent version."
    )
    assert merge.kind == "input"  # the object's attribute, though the words say "version"
    (unset,) = message_advice(
        "Model {m!r} does not support X; dimensions must be unset (received dimensions={d})."
    )
    assert unset.solution.startswith("Leave dimensions unset, as the message says")


TOK = {
    "tok/__init__.py": "",
    "tok/envs.py": """
        import os

        environment_variables = {
            "TOK_FAST": lambda: bool(int(os.getenv("TOK_FAST", "0"))),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "tok/patch.py": """
        from importlib.metadata import version

        from tok import envs


        def patch():
            if envs.TOK_FAST:
                import fasttok
                if version("fasttok") < "0.2.0":
                    raise ImportError("fasttok >= 0.2.0 is required when TOK_FAST=1.")
        """,
}


@pytest.fixture(scope="module")
def tok(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tok"), "tok", TOK)


def test_the_upgrade_comes_before_turning_the_feature_off(tok: Store) -> None:
    page = page_with_message(tok, "tok", "fasttok >= 0.2.0")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "Upgrade fasttok to 0.2.0 or newer (`pip install --upgrade 'fasttok>=0.2.0'`)"
    )
    assert any(t.startswith("Set `TOK_FAST=0`") for t in texts[1:])
    assert page.example_fix is not None
    assert "fasttok>=0.2.0" in page.example_fix.after
