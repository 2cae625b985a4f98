"""Re-dealing what one seat cannot see: a sample of the games that seat cannot tell apart from this one.

A search that plays on a copy of the real state would read other hands and the deck order. Information-
set search instead plays on samples: every item in a zone the seat cannot see now is dealt again, at
random, among the places such items occupy, and the random generator is reseeded. What the seat is
taken to know:

- everything it can see now (visible zones, the top of a `top` zone, face-up items in a `face_down` zone,
  every counter, every item attribute in a visible zone);
- how many items each hidden zone holds (its view shows the size);
- whose each hidden item is and what type it is, place by place: an item only trades places with items
  of the same owner and component type, so a hand stays a hand of cards, a deck a deck of its owner's
  cards;
- which items the pending decision offers (they stay where they are);
- the state the game gave each hidden place: an item's attributes that differ from its component's
  printed values (a card assigned to slot 1, a counter on a card) stay with the place, and the
  item dealt there takes them over (on its own printed values). Otherwise a card from a hand could land
  among assigned cards without the assignment the rules gave every card there.

It does not remember where it saw an item go earlier (a card it put on top of the deck is re-dealt
like any other). The result depends only on what the seat knows and on `rng`: the hidden items are put
in a canonical order (by uid) before they are shuffled, so two states that differ only in hidden
places re-deal to the same sample.

Inside a `simultaneous` step the seat does not know what the seats before it answered there: the
kernel asked them first and hides their answers until the reveal (a private answer is not even told to
have been given), yet those answers are already in the state (an attribute set on a hidden item, a card
moved to a hidden zone). So `Match.determinize` deals at the step's start instead (`State.secret_since`),
before the step's first statement runs: a statement that ran before the step's first decision took what it
read with it (a `for c in hand` loop its list of the cards in hand, a `sorted(...)` list its order), and a
paused flow holds that, so a deal made later would leave it naming items the deal put elsewhere. The deal
pins the items the seat sees now (`seen_items`: a card drawn in the step stays where it was drawn from, so
the same draw draws it again) and those its pending decision offers it; the flow then runs the step from its
start on the dealt state and answers again: the seat's own answers as it gave them; of the others', those it
knows of (an answer every seat was told, `Decision.public`, or one that took items the seat sees now) at the
first decision that offers each; random private options for the rest. A try the seat could tell from the
real match (`seen_key`) is rejected (engine/play/match.py). What it is then taken to know, beyond the above:
which of the others' answers took the items it sees now (it sees what came of them; only which answer it
was could differ). A statement of a step around the simultaneous one that began before it (an outer flow
`for` over a hidden zone) still holds what it read before the deal.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.runtime.state import Item, State


def redeal_hidden(state: State, seat: int, rng: random.Random, pinned: Iterable[Item] = ()) -> int:
    """Re-deal, in place, every item `seat` cannot see (but `pinned`) and reseed the state's RNG; how many
    items were dealt (a group of one, with nothing to trade places with, is not)."""
    return deal_plan(state, seat, pinned).deal(state, rng)


@dataclass(frozen=True, slots=True)
class _Group:
    """Hidden places whose items trade places (one owner, one component type): where they are (zone number
    in `State.all_zones`, position), the state the game gave each place (`_state_given`), the uids of the
    items there in canonical order, and those of them that hold their printed values."""

    spots: tuple[tuple[int, int], ...]
    given: tuple[dict[str, Any] | None, ...]
    uids: tuple[int, ...]
    printed: frozenset[int]


@dataclass(frozen=True, slots=True)
class DealPlan:
    """What `redeal_hidden` shuffles in one state, worked out once: `deal` deals any copy of that state (the
    same items in the same places, with the same attributes) as `redeal_hidden` deals the state itself, for
    the same generator state. A searching bot's samples inside a simultaneous step all deal at the step's
    start (engine/play/match.py), so each deals a fresh copy of one state."""

    groups: tuple[_Group, ...]

    def deal(self, state: State, rng: random.Random) -> int:
        """Deal `state` (a copy of the planned one) in place and reseed its RNG; how many items were dealt."""
        zones, every = state.all_zones(), state.items
        dealt = 0
        for group in self.groups:
            items = [every[uid] for uid in group.uids]
            rng.shuffle(items)
            printed = group.printed
            for (at, position), item, state_here in zip(group.spots, items, group.given, strict=True):
                zone = zones[at]
                if zone.items[position] is not item:
                    zone.items[position] = item
                    zone.names_differ = False
                    zone.hears = None
                    item.zone = zone
                if state_here is not None or item.uid not in printed:
                    item.attrs = {**item.comp.values, **state_here} if state_here else item.comp.values  # (`Item`)
            dealt += len(items)
        state.rng.seed(rng.getrandbits(64))
        return dealt


def deal_plan(state: State, seat: int, pinned: Iterable[Item] = ()) -> DealPlan:
    """Where `redeal_hidden(state, seat, rng, pinned)` deals: the groups of hidden places, in the order their
    items are shuffled (a group of one, with nothing to trade places with, is left out)."""
    keep = {item.uid for item in pinned}
    places: dict[tuple[int, str], list[tuple[int, int]]] = {}
    zones = state.all_zones()
    for at, zone in enumerate(zones):
        if zone.visible_to(seat):
            continue
        for position, item in enumerate(zone.items):
            if item.uid not in keep and not zone.shows(item, seat):   # the visible top, face-up items stay
                owner = -1 if item.owner is None else item.owner
                places.setdefault((owner, item.comp.ctype.id), []).append((at, position))
    groups = []
    for key in sorted(places):
        spots = places[key]
        if len(spots) < 2:      # nothing to trade places with
            continue
        here = [zones[at].items[position] for at, position in spots]
        given = tuple(_state_given(item) for item in here)
        groups.append(_Group(tuple(spots), given, tuple(sorted(item.uid for item in here)),
                             frozenset(item.uid for item, state in zip(here, given, strict=True) if state is None)))
    return DealPlan(tuple(groups))


def seen_items(state: State, seat: int) -> set[int]:
    """The uids of the items `seat` sees now (what its view shows of them)."""
    seen: set[int] = set()
    for zone in state.all_zones():
        if zone.visible_to(seat):
            seen.update(item.uid for item in zone.items)
        elif zone.visibility != "hidden":
            seen.update(item.uid for item in zone.items if zone.shows(item, seat))
    return seen


def offered_items(payloads: Iterable[Any]) -> list[Item]:
    """The items a decision's options name (directly, or inside a tuple or list of them)."""
    found: list[Item] = []
    for value in payloads:
        if isinstance(value, Item):
            found.append(value)
        elif isinstance(value, list | tuple):
            found.extend(offered_items(value))
    return found


def _state_given(item: Item) -> dict[str, Any] | None:
    """The attributes the game set on `item` (those that differ from its component's printed values); None
    when there are none (most hidden items: one dict comparison instead of a new dict)."""
    printed, attrs = item.comp.values, item.attrs
    if attrs is printed or attrs == printed:    # (shared until its first write: `Item`)
        return None
    return {name: value for name, value in attrs.items() if name not in printed or printed[name] != value}
