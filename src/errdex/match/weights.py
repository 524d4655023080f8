"""The weights and thresholds that score a candidate site against a paste, in one place.

A score adds what agrees between the paste and a site: how much of the message the site's
template explains (0..1, from `pattern.py`), then bonuses for a traceback frame or a log
line at the site, for the exception class, for a named reason. The values were set by
hand against the accuracy set (`bench/accuracy/`) and checked on its held-out set; change
one and run both. What each value must stay above or below, and why, is said beside it.
"""

from __future__ import annotations

__all__ = ["WEIGHTS", "Weights"]


class Weights:
    """Score parts, in units of a fully explained message (a template match scores ≤ 1).

    The values are the class's; an instance has no attributes of its own to set (a frozen
    dataclass of them took a few milliseconds of every lookup's start-up to make)."""

    __slots__ = ()

    # --- where the traceback or log line points ---
    # A frame at the site's lines is near proof: the innermost frame outweighs any
    # template match, so a site the traceback names beats one that only shares words.
    innermost_frame: float = 0.8
    # An outer frame at the site: the error passed through that line (a caller, or a
    # re-raise); evidence, but weaker than the text. Also the least frame evidence that
    # makes a match confident on its own.
    outer_frame: float = 0.3
    # A helper call (`ctx.fail("...")`) one frame above the helper's own raise: the call
    # that gave the text is the answer to show, so it beats the helper's generic raise.
    helper_frame: float = 0.6
    # A helper's raise matched by a text one of its callers gives it: that call's own site
    # matches the same text and is the answer to show (see `helper_frame`); the raise
    # stays near it, for a paste whose frames say the helper raised.
    caller_form: float = 0.6
    # A log prefix naming the site's file and a line inside it (`[config.py:123]`).
    log_line: float = 0.5
    # The code line a printed warning shows under its place (a caller's, by `stacklevel`)
    # calls the site's function, once by its name, twice with a receiver naming its class
    # (`jws.encode(` for `PyJWS.encode`): of sites warning the same text, the one the user's
    # line reached; a tie-break, far below any difference in how well the text matches.
    printed_call: float = 0.03
    # ... or calls a function that reaches the site's through the calls the linker followed
    # (a `stacklevel` further up): weaker than naming the site's own function.
    printed_caller: float = 0.02
    # The paste is a rich panel (`╭─ Error ─╮`) and the site's release draws its errors in
    # one: the panel names the program that printed it. Of one text in a program and in the
    # framework it copies (typer's own click), the program, though the copy's printed form
    # is written less literally (`Missing {self.param_type}` where click has `Missing
    # argument`); every site of a release that draws panels gets it alike, so it never
    # reorders one release's sites.
    rich_panel: float = 0.2
    # A log prefix naming only the file: many sites share a file, so barely a tie-break.
    log_file: float = 0.05

    # --- the exception class ---
    # The pasted class, written with its package, is this site's class: the module path
    # pins the project, so it counts for more than the bare name.
    qualified_class: float = 0.35
    # The pasted class name equals the site's. Also the least class agreement that lets a
    # raise matched by its class alone count as confident.
    same_class: float = 0.2
    # The pasted class is a base of the site's class (`except ValueError` catches it).
    base_class: float = 0.1
    # A different class is evidence against, not a veto: pastes get the class wrong
    # (a wrapper re-raises, a framework prints its own).
    other_class: float = -0.1
    # A log record at the level the site logs at.
    log_level: float = 0.1

    # --- the message ---
    # The message names one reason of a reasons list: that variant is the answer.
    reason: float = 0.1
    # A raise whose message is computed there (`raise ConnectionError(e)`) matched by its
    # class alone: enough to list it, less than a frame or a fair template match, so a site
    # whose own text explains the paste stays ahead.
    by_class: float = 0.3
    # ... less when the site writes a text of its own that the paste does not show (the
    # class may compose another, but a site whose text is computed explains it better).
    other_text: float = -0.05
    # ... and the same when the raise gives its class no text (`raise Exit()`), so `str()`
    # is empty: a bonus when the paste is the class alone, as such a raise prints, and a
    # penalty when the paste shows a message such a raise cannot have printed. A re-raise
    # alike: what it caught printed nothing, or it was first raised elsewhere.
    no_text: float = 0.05
    # ... a little less when a user of the class may set its text (`self.message or "..."`)
    # and the written default shares no word with the paste: most users keep the default.
    settable_text: float = -0.01
    # ... more when the message prints as a list or a dict and the raise is given a local
    # bound to one (`errors = []`): above a reading of one of the texts it collected.
    collected: float = 0.25
    # ... more when its text, though too little of it is literal to count as a reading
    # (`{label} {loc} is a file.` of a long path), spans the message from start to end: of
    # the raises of one class, the one whose words the paste shows; below any reading.
    short_text: float = 0.1
    # Each word of the site's guard the message holds, up to a cap: context, never enough
    # to outrank a template.
    guard_word: float = 0.05
    guard_words_cap: float = 0.15
    # ... and, times the share of the function's words the message names, a tie-break.
    named_share: float = 0.01
    # A message read as cut short (a title, a clipped copy) scores this share of the same
    # match read whole: the whole reading wins a tie.
    cut_short: float = 0.9
    # A guess (matched by class alone) sits just under the best site of its class that
    # the text or a frame pins: still listed, never first.
    guess_under_pinned: float = 0.95
    # A quoted value pasted under another class, raised from a caught `KeyError`'s text.
    quoted_key: float = 0.01

    # --- which error of the paste ---
    # The parser lists the error that ended the program first; causes and log lines
    # around it count for less, each further one a little less again.
    later_error: float = 0.6
    later_error_step: float = 0.05

    # --- thresholds ---
    # Below this share of the message explained, a match is only "near" ...
    min_covered: float = 0.25
    # ... unless the template spans the whole message with this many literal characters of
    # its own: long values (a URL, an exception's repr) make a short share of a template
    # that surely matched.
    min_literal_whole: int = 24
    # A template match explaining less than this share is no match at all ...
    min_covered_any: float = 0.125
    # ... unless it spans the whole message with this many literal characters (more than a
    # word or two: `unknown locale {name!r}` around a long path).
    min_literal_long_values: int = 12
    # A template spanning the whole message scores at least this: above a raise matched by
    # its class alone with every guard word (`by_class` + `guard_words_cap`).
    whole_floor: float = 0.5
    # The first result of one project and a `confident` one of another project scoring
    # within this of it: the text fits both, so nothing decided between them (a frame or
    # the class with its module would have opened a wider gap); the first is not sure.
    contested: float = 0.2
    # A best score this high from the narrow search needs no wider one.
    strong: float = 0.9

    def error_weight(self, index: int) -> float:
        """The weight of the paste's `index`-th error (0: the one that ended the program)."""
        return 1.0 if index == 0 else self.later_error - self.later_error_step * index


WEIGHTS = Weights()
