"""xdist's `--dist loadgroup` kept working on pytest 9.2 and later.

`--dist loadgroup` sends the tests of one `xdist_group` to one worker, so to one GPU under
`--magi-perf` (README: tests that share a warm cache or a model built once). xdist's worker marks a
grouped test by rewriting its node id to ``<id>@<group>`` (``item._nodeid = ...`` in its
`pytest_collection_modifyitems`), and its controller groups the ids it is sent by that suffix.
pytest 9.2 derives ``Item.nodeid`` from a structured ``Item._id`` instead, so that write changes
nothing: the suffix never reaches the controller, and every test is spread as with
`--dist load`, silently (pytest-xdist#1386; seen here with pytest 9.2.0 and pytest-xdist 3.8.0:
the two tests of one group ran on two workers). `keep_group_suffixes` does what
xdist's write meant, through pytest's own parser of node ids, after xdist's hook has run; on a
pytest that still reads ``_nodeid`` it finds nothing to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def keep_group_suffixes(items: Sequence[Any]) -> int:
    """Give each item whose ``_nodeid`` xdist rewrote, but whose ``nodeid`` does not show it,
    that id (``type(item._id).parse``); returns how many it changed."""
    changed = 0
    for item in items:
        wanted = vars(item).get("_nodeid")
        if not isinstance(wanted, str) or item.nodeid == wanted:
            continue
        parse = getattr(type(getattr(item, "_id", None)), "parse", None)
        if not callable(parse):
            continue
        item._id = parse(wanted)
        changed += 1
    return changed


__all__ = ["keep_group_suffixes"]
