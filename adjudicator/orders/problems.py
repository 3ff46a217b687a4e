"""What can be wrong with an orders file, each with a stable code.

Every check collects :class:`OrderProblem` objects instead of stopping at the first;
the parser raises one :class:`OrdersError` carrying all of them. Library code never
prints: :meth:`OrderProblem.render` gives the text a command shows. The codes are
listed (with examples) in docs/orders.md and never change meaning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

#: The generic codes (E1xx: the file, its blocks and its header; E3xx: numbers; E900),
#: with their titles. Each game declares its own range in its orders language's
#: ``CODES`` (Port Arthur: E2xx). Keep in step with docs/orders.md ("Error codes").
CODES: dict[str, str] = {
    "E100": "file too large",
    "E101": "unexpected word",
    "E102": "unexpected character",
    "E103": "line ends too early",
    "E104": "unknown heading",
    "E105": "not a text file",
    "E106": "no orders found",
    "E110": "block given twice",
    "E111": "header line given twice",
    "E112": "header line missing",
    "E113": "bad header value",
    "E114": "orders for another campaign",
    "E115": "conflicting entries",
    "E116": "entry not allowed in this block",
    "E301": "number out of range",
    "E900": "too many errors",
}

#: Codes that make the input unusable as a whole (the check command exits with 2).
UNUSABLE = frozenset({"E100", "E105"})

#: The most problems reported for one file; further ones are summed up by E900.
MAX_PROBLEMS = 50


@dataclass(frozen=True)
class OrderProblem:
    """One thing wrong with an orders file, located at ``line``:``column`` (1-based).

    ``source`` is the text of that line (as the parser saw it: tabs as spaces),
    ``expected`` lists what would have been accepted there, ``suggestions`` the
    near-miss names ("did you mean ...").
    """

    code: str
    message: str
    line: int = 0
    column: int = 0
    source: str = ""
    expected: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    titled: str = field(default="", compare=False, repr=False)  # the title of a game's own code

    @property
    def title(self) -> str:
        return self.titled or CODES.get(self.code, "problem")

    def headline(self) -> str:
        """One line: where, the code and what is wrong, with suggestions."""
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        text = f"{where}{self.code} {self.message}"
        if self.expected:
            text += f"; expected {_or_list(self.expected)}"
        if self.suggestions:
            text += f"; did you mean {_or_list(tuple(repr_name(s) for s in self.suggestions))}?"
        return text

    def render(self) -> str:
        """The headline, then the line quoted with a caret under the column."""
        lines = [self.headline()]
        if self.line and self.source.strip():
            lines.append(f"    {self.source.rstrip()}")
            lines.append("    " + " " * max(self.column - 1, 0) + "^")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "title": self.title,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "source": self.source,
            "expected": list(self.expected),
            "suggestions": list(self.suggestions),
        }


def repr_name(name: str) -> str:
    """A name as quoted in messages."""
    return f'"{name}"'


def _or_list(items: tuple[str, ...]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


class OrdersError(Exception):
    """The orders could not be accepted; ``problems`` lists every reason found."""

    def __init__(self, problems: Iterable[OrderProblem]) -> None:
        self.problems: tuple[OrderProblem, ...] = tuple(sort_problems(problems))
        count = len(self.problems)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the orders")

    @property
    def unusable(self) -> bool:
        """Whether the input could not be read as orders at all."""
        return any(p.code in UNUSABLE for p in self.problems)

    def render(self) -> str:
        return "\n".join(p.render() for p in self.problems)


def sort_problems(problems: Iterable[OrderProblem]) -> list[OrderProblem]:
    """Problems in file order; at most MAX_PROBLEMS, then one E900 summing up the rest."""
    ordered = sorted(set(problems), key=lambda p: (p.line, p.column, p.code, p.message))
    if len(ordered) <= MAX_PROBLEMS:
        return ordered
    rest = len(ordered) - MAX_PROBLEMS
    return ordered[:MAX_PROBLEMS] + [
        OrderProblem("E900", f"{rest} more problem{'s' if rest != 1 else ''} not shown; fix these first")
    ]


@dataclass
class ProblemLog:
    """Collects problems while a file is read; knows the file's lines for quoting."""

    lines: list[str]
    problems: list[OrderProblem] = field(default_factory=list)
    codes: Mapping[str, str] = field(default_factory=dict)  # the game's own codes and titles

    def add(
        self,
        code: str,
        message: str,
        line: int = 0,
        column: int = 0,
        expected: Iterable[str] = (),
        suggestions: Iterable[str] = (),
    ) -> None:
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        self.problems.append(
            OrderProblem(code, message, line, column, source, tuple(expected), tuple(suggestions),
                         self.codes.get(code, ""))
        )

    def __bool__(self) -> bool:
        return bool(self.problems)
