"""Parse Inductor's generated code: kernels, launches and counts.

Pure text processing, no torch import at module level (the plugin loads without torch). Used by
the capture core (`pytest_magi.capture.core`), `pytest_magi.capture.codegen`, the pairs and the
benchmarks: one parser, one kernel counter.

* :func:`parse_wrapper` turns one graph's output code into a :class:`CapturedGraph`: its Triton
  kernels (``x = async_compile.triton('name', '''...''')``) and C++ kernels
  (``cpp_fused_* = async_compile.cpp_pybinding([...], r'''...''')``) as :class:`KernelInfo`,
  and the launches of its ``call`` function in order. A wrapper that defines or launches a kernel
  the parser did not find raises :class:`KernelParseError` naming the torch version: a count must
  never come out smaller because the code format changed.
* :func:`count_kernels` / :func:`kernel_names`: the kernels of output code (all graphs).

`GeneratedCode` (all of one function's graphs) is in `generated`, `kernel_diff` in `kernel_diff`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections.abc import Sequence
from typing import Any

from .normalize import normalize_code

_KERNEL_DEF_RE = re.compile(
    r"^(?P<var>\w+) = async_compile\.triton\(\s*'(?P<name>[^']+)',\s*'''(?P<src>.*?)'''",
    re.MULTILINE | re.DOTALL,
)
_DECORATOR_RE = re.compile(r"@triton_heuristics\.(\w+)\(")
_SIZE_HINTS_RE = re.compile(r"size_hints=(\{[^}]*\})")
_FIXED_CONFIG_RE = re.compile(r"@triton_heuristics\.fixed_config\(\s*config=(\{[^}]*\})")
_NUMEL_ARG_RE = re.compile(r"\b([xyz]numel|r\d*_numel|rnumel)\b")
_META_INT_RE = r"'{key}':\s*(\d+)"
_GRID_TYPE_RE = re.compile(r"'grid_type':\s*'(\w+)'")
_KERNEL_NAME_RE = re.compile(r"^triton_(?P<kind>[a-z]+)_(?P<body>.*?)(?:_(?P<n>\d+))?$")
_CPP_DEF_RE = re.compile(
    r"^(?P<var>\w+) = async_compile\.cpp(?:_pybinding)?\(\s*(?:\[[^\]]*\],\s*)?r?'''"
    r"(?P<src>.*?)'''",
    re.MULTILINE | re.DOTALL,
)
# every kernel definition, whatever its form: what the parsers above must all have found
_ANY_DEF_RE = re.compile(r"^\w+ = async_compile\.(triton|cpp_pybinding|cpp)\(", re.MULTILINE)
_LAUNCH_RE = re.compile(r"\b(?P<var>\w+)\.run\(")
_AOT_KIND_RE = re.compile(r"^# AOT ID: \['\d+_(?P<kind>\w+)'\]", re.MULTILINE)
_CALL_RE = re.compile(
    r"\b(?:(?P<kernel>triton_\w+)\.run\(|extern_kernels\.(?P<extern>\w+)\("
    r"|(?:torch\.ops\.)?(?P<aten>aten\.\w+)(?:\.\w+)?\()"
)
_REDUCTION_CALL_RE = re.compile(
    r"\btl\.(?:sum|max|min|reduce|argmax|argmin|xor_sum|cumsum|cumprod|associative_scan)\("
    r"|\btriton_helpers\.(?:max2|min2|prod|any|welford\w*)\("
)


# --------------------------------------------------------------------------- results
@dataclasses.dataclass(frozen=True)
class KernelInfo:
    """One generated Triton kernel, parsed from its source.

    ``kind`` comes from the ``@triton_heuristics.<kind>`` decorator ("pointwise",
    "reduction", "persistent_reduction", "template", "foreach", or what else the
    decorator says); a kernel launched with one config that the code generator fixed
    (``@triton_heuristics.fixed_config``) has its kind from its size parameters (Inductor
    names it ``triton_unk_...``) and that config in ``fixed_config``
    (``{"XBLOCK": 2048, "num_warps": 2, ...}``; None for a kernel Inductor tunes).
    ``numels`` are the kernel's size parameters in signature order
    (``("ynumel", "xnumel")``, ``("xnumel", "r0_numel")``); ``tile_dims`` the
    non-reduction ones (``("y", "x")``); ``nd_tiling`` is true when there is more than
    one. Loads/stores are ``tl.load``/``tl.store`` calls; ``reductions`` is
    Inductor's own count (``num_reduction``) or the reduction calls in the source.
    ``fused_ops`` are the aten op names in the kernel name. ``computes`` is a short hash
    of the normalised body without the kernel's name (see :func:`computation_key`): equal for
    two kernels that compute the same thing under different names.
    """

    name: str
    kind: str
    graph: str
    source: str
    size_hints: dict[str, Any] = dataclasses.field(hash=False)
    numels: tuple[str, ...]
    tile_dims: tuple[str, ...]
    nd_tiling: bool
    grid_type: str | None
    num_loads: int
    num_stores: int
    num_reductions: int
    fused_ops: tuple[str, ...]
    computes: str = ""
    fixed_config: dict[str, int] | None = dataclasses.field(default=None, hash=False)

    @property
    def num_tile_dims(self) -> int:
        return len(self.tile_dims)

    @property
    def reduction_dims(self) -> tuple[str, ...]:
        return tuple(n[: -len("numel")].rstrip("_") for n in self.numels if n.startswith("r"))

    def signature(self) -> str:
        """One line: graph, kind, fused ops, size hints, tiles, loads/stores/reductions."""
        hints = ",".join(f"{k}:{v}" for k, v in self.size_hints.items())
        ops = "+".join(self.fused_ops) or "-"
        tiles = ",".join(self.tile_dims) or "-"
        red = ",".join(self.reduction_dims)
        if self.fixed_config is not None:
            fixed = ",".join(f"{k}:{v}" for k, v in self.fixed_config.items())
            hints = f"size_hints={{{hints}}} fixed_config={{{fixed}}}"
        else:
            hints = f"size_hints={{{hints}}}"
        return (
            f"{self.graph} {self.kind} {ops} {hints} tiles={tiles}"
            + (f" reduce={red}" if red else "")
            + f" loads={self.num_loads} stores={self.num_stores}"
            f" reductions={self.num_reductions}"
        )


@dataclasses.dataclass(frozen=True)
class CapturedGraph:
    """One compiled graph: its kind, the wrapper (raw), its kernels, the post-pass FX graph."""

    kind: str
    raw: str
    kernels: tuple[KernelInfo, ...]
    extern_calls: tuple[str, ...]
    calls: tuple[str, ...]
    fx_graph: str | None
    pass_results: tuple[Any, ...] = ()

    @property
    def normalized(self) -> str:
        return normalize_code(self.raw)

    @property
    def wrapper(self) -> str:
        """The normalised wrapper with each kernel's body elided (see ``kernels``)."""
        return _elide_kernel_bodies(self.normalized)


