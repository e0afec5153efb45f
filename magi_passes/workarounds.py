"""Workarounds for Inductor and Triton miscompiles in our supported range.

`PaddingMiscompileWorkaround`: keeps Inductor's comprehensive padding off where torch
miscompiles it (pytorch#194281), so magi's output is right on every supported torch.

The bug: on torch 2.11 and 2.12, `torch._inductor.ir.is_contiguous_storage_and_layout` answers
"is this buffer contiguous?" by padding the strides of a still-flexible buffer *in place*
(`layout.pad_strides()`), so a consumer lowered earlier that read the buffer with its old strides,
and a consumer lowered later that sees the padded ones, disagree about where its elements are. On
the Wan 2.2 VAE decode in bf16 (H200, torch 2.11) a channels-last conv output read by the
upsampler's channel shuffle came out corrupted: the whole decode 0.878 relative L2 from an fp32
decode, eager 0.014; with `comprehensive_padding=False` 0.010, at no cost in speed
(docs/testing-a-pass.md, docs/reliability.md). torch 2.13 computes the padded strides on a copy
and leaves the layout alone (read from its source), but it still miscompiles the same decode on
another path: its generated CUDA code (fake CUDA, session 28) reads the up blocks' channels-last
residual output with padded channels-first strides, past the end of its storage (element
16,777,183 of 16,711,680 at 540p; `pytest_magi.bounds` finds it), in plain torch.compile and in
magi alike; with `comprehensive_padding=False` the read matches the buffer. So no torch release
is known to be fixed: `FIXED_IN` is None and the workaround applies on every torch.

Matches: a post-grad graph that has a convolution (forward or backward) on a CUDA device, compiled
by a torch without a known fix (`FIXED_IN`; None: no torch is known fixed). Padding needs a GPU
(Inductor never pads CPU graphs) and static strides above `padding_stride_threshold` that are not 128-byte aligned: bf16
and fp16 rows such as 34x60 are, fp32 rows of the same sizes mostly are not (the fp32 Wan decode
compiled correctly, 7.6e-4). Channels-last buffers, which the channel shuffle misread, come from
convolutions, so graphs without one keep Inductor's padding and its speed.

Emits: no graph change. It sets `comprehensive_padding=False` for the rest of this compilation,
declared in `mutates_inductor_config`, so `magi_backend` / `inductor_options` snapshot the key
into the compile's own `config.patch` and restore it afterwards, for forward and backward graphs
alike (each is decided on its own graph).

Skipped (the reason in its `PassResult`): a torch with the fix, a graph without a convolution, a
graph not on CUDA, `PassConfig(work_around_inductor_bugs=False)`, and a compile where padding is
off already.

`DynamicCatTilingWorkaround`: in a dynamic CUDA graph where a convolution reads a concatenation,
the channels-last rewrite and ND tiling stand down, so the graph keeps Inductor's own layout and
tiling: the conv input's producer is never a 2-D tiled kernel there.

The bug (torch 2.11.0+cu130, Triton 3.6.0, H100 and H200; docs/benchmarks.md, "Session 17",
"Session 20" and "Session 21"): such a producer (the cached frames and the new ones, selected per
frame by two masked loads, written transposed into the channels-last conv input) came out wrong
in two located cases of the Wan 2.2 decode, both in graphs recompiled dynamic. The second was
isolated to its kernel: run with each config Inductor autotunes over, on the decode's own inputs,
three of six configs wrote whole channel rows wrong (YBLOCK x XBLOCK 32x32, 64x64, 256x16; up to
4.8 off) and three were bit-equal to ATen, while Triton's CPU interpreter ran all nine shapes
tried right. So Triton's compiled code, not the kernel's source, is wrong for some tile shapes,
and which config the autotuner keeps varies by process. Edited one feature at a time (session
21), the kernel was right under every config with its runtime sizes declared 32-bit or made
constants, or with its store untransposed, and wrong otherwise; Inductor declares the sizes of
a dynamic kernel 64-bit whatever `assume_32bit_indexing` says (`signature_to_meta`), so no
setting reaches that cure. No fixed version is known; the rule applies on every torch until a
GPU run shows one right.

Why standing down and not 1-D tiles: session 20's form of this workaround kept the rewrite and
set `triton.max_tiles=1`. That was right, but a 1-D kernel storing channels-last reads the
channels-first cache uncoalesced: on the Wan 2.2 decode (H100) that producer took 101.2 ms over
28 launches per decode at 75 GB/s, against 2.8 ms 2-D tiled, and the T=3 decode went from 150 to
267 ms. Plain Inductor keeps a dynamic conv graph channels-first with 1-D kernels that store in
the layout they read (its own layout optimisation is off for dynamic shapes), and its decodes
were right on every run (torch.compile with frames isolated: 1.08e-2 / 1.12e-2 from fp32 at T=3
/ T=21, the same process recompiling dynamic graphs).

Matches: a dynamic post-grad graph (a placeholder with free symbols) on CUDA in which a
convolution's input is, through clones, pads and slices, an `aten.cat`. Static graphs keep the
rewrite and 2-D tiles: every static recompile of both graphs was right, and their producers are
where channels-last pays.

Emits: no graph change and no config change. It marks the graph (`nd_tiling.DYNAMIC_CAT_MARK` on
the output node), and `ConvChannelsLastPass` and `NdTilingPass`, which run after it, stand down
where the mark is, each saying so in its `PassResult`.

Skipped (the reason in its `PassResult`): static graphs, graphs not on CUDA, graphs where no
convolution reads a concatenation, and `PassConfig(work_around_inductor_bugs=False)`.

`compile_working_around`: a compilation that raised in sympy on one of two torch 2.13 bugs of
Inductor's index simplification is compiled again with both worked around; every other
compilation is left exactly as Inductor makes it.

The bugs (torch 2.13.0 with sympy 1.14, located in session 32 on the CPU; docs/reliability.md),
both met where Inductor lowers a concatenation of few, cheap inputs as one pointwise kernel
(`pointwise_cat`, chosen on GPUs; `force_pointwise_cat=True` chooses it on the CPU too), which
wraps each input's index along the concatenated dim in `torch.utils._sympy.functions.Identity`,
and an input's own loader clamps that index (a replicate pad, an index clamped into range):
- the scheduler's loop simplification substitutes zeros into ``Min(2, Max(0, Identity(q - 2)))``;
  torch's `Max` leaves ``Max(0, Identity(-2))`` unevaluated and `Min` then fails comparing it
  (`ValueError` "not comparable", or `RecursionError` in sympy's `evalf`);
- simplifying ``ModularIndexing(Min(4, Max(0, Identity(q1 - 2))) + 1, 1, 2)`` (the clamp under
  a reshape), Inductor asks the shape environment whether ``Identity(q1 - 2) >= 0`` without the
  index variable's range, and its static evaluation raises where it should answer "unknown"
  (`AssertionError` "vr must not be None for symbol q1").
Either way the whole compile raises, in plain torch.compile as in magi: the KVAE-3D decoder (its
causal conv's cached frames concatenated with a replicate-padded clip) cannot be compiled for
CUDA on torch 2.13 (fake CUDA: the first bug at the zoo's tiny size, the second at full size).
torch 2.11 compiled it on the GPU (session 31).

How: `identity_numbers` makes the name `pointwise_cat` calls (`torch._inductor.lowering.Identity`)
`NumberIdentity` for a block, a subclass that is its argument once that is an integer: a class of
its own, so sympy's cache of `Identity` is untouched; it prints, simplifies and is interpreted
as `Identity` (same printers, subclass checks, `_torch_handler_name`). `unranged_undecided` makes
the shape environment's static evaluation answer "unknown" (None) for an expression with a
symbol it has no range for, as it does for any expression it cannot decide. Both restore what
they replaced when the block ends. They change generated code (an unwrapped constant can drop
a load's eviction hint), so they are entered only to compile again a graph whose compile raised
one of these errors (`sympy_failure`), never on the first try. The magi backend and
`pytest_magi.inductor_codegen(config=...)` compile each graph through `compile_working_around`
with `PassConfig.work_around_inductor_bugs`; a backward graph that AOTAutograd compiles lazily,
at the first backward call, is not retried.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypeVar

import sympy
import torch
from torch.utils._sympy.functions import Identity

from .base import MagiPass, PassResult, get_inductor_config_value, is_call
from .nd_tiling import DYNAMIC_CAT_MARK
from .predicates import is_dynamic

UPSTREAM_ISSUE = "pytorch#194281"
#: the first torch (major, minor) shown to compile the Wan decode right with padding on; None:
#: none yet (2.13 fixed the in-place pad, yet reads past a buffer on another path)
FIXED_IN: tuple[int, int] | None = None
SETTING = "comprehensive_padding"

_CONVOLUTIONS = ("convolution", "convolution_backward", "cudnn_convolution", "_convolution")


def torch_version() -> str:
    """The running torch's version string (one place for tests to mock another version)."""
    return str(torch.__version__)


