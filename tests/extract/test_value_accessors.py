"""Accessors: functions of no argument whose whole body returns a name, followed to what
the file first assigns that name."""

from __future__ import annotations

from errdex.extract.environment import value_accessors


def test_only_functions_of_no_argument_whose_body_is_one_return_are_accessors() -> None:
    text = (
        "class A:\n"
        "    _X = envs.X\n"
        "    @classmethod\n"
        "    def x(cls):\n"
        "        return cls._X\n"
        "    def y(self, flag):\n"
        "        return self._X\n"
        "    def z(self):\n"
        "        if self.on:\n"
        "            return self._X\n"
        "        return None\n"
        "def w():\n"
        "    return envs.W  # the variable\n"
        "def v(n) -> tuple():\n"
        "    return envs.V\n"
    )
    assert value_accessors(text) == {"x": "envs.X", "w": "envs.W"}


def test_a_one_line_docstring_above_the_return_is_skipped() -> None:
    text = 'def on(self):\n    """Whether it is on."""\n    return self._ON\n_ON = envs.ON\n'
    assert value_accessors(text) == {"on": "envs.ON"}


def test_a_name_assigned_no_plain_name_is_no_accessor() -> None:
    text = "class A:\n    _N = 2 * envs.N\n    def n(self):\n        return self._N\n"
    assert value_accessors(text) == {}


def test_names_joined_by_and_are_each_followed() -> None:
    text = (
        "class Ops:\n"
        "    _ON = envs.ON\n"
        "    _MOE = envs.MOE\n"
        "    @classmethod\n"
        "    def moe(cls):\n"
        "        return cls._ON and cls._MOE\n"
        "    @classmethod\n"
        "    def half(cls):\n"
        "        return cls._ON and cls._UNSET\n"
    )
    assert value_accessors(text) == {"moe": "envs.ON and envs.MOE"}
