"""A class's line of bases and a method's owner are worked out once per class and asked
the same afterwards (`Namespace.class_and_bases`, `method_owner`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link.resolve import Namespace

FILES = {
    "pkg/base.py": """
        class Base:
            def run(self):
                pass

            def close(self):
                pass
        """,
    "pkg/impl.py": """
        from pkg.base import Base

        class Impl(Base):
            def run(self):
                pass

        class Other:
            pass
        """,
}


def _names() -> Namespace:
    return Namespace([extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()])


def test_the_line_of_bases_is_the_same_each_time_and_per_class() -> None:
    names = _names()
    impl = names.modules["pkg.impl"]
    first = [c.qualname for c in names.class_and_bases(impl, "Impl")]
    assert first == ["pkg.impl.Impl", "pkg.base.Base"]
    assert [c.qualname for c in names.class_and_bases(impl, "Impl")] == first
    assert [c.qualname for c in names.class_and_bases(impl, "Other")] == ["pkg.impl.Other"]
    assert list(names.class_and_bases(impl, "Missing")) == []


def test_a_method_owner_is_kept_per_method_and_per_kind_of_lookup() -> None:
    names = _names()
    impl = names.modules["pkg.impl"]
    assert names.method_owner(impl, "Impl", "run") == ("pkg.impl", "Impl.run")
    # `super().run()`: only a base's, asked after the class's own was found
    assert names.method_owner(impl, "Impl", "run", bases_only=True) == ("pkg.base", "Base.run")
    assert names.method_owner(impl, "Impl", "close") == ("pkg.base", "Base.close")
    assert names.method_owner(impl, "Other", "run") is None
    assert names.method_owner(impl, "Impl", "run") == ("pkg.impl", "Impl.run")
