"""Callers through a method called on an object whose class the code says
(`link.receivers.ReceiverClasses.site_class`): an attribute of the object's own its class
annotates or builds (`self.runner = Runner()`), a parameter's annotation, an `isinstance`
held true, a factory whose return is annotated. A method's name alone is no evidence."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.link.callers import CallerIndex
from errdex.link.receivers import ReceiverClasses
from errdex.link.resolve import Namespace
from samples import BACKEND_ARGS

RUNNER = """
    class Runner:
        def prepare(self, size):
            if size > 8:
                raise ValueError("too large a batch")


    class Other:
        def prepare(self, size):
            return size


    def make_runner() -> Runner:
        return Runner()
    """

ENGINE = """
    from pkg.runner import Runner, make_runner


    class Engine:
        held: Runner

        def __init__(self):
            self.runner = Runner()
            self.made = make_runner()
            self.annotated: Runner | None = None

        def step(self, batch):
            self.runner.prepare(batch)

        def parsed_step(self, batch):
            if batch is None:
                raise ValueError("no batch")
            self.made.prepare(batch)

        def field_step(self, batch):
            self.held.prepare(batch)

        def annotated_step(self, batch):
            self.annotated.prepare(batch)


    class Reassigning(Engine):
        def __init__(self, runner):
            self.runner = runner

        def step_again(self, batch):
            self.runner.prepare(batch)


    class Kept:
        def __init__(self, runner: Runner):
            self.runner = runner

        def kept_step(self, batch):
            self.runner.prepare(batch)


    def drive(runner: Runner, batch):
        runner.prepare(batch)


    def guarded(thing, batch):
        if isinstance(thing, Runner):
            thing.prepare(batch)
        if batch is None:
            raise ValueError("no batch")


    def unknown(thing, batch):
        thing.prepare(batch)
    """


def _callers() -> set[str]:
    files = {"pkg/__init__.py": "", "pkg/runner.py": RUNNER, "pkg/engine.py": ENGINE}
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in files.items()]
    names = Namespace(facts)
    index = CallerIndex(facts, names, receivers=ReceiverClasses(names))
    return {call.function for call, _ in index.passing_calls("pkg.runner", "Runner.prepare")}


def test_a_method_called_on_an_object_whose_class_the_code_says_is_a_caller() -> None:
    assert _callers() == {
        "Engine.step",  # `self.runner = Runner()` in the constructor
        "Engine.parsed_step",  # `self.made = make_runner()`, returning a `Runner`
        "Engine.field_step",  # `held: Runner` in the class body
        "Engine.annotated_step",  # `self.annotated: Runner | None`
        "Kept.kept_step",  # `self.runner = runner`, the constructor's `runner: Runner`
        "drive",  # `runner: Runner`
        "guarded",  # `isinstance(thing, Runner)` held true
    }


# A setting handed down a method called on the object's own attribute: the flag is behind
# the runner's parameter only when the engine's class says the attribute is a `Runner`.
FLOW = {
    "eng/args.py": BACKEND_ARGS,
    "eng/runner.py": """
        class Runner:
            def select(self, selected_backend):
                if selected_backend is not None:
                    raise ValueError(f"Selected backend {selected_backend} is not valid")
        """,
    "eng/engine.py": """
        from eng.runner import Runner


        class Engine:
            def __init__(self, runner):
                self.runner = RUNNER

            def start(self, attention_config):
                backend = attention_config.backend
                self.runner.select(backend)
        """,
}


def _flow_knobs(runner: str) -> set[str]:
    files = {**FLOW, "eng/engine.py": FLOW["eng/engine.py"].replace("RUNNER", runner)}
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in files.items()]
    (site,) = [s for s in link_version("eng", facts) if s.site.function == "Runner.select"]
    return {k.name for k in site.knobs if k.behind == "selected_backend"}


def test_a_setting_reaches_a_check_through_a_method_of_an_attribute_of_known_class() -> None:
    assert _flow_knobs("Runner()") == {"--attention-backend", "--attention-config"}
    assert _flow_knobs("runner") == set()  # `self.runner = runner`: the class is not said


def test_a_guess_by_the_methods_name_is_not_kept_for_the_callers() -> None:
    # `class_of` (a raising helper's call) may take the one `make` of the version whose
    # return is annotated; the callers' `site_class`, asked of the same spelling on the
    # same instance (`link` shares one), must not
    files = {
        "pkg/runner.py": RUNNER + "\n    class Factory:\n        def make(self) -> Runner: ...\n",
        "pkg/step.py": """
            def step(factory, size):
                runner = factory.make()
                runner.prepare(f"too large a batch: {size}")
            """,
    }
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in files.items()]
    receivers = ReceiverClasses(Namespace(facts))
    step = facts[1]
    ((call,), (site,)) = step.calls, step.call_sites
    found = receivers.class_of(call, step)
    assert found is not None and found.qualname == "pkg.runner.Runner"
    assert receivers.site_class(site, step) is None
