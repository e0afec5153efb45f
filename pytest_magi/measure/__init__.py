"""Measurement: time and where it goes.

`timing` (interleaved rounds, `measure_pair`, `PerfLock`), `clocks` (SM clock and power while a
block runs), `gpus` (one GPU per perf worker), `profiling` (kernel events, their report, FLOP and
byte floors) and `compile_phases` (where a compile's seconds went).
"""
