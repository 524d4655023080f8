"""What the source around a site says that its conditions do not: read at extraction,
where the file is parsed anyway, so that a page reads no source."""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from errdex.struct_hints import evaluate_field_types

MAX_COMMENT = 400  # characters of one comment block a page quotes


class TryRead(msgspec.Struct, frozen=True, gc=False):
    """What the `try` of an except clause did: the modules it imported, the calls it made."""

    imports: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    line: int = 0
    # The names it calls (`parse` of `parser.parse()`, `Parser` of `Parser.load()`): what
    # the `except` can have caught comes from what these reach.
    callees: tuple[str, ...] = ()


class Setter(msgspec.Struct, frozen=True, gc=False):
    """A public method of the site's class that sets an attribute its conditions test:
    `set_alt_screen(enable=True)` assigns `self._is_alt_screen = enable`."""

    attr: str  # the name the condition reads: is_alt_screen (a property returning target)
    target: str  # the attribute assigned: _is_alt_screen
    method: str  # set_alt_screen
    value: str  # the source assigned: a parameter (`enable`) or a literal (`True`)
    default: str | None = None  # the parameter's default, when the value is a parameter
    guard: str | None = None  # the `if` test the assignment sits under, in the method


class SourceRead(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """What the source of a site's function says that its conditions do not: which guards
    are no way out because their other branch fails too, which names are the function's
    parameters (the caller's input) or were set from its class's constructor, what the `try`
    of an `except` did, the comments and docstring that say why.

    Read at extraction, where the file is parsed anyway, so a page reads no source. The
    line-keyed maps hold only the lines of the site's own conditions (and the site's line
    for comments), and `init_params` only the attributes its conditions or bindings name.
    """

    params: tuple[str, ...] = ()  # without self/cls
    # `self.attr` → the parameter of the class's `__init__` assigned to it as it is
    init_params: dict[str, str] = {}
    # `if` line → whether its body, and its else branch, always fail (raise)
    other_side: dict[int, tuple[bool, bool]] = {}
    # `if` line → whether its body, and its else branch, log a warning or warn: for a site
    # that is itself a warning, such a branch is the same trouble said another way
    warns: dict[int, tuple[bool, bool]] = {}
    comments: dict[int, str] = {}  # line → its comment
    docstring: str | None = None
    # the parameters a call cannot pass by keyword: positional-only, `*args`, `**kwargs`
    positional: tuple[str, ...] = ()
    # the parameters a call must give (no default), in order
    required: tuple[str, ...] = ()
    # those of the class's own `__init__` (when `init_params` names any); None: not read
    init_required: tuple[str, ...] | None = None
    # `self.attr` → the attribute chain the constructor assigns it, as written
    # (`vllm_config.model_config.max_model_len`): at the top of `__init__`, and the only
    # assignment of the attribute in its class, so the attribute is that value
    init_values: dict[str, str] = {}
    # what an input a condition reads holds when the call leaves it out: a parameter of the
    # function (`proxy`) or an attribute set from the constructor's (`self.is_topk_gather`)
    # → its default's source; only where nothing rebinds the parameter first
    defaults: dict[str, str] = {}
    tries: dict[int, TryRead] = {}  # except line → its try
    # where the site sits when no branch condition says it: the `else` of a loop (it runs
    # when the loop ends without `break`), an except clause
    placement: str | None = None
    # public methods of the class that set a `self.X` the conditions test
    setters: tuple[Setter, ...] = ()

    def other_branch_fails(self, line: int, holds: bool, warning: bool = False) -> bool:
        """Whether making the `if` test at `line` come out the other way fails too (the
        branch the path does not take raises, or warns when the site is a warning): such
        a guard is no way out."""
        sides = self.other_side.get(line)
        if sides is None:
            return False
        body_fails, else_fails = sides
        if warning:
            body_warns, else_warns = self.warns.get(line, (False, False))
            body_fails, else_fails = body_fails or body_warns, else_fails or else_warns
        # `holds`: the test is true on the path, so the way out is the else branch.
        return else_fails if holds else body_fails

    def comments_near(self, lines: list[int]) -> list[str]:
        """The comments just above each line (a block of `#` lines) and on it, in order."""
        out: list[str] = []
        for line in lines:
            block, _ = self.comment_block(line, lines)
            text = " ".join(block).strip()
            if text and text not in out:
                out.append(text[:MAX_COMMENT])
        return out

    def comment_block(self, line: int, stops: Collection[int]) -> tuple[list[str], int]:
        """The comments of the block of `#` lines just above `line` (up to a line of
        `stops`, another line read for its own) and on it, with the block's first line
        (`line` when none is above it)."""
        top = line
        while top - 1 in self.comments and top - 1 not in stops:
            top -= 1
        block = [self.comments[n] for n in range(top, line)]
        if line in self.comments:
            block.append(self.comments[line])
        return block, top


evaluate_field_types(__name__)  # each field type's text compiled once (struct_hints)
