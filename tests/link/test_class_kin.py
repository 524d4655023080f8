"""The classes in other files that derive from a site's class, or that it derives from, are
counted: code there may set what the class's methods read (`IndexedSite.kin`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

BASE = """
    class Base:
        def __init__(self, worker):
            self._worker = worker


    class Alone:
        def run(self):
            assert self._state is not None


    class Local:
        def run(self):
            assert self._state is not None


    class Near(Local):
        pass
    """

MORE = """
    import torch.nn as nn

    from pkg.base import Base


    class Child(Base):
        def run(self):
            assert self._worker is not None


    class Layer(nn.Module):
        def run(self):
            assert self._weight is not None


    class GrandChild(Child):
        pass


    def helper(x):
        assert x is not None
    """


def sites() -> dict[str, IndexedSite]:
    files = {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/more.py": MORE}
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return {s.site.function: s for s in link_version("pkg", facts)}


def test_classes_elsewhere_above_and_below_are_counted() -> None:
    found = sites()
    assert found["Child.run"].kin == 1  # its base, in another file; its subclass is not
    assert found["Layer.run"].kin == 0  # a base from outside the package is not counted
    assert found["Alone.run"].kin == 0
    assert found["Local.run"].kin == 0  # a subclass in its own file is read with it
    assert found["helper"].kin is None  # no method of a class


DIAMOND = """
    class Top:
        def run(self):
            assert self._state is not None


    class Left(Top):
        pass


    class Right(Top):
        pass


    class Both(Left, Right):
        pass
    """


def test_a_diamond_of_subclasses_in_one_file_counts_none_elsewhere() -> None:
    files = {"pkg/__init__.py": "", "pkg/shapes.py": DIAMOND}
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    found = {s.site.function: s for s in link_version("pkg", facts)}
    # `Both` is reached through `Left` and through `Right`: the walk goes on past it
    assert found["Top.run"].kin == 0
