"""An internal function's argument beside the setting that decides it: the setting is the
way out.

vllm's `ModelConfig.verify_with_parallel_config` refuses `parallel_config.enable_hc_sp` with
a pipeline-parallel size other than 1. The page offered "Pass `--pipeline-parallel-size 1`"
and, for the same test, "Pass the argument `parallel_config` of
`ModelConfig.verify_with_parallel_config` with a `.pipeline_parallel_size` equal to `1`":
the second names a call the package makes from the flag's value, which no user makes. When
a setting among the ways out decides the very name an argument solution changes, of the same
condition, that argument solution is left out: the setting is how a user reaches the value.
It stays when the site's function is a call the package hands to users (a function, or the
constructor of a class, exported: `LLM(enforce_eager=True)` beside `--enforce-eager`), and
when the setting is only named without its value ("Change the flag ...").
"""

from __future__ import annotations

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.state_gated import own_argument, users_call

__all__ = ["without_set_arguments"]


def without_set_arguments(kept: list[Solution], facts: Facts) -> list[Solution]:
    """`kept` without the site function's own arguments that a setting among them decides."""
    settings = [s for s in kept if _valued_setting(s)]
    if not settings or _entry_call(facts):
        return kept
    behind = [(k.name, k.behind) for k in facts.knobs if k.behind]
    return [
        s
        for s in kept
        if not (
            own_argument(s, facts)
            and any(_decides(t, b, s) for t in settings for name, b in behind if name == t.knob)
        )
    ]


def _valued_setting(solution: Solution) -> bool:
    """A setting given its value (or left out): not only named, nor given a placeholder."""
    text = solution.text
    return (
        solution.kind == "setting"
        and bool(solution.knob)
        and solution.condition is not None
        and not text.startswith("Change ")
        and " VALUE`" not in text
    )


def _entry_call(facts: Facts) -> bool:
    """Whether the site's function is a call the package hands to users: a function, or a
    class's constructor, by an exported path."""
    function = facts.stored.site.function
    own = "." not in function or function.endswith(".__init__")
    return own and users_call(facts)


def _decides(setting: Solution, behind: str, argument: Solution) -> bool:
    """Whether the setting decides the name the argument solution changes, in the same
    condition: the argument (`parallel_config`) and, for an attribute of it, the field
    (`pipeline_parallel_size`) are those the setting is behind."""
    if setting.condition != argument.condition:
        return False
    root, _, rest = behind.partition(".")
    if root in ("self", "cls") or f"`{root}`" not in argument.text:
        return False
    if not rest:
        return True
    field = rest.rpartition(".")[2]
    return f"`.{field}`" in argument.text or f"`{field}`" in argument.text
