"""The cost solver: every distinct way to pay a cost, and why one cannot be paid.

A cost is a multiset of units, each naming a counter or a wildcard. A unit of
counter `r` can be paid with `r` or with any counter that `substitutes` for
it; a unit of wildcard `w` with any member of `w.pay` (or a substitute of
one). Two ways that spend the same multiset of counters are the same way.

Wildcards that compete for the same counters could make a plain search take exponential time (every
order of handing the counters out, every dead end, again and again). So the search never visits a state
twice (the subtree of a state depends only on the state), a search that runs long without finding a way
asks whether the whole cost can be paid at all (a flow from the parts of the cost to the counters,
polynomial), and it stops after MAX_PAYMENT_STEPS: with some ways found it offers those (like MAX_WAYS),
with none it is RUN002.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

from engine.runtime.defs import Pack
from engine.runtime.limits import LimitError

Way = dict[str, int]
MAX_WAYS = 256
MAX_PAYMENT_STEPS = 100_000  # steps of one search for the ways to pay a cost
COVER_CHECK_STEPS = 1_000    # a search this long with no way found asks whether there is any (_coverable)


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
    order = list(left)
    seen: set[tuple[tuple[str, int], ...]] = set()
    visited: set[tuple[int, int, int, tuple[int, ...]]] = set()
    ways: list[Way] = []
    spent: dict[str, int] = {}
    # A depth-first search over (group, payer, amount still to pay), with its own stack: a cost may name
    # thousands of counters, too many levels for Python's recursion. A frame is (group, payer, remaining,
    # the amounts the payer may still try, the amount it took last).
    stack: list[tuple[int, int, int, Iterator[int], int]] = []

    def enter(gi: int, pi: int, remaining: int) -> None:
        """Go to a state: record a finished way, move on to the next group, or try this payer's amounts
        (unless an earlier path came here with the same amounts spent: that subtree is done)."""
        while remaining == 0 and gi < len(groups):
            gi, pi = gi + 1, 0
            remaining = groups[gi][1] if gi < len(groups) else 0
        if gi == len(groups):
            key = tuple(sorted((k, v) for k, v in spent.items() if v))
            if key not in seen:
                seen.add(key)
                ways.append(dict(key))
            return
        state = (gi, pi, remaining, tuple(spent.get(p, 0) for p in order))
        if state in visited:
            return
        visited.add(state)
        options, _ = groups[gi]
        if pi < len(options):
            most = min(remaining, left[options[pi]])
            stack.append((gi, pi, remaining, iter(range(most, -1, -1)), 0))

    enter(0, 0, groups[0][1] if groups else 0)
    steps = 0
    while stack and len(ways) < limit:
        steps += 1
        if steps == COVER_CHECK_STEPS and not ways and not _coverable(groups, {p: left[p] + spent.get(p, 0)
                                                                               for p in left}):
            return []      # a long search with nothing found: ask once whether any way exists at all
        if steps > MAX_PAYMENT_STEPS and _out_of_steps(ways, need):
            break
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


def _out_of_steps(ways: list[Way], need: dict[str, int]) -> bool:
    """The search ran MAX_PAYMENT_STEPS: offer the ways found so far (as past MAX_WAYS), or fail if none."""
    if ways:
        return True
    raise LimitError(f"the search for a way to pay {way_label(need)[4:]} took more than {MAX_PAYMENT_STEPS:,}"
                     " steps (wildcards competing for the same counters)")


def _coverable(groups: list[tuple[list[str], int]], left: dict[str, int]) -> bool:
    """Whether the counters on hand can pay every part at once: a maximum flow from the parts (each needing
    its amount) through the counters that may pay them to what each counter has (Edmonds-Karp: the number
    of augmenting paths does not depend on the amounts)."""
    need = sum(amount for _, amount in groups)
    source, sink = ("source",), ("sink",)       # tuples: no counter id can be one
    cap: dict[tuple, dict[tuple, int]] = {source: {}, sink: {}}
    for i, (options, amount) in enumerate(groups):
        part = ("part", i)
        cap[source][part] = amount
        cap[part] = {source: 0}
        for name in options:
            payer = ("payer", name)
            cap[part][payer] = need
            cap.setdefault(payer, {}).setdefault(part, 0)
    for name, have in left.items():
        cap.setdefault(("payer", name), {})[sink] = max(have, 0)
        cap[sink].setdefault(("payer", name), 0)
    flow = 0
    while flow < need:
        back: dict[tuple, tuple] = {source: source}
        queue = deque([source])
        while queue and sink not in back:
            node = queue.popleft()
            for nxt, room in cap[node].items():
                if room > 0 and nxt not in back:
                    back[nxt] = node
                    queue.append(nxt)
        if sink not in back:
            return False
        path, node = [], sink
        while node != source:
            path.append((back[node], node))
            node = back[node]
        push = min(cap[a][b] for a, b in path)
        for a, b in path:
            cap[a][b] -= push
            cap[b][a] = cap[b].get(a, 0) + push
        flow += push
    return True


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
