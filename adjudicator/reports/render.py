"""Render a report's context with the templates in ``templates/``.

The HTML environment autoescapes everything, so no player's text (a ship name, an
orders line, a display name) can inject markup. Undefined names are errors, so a
template cannot silently print nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

import re

import jinja2
from markupsafe import Markup

from adjudicator.i18n import N_, words
from adjudicator.mail.plain import line_wrapper
from adjudicator.outcome import outcome
from adjudicator.canonical import canonical_text
from adjudicator.resources import cache_dir, data_dir


@dataclass(frozen=True)
class Report:
    subject: str
    text: str
    html: str


#: the subject line's template (compiled once, and kept in the cache folder as the
#: templates' files are: compiling it took a quarter of a report's rendering)
SUBJECT = ("[{{ campaign }}] {{ game_title }}, {{ _(subject_words)"
           " % {'step': next_step, 'turn': turn, 'phase': phase, 'side': side_title} }}")
#: The subject line's words after the game's title, translated for the player.
SUBJECT_WORDS = N_("step %(step)s: turn %(turn)s, %(phase)s - report for %(side)s")
_SUBJECT_NAME = "(subject line)"


@lru_cache(maxsize=2)
def template_environment(autoescape: bool) -> jinja2.Environment:
    """The one Jinja environment of the templates in ``templates/`` (reports, and the
    games' partials and pictures): HTML autoescaped when ``autoescape``, strict about
    undefined names, compiled templates kept in the cache folder."""
    folder = cache_dir()
    environment = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(data_dir("templates"))),
                                    jinja2.DictLoader({_SUBJECT_NAME: SUBJECT})]),
        bytecode_cache=None if folder is None else jinja2.FileSystemBytecodeCache(str(folder), "jinja-%s.cache"),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # the templates are the installed package's: not looked at on disk again per report
        extensions=["jinja2.ext.i18n"],
    )
    environment.install_null_translations(newstyle=False)  # English, unless the context says otherwise
    environment.globals["picture"] = lambda name, data: _picture(autoescape, name, data)
    environment.filters["outcome"] = outcome
    return environment


def _picture(autoescape: bool, name: str, data: Any) -> Markup | str:
    """A game's picture (e.g. its board as SVG): the template ``name`` drawn from
    ``data`` alone (as ``game.picture``), as ``{% include %}`` would draw it, reused while
    ``data`` is the same (both players' reports of a step, and steps that move nothing,
    share one drawing). A partial writes ``{{ picture("game/board.svg.j2", game.picture) -}}``."""
    try:
        key = canonical_text(data)
    except (TypeError, ValueError):  # not plain data: drawn each time
        return _draw_picture(autoescape, name, data)
    return _drawn_picture(autoescape, name, key, _Unhashed(data))


class _Unhashed:
    """The picture's data, carried beside its key (the key alone is compared)."""

    __slots__ = ("data",)

    def __init__(self, data: Any) -> None:
        self.data = data

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashed)


@lru_cache(maxsize=64)
def _drawn_picture(autoescape: bool, name: str, key: str, data: _Unhashed) -> Markup | str:
    return _draw_picture(autoescape, name, data.data)


def _draw_picture(autoescape: bool, name: str, data: Any) -> Markup | str:
    drawn = template_environment(autoescape).get_template(name).render(game={"picture": data})
    return Markup(drawn) if autoescape else drawn


#: Plain-text reports are wrapped to this width (RFC 5322's recommended line length).
TEXT_WIDTH = 78
_COLUMN_GAP = re.compile(r"\S( {2,})(?=\S)")


def in_language(context: Mapping[str, Any]) -> dict[str, Any]:
    """``context`` with the ``gettext`` and ``ngettext`` of its ``language`` (English
    when it names none), which the templates' ``{% trans %}`` and ``_()`` call."""
    translations = words(context.get("language"))
    return {**context, "gettext": translations.gettext, "ngettext": translations.ngettext,
            "subject_words": SUBJECT_WORDS}


def render(context: Mapping[str, Any]) -> Report:
    """The report as a subject line, plain text (wrapped at :data:`TEXT_WIDTH`) and HTML,
    in the context's ``language``. The subject names the step the player answers and the
    phase in words."""
    context = in_language(context)
    text = wrap_text(template_environment(False).get_template("report.txt.j2").render(**context))
    html = template_environment(True).get_template("report.html.j2").render(**context)
    subject = _subject_template().render(**context)
    return Report(" ".join(subject.split()), text, html)


def _subject_template() -> jinja2.Template:
    """The subject line's template (:data:`SUBJECT`)."""
    return template_environment(False).get_template(_SUBJECT_NAME)


def wrap_text(text: str, width: int = TEXT_WIDTH) -> str:
    """Every line at most ``width`` columns where it has spaces to break at. A wrapped
    line's continuation lines hang under its last column (a table's last column stays
    aligned), or four columns in from its own indentation."""
    return "\n".join(wrapped for line in text.split("\n") for wrapped in _wrap_line(line, width))


def _wrap_line(line: str, width: int) -> list[str]:
    if len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    columns = [gap.end(1) for gap in _COLUMN_GAP.finditer(line) if gap.end(1) <= width // 2]
    hang = columns[-1] if columns else indent + 4
    wrapper = line_wrapper(width, hang)
    wrapped = wrapper.wrap(line) or [line]
    if any(len(part) > width for part in wrapped):  # a word longer than the line (a long hex path): at its hyphens
        wrapper.wordsep_re = _AFTER_HYPHENS
        wrapper.break_on_hyphens = True
        wrapped = wrapper.wrap(line) or [line]
    return wrapped


#: Chunks of a line for :func:`_wrap_line`'s last resort: spaces, and a word cut after each hyphen.
_AFTER_HYPHENS = re.compile(r"(\s+|[^\s-]*-(?=\S))")
