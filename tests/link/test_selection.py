"""The settings that pick the code a site sits in: a backend named by an enum member that a
flag takes, a kernel class a variable takes out of a platform's list (the shapes of vllm's
attention backend registry and its linear kernel selection)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.registries import choice_lists, enum_registries, name_filters
from errdex.link import link_version
from errdex.linked_facts import IndexedSite
from selection_samples import GIVEN, SERVE


def link(files: dict[str, str]) -> list[IndexedSite]:
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in files.items()
        if path.endswith(".py")
    ]
    return link_version("serve", facts)


def site_of(message: str, files: dict[str, str] = SERVE) -> IndexedSite:
    (site,) = [
        s
        for s in link(files)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return site


def test_an_enum_member_naming_a_class_is_a_registry_entry() -> None:
    enums = enum_registries(textwrap.dedent(SERVE["serve/backends/registry.py"]))
    assert enums == {
        "AttentionBackendEnum": {
            "FLASH": "serve.backends.flash.FlashBackend",
            "CUTLASS": "serve.backends.cutlass.CutlassBackend",
            "TRITON": "serve.backends.triton.TritonBackend",
            "ROCM": "serve.backends.rocm.RocmBackend",
            "FLASH_SPARSE": "serve.backends.flash_sparse.FlashSparseBackend",
        }
    }


def test_lists_that_try_candidates_in_turn_are_kept_and_membership_tests_are_not() -> None:
    lists = choice_lists(textwrap.dedent(SERVE["serve/platforms.py"]))
    assert [c.items for c in lists] == [
        (
            "AttentionBackendEnum.CUTLASS",
            "AttentionBackendEnum.FLASH",
            "AttentionBackendEnum.TRITON",
        ),
        ("AttentionBackendEnum.FLASH", "AttentionBackendEnum.TRITON"),
        ("AttentionBackendEnum.TRITON", "AttentionBackendEnum.FLASH_SPARSE"),
        ("AttentionBackendEnum.ROCM", "AttentionBackendEnum.TRITON"),
        ("AttentionBackendEnum.CUTLASS", "AttentionBackendEnum.ROCM", "AttentionBackendEnum.SDPA"),
    ]
    imports = "from serve.kernels.slow import (\n    SlowKernel,\n    SafeKernel,\n)\n"
    assert choice_lists(imports) == []


def test_a_filter_by_class_name_that_skips_the_class_is_found() -> None:
    (found,) = name_filters(textwrap.dedent(SERVE["serve/kernels/__init__.py"]))
    assert (found.setting, found.name) == ("envs.SERVE_DISABLED_KERNELS", None)
    kept = "def ok(kernel):\n    if kernel.__name__ in envs.KEEP:\n        return kernel\n"
    assert name_filters(kept) == []


def test_a_backend_member_names_the_flag_typed_with_its_enum_and_the_stand_ins() -> None:
    site = site_of("block num must be positive")
    (chosen,) = site.selections
    assert (chosen.setting, chosen.how, chosen.value, chosen.registry) == (
        "--attention-backend",
        "choose",
        "CUTLASS",
        "AttentionBackendEnum.CUTLASS",
    )
    # listed beside it in a priority list, the one in more lists first; never ROCM, listed
    # with it only where a member names no class (an encoder's list) or in a membership test
    assert chosen.others == ("TRITON", "FLASH")
    assert chosen.listed == "serve/platforms.py:7"


def test_only_what_is_listed_wherever_the_code_is_stands_in() -> None:
    # FLASH is listed with CUTLASS only for the newest devices, with TRITON everywhere
    (chosen,) = site_of("heads must be a multiple of 8").selections
    assert chosen.others == ("TRITON",)


def test_a_backend_of_another_kind_does_not_stand_in() -> None:
    # TRITON is listed with FLASH_SPARSE, but it serves no sparse model
    assert site_of("topk {k} is above 2048").selections == ()


def test_code_that_makes_the_same_check_does_not_stand_in() -> None:
    # TRITON refuses alibi slopes too (the message names its own class): choosing it
    # leads into the same error
    (chosen,) = site_of("CutlassImpl does not support alibi_slopes").selections
    assert chosen.others == ("FLASH",)


def test_a_kernel_in_a_list_filtered_by_name_is_taken_out_by_the_variable() -> None:
    site = site_of("FastKernel expects a 2-D weight")
    (excluded,) = site.selections
    assert (excluded.setting, excluded.kind, excluded.how, excluded.value) == (
        "SERVE_DISABLED_KERNELS",
        "env",
        "exclude",
        "FastKernel",
    )
    assert excluded.others == ("SlowKernel", "SafeKernel")
    assert (excluded.file, excluded.line, excluded.separator) == (
        "serve/kernels/__init__.py",
        16,
        ",",
    )


def test_code_no_setting_picks_has_no_selection() -> None:
    facts = {k: v for k, v in SERVE.items() if k != "serve/kernels/__init__.py"}
    sites = link(facts)
    fast = [s for s in sites if s.file == "serve/kernels/fast.py"]
    assert fast and all(s.selections == () for s in fast)


def _others_with_triton(
    triton: str, message: str = "block num", cutlass: str | None = None
) -> tuple[str, ...]:
    files = {**SERVE, "serve/backends/triton.py": triton}
    if cutlass is not None:
        files["serve/backends/cutlass.py"] = cutlass
    (site,) = [
        s
        for s in link(files)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    (chosen,) = site.selections
    return chosen.others


def test_a_backend_whose_class_inherits_the_method_from_another_file_does_not_stand_in() -> None:
    # TritonImpl overrides only `__init__`: `CutlassImpl._decode` and its assert run for
    # TRITON too, so choosing it leads into the same error
    inherits = """
        from serve.backends.cutlass import CutlassImpl

        class TritonBackend:
            pass

        class TritonImpl(CutlassImpl):
            def __init__(self, alibi_slopes):
                pass
        """
    assert _others_with_triton(inherits) == ("FLASH",)
    # one that overrides the method runs its own code
    overrides = inherits + "\n            def _decode(self, blocks):\n                pass\n"
    assert _others_with_triton(overrides) == ("TRITON", "FLASH")


def test_a_backend_whose_class_derives_from_the_chosen_one_does_not_stand_in() -> None:
    # TritonBackend(CutlassBackend) inherits what CutlassBackend hands out (its impl, its
    # builder): the assert in CutlassImpl runs for TRITON too
    derived = """
        from serve.backends.cutlass import CutlassBackend

        class TritonBackend(CutlassBackend):
            def get_name(self):
                return "TRITON"
        """
    assert _others_with_triton(derived) == ("FLASH",)
    # one that derives from another class runs its own code
    other = derived.replace("(CutlassBackend)", "").replace(
        "from serve.backends.cutlass import CutlassBackend", ""
    )
    assert _others_with_triton(other) == ("TRITON", "FLASH")


# a check in a method of the chosen class itself
_CHECKED_BACKEND = SERVE["serve/backends/cutlass.py"].replace(
    "class CutlassBackend:\n            pass",
    "class CutlassBackend:\n"
    "            def _check(self, blocks):\n"
    '                assert blocks > 1, f"backend blocks {blocks}"',
)


def test_a_derived_backend_that_defines_the_sites_method_again_stands_in() -> None:
    derived = """
        from serve.backends.cutlass import CutlassBackend

        class TritonBackend(CutlassBackend):
            pass
        """
    assert _others_with_triton(derived, "backend blocks", _CHECKED_BACKEND) == ("FLASH",)
    overrides = derived.replace("pass", "def _check(self, blocks):\n                pass")
    assert _others_with_triton(overrides, "backend blocks", _CHECKED_BACKEND) == (
        "TRITON",
        "FLASH",
    )


def test_a_backend_whose_base_is_unknown_but_named_as_the_sites_class_does_not_stand_in() -> None:
    unknown = """
        from elsewhere import CutlassImpl

        class TritonBackend:
            pass

        class TritonImpl(CutlassImpl):
            pass
        """
    assert _others_with_triton(unknown) == ("FLASH",)


def test_a_list_is_read_across_comments_and_blanks_and_keeps_its_first_line() -> None:
    text = (
        "KERNELS = [\n"
        "    FastKernel ,\n"
        "    # the fallback\n"
        "\n"
        "    SafeKernel,\n"
        "    *extra_kernels,\n"
        "]\n"
        "run(\n"
        "    FastKernel,\n"
        "    other,\n"
        "    SafeKernel,\n"
        ")\n"
        "ORDER = (\n"
        "    Backend.FLASH,\n"
        "    Backend.TRITON,\n"
        ")"
    )
    lists = choice_lists(text)
    assert [(c.items, c.line) for c in lists] == [
        (("FastKernel", "SafeKernel"), 2),
        (("Backend.FLASH", "Backend.TRITON"), 14),
    ]
    # a run on the file's first line has no opening bracket above it
    assert choice_lists("FastKernel,\nSafeKernel,\n") == []


def test_a_member_only_the_flag_picks_is_linked_with_the_listed_members_of_its_kind() -> None:
    # no list holds HPC_ATTN, and the layer only tests it (`==`): it runs when given; the
    # members of its kind (`_ATTN`) that lists hold stand in, never FLASH_MLA
    (chosen,) = site_of("HPC attention does not support ALiBi", GIVEN).selections
    assert (chosen.setting, chosen.how, chosen.value, chosen.given) == (
        "--attention-backend",
        "choose",
        "HPC_ATTN",
        True,
    )
    assert chosen.others == ("TRITON_ATTN", "FLASH_ATTN")
    assert chosen.listed is None


def test_a_member_code_picks_itself_is_not_linked_when_no_list_holds_it() -> None:
    # a platform returns CPU_ATTN; a model imports and hands out MODEL_ATTN's class
    assert site_of("CPU attention supports head sizes", GIVEN).selections == ()
    assert site_of("own attention supports a top-k", GIVEN).selections == ()
