"""The zoo benchmark's modes, usable without its script: `benchmarks/zoo.py MODE` runs
`pytest_magi.bench.cli.main`, and each mode is a module here with a ``main(argv)`` of its own.

Modes: `timing` and `profile` (`timing`), `numerics` and `locate` (`numerics`), `never-slower`
(`never_slower`), `compile-time` (`compile_time`), `codegen` (`codegen`, the CPU report),
`census` (`census`), `passes` (`passes`, the project's own models), `conv` and `conv-layout`
(`conv`, `conv_layout`, GPU). The variants the timing mode compiles are `variants`; the GPU
ratios the codegen mode prints, `gpu_ratios`.
"""
