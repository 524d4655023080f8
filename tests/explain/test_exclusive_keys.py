"""Yes/no keys of one JSON-valued flag that a check refuses together (`self.a and
self.b`, `self.a and not self.b`): each key turned the other way is a way out, offered in
the flag's JSON form, and the fix's "before" holds the keys as the check refuses them (a
key declared `bool | None` as well); a key of another type gets no value."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from test_config_key_solutions import ENG as KEYS

from errdex.explain.fix_forms import command_fix
from errdex.explain.page import Knob
from errdex.facts import KnobKind
from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            mixed_vocab: bool = False
            \"\"\"Let the draft use its own vocabulary.\"\"\"
            local_argmax: bool = False
            \"\"\"Reduce the draft's logits locally.\"\"\"
            offload: bool = True
            \"\"\"Keep the weights on the host.\"\"\"
            shared: bool | None = None
            \"\"\"Share the weights; None: decided from the replicas.\"\"\"
            pooled: str | None = None
            \"\"\"The pool of the outputs; None: decided from the model.\"\"\"

            def __post_init__(self):
                if self.mixed_vocab and self.local_argmax:
                    raise ValueError("mixed_vocab is not compatible with local_argmax.")
                if self.mixed_vocab and not self.offload:
                    raise ValueError("mixed vocabularies need the weights on the host.")
                if self.shared and self.pooled:
                    raise ValueError("shared weights cannot be pooled.")
        """,
    "eng/args.py": KEYS["eng/args.py"],  # the flag whose JSON the config takes
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_either_key_refused_together_is_turned_off_in_the_flag_s_json(eng: Store) -> None:
    page = page_with_message(eng, "eng", "mixed_vocab is not compatible")
    first = page.solutions[0]
    assert first.text == (
        "Pass `--spec-config '{\"mixed_vocab\": false}'` or `--spec-config "
        "'{\"local_argmax\": false}'` (with the rest of your --spec-config fields): the check "
        "refuses `mixed_vocab` true together with `local_argmax` true, so turning any one of "
        "them avoids it."
    )


def test_the_fix_s_before_holds_the_keys_as_the_check_refuses_them() -> None:
    knob = Knob(
        name="--spec-config",
        kind=KnobKind.FLAG,
        value_type="dict | None",
        command="eng serve MODEL_TAG",
        json_key="mixed_vocab",
        key_default="False",
    )
    fix = command_fix(knob, repr({"mixed_vocab": False}), "note.", (("local_argmax", True),))
    assert fix is not None
    assert fix.before == (
        'eng serve MODEL_TAG --spec-config \'{"local_argmax": true, "mixed_vocab": true}\''
    )
    assert fix.after == (
        'eng serve MODEL_TAG --spec-config \'{"local_argmax": true, "mixed_vocab": false}\''
    )


def test_a_key_the_check_wants_on_is_turned_on(eng: Store) -> None:
    page = page_with_message(eng, "eng", "mixed vocabularies need")
    assert page.solutions[0].text.startswith(
        "Pass `--spec-config '{\"mixed_vocab\": false}'` or `--spec-config '{\"offload\": true}'`"
    )


def test_keys_of_no_known_type_get_no_value(eng: Store) -> None:
    # `shared: bool | None` is a yes/no key; `pooled: str | None` has no `false`
    texts = [s.text for s in page_with_message(eng, "eng", "shared weights cannot").solutions]
    assert any('{"shared": false}' in t for t in texts), texts
    assert not any('"pooled": ' in t for t in texts), texts
