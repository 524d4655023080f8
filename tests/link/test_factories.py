"""`raise make_error(x)`: the class and texts a function of the version makes and returns."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import SiteKind
from errdex.link import link_version
from errdex.linked_facts import IndexedSite


def link(files: dict[str, str]) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("demo", facts)


def raised(sites: list[IndexedSite], line: int) -> list[tuple[str | None, str | None]]:
    """(exception qualname, message) of each site raised at `line`."""
    return sorted(
        (
            s.exception.qualname if s.exception is not None else None,
            s.site.message.text if s.site.message is not None else None,
        )
        for s in sites
        if s.site.line == line and s.site.kind is SiteKind.RAISE
    )


FACTORIES = """
    def _dispatch_error(node, reason):
        return ValueError(f"{reason}: {describe(node)}. Supported are names and calls.")

    def _type_error(name, value):
        if value is None:
            return TypeError(f"{name!r} must not be None")
        return TypeError(f"{name!r} must be an int, got {type(value).__name__}")

    def _either(flag):
        if flag:
            return ValueError("bad flag")
        return TypeError("bad flag")

    def _maybe(flag):
        if flag:
            return ValueError("bad flag")
        return flag

    def run(node, size, flag):
        if node:
            raise _dispatch_error(node, "Unsupported dispatch expression")
        if size:
            raise _type_error("size", size)
        if flag:
            raise _either(flag)
        raise _maybe(flag)
    """


def test_a_module_functions_class_and_texts_with_the_raises_arguments() -> None:
    sites = link({"pkg/__init__.py": "", "pkg/warmup.py": FACTORIES})
    assert raised(sites, 22) == [
        (
            "builtins.ValueError",
            "Unsupported dispatch expression: {describe(node)}. Supported are names and calls.",
        )
    ]
    # Two returns, two texts: a site for each, the argument's value put in.
    assert raised(sites, 24) == [
        ("builtins.TypeError", "'size' must be an int, got {type(size).__name__}"),
        ("builtins.TypeError", "'size' must not be None"),
    ]


def test_a_function_of_two_classes_or_other_returns_stays_as_it_was() -> None:
    sites = link({"pkg/__init__.py": "", "pkg/warmup.py": FACTORIES})
    assert raised(sites, 26) == [("_either", "{flag}")]
    assert raised(sites, 27) == [("_maybe", "{flag}")]


def test_a_method_made_local_and_a_function_of_another_module() -> None:
    # packaging's `_invalid_metadata`: the text is its second argument, a parameter the
    # method formats; SQLAlchemy's `_no_kw()`, imported from another module.
    sites = link(
        {
            "pkg/__init__.py": "",
            "pkg/errors.py": """
                class InvalidMetadata(ValueError):
                    def __init__(self, field, message):
                        self.field = field
                        self.message = message
                        super().__init__(message)

                class ArgumentError(Exception):
                    pass

                def _no_kw():
                    return ArgumentError("Additional keyword arguments are not accepted")
                """,
            "pkg/metadata.py": """
                from pkg.errors import InvalidMetadata, _no_kw

                class Validated:
                    def _invalid_metadata(self, msg, cause=None):
                        exc = InvalidMetadata(
                            self.raw_name, msg.format_map({"field": repr(self.raw_name)})
                        )
                        exc.__cause__ = cause
                        return exc

                class Version(Validated):
                    def check(self, value, **kw):
                        if kw:
                            raise _no_kw()
                        raise self._invalid_metadata(f"{value!r} is invalid for {{field}}")
                """,
        }
    )
    assert raised(sites, 15) == [
        ("pkg.errors.ArgumentError", "Additional keyword arguments are not accepted")
    ]
    assert raised(sites, 16) == [
        ("pkg.errors.InvalidMetadata", "{value!r} is invalid for {self.raw_name!r}")
    ]


def test_a_factory_in_a_large_file_is_read_whole() -> None:
    # A large file's quiet bodies are blanked before parsing: one returning the exception
    # it makes is kept, as a raise of its call needs it.
    filler = "\n".join(f"def quiet_{i}(x):\n    return x + {i}\n" for i in range(600))
    source = filler + textwrap.dedent(
        """
        def _missing_error(name):
            return ImportError(
                f"The {name!r} load format requires its package. "
                "Install it with `pip install modelexpress`."
            )

        def load(name):
            raise _missing_error(name)
        """
    )
    sites = link({"pkg/__init__.py": "", "pkg/loader.py": source})
    line = source.splitlines().index("    raise _missing_error(name)") + 1
    assert raised(sites, line) == [
        (
            "builtins.ImportError",
            "The {name!r} load format requires its package. "
            "Install it with `pip install modelexpress`.",
        )
    ]


def test_an_argument_with_a_backslash_bound_into_an_f_string_is_left_as_written() -> None:
    # Before 3.12 `ast.unparse` cannot write a backslash inside an f-string's expression
    # part: binding `"Unescaped '\\' ..."` into `f"{msg} ..."` raised out of linking, and
    # indexing a real release with this shape (tomli 2.0.1) failed.
    sites = link(
        {
            "demo/parse.py": r"""
                def suffixed_err(src, pos, msg):
                    return ValueError(f"{msg} (at {where(src, pos)})")

                def parse(src, pos):
                    if src[pos] == "\\":
                        raise suffixed_err(src, pos, "Unescaped '\\' in a string")
            """
        }
    )
    assert raised(sites, 7) == [
        ("builtins.ValueError", "Unescaped '\\' in a string (at {where(src, pos)})")
    ]