def has_padding_miscompile(version: str | None = None) -> bool:
    """Whether torch ``version`` (default: the running one) has pytorch#194281."""
    text = version if version is not None else torch_version()
    found = re.match(r"(\d+)\.(\d+)", text)
    if found is None:
        raise ValueError(f"torch version {text!r}: expected 'MAJOR.MINOR...', e.g. '2.11.0+cu130'")
    return FIXED_IN is None or (int(found.group(1)), int(found.group(2))) < FIXED_IN


def _is_convolution(node: torch.fx.Node) -> bool:
    target = node.target
    packet = getattr(target, "_overloadpacket", target)
    return node.op == "call_function" and getattr(packet, "__name__", "") in _CONVOLUTIONS


def _on_cuda(graph: torch.fx.Graph) -> bool:
    for node in graph.find_nodes(op="placeholder"):
        val: Any = node.meta.get("val")
        if isinstance(val, torch.Tensor) and val.device.type == "cuda":
            return True
    return False


class PaddingMiscompileWorkaround(MagiPass):
    """Comprehensive padding off on CUDA convolution graphs of every torch without a known fix
    (pytorch#194281 and its 2.13 sibling)."""

    name: ClassVar[str] = "padding_miscompile_workaround"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = (SETTING,)

    def enabled(self) -> bool:
        return self.config.work_around_inductor_bugs

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        version = torch_version()
        convs = sum(1 for n in graph.nodes if _is_convolution(n))
        result.counts["convolutions"] = convs
        if not has_padding_miscompile(version):
            fixed = ".".join(map(str, FIXED_IN or ()))
            result.reason = f"torch {version} has the fix of {UPSTREAM_ISSUE} (>= {fixed})"
        elif not convs:
            result.reason = f"no convolution: {UPSTREAM_ISSUE} needs a channels-last buffer"
        elif not _on_cuda(graph):
            result.reason = "not a CUDA graph: Inductor pads strides on GPUs only"
        elif not get_inductor_config_value(SETTING):
            result.reason = f"{SETTING} is off already"
        else:
            self.set_config(SETTING, False, result)
            result.applied = True
            result.reason = (
                f"torch {version} miscompiles padded strides ({UPSTREAM_ISSUE}): "
                f"{SETTING}=False for this graph ({convs} convolutions on CUDA)"
            )
        return result


