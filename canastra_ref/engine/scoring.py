"""Scoring a finished hand: each team's terms with their citations, the
rounding, and the end of the game."""
from __future__ import annotations

from dataclasses import dataclass, field

from .context import TeamContext, canastra_bonus
from .rules import Engine
from .state import State


@dataclass
class TeamScore:
    team: str
    terms: dict[str, dict] = field(default_factory=dict)     # name -> {"value", "cites"}
    counts: bool = True
    counts_cites: list[str] = field(default_factory=list)
    subtotal: int = 0            # the sum of the terms
    rounding: int = 0            # what the rounding added
    total: int = 0               # what the hand adds to the team's score
    rounding_cites: list[str] = field(default_factory=list)
    score_before: int = 0
    score_after: int = 0

    def to_json(self) -> dict:
        return {"terms": self.terms, "counts": self.counts, "counts_cites": self.counts_cites,
                "subtotal": self.subtotal, "rounding": self.rounding, "rounding_cites": self.rounding_cites,
                "total": self.total, "score_before": self.score_before, "score_after": self.score_after}


def round_fives(value: int, rule: str) -> int:
    """A count ending in 5 rounded to a multiple of 10 as `rule` says."""
    if rule == "none" or value % 10 != 5:
        return value
    if rule == "up":
        return value + 5
    if rule == "away-from-zero":
        return value + 5 if value > 0 else value - 5
    if rule == "positive-up":
        return value + 5 if value > 0 else value
    raise ValueError(rule)


def score_hand(engine: Engine, state: State) -> dict[str, TeamScore]:
    results = {}
    rounding = engine.decide("scoring.round_fives")
    unrounded = engine.decide("scoring.unrounded")
    apart = engine.decide("scoring.rounded_apart")
    for team in state.table.teams:
        ctx = TeamContext(engine, state, team)
        result = TeamScore(team, score_before=state.teams[team].score)
        for term in engine.ruleset.score_terms:
            decision = engine.decide(f"score.{term}", ctx)
            cites = list(decision.cites)
            if term_reads_bonus(engine, term):
                for d in canastra_bonus(engine, state, team)[1]:
                    cites += [c for c in d.cites if c not in cites]
            result.terms[term] = {"value": decision.value, "cites": cites}
        counts = engine.decide("scoring.counts", ctx)
        result.counts, result.counts_cites = bool(counts.value), list(counts.cites)
        result.subtotal = sum(t["value"] for t in result.terms.values())
        if not result.counts:
            result.total = 0
        else:
            kept = sum(t["value"] for name, t in result.terms.items() if name in unrounded.value)
            alone = [t["value"] for name, t in result.terms.items() if name in apart.value]
            rest = result.subtotal - kept - sum(alone)
            rounded = round_fives(rest, rounding.value) + sum(round_fives(v, rounding.value) for v in alone) + kept
            result.rounding = rounded - result.subtotal
            result.total = rounded
            if result.rounding:
                result.rounding_cites = list(dict.fromkeys(rounding.cites + unrounded.cites + apart.cites))
        result.score_after = result.score_before + result.total
        results[team] = result
    return results


def term_reads_bonus(engine: Engine, term: str) -> bool:
    """Whether a term's clauses read team.canastra_bonus (its trace then lists
    the canastra kinds' citations too)."""
    rules = engine.ruleset.settings.get(f"score.{term}")
    return bool(rules) and any("team.canastra_bonus" in (c.value.facts if c.value else ())
                               for c in rules.clauses)


def game_over(engine: Engine, scores: dict[str, int]) -> tuple[bool, list[str]]:
    """Whether the game ends after a hand with these scores, and the winners."""
    target = engine.value("game.target")
    past = [t for t, s in scores.items() if s >= target]
    if not past:
        return False, []
    if len(past) > 1 and engine.value("game.past_target") == "shared":
        return True, past
    best = max(scores.values())
    leaders = [t for t, s in scores.items() if s == best]
    if len(leaders) > 1 and engine.value("game.tie") == "play-on":
        return False, []
    return True, leaders
