"""The designer's balance report: statistics over simulated games (seat win rates with confidence
intervals, score and length distributions, each component's link with winning, each bot kind's
results), the comparison of two packs on the same seeds, and a self-contained HTML page with
matplotlib plots (matplotlib is the optional extra `cogwork[report]`, imported only to draw).

May import: shared top-level modules, `play` (the game records it summarises) and `runtime` (the verdicts).
"""
