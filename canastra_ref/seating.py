"""Seats, teams and the order of play, derived from a ruleset's table settings
(table.players, table.team_size, play.direction). Below both the DSL (which
checks that a seating exists for the players a spec declares) and the engine.

Seats are named by compass points, listed clockwise: two players sit N and S;
three N, E, W; four N, E, S, W; six N, NE, SE, S, SW, NW. Partners sit
alternately, so with four players the teams are NS and EW. A team is named by
its seats joined (NS), or joined with "+" when a seat name has two letters
(N+SE+SW); a one-player team is named by its seat.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InputError

SEATINGS = {
    2: ("N", "S"),
    3: ("N", "E", "W"),
    4: ("N", "E", "S", "W"),
    6: ("N", "NE", "SE", "S", "SW", "NW"),
}


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]               # clockwise
    order: tuple[str, ...]               # the order of play, starting from seats[0]
    teams: dict[str, tuple[str, ...]]    # team id -> its seats
    team_of: dict[str, str]              # seat -> team id
    # derived once (play asks for them at every turn): seat -> partners, team -> opposing teams
    _partners: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _opponents: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_partners", {seat: tuple(s for s in self.teams[team] if s != seat)
                                               for seat, team in self.team_of.items()})
        object.__setattr__(self, "_opponents", {team: tuple(t for t in self.teams if t != team)
                                                for team in self.teams})

    def next(self, seat: str, steps: int = 1) -> str:
        return self.order[(self.order.index(seat) + steps) % len(self.order)]

    def left_of(self, seat: str) -> str:
        """The seat at this one's left: the next one clockwise, whatever the direction of play."""
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def partners(self, seat: str) -> tuple[str, ...]:
        return self._partners[seat]

    def opponents(self, team: str) -> tuple[str, ...]:
        return self._opponents[team]

    def from_dealer(self, dealer: str) -> tuple[str, ...]:
        """Players in order of play, starting with the one after the dealer."""
        start = self.order.index(dealer) + 1
        return tuple(self.order[(start + i) % len(self.order)] for i in range(len(self.order)))


def make_table(players: int, team_size: int, direction: str) -> Table:
    seats = SEATINGS.get(players)
    if seats is None:
        raise InputError(f"no seating for {players} players", expected="2, 3, 4 or 6 players")
    teams_count = players // team_size
    members: dict[int, list[str]] = {}
    for i, seat in enumerate(seats):
        members.setdefault(i % teams_count, []).append(seat)
    teams = {}
    for group in members.values():
        joiner = "" if all(len(s) == 1 for s in group) else "+"
        teams[joiner.join(group)] = tuple(group)
    team_of = {seat: team for team, group in teams.items() for seat in group}
    order = seats if direction == "clockwise" else (seats[0],) + tuple(reversed(seats[1:]))
    return Table(seats, order, teams, team_of)
