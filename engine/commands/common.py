"""What several commands share: exit codes, usage errors, option and player-count parsing."""

from __future__ import annotations

from engine.compile.loading import keep_packs_out_of_collections  # noqa: F401  (for cli, which imports commands only)
from engine.diagnostics import did_you_mean
from engine.runtime.defs import Pack

EXIT_OK, EXIT_FINDINGS, EXIT_BROKEN = 0, 1, 2


class UsageError(Exception):
    """Bad command-line use (exit 2)."""


def options(names: list[str] | None, pack: Pack) -> dict[str, bool]:
    """The `--option` names turned on; a name the pack does not have is a usage error, not ignored."""
    for name in names or []:
        if name not in pack.options:
            hint = did_you_mean(name, pack.options)
            raise UsageError(f"--option {name}: {pack.name} has no such option (its options: "
                             f"{', '.join(pack.options) or 'none'})" + (f"; {hint}" if hint else ""))
    return dict.fromkeys(names or [], True)


def player_counts(text: str | None, pack: Pack) -> list[int]:
    """'4', '1-6' or '2,3' -> a list of player counts (default: every count the pack allows)."""
    if not text:
        return list(range(pack.min_players, pack.max_players + 1))
    counts: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        if not low.strip().isdigit() or (high and not high.strip().isdigit()):
            raise UsageError(f"--players takes N, N-M or N,M,...; got '{text}'")
        counts.extend(range(int(low), int(high or low) + 1))
    bad = [n for n in counts if not pack.min_players <= n <= pack.max_players]
    if bad:
        raise UsageError(f"{pack.name} plays with {pack.min_players}-{pack.max_players} players, not {bad[0]}")
    return counts
