"""A check refusing a second registration under one name: the way out is another name in
the user's own call (the public function, or the decorator factory whose decorator checks),
and "What it means" says the check is of that declaration, never the program's own state
worth reporting. Nothing is said for a table of an object's own or one the call was handed,
a check with no registration after it, a name the function changes first, a name an
earlier guard limits, or a private maker no user calls."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

REG = {
    "reg/__init__.py": "",
    "reg/ops.py": """
        from typing import overload

        op_registry = {}
        _inspectors = {}
        RESERVED = {"all", "none"}


        class Op:
            @classmethod
            def register(cls, name):
                def decorator(op_cls):
                    assert name not in op_registry, f"Duplicate op name: {name}"
                    op_registry[name] = op_cls
                    return op_cls

                return decorator

            @classmethod
            def register_oot(cls, _decorated=None, name=None):
                def decorator(op_cls):
                    reg_name = name if name is not None else cls.__name__
                    assert reg_name not in op_registry, f"Duplicate op name: {reg_name}"
                    op_registry[reg_name] = op_cls
                    return op_cls

                if _decorated is None:
                    return decorator
                return decorator(_decorated)


        class Kernel:
            registry = {}


        @overload
        def register_kernel(f, *, name=None): ...


        def register_kernel(f=None, *, name=None):
            def decorator(_f):
                kernel_name = _f.__name__ if name is None else name
                assert kernel_name not in Kernel.registry, f"Kernel {kernel_name} is taken."
                Kernel.registry[kernel_name] = _f
                return _f

            if f is not None:
                return decorator(f)
            return decorator


        def _inspects(type_):
            def decorate(fn):
                if type_ in _inspectors:
                    raise AssertionError(f"Type {type_} is already registered")
                _inspectors[type_] = fn
                return fn

            return decorate


        def check_name(name):
            if name in RESERVED:
                raise ValueError(f"{name} is reserved")
            return name


        def register_lower(name, value):
            name = name.lower()
            if name in op_registry:
                raise ValueError(f"{name} is registered twice")
            op_registry[name] = value
        """,
    "reg/factory.py": """
        class Factory:
            _registry = {}

            @classmethod
            def register_backend(cls, name, path):
                \"\"\"Register a backend under `name`.\"\"\"
                if name in cls._registry:
                    raise ValueError(f"Backend {name!r} is already registered.")
                if not name.isidentifier():
                    raise ValueError(f"Invalid backend name: {name!r}")
                cls._registry[name] = path


        class Modes:
            _builders = {}

            @classmethod
            def register(cls, mode, builder):
                if mode not in {"embedded"}:
                    raise ValueError(f"unknown mode: {mode!r}")
                if mode in cls._builders:
                    raise ValueError(f"Mode {mode!r} is already registered")
                cls._builders[mode] = builder


        class Table:
            def __init__(self):
                self._items = {}

            def add(self, key, item):
                if key in self._items:
                    raise KeyError(f"Key {key} is in the table already")
                self._items[key] = item


        def current():
            return {}


        def attach(prefix, layer):
            context = current()
            if prefix in context:
                raise ValueError(f"Duplicate layer name: {prefix}")
            context[prefix] = layer
        """,
}


@pytest.fixture(scope="module")
def reg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("reg"), "reg", REG)


def test_a_decorator_factory_argument_already_registered(reg: Store) -> None:
    page = page_in_function(reg, "reg", "Op.register.<locals>.decorator")
    first = page.solutions[0]
    assert first.text.startswith(
        "Register under a name not taken yet: pass `reg.ops.Op.register` a name "
        "`op_registry` does not hold as its `name` (the check at line"
    )
    assert "`name`, the argument of your call of `reg.ops.Op.register`" in page.what_it_means
    assert "worth reporting" not in page.what_it_means


def test_a_name_that_falls_back_when_left_out(reg: Store) -> None:
    # the function the site is in, not the `overload` stub before it
    page = page_in_function(reg, "reg", "register_kernel.<locals>.decorator")
    assert page.solutions[0].text.startswith(
        "Register under a name not taken yet: pass `reg.ops.register_kernel` a name "
        "`Kernel.registry` does not hold as its `name`; left out, the name is `_f.__name__`"
    )
    assert "(its `name`, or `_f.__name__` when that is left out)" in page.what_it_means
    # named after the class it is called on: the name says what the new one stands in for
    page = page_in_function(reg, "reg", "Op.register_oot.<locals>.decorator")
    assert not any(s.text.startswith("Register under") for s in page.solutions)


def test_a_public_registering_method(reg: Store) -> None:
    page = page_with_message(reg, "reg", "Backend {name!r} is already registered.")
    assert page.solutions[0].text.startswith(
        "Register under a name not taken yet: pass `reg.factory.Factory.register_backend` "
        "a name `cls._registry` does not hold as its `name`; the new name must then pass "
        "the check at line 10 as well (the check at line 8 refuses"
    )
    assert "not of the program's own state" in page.what_it_means


@pytest.mark.parametrize(
    "function",
    [
        "Table.add",  # an object's own table
        "attach",  # a table the call was handed
        "_inspects.<locals>.decorate",  # a private maker
        "check_name",  # no registration after the check
        "register_lower",  # the name changed before the check
    ],
)
def test_no_registration_said(reg: Store, function: str) -> None:
    page = page_in_function(reg, "reg", function)
    assert not any(s.text.startswith("Register under") for s in page.solutions)
    assert "registers under" not in page.what_it_means


def test_no_other_name_when_an_earlier_guard_takes_one_only(reg: Store) -> None:
    page = page_with_message(reg, "reg", "Mode {mode!r} is already registered")
    assert not any(s.text.startswith("Register under") for s in page.solutions)
