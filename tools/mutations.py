"""The deliberate faults `tools/mutation_check.py` puts into a copy of `magi_passes`.

Each `Mutation` is one fault: one or more exact text substitutions (each must match exactly
once, at the time it is applied, or the mutation is reported as "not applied") and the tests
that should catch it, as pytest arguments (files or node ids), cheapest first. Node ids are
checked at collection before anything runs, so a renamed test cannot pass for a caught fault.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace `old` (must occur exactly once) by `new` in `magi_passes/<file>` (a path inside the
    package, e.g. ``passes/channels_last.py``)."""

    file: str
    old: str
    new: str


@dataclass(frozen=True)
class Mutation:
    name: str
    fault: str  # what a developer would have got wrong, in words
    edits: tuple[Edit, ...]
    tests: tuple[str, ...]


def corpus(*case_ids: str) -> tuple[str, ...]:
    """Node ids of corpus cases on the CPU (`conv2d-bias-fp32-infer` -> `test_corpus[...-cpu]`)."""
    return tuple(f"tests/test_corpus.py::test_corpus[{case}-cpu]" for case in case_ids)


CHANNELS_LAST = "tests/test_channels_last.py"
ND_TILING = "tests/test_nd_tiling.py"
CONFIG = "tests/test_config.py"
MANAGER = "tests/test_manager.py"
BACKEND = "tests/test_backend.py"
BAD_INPUT = "tests/test_bad_input.py"
WEIGHT_UPDATES = "tests/test_corpus.py::test_corpus_weight_updates[cpu-weights-once]"
WEIGHT_UPDATES_DEFAULT = (
    "tests/test_default_weights.py",
    "tests/test_corpus.py::test_corpus_weight_update_through_data[cpu-default]",
    "tests/test_corpus.py::test_corpus_weight_updates[cpu-default]",
)
FX_CACHE = "tests/test_corpus.py::test_corpus_fx_graph_cache_keeps_configs_apart"
CACHE_KEYS = "tests/test_cache_keys.py"
CACHE_HIT = (
    "tests/test_cache_keys.py::test_fx_graph_cache_hits_keep_the_passes_effect_and_configs_miss"
)


# the CPU twins of the GPU perf tests: budgets of every GPU pair, held by snapshots
PERF_BUDGETS = "tests/test_perf_budgets.py::test_a_gpu_pairs_budgets_hold_on_a_cpu"


def _never_fires(name: str, file: str, old: str, new: str) -> Mutation:
    return Mutation(
        f"{name}-never-fires",
        f"{name} stops rewriting anything (a broken match, a gate that is always shut)",
        (Edit(file, old, new),),
        (PERF_BUDGETS,),
    )


def _weakened(name: str, fault: str, file: str, old: str, new: str) -> Mutation:
    """A pass that still fires but does less of its job (its output stays correct)."""
    return Mutation(name, fault, (Edit(file, old, new),), (PERF_BUDGETS,))


_RESULT = 'result = PassResult(self.name, applied=False, reason="")'
_RESULT_COUNTS = 'result = PassResult(self.name, applied=False, reason="", counts=counts)'


def bad_input(*case_ids: str) -> tuple[str, ...]:
    """Node ids of `test_call_site_checks` rows (docs/reliability.md, "Bad input")."""
    return tuple(f"tests/test_bad_input.py::test_call_site_checks[{case}]" for case in case_ids)


MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "conv3d-gets-channels-last-2d",
        "wrong memory format: channels_last (4-D) used for 5-D conv3d tensors",
        (Edit("fx/layout.py", "5: torch.channels_last_3d}", "5: torch.channels_last}"),),
        (CHANNELS_LAST, *corpus("conv3d-bias-fp32-infer", "conv3d-stride-dilation-fp32-train")),
    ),
    Mutation(
        "weight-clone-dropped",
        "only the conv input gets a channels-last clone, the weight keeps its layout",
        (Edit("passes/channels_last.py", "for arg in tensors:", "for arg in tensors[:-1]:"),),
        (CHANNELS_LAST, *corpus("conv2d-nobias-fp32-train")),
    ),
    Mutation(
        "clone-meta-val-stays-contiguous",
        "the clone is inserted but its fake value is not made channels-last",
        (Edit("fx/nodes.py", "lambda t: t.clone(memory_format=fmt)", "lambda t: t.clone()"),),
        (CHANNELS_LAST, *corpus("conv2d-nobias-fp32-train")),
    ),
    Mutation(
        "clone-not-shared",
        "a tensor read by two convs gets two clones (the sharing map is never consulted)",
        (Edit("passes/channels_last.py", "clone = clones.get(key)", "clone = None"),),
        (CHANNELS_LAST, *corpus("conv2d-shared-weight-fp32-train")),
    ),
    Mutation(
        "pad-hoisted-across-multi-user",
        "the clone is hoisted over a constant_pad_nd that has other users",
        (Edit("fx/layout.py", "and len(source.users) == 1", "and len(source.users) >= 1"),),
        (CHANNELS_LAST, *corpus("conv3d-multi-user-pad-fp32-infer")),
    ),
    Mutation(
        "transposed-conv-converted",
        "transposed convolutions are not skipped",
        (Edit("passes/channels_last.py", "if transposed:", "if False:"),),
        (CHANNELS_LAST, *corpus("convtranspose2d-fp32-infer")),
    ),
    Mutation(
        "layout-optimization-not-set",
        "the pass converts convs but leaves layout_optimization on (Inductor then ignores the clones)",
        (
            Edit(
                "passes/channels_last.py",
                'self.set_config("layout_optimization", False, result)',
                "pass",
            ),
        ),
        (CHANNELS_LAST, *corpus("conv2d-bias-fp32-infer")),
    ),
    Mutation(
        "undeclared-config-key-set",
        "the channels-last pass also flips an Inductor key it does not declare",
        (
            Edit(
                "passes/channels_last.py",
                'self.set_config("layout_optimization", False, result)',
                'self.set_config("layout_optimization", False, result)\n'
                "        torch._inductor.config.freezing = not torch._inductor.config.freezing",
            ),
        ),
        (CHANNELS_LAST, *corpus("conv2d-bias-fp32-infer")),
    ),
    Mutation(
        "undeclared-key-check-disabled",
        "MagiPass no longer detects (and undoes) changes to undeclared config keys",
        (Edit("passes/base.py", "if k not in self.mutates_inductor_config", "if False"),),
        (MANAGER,),
    ),
    Mutation(
        "nd-tiling-on-static-graphs",
        "ND tiling fires on static graphs too",
        (Edit("passes/nd_tiling.py", "if not is_dynamic(graph):", "if False:"),),
        (ND_TILING, *corpus("conv2d-nd-tiling-static-fp32-infer")),
    ),
    Mutation(
        "nd-tiling-three-tiles",
        "ND tiling with max_tiles=3 (overflows the CUDA z grid)",
        (Edit("passes/nd_tiling.py", '"triton.max_tiles": 2,', '"triton.max_tiles": 3,'),),
        (ND_TILING, *corpus("conv2d-nd-tiling-dynamic-fp32-infer")),
    ),
    Mutation(
        "nd-tiling-ignores-channels-last",
        "ND tiling also fires after the channels-last rewrite converted the graph",
        (
            Edit(
                "passes/nd_tiling.py",
                "if converted and not self.config.nd_tiling_with_channels_last:",
                "if False:",
            ),
        ),
        (ND_TILING, *corpus("conv2d-dynamic-batch-fp32-infer")),
    ),
    Mutation(
        "conv-heavy-inverted",
        "is_conv_heavy compares the wrong way",
        (
            Edit(
                "fx/predicates.py",
                "len(graph.nodes) < ratio * n_convs",
                "len(graph.nodes) > ratio * n_convs",
            ),
        ),
        (ND_TILING, *corpus("conv2d-nd-tiling-dynamic-fp32-infer")),
    ),
    Mutation(
        "uuid-ignores-config",
        "neither the passes' nor the manager's uuid() covers the PassConfig (FX cache mixes configs)",
        (
            Edit("passes/base.py", "h.update(self.config.key().encode())", "pass"),
            Edit("compile/manager.py", "h.update(self.config.key().encode())", "pass"),
        ),
        (MANAGER, CONFIG, FX_CACHE),
    ),
    Mutation(
        "pass-uuid-ignores-config",
        "a MagiPass's uuid() does not cover its PassConfig (only the manager's does)",
        (Edit("passes/base.py", "h.update(self.config.key().encode())", "pass"),),
        (MANAGER, CONFIG, ND_TILING, CHANNELS_LAST),
    ),
    Mutation(
        "pass-uuid-omits-predicates",
        "the cache key hashes every package file but predicates.py (is_conv_heavy, is_dynamic): "
        "a changed predicate is served from the FX graph cache with the old behaviour",
        (
            Edit(
                "passes/base.py",
                'return tuple(sorted(str(p) for p in PACKAGE_DIR.rglob("*.py")))',
                'return tuple(sorted(str(p) for p in PACKAGE_DIR.rglob("*.py") '
                'if p.name != "predicates.py"))',
            ),
        ),
        (f"{CACHE_KEYS}::test_changing_a_predicate_changes_every_key", CACHE_KEYS),
    ),
    Mutation(
        "uuid-hashes-own-module-only",
        "the old key: a pass's uuid() hashes its own module only, not base/config/predicates/"
        "manager/backend",
        (
            Edit(
                "passes/base.py",
                "    files = package_source_files()\n    try:",
                "    files: tuple[str, ...] = ()\n    try:",
            ),
            Edit("compile/manager.py", "h.update(_source_hash(type(self)).encode())", "pass"),
        ),
        (CACHE_KEYS,),
    ),
    Mutation(
        "uuid-ignores-sources",
        "neither the passes' nor the manager's uuid() covers any source file (config only)",
        (
            Edit(
                "passes/base.py",
                "        return hash_source_files(source_files_for(cls))",
                '        return "src"',
            ),
        ),
        (CACHE_KEYS, MANAGER),
    ),
    Mutation(
        "uuid-depends-on-install-path",
        "the key hashes file paths, not names: every checkout and CI machine misses the cache",
        (
            Edit(
                "passes/base.py",
                'names = "\\n".join(_key_name(Path(p)) for p in paths)',
                'names = "\\n".join(paths)',
            ),
        ),
        (f"{CACHE_KEYS}::test_a_copy_of_the_package_has_the_checkouts_keys",),
    ),
    Mutation(
        "manager-uuid-ignores-config-and-passes",
        "the PassManager's uuid() covers the sources only, not its PassConfig or its passes",
        (
            Edit("compile/manager.py", "h.update(self.config.key().encode())", "pass"),
            Edit(
                "compile/manager.py",
                "        for p in self.passes:\n            h.update(p.uuid().encode())",
                "        for p in ():\n            h.update(p.uuid().encode())",
            ),
        ),
        (f"{CACHE_KEYS}::test_config_is_in_every_key", CACHE_HIT, MANAGER),
    ),
    Mutation(
        "config-dict-accepted",
        "a dict where a PassConfig is expected passes the call-site check (fails later, deep "
        "inside Inductor)",
        (
            Edit(
                "config.py",
                "    if value is None or isinstance(value, PassConfig):",
                "    if value is None or isinstance(value, (PassConfig, Mapping)):",
            ),
        ),
        (*bad_input("magi-backend-config-dict", "pass-manager-config-dict"), BAD_INPUT),
    ),
    Mutation(
        "zero-ratio-accepted",
        "is_conv_heavy accepts ratio=0 (every graph with a conv is then 'not conv-heavy')",
        (Edit("_validate.py", "    if value <= 0:", "    if value < 0:"),),
        (*bad_input("is-conv-heavy-ratio-zero"), ND_TILING),
    ),
    Mutation(
        "unknown-pass-config-field-unexplained",
        "PassConfig(enable_nd_tilling=False) (misspelt) gets Python's bare 'unexpected keyword "
        "argument', without the known fields and the close match",
        (
            Edit(
                "config.py",
                "        if unknown:\n            raise TypeError(",
                "        if False:\n            raise TypeError(",
            ),
        ),
        (*bad_input("pass-config-unknown-field"), BAD_INPUT),
    ),
    Mutation(
        "manager-history-unbounded",
        "the PassManager keeps every compilation's results and graph text forever",
        (
            Edit(
                "compile/manager.py",
                "        del self.history[: -self.max_history]",
                "        pass",
            ),
        ),
        (f"{MANAGER}::test_history_and_graphs_are_bounded",),
    ),
    Mutation(
        "from-env-accepts-bad-bool",
        "PassConfig.from_env turns any unknown boolean spelling into True",
        (
            Edit(
                "config.py",
                '        raise ValueError(\n            f"bad value for {var}: {raw!r}; expected a boolean',
                "        return True\n        raise ValueError(\n"
                '            f"bad value for {var}: {raw!r}; expected a boolean',
            ),
        ),
        (CONFIG, BAD_INPUT),
    ),
    Mutation(
        "from-env-accepts-zero",
        "PassConfig.from_env lets 0 through for a positive int",
        (Edit("config.py", "if value <= 0:", "if value < 0:"),),
        (CONFIG, BAD_INPUT),
    ),
    Mutation(
        "from-env-ignores-unknown-fields",
        "a misspelt MAGI_PASSES__ variable is silently ignored",
        (
            Edit(
                "config.py",
                "            if name not in by_name:\n",
                "            if name not in by_name:\n                continue\n",
            ),
        ),
        (CONFIG, BAD_INPUT),
    ),
    Mutation(
        "pass-config-type-checks-off",
        "PassConfig accepts non-bool values for boolean fields",
        (Edit("config.py", 'if f.type == "bool" and not isinstance(value, bool):', "if False:"),),
        (CONFIG, BAD_INPUT),
    ),
    Mutation(
        "backend-no-config-snapshot",
        "the backend does not snapshot the declared keys into the compile's config patch (leak)",
        (
            Edit(
                "compile/backend.py",
                "patches = {**config_snapshot(manager), **extra,",
                "patches = {**extra,",
            ),
        ),
        (*corpus("conv2d-bias-fp32-infer"), BACKEND),
    ),
    Mutation(
        "backward-compiled-without-passes",
        "config patches applied around compile_fx only, so the lazily compiled backward graph "
        "runs without the passes",
        (
            Edit(
                "compile/backend.py",
                "lambda: compile_fx(gm, inputs, config_patches=patches),",
                "lambda: inductor_config.patch(patches)(compile_fx)(gm, inputs),",
            ),
        ),
        (*corpus("conv2d-nobias-fp32-train"), BACKEND),
    ),
    Mutation(
        "weight-cache-ignores-version",
        "the converted-weight cache ignores tensor._version (stale weights after in-place updates)",
        (Edit("compile/weights.py", "and hit[1] == w._version", "and True"),),
        (*corpus("conv2d-bias-fp32-infer"), WEIGHT_UPDATES),
    ),
    Mutation(
        "weight-cache-ignores-data-ptr",
        "the converted-weight cache ignores the storage pointer (stale after `w.data = ...`)",
        (Edit("compile/weights.py", "and hit[2] == w.data_ptr()", "and True"),),
        (WEIGHT_UPDATES,),
    ),
    Mutation(
        "weights-hoisted-in-training",
        "conv weights are converted outside the graph in training too (no gradient reaches them)",
        (Edit("compile/weights.py", "if grad and value.requires_grad:", "if False:"),),
        (*corpus("conv2d-nobias-fp32-train"), BACKEND),
    ),
    Mutation(
        "example-weights-not-converted",
        "weights are converted at run time but the graph was compiled for the original layout",
        (Edit("compile/backend.py", "_convert_example_weights(gm, inputs, hoisted)", "pass"),),
        (*corpus("conv2d-bias-fp32-infer"), BACKEND),
    ),
    Mutation(
        "weights-once-on-by-default",
        "conv weights are converted outside the graph by default again: `w.data.add_()` (its own "
        "version counter) leaves the cached channels-last copy stale, silently",
        (
            Edit(
                "config.py",
                "    channels_last_weights_once: bool = False",
                "    channels_last_weights_once: bool = True",
            ),
        ),
        WEIGHT_UPDATES_DEFAULT,
    ),
    Mutation(
        "manager-drops-user-pass",
        "the PassManager never calls the user's own post-grad pass",
        (Edit("compile/manager.py", "            self.user_pass(graph)\n", "            pass\n"),),
        (MANAGER, *corpus("conv2d-bias-fp32-infer")),
    ),
    Mutation(
        "chain-ignores-installed-pass",
        "PassManager.chained_with_current replaces the installed post-grad pass instead of chaining",
        (
            Edit(
                "compile/manager.py",
                'current = get_inductor_config_value("post_grad_custom_post_pass")',
                "current = None",
            ),
        ),
        (MANAGER, *corpus("conv2d-bias-fp32-infer")),
    ),
    Mutation(
        "user-pass-runs-first",
        "the user's pass runs before the magi passes instead of after them",
        (
            Edit(
                "compile/manager.py",
                "        if self.user_pass is not None:\n            self.user_pass(graph)\n"
                "        self.results = results",
                "        self.results = results",
            ),
            Edit(
                "compile/manager.py",
                "        results: list[PassResult] = []\n        for p in self.passes:",
                "        results: list[PassResult] = []\n        if self.user_pass is not None:\n"
                "            self.user_pass(graph)\n        for p in self.passes:",
            ),
        ),
        (MANAGER, *corpus("conv2d-bias-fp32-infer")),
    ),
    _never_fires(
        "channels-last", "passes/channels_last.py", _RESULT, _RESULT + "\n        return result"
    ),
    _never_fires(
        "norm-rsqrt",
        "passes/norm_rsqrt.py",
        _RESULT_COUNTS,
        _RESULT_COUNTS + "\n        return result",
    ),
    _never_fires(
        "group-norm-stats",
        "passes/group_norm.py",
        "stats = [n for n in graph.nodes if is_group_norm_stats(n)]",
        "stats: list[torch.fx.Node] = []",
    ),
    _never_fires(
        "dynamic-reshape", "passes/dynamic_reshape.py", _RESULT, _RESULT + "\n        return result"
    ),
    _never_fires(
        "conv-pad-fold",
        "passes/conv_pad_fold.py",
        "        return self.config.enable_conv_pad_fold",
        "        return False",
    ),
    _weakened(
        "channels-last-first-conv-only",
        "channels-last converts the first convolution of a graph and leaves the others",
        "passes/channels_last.py",
        "        for conv in convs:\n",
        "        for conv in convs[:1]:\n",
    ),
    _weakened(
        "channels-last-weights-left",
        "channels-last converts each convolution's activation but not its weight",
        "passes/channels_last.py",
        "            for arg in tensors:",
        "            for arg in tensors[:-1]:",
    ),
    _weakened(
        "conv-pad-fold-first-pad-only",
        "conv-pad-fold folds the first padded convolution's pad and leaves the others",
        "passes/conv_pad_fold.py",
        "        if not any(folded):",
        '        if not any(folded) or counts["pads_folded"]:',
    ),
    _weakened(
        "group-norm-stats-first-only",
        "group-norm-stats rewrites the first GroupNorm's statistics and leaves the others",
        "passes/group_norm.py",
        "        for node in stats:",
        "        for node in stats[:1]:",
    ),
    _weakened(
        "dynamic-reshape-first-view-only",
        "dynamic-reshape rewrites the first view of a graph and leaves the others",
        "passes/dynamic_reshape.py",
        "        for node in views:",
        "        for node in views[:1]:",
    ),
)
