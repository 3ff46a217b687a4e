"""The one canonical JSON text of a value: what the store hashes into a campaign's
history, what the referee signs, and what a state's published hash covers.

Object keys are sorted (by Unicode code point), there is no white space, characters
are written as themselves (no ``\\u`` escapes but those JSON requires), tuples are
written as lists.

The float rule, one for all: a finite float is written as Python writes it, the
shortest decimal that reads back as the same number (``72.0``, ``0.1``, ``1e+16``);
NaN and the infinities are refused (they are not JSON). A value that must verify in
another language -- a signed record, a seed chain -- holds no float at all (numbers
there are integers within +/-(2**53 - 1)): :func:`adjudicator.fairdice.canonical_json`
refuses them before writing, as other languages print floats differently.
"""

from __future__ import annotations

import json
from typing import Any


def canonical_text(value: Any) -> str:
    """The canonical JSON text of ``value``; raises ValueError for NaN or an infinity
    and TypeError for what JSON cannot hold."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
