"""Computer players by level (RULES §4a): ``kastet.choose_move`` and ``harftet.choose_move``.

Each proposes only moves that ``hand.apply_move`` accepts: a lay found by the search, else a
draw when allowed, else a pass.
"""
