"""Who answers decisions: seeded random bots, scripts of labels, or a person."""

from __future__ import annotations

import random
import sys
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TextIO

from engine.runtime.decision import Decision


class Agent(Protocol):
    def choose(self, view: Mapping[str, Any], decision: Decision) -> int: ...

    def observe(self, decision: Decision, index: int) -> None:
        """Told of its own decision answered from a log (so a resumed game continues identically)."""


class RandomAgent:
    """Uniform over legal options; exactly one RNG draw per decision, so replays can fast-forward."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"{seed}/{seat}")

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        return int(self.rng.random() * len(decision.labels))

    def observe(self, decision: Decision, index: int) -> None:
        self.rng.random()


class ScriptError(Exception):
    """A scripted label is not among the legal options."""


class ScriptedAgent:
    """Answers with labels from a list, in order."""

    def __init__(self, labels: Iterable[str]) -> None:
        self.labels = deque(labels)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        if not self.labels:
            raise ScriptError(f"the script has no answer left for: {decision.prompt} {decision.labels}")
        label = self.labels.popleft()
        try:
            return decision.index_of(label)
        except KeyError:
            raise ScriptError(f"'{label}' is not a legal option for '{decision.prompt}';"
                              f" legal: {', '.join(decision.labels)}") from None

    def observe(self, decision: Decision, index: int) -> None:
        return None


class HumanAgent:
    """A person at the terminal: shows what this seat may see, then numbered options."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._stdin, self._stdout = stdin, stdout

    @property
    def stdin(self) -> TextIO:
        return self._stdin or sys.stdin  # looked up at use, so redirection after import works

    @property
    def stdout(self) -> TextIO:
        return self._stdout or sys.stdout

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        out = self.stdout
        me = view["players"][decision.seat]
        out.write(f"\n== seat {decision.seat + 1} ({decision.step}) ==\n")
        out.write("  " + ", ".join(f"{k} {v}" for k, v in me["counters"].items() if v) + "\n")
        for other in view["players"]:  # the other players' counters are public
            if other["seat"] != decision.seat:
                counters = ", ".join(f"{k} {v}" for k, v in other["counters"].items() if v)
                out.write(f"  P{other['seat'] + 1}: {counters}\n")
        for zid, zone in me["zones"].items():
            if isinstance(zone, list) and zone:
                out.write(f"  {zid}: " + ", ".join(i["name"] for i in zone) + "\n")
        out.write(f"{decision.prompt}:\n")
        for i, label in enumerate(decision.labels, 1):
            out.write(f"  {i}) {label}\n")
        while True:
            out.write("> ")
            out.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("input ended while a decision was pending")
            answer = line.strip()
            if answer.isdigit() and 1 <= int(answer) <= len(decision.labels):
                return int(answer) - 1
            try:
                return decision.index_of(answer)
            except KeyError:
                out.write(f"  please type 1-{len(decision.labels)} or an option's text\n")

    def observe(self, decision: Decision, index: int) -> None:
        return None
