"""Turn reports: what a player is told after each adjudication, rendered by the Jinja
templates in ``templates/`` as plain text and as HTML (autoescaped)."""

from adjudicator.reports.render import Report, render

__all__ = ["Report", "render"]