def _elide_kernel_bodies(text: str) -> str:
    return _KERNEL_DEF_RE.sub(
        lambda m: (
            f"{m.group('var')} = async_compile.triton('{m.group('name')}', '''<kernel body>'''"
        ),
        text,
    )


@dataclasses.dataclass(frozen=True)
class KernelCounts:
    """Triton kernel counts of the forward (or inference) and backward graphs."""

    forward: int
    backward: int | None

    @property
    def total(self) -> int:
        return self.forward + (self.backward or 0)

    def __repr__(self) -> str:
        if self.backward is None:
            return f"KernelCounts(forward={self.forward})"
        return f"KernelCounts(forward={self.forward}, backward={self.backward}, total={self.total})"


# --------------------------------------------------------------------------- parsing
def _parse_dict(pattern: re.Pattern[str], source: str) -> dict[str, Any] | None:
    """The ``{'key': value, ...}`` literal that ``pattern``'s group 1 finds in ``source`` (ints
    as ints, anything else normalised), or None where it is absent."""
    match = pattern.search(source)
    if not match:
        return None
    out: dict[str, Any] = {}
    for key, value in re.findall(r"'(\w+)':\s*([^,}]+)", match.group(1)):
        value = value.strip()
        out[key] = int(value) if value.isdigit() else normalize_code(value)
    return out


def _kernel_signature_args(source: str, name: str) -> list[str]:
    match = re.search(rf"def {re.escape(name)}\((?P<args>[^)]*)\)", source)
    if not match:
        return []
    return [a.split(":")[0].strip() for a in match.group("args").split(",") if a.strip()]


@functools.cache
def _aten_op_names() -> frozenset[str]:
    import torch

    names = set()
    for qualified in torch._C._dispatch_get_all_op_names():
        namespace, _, op = qualified.partition("::")
        if namespace in ("aten", "prims", "inductor", "quantized_decomposed"):
            names.add(op.split(".")[0])
    return frozenset(names)


