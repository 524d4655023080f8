"""A dict keyed by a flag's `Literal` values picks the class a site is in: another key of
the same kind avoids it (the shape of vllm's `_LINEAR_BACKEND_KERNEL_MAP` for
`--linear-backend`); a flag that may be None (its value comes from elsewhere) links none."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.keyed_tables import literal_aliases, module_tables
from errdex.link import link_version
from errdex.linked_facts import IndexedSite
from selection_samples import KERNELS


def link(files: dict[str, str] = KERNELS) -> list[IndexedSite]:
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in files.items()
        if path.endswith(".py")
    ]
    return link_version("serve", facts)


def site_of(message: str, files: dict[str, str] = KERNELS) -> IndexedSite:
    (site,) = [
        s
        for s in link(files)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return site


def test_literal_aliases_and_dicts_of_classes_by_string_are_read_from_the_text() -> None:
    assert literal_aliases(textwrap.dedent(KERNELS["serve/config.py"])) == {
        "LinearBackend": ("auto", "fast", "slow", "int", "late"),
        "QuantMethods": ("a", "b"),
    }
    tables = module_tables(textwrap.dedent(KERNELS["serve/kernels/__init__.py"]))[0]
    assert tables == {
        "_LINEAR_BACKEND_KERNEL_MAP": {
            "fast": ("FastMxKernel",),
            "slow": ("SlowMxKernel",),
            "int": ("IntKernel",),
            "late": ("LateMxKernel",),
        },
        "QUANT_METHOD_CONFIGS": {"a": ("FastMxKernel",), "b": ("IntKernel",)},
        "_LINEAR_BACKEND_FALLBACKS": {
            "fast": ("FastMxKernel",),
            "slow": ("FastMxKernel", "IntKernel"),
        },
    }
    # one class a key picks a mode, no family of stand-ins: not kept
    assert module_tables('LOADERS = {"dummy": DummyLoader, "hf": HfLoader}\n')[0] == {}
    assert module_tables('X = {"a": 1, "b": 2}\nY = {"a": A}\n')[0] == {}


def test_the_key_naming_the_sites_class_links_the_flag_and_the_keys_of_its_kind() -> None:
    site = site_of("FastMx requires bfloat16")
    (chosen,) = site.selections
    assert (chosen.setting, chosen.how, chosen.value, chosen.others) == (
        "--linear-backend",
        "choose",
        "fast",
        # `late`, tried after it, first: picked by default, this kernel ran because `slow`
        # could not take the layer; never `int`, which no list tries beside this one
        ("late", "slow"),
    )
    assert chosen.registry == "_LINEAR_BACKEND_KERNEL_MAP['fast']"


def test_a_key_whose_class_derives_from_the_sites_through_another_class_is_no_stand_in() -> None:
    # LateMxKernel(_Mid), _Mid(FastMxKernel): `late` runs FastMxKernel.apply and its assert
    mx = KERNELS["serve/kernels/mx.py"].replace(
        "class LateMxKernel(MxKernel):",
        "class _Mid(FastMxKernel):\n            pass\n\n        class LateMxKernel(_Mid):",
    )
    site = site_of("FastMx requires bfloat16", {**KERNELS, "serve/kernels/mx.py": mx})
    (chosen,) = site.selections
    assert chosen.others == ("slow",)


def test_no_key_of_the_same_kind_and_a_flag_that_may_be_none_link_nothing() -> None:
    # IntKernel: no other key names a kernel a list tries beside it; the quant dict's flag
    # may be None (the value then comes from elsewhere)
    assert site_of("IntKernel requires int8").selections == ()


def test_a_check_whose_message_states_no_limit_of_the_code_links_nothing() -> None:
    # an invariant every backend's code keeps: another key is no way out of it
    assert site_of("FastMx scale was not loaded").selections == ()
