"""What a class's constructor keeps of its parameters (`ClassFact.attr_from`), and a `not`
of a name a call gives (`CallSite.passes`), parsed or read from a blanked body's text."""

from __future__ import annotations

import re
import textwrap

import pytest
from extract_samples import blanked_facts

from errdex.extract import extract_file
from errdex.facts import FileFacts


def facts_of(source: str) -> FileFacts:
    return blanked_facts(source, "pkg/engine.py")


# the constructor raises nothing: the skeleton blanks it, and the facts come from its text
ENGINE = """
    class Engine:
        def __init__(self, config, log_stats: bool, quiet=False, name=None, mode="a", n=1):
            \"\"\"Build it.\"\"\"
            self.config = config
            self.log_stats: bool = log_stats
            self.verbose = not quiet
            self.name = name or "engine"
            if mode:
                self.mode = mode
            self.count = n
            self.count += 1
            self.logger = make_logger(
                log_stats=log_stats,
                quiet=quiet,
            )

        def get_metrics(self):
            assert self.log_stats, "Stat logging disabled"
    """


def test_a_parameter_kept_as_it_is_or_negated_at_the_constructors_top() -> None:
    (engine,) = facts_of(ENGINE).classes
    assert engine.attr_from == {
        "config": "config",
        "log_stats": "log_stats",
        "verbose": "not quiet",
    }
    # not kept: a default (`name or ...`), a branch (`mode`), an attribute set twice (`count`)


def test_a_parameter_the_constructor_rebinds_is_not_kept() -> None:
    source = ENGINE.replace('"""Build it."""', '"""Build it."""\n            config = dict(config)')
    (engine,) = facts_of(source).classes
    assert "config" not in engine.attr_from
    assert engine.attr_from["log_stats"] == "log_stats"


def test_a_negated_name_a_call_gives_is_kept_with_its_not() -> None:
    source = """
        from pkg.engine import Engine


        class Builder:
            @classmethod
            def build(cls, args, disable: bool):
                if args is None:
                    raise ValueError("no args")
                Engine(None, log_stats=not disable)
                return cls(None, log_stats=(not args.disable_log_stats))
        """
    facts = extract_file("pkg/build.py", textwrap.dedent(source).encode())
    calls = {c.callee: c.passes for c in facts.call_sites}
    assert ("log_stats", "not disable", 1) in calls["Engine"]
    # `cls(...)` is kept: the linker reaches the class's own constructor through it
    assert ("log_stats", "not args.disable_log_stats", -1) in calls["cls"]


def test_a_negated_chain_a_blanked_body_gives_by_keyword() -> None:
    source = """
        from pkg.engine import Engine


        def build(engine_args):
            return Engine(None, log_stats=not engine_args.disable_log_stats, x=(not a.b))
        """
    facts = blanked_facts(source, "pkg/build.py")
    (call,) = [c for c in facts.call_sites if c.callee == "Engine"]
    assert ("log_stats", "not engine_args.disable_log_stats", -1) in call.passes
    assert ("x", "not a.b", -1) in call.passes


def test_each_way_of_binding_the_parameter_again_still_drops_it() -> None:
    rebinds = {
        "tuple": "other, config = config, 1",
        "augmented": "config += 1",
        "annotated": "config: dict = {}",
        "starred": "*config, last = parts",
        "loop": "for key, config in pairs:\n                pass",
        "with": "with open(path) as config:\n                pass",
        "walrus": "if (config := load()):\n                pass",
        "delete": "del config",
    }
    for how, line in rebinds.items():
        source = ENGINE.replace('"""Build it."""', f'"""Build it."""\n            {line}')
        (engine,) = facts_of(source).classes
        assert "config" not in engine.attr_from, how
        assert engine.attr_from["log_stats"] == "log_stats", how
    # a keyword given inside brackets, or a string's bracket before it, binds nothing
    given = 'x = f(")",\n                config=1)'
    (engine,) = facts_of(
        ENGINE.replace('"""Build it."""', f'"""Build it."""\n            {given}')
    ).classes
    assert engine.attr_from["config"] == "config"


def test_kept_parameters_compile_a_pattern_only_for_a_line_that_may_bind_them_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a parameter's own patterns are made where a line could bind it again, once per name
    # (main compiled two per kept attribute of every class: a thousand constructors of a
    # package, a thousand compiles, most missing re's cache)
    classes = "".join(
        f"""
        class Kept{index}:
            def __init__(self, gauge_switch):
                self.gauge_switch = gauge_switch
                self.logger = make_logger(gauge=gauge_switch)

        class Looped{index}:
            def __init__(self, gauge_switch, items):
                self.gauge_switch = gauge_switch
                for gauge_switch in items:
                    pass
        """
        for index in range(20)
    )
    compiled: list[str] = []
    compile_ = re.compile

    def counted(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return compile_(pattern, flags)

    monkeypatch.setattr(re, "compile", counted)
    facts = facts_of(classes)
    kept = {c.name: c.attr_from for c in facts.classes}
    assert kept["Kept7"] == {"gauge_switch": "gauge_switch"}
    assert kept["Looped7"] == {}
    assert len([p for p in compiled if "gauge_switch" in p]) <= 1


def test_an_attribute_given_as_a_keyword_before_another_is_still_kept() -> None:
    # `get_metrics` raises: its body is kept, and the class's text passes `self.log_stats`
    # before another keyword, which is no assignment of it
    source = ENGINE.replace(
        '            assert self.log_stats, "Stat logging disabled"',
        "            report(log_stats=self.log_stats, quiet=False)\n"
        '            assert self.log_stats, "Stat logging disabled"',
    )
    assert "report(log_stats=self.log_stats" in source
    (engine,) = facts_of(source).classes
    assert engine.attr_from["log_stats"] == "log_stats"
