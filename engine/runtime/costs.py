"""The cost solver: every distinct way to pay a cost, and why one cannot be paid.

A cost is a multiset of units, each naming a counter or a wildcard. A unit of
counter `r` can be paid with `r` or with any counter that `substitutes` for
it; a unit of wildcard `w` with any member of `w.pay` (or a substitute of
one). Two ways that spend the same multiset of counters are the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.runtime.defs import Pack

Way = dict[str, int]
MAX_WAYS = 256


def payers(pack: Pack, name: str) -> list[str]:
    """Counters that may pay one unit of `name`, preferred first (worked out when the pack is built)."""
    found = pack.payers.get(name)
    return found if found is not None else _payers(pack, name)


def all_payers(pack: Pack) -> dict[str, list[str]]:
    """`payers` of every counter and wildcard: the build fills `Pack.payers` with it."""
    return {name: _payers(pack, name) for name in [*pack.counters, *pack.wildcards]}


def _payers(pack: Pack, name: str) -> list[str]:
    base = list(pack.wildcards[name].pay) if name in pack.wildcards else [name]
    out: list[str] = []
    for member in base:
        for option in [member, *_substitutes_for(pack, member)]:
            if option not in out:
                out.append(option)
    return out


def _substitutes_for(pack: Pack, name: str) -> list[str]:
    return [c.id for c in pack.counters.values() if name in c.substitutes]


def payment_ways(pack: Pack, need: dict[str, int], available: Callable[[str], int],
                 limit: int = MAX_WAYS) -> list[Way]:
    """Distinct ways to pay `need`, at most `limit`, in a stable order."""
    # Plain counters first: they are the most constrained, wildcards take what is left.
    reqs = sorted(((n, amount) for n, amount in need.items() if amount > 0),
                  key=lambda r: (r[0] in pack.wildcards, r[0]))
    groups = [(payers(pack, name), amount) for name, amount in reqs]
    left = {p: available(p) for group, _ in groups for p in group}
    if all(len(group) == 1 for group, _ in groups) and len(left) == len(groups):  # nothing competes: one way
        enough = all(left[group[0]] >= amount for group, amount in groups)
        return [dict(sorted((group[0], amount) for group, amount in groups))] if enough and limit > 0 else []
    seen: set[tuple[tuple[str, int], ...]] = set()
    ways: list[Way] = []
    spent: dict[str, int] = {}
    # A depth-first search over (group, payer, amount still to pay), with its own stack: a cost may name
    # thousands of counters, too many levels for Python's recursion. A frame is (group, payer, remaining,
    # the amounts the payer may still try, the amount it took last).
    stack: list[tuple[int, int, int, Iterator[int], int]] = []

    def enter(gi: int, pi: int, remaining: int) -> None:
        """Go to a state: record a finished way, move on to the next group, or try this payer's amounts."""
        while remaining == 0 and gi < len(groups):
            gi, pi = gi + 1, 0
            remaining = groups[gi][1] if gi < len(groups) else 0
        if gi == len(groups):
            key = tuple(sorted((k, v) for k, v in spent.items() if v))
            if key not in seen:
                seen.add(key)
                ways.append(dict(key))
            return
        options, _ = groups[gi]
        if pi < len(options):
            most = min(remaining, left[options[pi]])
            stack.append((gi, pi, remaining, iter(range(most, -1, -1)), 0))

    enter(0, 0, groups[0][1] if groups else 0)
    while stack and len(ways) < limit:
        gi, pi, remaining, takes, last = stack.pop()
        payer = groups[gi][0][pi]
        left[payer] += last
        spent[payer] = spent.get(payer, 0) - last
        take = next(takes, None)
        if take is None:
            continue
        left[payer] -= take
        spent[payer] += take
        stack.append((gi, pi, remaining, takes, take))
        enter(gi, pi + 1, remaining - take)
    return ways


def can_pay(pack: Pack, need: dict[str, int], available: Callable[[str], int]) -> bool:
    """Quick checks first (each part alone; plain counters need no search), then a search for one way."""
    alone = True  # every part has its own single payer: nothing competes, no search needed
    seen: set[str] = set()
    for name, amount in need.items():
        if amount <= 0:
            continue
        options = payers(pack, name)
        if sum(available(p) for p in options) < amount:
            return False
        alone = alone and len(options) == 1 and options[0] not in seen
        seen.update(options)
    return alone or bool(payment_ways(pack, need, available, limit=1))


def explain(pack: Pack, need: dict[str, int], available: Callable[[str], int]) -> str:
    """A sentence saying which part of the cost falls short."""
    short = []
    for name, amount in need.items():
        options = payers(pack, name)
        have = sum(available(p) for p in options)
        if have < amount:
            via = f" (payable with {', '.join(options)})" if options != [name] else ""
            short.append(f"needs {amount} {name}{via}, has {have}")
    if not short:
        return "the parts can each be paid but not all together (they compete for the same counters)"
    return "; ".join(short)


def way_label(way: Way) -> str:
    return "pay " + " + ".join(f"{n} {name}" for name, n in sorted(way.items())) if way else "pay nothing"


def reductions(need: dict[str, int], units: int, limit: int = MAX_WAYS) -> list[Way]:
    """Every way to take `units` off `need` (a discount the payer places), at most `limit`, in a stable
    order; all of it when `units` covers the whole cost."""
    if units <= 0:
        return [dict(need)]
    names = sorted(n for n, amount in need.items() if amount > 0)
    if units >= sum(need[n] for n in names):
        return [{}]
    found: list[Way] = []

    def take(i: int, left: int, now: dict[str, int]) -> None:
        if len(found) >= limit:
            return
        if left == 0:
            found.append({n: a for n, a in now.items() if a > 0})
            return
        if i == len(names):
            return
        name = names[i]
        for off in range(min(left, now[name]), -1, -1):
            now[name] -= off
            take(i + 1, left - off, now)
            now[name] += off

    take(0, units, {n: need[n] for n in names})
    return found