#: where the 2-D tiled fault was seen (no fixed version known, so no version gate)
TILES_OBSERVED_ON = "torch 2.11.0+cu130 with Triton 3.6.0 on H100 and H200"
_aten = torch.ops.aten
# single-input data movement between a concatenation and the convolution that reads it
_MOVES = (
    _aten.clone.default,
    _aten.constant_pad_nd.default,
    _aten.slice.Tensor,
    _aten.alias.default,
)


def reads_concatenation(conv: torch.fx.Node) -> bool:
    """Whether `conv`'s input is an `aten.cat` through clones, pads and slices."""
    node = conv.args[0]
    while is_call(node, *_MOVES):
        assert isinstance(node, torch.fx.Node)
        node = node.args[0]
    return is_call(node, _aten.cat.default)


class DynamicCatTilingWorkaround(MagiPass):
    """No channels-last rewrite and no ND tiling in dynamic CUDA graphs whose convolution reads
    a concatenation (module docstring)."""

    name: ClassVar[str] = "dynamic_cat_tiling_workaround"

    def enabled(self) -> bool:
        return self.config.work_around_inductor_bugs

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        convs = [
            n
            for n in graph.find_nodes(op="call_function", target=_aten.convolution.default)
            if reads_concatenation(n)
        ]
        result.counts["convolutions_reading_a_cat"] = len(convs)
        if not is_dynamic(graph):
            result.reason = "static shapes: their 2-D tiled producers were right"
        elif not _on_cuda(graph):
            result.reason = "not a CUDA graph"
        elif not convs:
            result.reason = "no convolution reads a concatenation"
        else:
            graph.find_nodes(op="output")[0].meta[DYNAMIC_CAT_MARK] = len(convs)
            result.applied = True
            result.reason = (
                f"{len(convs)} convolution(s) read a concatenation in a dynamic graph, whose 2-D "
                f"tiled channels-last producer Triton miscompiled for some tile shapes "
                f"({TILES_OBSERVED_ON}): the channels-last rewrite and ND tiling stand down here"
            )
        return result


class NumberIdentity(Identity):
    """`Identity` that is its argument once that is an integer (`identity_numbers`)."""

    # torch's sympy interpreter finds a function's handler by its exact class, or by this name
    _torch_handler_name = "identity"

    @classmethod
    def eval(cls, arg: Any) -> Any:
        return arg if isinstance(arg, sympy.Integer) else None


# sympy's printers use a parent function's `_print_<name>` only for a subclass of the same name:
# so Inductor's C++ and Triton printers write it as they write `Identity` (its qualified name,
# which pickling uses, stays NumberIdentity)
NumberIdentity.__name__ = "Identity"


