"""Compiling with the magi passes: the pass manager, the `"magi"` backend and `magi_compile`,
measured decisions, recorded compile forms and the compile-time scopes they run in."""
