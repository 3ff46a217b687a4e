"""Render a report's context with the templates in ``templates/``.

The HTML environment autoescapes everything, so no player's text (a ship name, an
orders line, a display name) can inject markup. Undefined names are errors, so a
template cannot silently print nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

import jinja2

from adjudicator.resources import cache_dir, data_dir


@dataclass(frozen=True)
class Report:
    subject: str
    text: str
    html: str


@lru_cache(maxsize=2)
def _environment(autoescape: bool) -> jinja2.Environment:
    folder = cache_dir()
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        bytecode_cache=None if folder is None else jinja2.FileSystemBytecodeCache(str(folder), "jinja-%s.cache"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(context: Mapping[str, Any]) -> Report:
    """The report as a subject line, plain text and HTML."""
    text = _environment(False).get_template("report.txt.j2").render(**context)
    html = _environment(True).get_template("report.html.j2").render(**context)
    subject = _environment(False).from_string(
        "[{{ campaign }}] {{ game_title }}: turn {{ turn }}, {{ phase }} - report for {{ side_title }}"
    ).render(**context)
    return Report(" ".join(subject.split()), text, html)