def split_fused_ops(body: str) -> tuple[str, ...]:
    """``"native_group_norm_silu"`` -> ``("native_group_norm", "silu")`` (longest known op names)."""
    if body.startswith("fused_"):
        body = body[len("fused_") :]
    elif body == "fused":
        return ()
    tokens = body.split("_")
    known = _aten_op_names()
    n = len(tokens)
    # best[i] = fewest ops covering tokens[i:], with unknown single tokens as a last resort
    best: list[tuple[int, int, list[str]] | None] = [None] * (n + 1)
    best[n] = (0, 0, [])
    for i in range(n - 1, -1, -1):
        for j in range(n, i, -1):
            piece = "_".join(tokens[i:j])
            if not piece:
                # leading underscore of an op name such as "_to_copy"
                continue
            tail = best[j]
            if tail is None:
                continue
            unknown = 0 if piece in known or ("_" + piece) in known else 1
            if unknown and j - i > 1:
                continue
            candidate = (tail[0] + unknown, tail[1] + 1, [piece, *tail[2]])
            if best[i] is None or candidate[:2] < best[i][:2]:  # type: ignore[index]
                best[i] = candidate
    result = best[0]
    return tuple(result[2]) if result else (body,)


def _fused_ops(name: str) -> tuple[str, ...]:
    match = _KERNEL_NAME_RE.match(name)
    if not match:
        return ()
    return split_fused_ops(match.group("body"))


def parse_kernel(name: str, source: str, graph: str) -> KernelInfo:
    """Parse one Triton kernel's source (as it appears inside ``async_compile.triton``)."""
    decorator = _DECORATOR_RE.search(source)
    kind = decorator.group(1) if decorator else "unknown"
    fixed_config = _parse_dict(_FIXED_CONFIG_RE, source)
    args = _kernel_signature_args(source, name)
    numels = tuple(a for a in args if _NUMEL_ARG_RE.fullmatch(a))
    if fixed_config is not None:
        # Inductor names these `triton_unk_...`: the kind from the kernel's own size parameters
        if not any(n.startswith("r") for n in numels):
            kind = "pointwise"
        elif re.search(r"\bR0_BLOCK: tl\.constexpr = \d+", source):
            kind = "persistent_reduction"
        else:
            kind = "reduction"
    tile_dims = tuple(a[0] for a in numels if not a.startswith("r"))

    def meta_int(key: str) -> int | None:
        m = re.search(_META_INT_RE.format(key=key), source)
        return int(m.group(1)) if m else None

    body = source[decorator.start() :] if decorator else source
    loads = len(re.findall(r"\btl\.load\(", body))
    stores = len(re.findall(r"\btl\.store\(", body))
    reductions = meta_int("num_reduction")
    if reductions is None:
        reductions = len(_REDUCTION_CALL_RE.findall(body))
    grid = _GRID_TYPE_RE.search(source)
    return KernelInfo(
        name=name,
        kind=kind,
        graph=graph,
        source=normalize_code(source),
        size_hints=_parse_dict(_SIZE_HINTS_RE, source) or {},
        numels=numels,
        tile_dims=tile_dims,
        nd_tiling=len(tile_dims) > 1,
        grid_type=grid.group(1) if grid else None,
        num_loads=loads,
        num_stores=stores,
        num_reductions=reductions,
        fused_ops=_fused_ops(name),
        computes=computation_key(name, source),
        fixed_config=fixed_config,
    )


def _call_section(code: str) -> str:
    """The part of a wrapper that runs kernels (``def call`` onwards, without the benchmark)."""
    start = code.find("def call(")
    end = code.find("def get_args(", start) if start >= 0 else -1
    if end < 0:
        end = code.find("def benchmark_compiled_module", start if start >= 0 else 0)
    return code[start if start >= 0 else 0 : end if end >= 0 else len(code)]


class KernelParseError(RuntimeError):
    """The generated code defines or launches kernels the parser did not find."""


def _parse_cpp_kernel(name: str, source: str, graph: str) -> KernelInfo:
    """A C++ kernel (CPU): no tiling or size hints; loads/stores are pointer accesses."""
    body = name[len("cpp_") :] if name.startswith("cpp_") else name
    body = re.sub(r"_\d+$", "", body)
    return KernelInfo(
        name=name,
        kind="cpp",
        graph=graph,
        source=normalize_code(source),
        size_hints={},
        numels=(),
        tile_dims=(),
        nd_tiling=False,
        grid_type=None,
        num_loads=len(re.findall(r"\bin_ptr\d+\s*[\[+]", source)),
        num_stores=len(re.findall(r"\bout_ptr\d+\s*[\[+]", source)),
        num_reductions=len(re.findall(r"\btmp_acc\d+\s*=\s*0", source)),
        fused_ops=split_fused_ops(body),
        computes=computation_key(name, source),
    )


def computation_key(name: str, source: str) -> str:
    """What a kernel computes, as a short hash: its normalised source from the ``@triton.jit``
    (or the C++ text) on, with the kernel's own name replaced, so that numbering and naming
    (``_0`` vs ``_3``, which ops the name lists) do not matter, shapes and index math do."""
    start = source.find("@triton.jit")
    text = source[start:] if start >= 0 else source
    text = normalize_code(text).replace(name, "KERNEL")
    text = re.sub(r"^\s*#.*$", "", text, flags=re.MULTILINE)
    return hashlib.sha256(text.strip().encode()).hexdigest()[:16]


