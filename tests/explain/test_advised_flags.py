"""The fix of a message's advice that gives a flag: the command line that takes the flag,
with the value the message writes, or the flag alone for a switch; nothing for a flag the
advice takes away or changes by an amount."""

from __future__ import annotations

from errdex.explain.advised_flags import advised_flag_fix
from errdex.explain.page import Knob
from errdex.facts import KnobKind

COMMAND = "eng serve MODEL_TAG"
KNOBS = [
    Knob(name="--cache-dtype", kind=KnobKind.FLAG, value_type="str", command=COMMAND),
    Knob(name="--enforce-eager", kind=KnobKind.FLAG, value_type="bool", command=COMMAND),
    Knob(name="--no-hybrid", kind=KnobKind.FLAG, value_type="bool | None", command=COMMAND),
    Knob(name="--batch", kind=KnobKind.FLAG, value_type="int", command=COMMAND),
    Knob(name="--memory", kind=KnobKind.FLAG, value_type="float", command=COMMAND),
    Knob(name="--no-command", kind=KnobKind.FLAG, value_type="str"),
]


def test_a_value_the_message_writes_goes_on_the_command_line() -> None:
    fix = advised_flag_fix("Re-run with --cache-dtype float16.", KNOBS)
    assert fix is not None
    assert (fix.before, fix.after) == (
        f"{COMMAND} --cache-dtype VALUE",
        f"{COMMAND} --cache-dtype float16",
    )
    fix = advised_flag_fix("for example: --cache-dtype=half.", KNOBS)
    assert fix is not None and fix.after == f"{COMMAND} --cache-dtype half"


def test_a_switch_is_given_alone() -> None:
    fix = advised_flag_fix("Enable attribution or use --enforce-eager.", KNOBS)
    assert fix is not None and (fix.before, fix.after) == (COMMAND, f"{COMMAND} --enforce-eager")
    fix = advised_flag_fix("Please set `--no-hybrid`.", KNOBS)
    assert fix is not None and fix.after == f"{COMMAND} --no-hybrid"


def test_no_fix_where_the_advice_takes_the_flag_away_or_gives_no_value() -> None:
    assert advised_flag_fix("Disable --enforce-eager and retry.", KNOBS) is None
    assert advised_flag_fix("Please do not specify `--enforce-eager`.", KNOBS) is None
    assert advised_flag_fix("don't use --enforce-eager with it", KNOBS) is None
    assert advised_flag_fix("set --batch to 0", KNOBS) is None
    assert advised_flag_fix("Try lowering --memory to free memory.", KNOBS) is None
    assert advised_flag_fix("Use --no-command foo.", KNOBS) is None
    assert advised_flag_fix("Use --undeclared foo.", KNOBS) is None
    assert advised_flag_fix("Pass --cache-dtype explicitly to override.", KNOBS) is None
    # one of two flags the advice joins is half of it
    assert advised_flag_fix("Disable --enforce-eager and set --batch 1.", KNOBS) is None
