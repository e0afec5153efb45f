"""Capture: what one compile produces and how it is recorded.

`core` (a fresh compile with the user's passes, keeping graphs and code), `sides` (what each side
of a pair compiles with), `codegen` (`inductor_codegen`, `kernel_counts`), `fake_cuda` and its
`fake_cuda_ops` table (CUDA codegen without a GPU), `kernels` (parsing generated code), `normalize`,
`bounds`, `launches`, `pass_diff`, `compile_stats`, `config_guard` and `lifetime`.
"""
