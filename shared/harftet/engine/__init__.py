"""The pure rules of Kastet and Harftet: standard library only, no AWS, no I/O.

- ``tiles``   the 106 tiles of each game and their JSON shape
- ``rules``   melds and pairs of each game (Harftet differs from Kastet only there)
- ``state``   a table as plain data; ``moves`` the three moves; ``effects`` rating changes
- ``hand``    dealing and playing a hand: ``apply_move``; ``lay_checks`` a lay's rules in order
- ``table``   seats, start, leaving, presence and substitutes (``seats``: who sits where),
  and time (``sweep``: the timed events)
- ``scoring`` ranking and partner points, and the end-of-game split
- ``view``    the one function that decides what a viewer may see
- ``codec``   the compact stored form of a table
- ``replay``  a finished game's deals and moves, and the game rebuilt from them
- ``bot``     a simple computer player that makes only legal moves
- ``search``  the best lay for hints and computer players (``bots``: the levels)
"""
