"""Turn reports: what a player is told after each adjudication, rendered by the Jinja
templates in ``templates/`` as plain text and as HTML (autoescaped).

The package itself imports nothing: ``render`` (``adjudicator.reports.render``) loads the
templates and Jinja, ``outcome`` does not, so a command that needs only the words for a
result (the desk's status by mail, say) stays quick: ``receive`` and ``send`` load no Jinja."""