def _calls(code: str, kernels: Sequence[KernelInfo]) -> tuple[list[str], list[str]]:
    """Launches (kernel names, extern/aten ops) of the ``call`` function, in order."""
    calls: list[str] = []
    externs: list[str] = []
    known = {k.name for k in kernels}
    cpp = sorted(k.name for k in kernels if k.kind == "cpp")
    cpp_re = re.compile(r"\b(" + "|".join(map(re.escape, cpp)) + r")\(") if cpp else None
    for line in _call_section(code).splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if cpp_re is not None:
            calls.extend(m.group(1) for m in cpp_re.finditer(stripped))
        for m in _CALL_RE.finditer(stripped):
            if m.group("kernel") and m.group("kernel") in known:
                calls.append(m.group("kernel"))
            elif m.group("extern"):
                calls.append(m.group("extern"))
                externs.append(m.group("extern"))
            elif m.group("aten") and "assert" not in stripped[: m.start()]:
                op = m.group("aten").split(".", 1)[1]
                calls.append(op)
                externs.append(op)
    return calls, externs


def check_all_parsed(code: str, kernels: Sequence[KernelInfo], graph: str) -> None:
    """Raise :class:`KernelParseError` when ``code`` defines or launches a kernel that is not
    among ``kernels``: a parser that fell behind a new torch must fail, not count fewer."""
    defined = _ANY_DEF_RE.findall(code)
    names = {k.name for k in kernels}
    launched = [
        m.group("var")
        for line in _call_section(code).splitlines()
        if not line.strip().startswith("#")
        for m in _LAUNCH_RE.finditer(line)
    ]
    missing = sorted({v for v in launched if v not in names})
    if len(defined) == len(kernels) and not missing:
        return
    import torch

    raise KernelParseError(
        f"pytest_magi could not parse the {graph} graph's generated code of torch "
        f"{torch.__version__}: it defines {len(defined)} kernel(s) "
        f"(async_compile.{'/'.join(sorted(set(defined))) or '-'}) and launches "
        f"{len(set(launched))}, but the parser found {len(kernels)}"
        + (f"; launched but not parsed: {missing}" if missing else "")
        + ". The code format changed in this torch version, so a kernel count would come out "
        "too small. Report it with the generated code (inductor_codegen(...).raw), or use a "
        "torch version this pytest-magi supports (2.11, 2.13)"
    )


def parse_wrapper(code: str, graph: str, fx_graph: str | None = None) -> CapturedGraph:
    """Parse one graph's generated wrapper (kernels inline, Python wrapper).

    Raises :class:`KernelParseError` when a kernel is defined or launched that was not parsed.
    """
    kernels = [
        parse_kernel(m.group("name"), m.group("src"), graph) for m in _KERNEL_DEF_RE.finditer(code)
    ]
    kernels += [
        _parse_cpp_kernel(m.group("var"), m.group("src"), graph) for m in _CPP_DEF_RE.finditer(code)
    ]
    check_all_parsed(code, kernels, graph)
    calls, externs = _calls(code, kernels)
    return CapturedGraph(
        kind=graph,
        raw=code,
        kernels=tuple(kernels),
        extern_calls=tuple(externs),
        calls=tuple(calls),
        fx_graph=fx_graph,
    )


def graph_kind(code: str, default: str = "inference") -> str:
    """``inference`` / ``forward`` / ``backward`` from the ``# AOT ID: ['0_forward']`` line."""
    match = _AOT_KIND_RE.search(code)
    return match.group("kind") if match else default


def parse_output_code(codes: Sequence[str]) -> list[CapturedGraph]:
    """One :class:`CapturedGraph` per output module (what ``save_output_code`` received)."""
    return [parse_wrapper(code, graph_kind(code)) for code in codes]


def kernel_names(code: str) -> list[str]:
    """Names of the kernels (Triton and C++) defined in output code, in order of definition."""
    names = [m.group("name") for m in _KERNEL_DEF_RE.finditer(code)]
    return names + [m.group("var") for m in _CPP_DEF_RE.finditer(code)]


def count_kernels(code: str) -> int:
    """Kernels defined in Inductor output code: Triton kernels (GPU) plus C++ kernels (CPU).

    Raises :class:`KernelParseError` when the code defines kernels in a form not parsed."""
    found = len(kernel_names(code))
    if found != len(_ANY_DEF_RE.findall(code)):
        check_all_parsed(code, [], "captured")
    return found
