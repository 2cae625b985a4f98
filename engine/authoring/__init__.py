"""Tools that write pack files for a designer: the canonical formatter (`cogwork fmt`) and the new-pack
scaffold (`cogwork new`).

May import: shared top-level modules and `packs`.
"""
