"""A ruleset with one setting taken from another: the test of a cause.

`swap(a, b, path)` is ruleset `a` with the clauses of `path` replaced by those
of `b` (or removed, when `b` does not give the setting). When the path belongs
to a meld kind, a canastra kind or a scoring term that only one side has, the
whole kind moves (every setting of it), since a kind is only meaningful whole.

If a situation is ruled differently by `a` and by `swap(a, b, path)`, that
setting alone makes the difference there: the situation witnesses it.
"""
from __future__ import annotations

import dataclasses

from canastra_ref.dsl import settings as registry
from canastra_ref.dsl.model import Ruleset
from canastra_ref.engine.rules import Engine

STRUCTURE = {"(meld kinds)": "meld", "(canastra kinds, in the order tried)": "canastra"}


def swap(a: Ruleset, b: Ruleset, path: str) -> Ruleset:
    settings = dict(a.settings)
    meld_kinds, canastra_kinds, terms = list(a.meld_kinds), list(a.canastra_kinds), list(a.score_terms)
    if path in STRUCTURE:
        entity = STRUCTURE[path]
        for p in [p for p in settings if p.startswith(entity + ".")]:
            del settings[p]
        settings.update({p: r for p, r in b.settings.items() if p.startswith(entity + ".")})
        if entity == "meld":
            meld_kinds = list(b.meld_kinds)
        else:
            canastra_kinds = list(b.canastra_kinds)
    else:
        found = registry.entity(path)
        kinds = {"meld": (meld_kinds, a.meld_kinds, b.meld_kinds),
                 "canastra": (canastra_kinds, a.canastra_kinds, b.canastra_kinds),
                 "score": (terms, a.score_terms, b.score_terms)}
        whole = found and (found[1] in kinds[found[0]][1]) != (found[1] in kinds[found[0]][2])
        if whole:
            kind, name = found
            prefix = f"{kind}.{name}" + ("" if kind == "score" else ".")
            for p in [p for p in settings if p == prefix or p.startswith(prefix)]:
                del settings[p]
            settings.update({p: r for p, r in b.settings.items() if p == prefix or p.startswith(prefix)})
            target, _, theirs = kinds[kind]
            if name in theirs:
                target.insert(min(list(theirs).index(name), len(target)), name)
            else:
                target.remove(name)
        elif path in b.settings:
            settings[path] = b.settings[path]
        else:
            settings.pop(path, None)
    return dataclasses.replace(a, settings=settings, meld_kinds=tuple(meld_kinds),
                               canastra_kinds=tuple(canastra_kinds), score_terms=tuple(terms))


def engine(model: Ruleset) -> Engine:
    """A fresh engine (not the cached one of engine_for) for a composed model."""
    return Engine(model)
