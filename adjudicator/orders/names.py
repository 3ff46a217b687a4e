"""Names as players write them: any case, aliases, unique prefixes, near misses.

A :class:`Catalog` knows the names of one kind (ships, zones, ports, sides), each
with its aliases. :meth:`Catalog.lookup` finds what a player meant:

1. an exact name or alias (any case, any spacing) wins;
2. otherwise a unique prefix of a name or alias ("Tses" is "Tsesarevich", "East
   China" is "East China Sea"); a prefix of several names is ambiguous;
3. otherwise nothing, with the close names (difflib) to suggest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from adjudicator.i18n import said

_SPACES = re.compile(r"\s+")


def normal(text: str) -> str:
    """The form names are compared in: case-folded, single spaces, no quotes."""
    return _SPACES.sub(" ", text.strip().strip('"')).casefold()


@dataclass(frozen=True)
class Lookup:
    """What a name resolved to: ``found`` (the canonical name), or the candidates;
    ``completed``: found from a unique prefix, not written whole."""

    found: str | None
    ambiguous: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    completed: bool = False

    def reading(self, text: str) -> str | None:
        """What the receipt says of a name completed from a unique prefix ("'Gd' read
        as Gds"), so that nothing is rewritten without a line that says so; None for a
        name written whole (or an alias of it) or not found."""
        return said("'%(text)s' read as %(name)s", text=text.strip(), name=self.found) if self.completed and self.found else None


@dataclass(frozen=True)
class Catalog:
    """Canonical names of one kind, each with its aliases (``labels``: label -> name)."""

    kind: str
    labels: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, kind: str, names: Mapping[str, Iterable[str]] | Iterable[str]) -> "Catalog":
        """A catalog from ``{name: aliases}`` or a plain list of names."""
        items = names.items() if isinstance(names, Mapping) else ((n, ()) for n in names)
        labels: dict[str, str] = {}
        for name, aliases in items:
            for label in (name, *aliases):
                labels.setdefault(normal(label), name)
        return cls(kind, labels)

    def lookup(self, text: str, suggest: bool = True) -> Lookup:
        """Resolve ``text`` (see the module docstring); ``suggest=False`` leaves out step 3's
        close names (a problem past the most a report shows is only counted), while an
        exact name and a unique prefix resolve as always."""
        key = normal(text)
        if key in self.labels:
            return Lookup(self.labels[key])
        if key:
            matches = sorted({name for label, name in self.labels.items() if label.startswith(key)})
            if len(matches) == 1:
                return Lookup(matches[0], completed=True)
            if matches:
                return Lookup(None, ambiguous=tuple(matches))
        if not suggest:
            return Lookup(None)
        close = _difflib().get_close_matches(key, list(self.labels), n=3, cutoff=0.75)
        close = close or _difflib().get_close_matches(key, list(self.labels), n=3, cutoff=0.6)
        return Lookup(None, suggestions=tuple(dict.fromkeys(self.labels[c] for c in close)))


def lookup_in(text: str, catalogs: Iterable[Catalog]) -> tuple[str | None, Catalog | None, Lookup]:
    """Resolve ``text`` in the first catalog where it is exact, else a unique prefix.

    Returns the name, the catalog it belongs to, and the lookup (for messages).
    """
    catalogs = list(catalogs)
    key = normal(text)
    for catalog in catalogs:
        if key in catalog.labels:
            return catalog.labels[key], catalog, Lookup(catalog.labels[key])
    found = [(c, c.lookup(text)) for c in catalogs]
    hits = [(c, look) for c, look in found if look.found]
    ambiguous = tuple(n for _, look in found for n in look.ambiguous) + tuple(look.found for _, look in hits)
    if len(hits) == 1 and len(ambiguous) == 1:
        return hits[0][1].found, hits[0][0], hits[0][1]
    if ambiguous:
        return None, None, Lookup(None, ambiguous=tuple(sorted(set(ambiguous))))
    suggestions = tuple(dict.fromkeys(n for _, look in found for n in look.suggestions))
    return None, None, Lookup(None, suggestions=suggestions[:3])


def _difflib():
    """The standard ``difflib`` (loaded only when a close match is wanted)."""
    import difflib

    return difflib