@functools.cache
def has_identity_number_bug() -> bool:
    """Whether this torch fails on a clamp of a constant `Identity` (its sympy functions leave
    ``Max(0, Identity(-2))`` unevaluated and ``Min`` raises on it)."""
    from torch.utils._sympy.functions import Max, Min

    try:
        value = Min(sympy.Integer(2), Max(sympy.Integer(0), Identity(sympy.Integer(-2))))
    except (RecursionError, ValueError, TypeError):
        return True
    return value != 0


@contextlib.contextmanager
def identity_numbers(enabled: bool = True) -> Iterator[bool]:
    """For the block, Inductor's pointwise concatenation uses `NumberIdentity` where this torch
    has the bug (`has_identity_number_bug`) and ``enabled``; yields whether it does."""
    from torch._inductor import lowering

    if not enabled or not has_identity_number_bug() or lowering.Identity is not Identity:
        # off, a torch without the bug, or inside an enclosing block (it restores the name)
        yield enabled and lowering.Identity is NumberIdentity
        return
    lowering.Identity = NumberIdentity  # type: ignore[misc]
    try:
        yield True
    finally:
        lowering.Identity = Identity  # type: ignore[misc]


@contextlib.contextmanager
def unranged_undecided() -> Iterator[None]:
    """For the block, the shape environment's static evaluation answers None ("cannot decide")
    for an expression with a symbol it has no value range for, instead of raising."""
    from torch.fx.experimental import symbolic_shapes
    from torch.utils._sympy.singleton_int import SingletonInt

    worker = symbolic_shapes._maybe_evaluate_static_worker

    def undecided(expr: Any, symbol_info: Any, *args: Any, **kwargs: Any) -> Any:
        if any(s.vr is None and not isinstance(s.val, SingletonInt) for s in symbol_info):
            return None
        return worker(expr, symbol_info, *args, **kwargs)

    # (an lru_cache-wrapped function in torch: a plain function stands in for it meanwhile)
    symbolic_shapes._maybe_evaluate_static_worker = undecided  # type: ignore[assignment]
    try:
        yield
    finally:
        symbolic_shapes._maybe_evaluate_static_worker = worker


# what each of the two bugs raises, as the compile's error (or one it wraps) says it
SYMPY_FAILURES = (
    ("clamp of a constant Identity", re.compile(r"is not comparable|maximum recursion depth")),
    ("index variable without a range", re.compile(r"vr must not be None for symbol")),
)

T = TypeVar("T")


def sympy_failure(error: BaseException) -> str | None:
    """Which of the two bugs `error` (or an exception it wraps) is, or None."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = f"{type(current).__name__}: {current}"
        for name, pattern in SYMPY_FAILURES:
            if pattern.search(text):
                return name
        current = current.__cause__ or current.__context__
    return None


def truncating_to_now(*records: list[Any]) -> Callable[[], None]:
    """A `compile_working_around` ``before_retry``: each of ``records`` (lists a compile appends
    to: a manager's history, a graph log) cut back to the length it has now."""
    lengths = [len(record) for record in records]

    def truncate() -> None:
        for record, length in zip(records, lengths, strict=True):
            del record[length:]

    return truncate


def compile_working_around(
    compile_: Callable[[], T],
    enabled: bool,
    *,
    before_retry: Callable[[], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
    first_in_scopes: bool = False,
) -> T:
    """``compile_()``; where it raised one of the two bugs (`sympy_failure`) and ``enabled``,
    ``before_retry()`` (undo what the failed try recorded), ``on_retry(bug)`` (``bug``: which
    of the two the first try raised, as `sympy_failure` names it; e.g. to count the retries)
    and ``compile_()`` again inside `identity_numbers` and `unranged_undecided` (an error there
    is raised with the first as its cause). Any other error, or one with ``enabled`` False, is
    raised as it is. With ``first_in_scopes`` (and ``enabled``) the one try is inside the scopes
    already: for a graph known to raise on its first try, which would cost its AOT dispatch,
    post-grad passes and part of its lowering twice."""
    if enabled and first_in_scopes:
        with identity_numbers(), unranged_undecided():
            return compile_()
    try:
        return compile_()
    except Exception as error:
        bug = sympy_failure(error) if enabled else None
        if bug is None:
            raise
        first = error
    if before_retry is not None:
        before_retry()
    if on_retry is not None:
        on_retry(bug)
    try:
        with identity_numbers(), unranged_undecided():
            return compile_()
    except Exception as again:
        # the retry's own error, with the first try's as its cause
        raise again from first
