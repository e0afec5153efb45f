"""Pairs: a baseline and a candidate compile of one model, judged and timed side by side.

`protocol` names what every pair answers (`Pair`); `zoo` holds `ZooPair`, a pair of zoo models;
`CompiledPair` (the `compiled_pair` fixture's pair) is at `pytest_magi.pair`.
"""
