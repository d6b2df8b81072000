"""Harftet: online tables of Kastet (okey tiles) and Harftet (Turkish letter tiles)."""
