"""The board picture of a report is drawn once and reused while it shows the same
thing (both players' reports of a step without fog of war, steps that move nothing),
and the report reads exactly as when the picture was drawn by an ``{% include %}``."""

from __future__ import annotations

import jinja2

from adjudicator.reports.render import render
from adjudicator.reports.render import _drawn_picture, template_environment
from adjudicator.resources import data_dir
from tests.pipeline.test_pipeline_reports import golden_context


def included_board_report(context: dict) -> str:
    """The HTML report as it was made before the picture was reused: the situation
    partial with the board included."""
    environment = template_environment(True)
    loader = jinja2.DictLoader({"port-arthur/situation.html.j2": (
        data_dir("templates") / "port-arthur" / "situation.html.j2").read_text(encoding="utf-8").replace(
        '{{ picture("port-arthur/board.svg.j2", game.picture) -}}', '{% include "port-arthur/board.svg.j2" %}')})
    reference = environment.overlay(loader=jinja2.ChoiceLoader([loader, environment.loader]), bytecode_cache=None)
    return reference.get_template("report.html.j2").render(**context)


def test_the_report_with_the_picture_reused_reads_as_with_the_picture_included():
    context = golden_context()
    assert "<svg" in render(context).html
    assert render(context).html == included_board_report(context)


def test_both_sides_reports_of_a_step_without_fog_share_one_drawing_of_the_board():
    japan = golden_context()
    russia = {**japan, "side": "russia", "side_title": "Russia", "player": "makarov@russia.test"}
    _drawn_picture.cache_clear()
    render(japan)
    render(russia)
    info = _drawn_picture.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert render(russia).html == included_board_report(russia)


def test_a_different_board_is_drawn_anew():
    context = golden_context()
    other = golden_context(stop=(3, "sortie"))
    _drawn_picture.cache_clear()
    first, second = render(context).html, render(other).html
    assert _drawn_picture.cache_info().misses == 2
    assert second == included_board_report(other) and first == included_board_report(context)
