"""Composing spec files into a Ruleset, with every semantic check.

Checks: settings exist and values have their types; facts exist and may be
read where they are used; every clause cites at least one article of the
inventory and no informative one; every normative article is cited; disputes
have their default among their readings and change at least one clause;
overrides name an existing clause; no two clauses of a setting can apply at
once; every required setting has a clause; the deck arithmetic holds.
Errors are collected and raised together as an ErrorList, in source order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from ..cards import RANKS, dsl_rank
from ..display import cut, shown
from ..errors import CanastraError, ErrorList, InputError, SourcePosition, SpecError
from ..limits import MAX_DECKS
from ..seating import SEATINGS
from . import ast
from . import settings as registry
from .expr import Compiled, Compiler
from .memo import Memo
from .model import RuleClause, Ruleset, SettingRules
from .overlap import DISJOINT, OVERLAP, candidate_pairs, conjunction, relation


@dataclass
class _Context:
    files: list[ast.SpecFile]          # base first
    errors: list[SpecError]
    failed: set[str] = field(default_factory=set)   # settings whose clauses did not compile

    def lines_of(self, pos: SourcePosition | None) -> str | None:
        if pos is None:
            return None
        for f in self.files:
            if f.path == pos.file:
                return f.line(pos.line)
        return None

    def error(self, message: str, pos: SourcePosition | None, expected: str | None = None) -> None:
        self.errors.append(SpecError(message, position=pos, expected=expected, source_line=self.lines_of(pos)))


def chain(spec: ast.SpecFile, load) -> list[ast.SpecFile]:
    """The spec and its ancestors, base first. `load(id)` returns a SpecFile."""
    files = [spec]
    seen = {spec.ruleset}
    current = spec
    while current.extends:
        if current.extends in seen:
            raise SpecError(f"ruleset '{current.ruleset}' extends '{current.extends}', which extends it back",
                            position=current.extends_pos, source_line=current.line(current.extends_pos.line))
        try:
            base = load(current.extends)
        except FileNotFoundError:
            raise SpecError(f"ruleset '{current.ruleset}' extends '{current.extends}', which does not exist",
                            position=current.extends_pos, source_line=current.line(current.extends_pos.line),
                            expected="the id of a ruleset in the spec directory") from None
        seen.add(base.ruleset)
        files.append(base)
        current = base
    return list(reversed(files))


def build(files: list[ast.SpecFile], readings: dict[str, str] | None = None) -> Ruleset:
    """Compose `files` (base first) under `readings` (dispute -> reading; the
    rest take their defaults). Raises ErrorList on semantic errors and
    InputError for an unknown dispute or reading in `readings`."""
    ctx = _Context(files, [])
    (articles, disputes, definitions, clauses, layout), before, after = _MEMO.get(
        ("chain",) + tuple(map(id, files)), tuple(files), lambda: _chain_facts(files))
    ctx.errors += before
    selection = _select_readings(disputes, readings or {})
    active = _active(layout, selection)
    paths = tuple(path for _, path, _ in active)
    meld_kinds, canastra_kinds, score_terms = _MEMO.get(("entities", paths), (), lambda: _entities(paths))
    rules = _compile_settings(ctx, layout, active, definitions, meld_kinds, canastra_kinds)
    unstated = _compose_unstated(ctx, rules)
    _check_complete(ctx, rules, meld_kinds, canastra_kinds, selection, disputes)
    ctx.errors += after
    if ctx.errors:
        # errors about the ruleset as a whole (reported at its header) come last:
        # they are often consequences of a mistake reported on its own line
        header = files[-1].pos
        ctx.errors.sort(key=lambda e: (e.position == header, e.position.file, e.position.line,
                                       e.position.column) if e.position else (True, "", 0, 0))
        raise ErrorList(_unique(ctx.errors))
    top = files[-1]
    return Ruleset(
        id=top.ruleset, title=top.title,
        source=next((f.source for f in reversed(files) if f.source), None),
        files=tuple(f.path for f in files),
        extends=tuple(f.ruleset for f in reversed(files[:-1])),
        articles=articles, disputes=disputes, readings=selection, settings=rules,
        all_clauses=tuple(clauses), definitions=definitions,
        meld_kinds=meld_kinds, canastra_kinds=canastra_kinds, score_terms=score_terms,
        unstated=unstated,
        source_sections=tuple({part.prefix: part for f in files for part in f.source_sections}.values()))


def _chain_facts(files: list[ast.SpecFile]):
    """What a chain of files gives whatever the readings: its inventory and
    composed clauses (also grouped by setting), the errors found on the way,
    and the errors of articles no clause accounts for (reported last)."""
    ctx = _Context(files, [])
    articles, disputes, definitions = _inventory(ctx)
    clauses = _compose_clauses(ctx, articles, disputes)
    before = list(ctx.errors)
    del ctx.errors[:]
    _check_accounted(ctx, articles, [c for f in files for c in f.clauses], definitions)
    return (articles, disputes, definitions, clauses, _layout(clauses)), before, list(ctx.errors)


@dataclass(frozen=True)
class _Layout:
    """The composed clauses grouped by setting, each clause with its place
    among all the chain's clauses: settings none of whose clauses is under a
    reading (fixed: their first clause's place, the setting, the clauses), and
    the others (varying: each clause with the readings it is under)."""
    fixed: tuple[tuple[int, str, tuple[ast.Clause, ...]], ...]
    varying: tuple[tuple[str, tuple[tuple[int, ast.Clause, frozenset], ...]], ...]


def _layout(clauses: list[ast.Clause]) -> _Layout:
    by_path: dict[str, list] = {}
    varying: set[str] = set()
    for i, clause in enumerate(clauses):
        under = clause.readings
        by_path.setdefault(clause.setting, []).append((i, clause, frozenset(under)))
        if under:
            varying.add(clause.setting)
    return _Layout(tuple((entries[0][0], path, tuple(clause for _, clause, _ in entries))
                         for path, entries in by_path.items() if path not in varying),
                   tuple((path, tuple(entries)) for path, entries in by_path.items() if path in varying))


def _active(layout: _Layout, selection: dict[str, str]) -> list[tuple[int, str, tuple[ast.Clause, ...]]]:
    """(place, setting, its clauses active under the selected readings), in the
    order of each setting's first active clause."""
    selected = set(selection.items())
    active = list(layout.fixed)
    for path, entries in layout.varying:
        chosen = [(i, clause) for i, clause, under in entries if under <= selected]
        if chosen:
            active.append((chosen[0][0], path, tuple(clause for _, clause in chosen)))
    active.sort(key=itemgetter(0))
    return active


def _count(items, noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def _unique(errors: list[SpecError]) -> list[SpecError]:
    seen, out = set(), []
    for e in errors:
        key = (str(e.position), e.message)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


# ------------------------------------------------------------------ inventory

def _inventory(ctx: _Context):
    articles: dict[str, ast.Article] = {}
    disputes: dict[str, ast.Dispute] = {}
    definitions: dict[str, ast.Definition] = {}
    for f in ctx.files:
        for article in f.articles:
            if article.id in articles:
                ctx.error(f"article {shown(article.id)} is listed twice (first at {articles[article.id].pos})",
                          article.pos)
                continue
            articles[article.id] = article
        for definition in f.definitions:
            if definition.name in definitions:
                ctx.error(f"helper '{definition.name}' is defined twice", definition.pos)
                continue
            definitions[definition.name] = definition
    for f in ctx.files:
        for dispute in f.disputes:
            if dispute.name in disputes:
                ctx.error(f"dispute '{dispute.name}' is declared twice", dispute.pos)
                continue
            disputes[dispute.name] = dispute
            names = [r.name for r in dispute.readings]
            for reading in dispute.readings:
                if names.count(reading.name) > 1:
                    ctx.error(f"dispute '{dispute.name}' has reading '{reading.name}' twice", reading.pos)
            if len(dispute.readings) < 2:
                ctx.error(f"dispute '{dispute.name}' has {len(dispute.readings)} reading(s)", dispute.pos,
                          expected="at least two readings")
            if dispute.default not in names:
                ctx.error(f"the default of dispute '{dispute.name}' is not one of its readings",
                          dispute.default_pos, expected="one of: " + ", ".join(names))
            for cite in dispute.articles:
                if cite.article not in articles:
                    ctx.error(f"dispute '{dispute.name}' is on article {shown(cite.article)}, "
                              f"which the inventory lacks", cite.pos, expected=_near(cite.article, articles))
    for definition in definitions.values():
        _check_citations(ctx, definition.citations, articles, definition.pos, f"helper '{definition.name}'")
        for guard in definition.guards:
            ctx.error("a helper cannot have conditions; put them in the expression", guard.pos)
    return articles, disputes, definitions


def _near(name: str, known) -> str:
    import difflib
    close = difflib.get_close_matches(name, list(known), n=3)
    return ("one of: " + ", ".join(close)) if close else "an article id listed in the inventory"


def _check_citations(ctx, citations, articles, pos, what) -> None:
    if not citations:
        ctx.error(f"{what} cites no article", pos, expected="at least one citation such as @7")
    for cite in citations:
        article = articles.get(cite.article)
        if article is None:
            ctx.error(f"citation of article {shown(cite.article)}, which the inventory lacks", cite.pos,
                      expected=_near(cite.article, articles))
        elif article.informative:
            ctx.error(f"article {shown(cite.article)} is informative ({cut(article.informative_reason)}) "
                      f"and cannot decide a rule", cite.pos,
                      expected="a normative article, or make this article normative")


def _select_readings(disputes: dict[str, ast.Dispute], wanted: dict[str, str]) -> dict[str, str]:
    selection = {name: d.default for name, d in disputes.items()}
    for name, reading in wanted.items():
        dispute = disputes.get(name)
        if dispute is None:
            raise InputError(f"this ruleset has no dispute '{name}'",
                             expected=("one of: " + ", ".join(disputes)) if disputes else "no reading (it has none)")
        if dispute.reading(reading) is None:
            raise InputError(f"dispute '{name}' has no reading '{reading}'",
                             expected="one of: " + ", ".join(r.name for r in dispute.readings))
        selection[name] = reading
    return selection


# -------------------------------------------------------------------- clauses

def _compose_clauses(ctx: _Context, articles, disputes) -> list[ast.Clause]:
    composed: list[ast.Clause] = []
    for f in ctx.files:
        labels: dict[str, ast.Clause] = {}
        own: list[ast.Clause] = []
        for clause in f.clauses:
            if registry.find(clause.setting) is None:
                ctx.error(f"unknown setting '{clause.setting}'", clause.setting_pos,
                          expected=_setting_hint(clause.setting))
                continue
            _check_citations(ctx, clause.citations, articles, clause.pos, f"the clause of '{clause.setting}'")
            for guard in clause.guards:
                if guard.kind == "under":
                    dispute = disputes.get(guard.dispute)
                    if dispute is None:
                        ctx.error(f"no dispute '{guard.dispute}'", guard.pos,
                                  expected=("one of: " + ", ".join(disputes)) if disputes else "a declared dispute")
                    elif dispute.reading(guard.reading) is None:
                        ctx.error(f"dispute '{guard.dispute}' has no reading '{guard.reading}'", guard.pos,
                                  expected="one of: " + ", ".join(r.name for r in dispute.readings))
            if clause.explicit_label:
                first = labels.get(clause.explicit_label)
                if first is not None and first.pos.line != clause.pos.line:
                    ctx.error(f"label '{clause.explicit_label}' is used twice (first at {first.pos})", clause.pos)
                labels[clause.explicit_label] = clause
            own.append(clause)
        # overrides replace every inherited clause carrying their label
        replaced: set[int] = set()
        for clause in own:
            if clause.modifier != "override":
                continue
            targets = [i for i, c in enumerate(composed) if c.label == clause.label]
            if not targets:
                base = "its base rulesets" if f is not ctx.files[0] else "a base ruleset (this one extends none)"
                ctx.error(f"override of '{clause.label}', a clause that does not exist in {base}", clause.pos,
                          expected="the label (or setting) of an inherited clause")
                continue
            mismatched = [composed[i] for i in targets if composed[i].setting != clause.setting]
            if mismatched:
                ctx.error(f"override '{clause.label}' sets '{clause.setting}' but the clause it overrides "
                          f"sets '{mismatched[0].setting}'", clause.setting_pos)
            replaced.update(targets)
        composed = [c for i, c in enumerate(composed) if i not in replaced] + own
    guarded = {(d, r) for c in composed for d, r in c.readings}
    for name, dispute in disputes.items():
        for reading in dispute.readings:
            if (name, reading.name) not in guarded:
                ctx.error(f"reading '{reading.name}' of dispute '{name}' guards no clause, so it cannot be run",
                          reading.pos, expected=f"a clause ending in 'under {name}.{reading.name}'")
    return composed


def _compose_unstated(ctx: _Context, rules) -> dict[str, ast.Unstated]:
    """The `unstated` entries of the chain, checked: a known optional setting,
    a reason, listed once, and never stated by a clause of the same file or of
    a base file. A clause of an extending file states what its base left
    unstated; the entries returned are those still in effect (no active clause)."""
    files = ctx.files
    seen, errors = _MEMO.get(("unstated",) + tuple(map(id, files)), tuple(files), lambda: _unstated(files))
    ctx.errors += errors
    return {path: entry for path, entry in seen.items() if path not in rules}


def _unstated(files: list[ast.SpecFile]) -> tuple[dict[str, ast.Unstated], list[SpecError]]:
    """The checked `unstated` entries of a chain whatever the readings, and the errors found."""
    ctx = _Context(files, [])
    seen: dict[str, ast.Unstated] = {}
    stated_before: dict[str, ast.Clause] = {}
    for f in ctx.files:
        own = {}
        for clause in f.clauses:
            own.setdefault(clause.setting, clause)
        for entry in f.unstated:
            setting = registry.find(entry.setting)
            if setting is None:
                ctx.error(f"unknown setting '{entry.setting}'", entry.setting_pos,
                          expected=_setting_hint(entry.setting))
                continue
            if setting.required:
                ctx.error(f"'{entry.setting}' is required: it has no default for 'unstated' to leave in place",
                          entry.setting_pos, expected=f"a clause: {entry.setting} = ... @<article>")
                continue
            if not entry.reason.strip():
                ctx.error(f"'unstated {entry.setting}' gives no reason", entry.pos,
                          expected="why the text's silence leaves no real choice")
            if entry.setting in seen:
                ctx.error(f"'{entry.setting}' is already unstated (at {seen[entry.setting].pos})", entry.setting_pos)
                continue
            clause = own.get(entry.setting) or stated_before.get(entry.setting)
            if clause is not None:
                ctx.error(f"'{entry.setting}' is unstated here but stated by the clause at {clause.pos}",
                          entry.setting_pos, expected="either the clause or the 'unstated' entry, not both")
                continue
            seen[entry.setting] = entry
        for setting, clause in own.items():
            stated_before.setdefault(setting, clause)
    return seen, ctx.errors


def _setting_hint(path: str) -> str:
    close = registry.similar(path)
    if close:
        return "one of: " + ", ".join(close)
    heads = sorted({s.pattern.split(".")[0] for s in registry.SETTINGS})
    return "a setting under one of: " + ", ".join(heads)


def _entities(paths) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The meld kinds, canastra kinds and scoring terms the settings name, in order of first mention."""
    names: dict[str, dict[str, None]] = {"meld": {}, "canastra": {}, "score": {}}
    for path in paths:
        found = registry.entity(path)
        if found:
            names[found[0]].setdefault(found[1], None)
    return tuple(names["meld"]), tuple(names["canastra"]), tuple(names["score"])


# Compiled clauses, their conjunctions and the relation of clause pairs, by the
# ids of the clause objects; the result also depends on the helper definitions
# and the kinds in force, which are in the keys.
_MEMO = Memo()


def _compile_settings(ctx, layout, active, definitions, meld_kinds, canastra_kinds) -> dict[str, SettingRules]:
    helpers = tuple(definitions.values())
    helpers_key = tuple(map(id, helpers))
    # the helpers and kinds in force as one object, which the keys below hold in
    # place of their parts (hashed by identity: a build looks up every setting)
    scope = _MEMO.get(("scope", helpers_key, meld_kinds, canastra_kinds), (helpers,), object)

    def compile_group(path, group):
        compiled, errors = [], []
        for clause in group:
            def compile_it(clause=clause):
                setting = registry.find(clause.setting)
                compiler = Compiler(definitions, canastra_kinds, meld_kinds, setting.scope, ctx.lines_of)
                return _compile_clause(clause, setting, compiler, definitions)
            try:
                compiled.append(_MEMO.get(("clause", id(clause), scope), (clause, helpers), compile_it))
            except SpecError as exc:
                errors.append(exc)
        if not compiled:
            return None, errors, []
        found = _Context(ctx.files, [])
        disjoint = _check_overlaps(found, path, compiled, definitions, helpers, helpers_key)
        return SettingRules(registry.find(path), path, tuple(compiled), first_match=disjoint), errors, found.errors

    def setting_rules(path, group):
        return _MEMO.get(("setting", scope) + tuple(map(id, group)), (group, helpers),
                         lambda: compile_group(path, group))
    # the settings whose clauses are the same under every reading, compiled once for all builds of the chain
    fixed = _MEMO.get(("fixed", id(layout), scope), (layout, helpers),
                      lambda: {path: setting_rules(path, group) for _, path, group in layout.fixed})
    rules: dict[str, SettingRules] = {}
    failures: list[SpecError] = []           # clauses that do not compile, then clauses that overlap
    overlaps: list[SpecError] = []
    for _, path, group in active:
        made, errors, overlapping = fixed.get(path) or setting_rules(path, group)
        if errors:
            failures += errors
            ctx.failed.add(path)
        if made is not None:
            rules[path] = made
        overlaps += overlapping
    ctx.errors += failures + overlaps
    return rules


def _compile_clause(clause: ast.Clause, setting: registry.Setting, compiler: Compiler, definitions) -> RuleClause:
    conditions = []
    helpers: list[str] = []
    for guard in clause.conditions:
        compiled = compiler.compile(guard.expr, "bool")
        if guard.kind == "unless":
            inner = compiled.fn
            compiled = Compiled("bool", lambda c, f=inner: not f(c), compiled.facts, compiled.definitions)
        conditions.append(compiled)
        helpers += compiled.definitions
    value, literal = None, None
    if setting.type in (registry.INT, registry.BOOL):
        if isinstance(clause.value, ast.Ladder):
            raise compiler.error("a ladder is only a value of opening.ladder", clause.value)
        value = compiler.compile(clause.value, setting.type)
        helpers += value.definitions
    else:
        literal = _literal(clause.value, setting, compiler)
    cites = list(clause.cites)
    for name in helpers:
        for cite in definitions[name].citations:
            if cite.article not in cites:
                cites.append(cite.article)
    if clause.modifier == "exception" and not clause.conditions:
        raise compiler.error("an exception needs a 'when' or 'unless' condition", clause.value,
                             expected="exception <setting> = <value> when <condition> @<article>")
    return RuleClause(clause, tuple(conditions), value, literal, tuple(cites))


def _literal(node: ast.Expr, setting: registry.Setting, compiler: Compiler):
    if setting.is_enum:
        if isinstance(node, ast.Name) and len(node.parts) == 1 and node.parts[0] in setting.type:
            return node.parts[0]
        raise compiler.error(f"'{setting.pattern}' takes one of its values", node,
                             expected="one of: " + ", ".join(setting.type))
    if setting.type == registry.LADDER:
        if isinstance(node, ast.Ladder):
            if list(node.steps) != sorted(set(node.steps)):
                raise compiler.error("a ladder's steps must rise", node, expected="75 -> 120 -> 150")
            return node
        raise compiler.error("opening.ladder takes a ladder", node, expected="75 -> 120 -> 150 then +30")
    if setting.type == registry.RANKS:
        if isinstance(node, ast.Range):
            low, high = dsl_rank(node.low), dsl_rank(node.high)
            if low is None or high is None or RANKS.index(low) > RANKS.index(high):
                raise compiler.error(f"'{node.low}..{node.high}' is not a rank range", node,
                                     expected="a low rank and a higher one, such as 4..A")
            return RANKS[RANKS.index(low):RANKS.index(high) + 1]
        items = _list_items(node, compiler, "a rank range such as 4..A or a list of ranks such as [4, A]")
        ranks = []
        for item in items:
            rank = dsl_rank(_item_text(item))
            if rank is None:
                raise compiler.error(f"'{_item_text(item)}' is not a rank", item,
                                     expected="a rank: 2 .. 10, J, Q, K, A")
            ranks.append(rank)
        return tuple(ranks)
    if setting.type == registry.CARDS:
        items = _list_items(node, compiler, "a list of cards such as [JK, 2]")
        classes = []
        for item in items:
            text = _item_text(item)
            if text == "JK":
                classes.append("JK")
            elif dsl_rank(text):
                classes.append(dsl_rank(text))
            else:
                raise compiler.error(f"'{text}' is not a card", item, expected="JK or a rank 2 .. A")
        return tuple(classes)
    if setting.type == registry.NAMES:
        if not isinstance(node, ast.ListExpr):
            raise compiler.error("expected a list here", node, expected="a list of names such as [hand], or []")
        return tuple(_item_text(i) for i in node.items)
    if setting.type == registry.COLORS:
        items = _list_items(node, compiler, "a list of colours such as [black]")
        colors = tuple(_item_text(i) for i in items)
        for item, color in zip(items, colors):
            if color not in ("red", "black"):
                raise compiler.error(f"'{color}' is not a colour", item, expected="red or black")
        return colors
    raise AssertionError(setting.type)  # every registry type is handled above


def _list_items(node, compiler, expected):
    if not isinstance(node, ast.ListExpr) or not node.items:
        raise compiler.error("expected a non-empty list here", node, expected=expected)
    return node.items


def _item_text(item) -> str:
    if isinstance(item, ast.Int):
        return str(item.value)
    if isinstance(item, ast.Name):
        return item.dotted
    return "?"


def _check_overlaps(ctx, path: str, group: list[RuleClause], definitions, helpers, helpers_key) -> bool:
    """Report clauses (or exceptions) of one setting that can apply at once;
    returns whether every pair provably excludes each other, so that deciding
    the setting may stop at the first clause that applies."""
    if len(group) == 1:
        return True

    def atoms(clause):
        return _MEMO.get(("atoms", id(clause), helpers_key), (clause, helpers),
                         lambda: conjunction(clause, definitions))
    disjoint = True
    for exceptional in (False, True):
        members = [c for c in group if c.exception == exceptional]
        conjunctions = [atoms(c.clause) for c in members]
        for i, j in sorted(candidate_pairs(conjunctions)):
            a, b = members[i], members[j]
            found = _MEMO.get(("pair", id(a.clause), id(b.clause), helpers_key), (a.clause, b.clause, helpers),
                              lambda: relation(a.clause, b.clause, conjunctions[i], conjunctions[j]))
            if found == OVERLAP:
                what = "exceptions" if exceptional else "clauses"
                ctx.error(f"contradictory {what}: '{path}' is set here and at line {a.clause.pos.line} "
                          f"and both can apply at once", b.clause.pos,
                          expected="conditions that exclude each other ('when' / 'unless'), "
                                   "different readings ('under'), or one of them marked 'exception'")
            disjoint = disjoint and found == DISJOINT
    return disjoint


def _check_complete(ctx, rules, meld_kinds, canastra_kinds, selection, disputes) -> None:
    header = ctx.files[-1]
    under = [f"{d}={r}" for d, r in selection.items() if r != disputes[d].default]
    reading = f" under reading {', '.join(under)}" if under else ""
    missing = [p for p in registry.required_paths(meld_kinds, canastra_kinds)
               if p not in rules and p not in ctx.failed]
    if missing:
        ctx.error(f"ruleset '{header.ruleset}' gives no value for {_count(missing, 'required setting')}"
                  f"{reading}: {', '.join(missing)}", header.pos,
                  expected=f"a clause for each, such as: {missing[0]} = ... @<article>")
    if not meld_kinds:
        ctx.error(f"ruleset '{header.ruleset}' declares no meld kind", header.pos,
                  expected="clauses such as meld.sequence.shape = sequence @<article>")
    if not canastra_kinds:
        ctx.error(f"ruleset '{header.ruleset}' declares no canastra kind", header.pos,
                  expected="clauses such as canastra.clean.match = meld.wilds == 0 and meld.size >= 7 @<article>")

    def constant(path):
        """The value of a setting that reads no fact (None when it has no clause or can vary)."""
        group = rules.get(path)
        if group is None:
            return None
        if group.constant is not None:
            return group.constant.value
        if group.setting.scope != "static":
            return None
        try:
            return group.decide(None).value
        except CanastraError:        # two clauses at once: reported as a contradiction
            return None

    def error_at(path, message, expected):
        ctx.error(message + reading, rules[path].clauses[0].clause.pos, expected=expected)
    decks, jokers, size = constant("deck.decks"), constant("deck.jokers"), constant("deck.size")
    # What play needs: a deck it can hold, and a deal that leaves cards to draw.
    if decks is not None and not 1 <= decks <= MAX_DECKS:
        error_at("deck.decks", f"deck.decks is {decks}", f"between 1 and {MAX_DECKS} decks")
        decks = None
    if jokers is not None and decks is not None and not 0 <= jokers <= 2 * decks:
        error_at("deck.jokers", f"deck.jokers is {jokers} for {decks} deck(s)",
                 f"between 0 and {2 * decks} jokers (two per deck at most)")
        jokers = None
    players, cards = constant("table.players"), constant("deal.cards")
    if cards is not None and cards < 1:
        error_at("deal.cards", f"deal.cards is {cards}", "at least one card dealt to each player")
    elif None not in (cards, players, decks, jokers) and players in SEATINGS and \
            cards * players >= 52 * decks + jokers:
        error_at("deal.cards", f"{players} players dealt {cards} cards each need {cards * players} cards, "
                               f"and the deck holds {52 * decks + jokers}",
                 f"a deal that leaves a stock: at most {(52 * decks + jokers - 1) // players} cards each")
    if decks is not None and jokers is not None and size is not None and size != 52 * decks + jokers:
        clause = rules["deck.size"].clauses[0].clause
        ctx.error(f"deck.size is {size}, but {decks} decks of 52 and {jokers} jokers make {52 * decks + jokers}"
                  f"{reading}", clause.pos, expected="a dispute whose readings settle the count")
    for path in ("scoring.unrounded", "scoring.rounded_apart"):
        for name in constant(path) or ():
            if f"score.{name}" not in rules:
                clause = rules[path].clauses[0].clause
                ctx.error(f"{path} names '{name}', which is not a scoring term", clause.pos,
                          expected="one of: " + ", ".join(rules_terms(rules)))
    both = set(constant("scoring.unrounded") or ()) & set(constant("scoring.rounded_apart") or ())
    if both:
        clause = rules["scoring.rounded_apart"].clauses[0].clause
        ctx.error(f"'{sorted(both)[0]}' is both left out of the rounding (scoring.unrounded) and rounded apart",
                  clause.pos, expected="each term in at most one of the two lists")
    team_size = constant("table.team_size")
    if players is not None and players not in SEATINGS:
        clause = rules["table.players"].clauses[0].clause
        ctx.error(f"there is no seating for {players} players", clause.pos,
                  expected="one of: " + ", ".join(map(str, SEATINGS)))
    elif players is not None and team_size is not None and (team_size <= 0 or players % team_size):
        clause = rules["table.team_size"].clauses[0].clause
        ctx.error(f"{players} players cannot sit in teams of {team_size}", clause.pos)


def rules_terms(rules) -> list[str]:
    return [path.split(".", 1)[1] for path in rules if path.startswith("score.")]


def _check_accounted(ctx, articles, clauses, definitions) -> None:
    """Every normative article is cited by some clause of some file of the chain
    (an override does not make the article it replaced unaccounted)."""
    cited = {c for clause in clauses for c in clause.cites}
    cited |= {c.article for d in definitions.values() for c in d.citations}
    for article in articles.values():
        if not article.informative and article.id not in cited:
            ctx.error(f"article {shown(article.id)} is normative but no clause cites it", article.pos,
                      expected="a clause citing @" + cut(article.id, 40) + ", or 'informative ... because ...'")
