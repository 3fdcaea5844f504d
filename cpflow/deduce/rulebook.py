"""The rule book: every deduction rule, one row each, that the rest reads its names from.

A row (`Rule`) gives the rule's name (what a step or a contradiction calls it), its flag
(the bit of a partial solution's `allow` that lets it act; 0: it always acts), what a step
it takes says and what its contradiction says. The row's place is its number in the C core
(core.c's `enum Rule`, `_core.rules()`), and the flags make the ladder of steps
(cpflow.deduce.steps.LADDER): one rung per new flag, named after its first rule.
Adding a rule is a row here and its code: Python (rules.py, settle.py) and C (core.c).

Sentences are templates: {colour}, {cells} (the step's cells), {cell} (the first of them);
{where} (the cells a contradiction names) and {who} (its colour, else "a path").
"""

from __future__ import annotations

from dataclasses import dataclass

CORNER, CHAMBER, REACH = 1, 2, 4  # the flags of the rules a partial solution may `allow` beyond the first ones
ALL = CORNER | CHAMBER | REACH
GRADES = ("easy", "medium", "hard", "expert")  # a chain: rules alone; what ifs of depth 1; deeper what ifs; a guess


@dataclass(frozen=True)
class Rule:
    """A deduction rule: its name, its flag, what a step by it says, what a step of its rung adds
    when a simpler rule coloured the cells (`aside`), and what its contradiction says (`broken`;
    `unnamed` instead when the contradiction names no colour, if it differs; "": it meets none)."""

    name: str
    flag: int
    step: str
    broken: str
    aside: str = ""
    unnamed: str = ""


TAKES = "{colour} must take {cells}."  # a step by a rule with nothing more particular to say
RULES = (
    Rule("degree", 0, "{colour} has only one way on: through {cells}.", "{where} would be a dead end"),
    Rule("branch", 0, TAKES, "a path would fork at {where}"),
    Rule("colour", 0, TAKES, "two colours would meet on one path at {where}"),
    Rule("touch", 0, TAKES, "{who} would touch itself at {where}"),
    Rule("loop", 0, TAKES, "a path would close into a loop at {where}"),
    Rule(
        "corner",
        CORNER,
        TAKES,
        "{who} would touch itself at a corner near {where}",
        " The other ways would make a path touch itself at a corner.",
    ),
    Rule("dead turn", CORNER, TAKES, ""),  # it only cuts edges: what it meets is touch's or degree's
    Rule(
        "chamber",
        CHAMBER,
        "Only {colour} can get into the empty cells at {cells}, so {colour} fills them.",
        "the empty cells at {where} would be cut off from every colour",
        " The other ways would cut empty cells off from every colour.",
    ),
    Rule(
        "reach",
        REACH,
        "Only {colour} can still reach {cell}: every other colour is walled off from it.",
        "{who} could no longer reach its other end",
        " The other ways would cut a colour off from its other end.",
        "no colour could reach {where}",
    ),
)
RULE = {rule.name: rule for rule in RULES}  # by name
