"""The templates' environment: a dict's fields read as Jinja reads them."""

from __future__ import annotations

import jinja2
import pytest

from errdex.web.templating import _env


def test_a_dict_field_reads_as_its_item_and_dict_methods_stay_methods() -> None:
    template = _env.from_string("{{ d.name }} {{ d.items() | list | length }} {{ d.get('k') }}")
    assert template.render(d={"name": "<x>", "items": "shadowed", "k": 1}) == "&lt;x&gt; 3 1"


def test_a_missing_field_is_strictly_undefined() -> None:
    with pytest.raises(jinja2.UndefinedError, match="has no attribute 'absent'"):
        _env.from_string("{{ d.absent }}").render(d={"name": 1})


def test_other_objects_read_attributes_first() -> None:
    class Thing(dict[str, int]):
        name = "attribute"

    assert _env.from_string("{{ t.name }}").render(t=Thing(name=1)) == "attribute"
