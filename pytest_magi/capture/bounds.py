"""Out-of-bounds reads and writes in generated Triton code, found without running it.

A kernel that indexes a buffer with strides the buffer does not have (the class of Inductor
miscompile behind pytorch#194281: a consumer computes its index from padded strides while the
buffer was laid out otherwise) reads or writes past the buffer's storage at its last element.
`out_of_bounds(graph)` checks every launch of a captured graph (`GeneratedCode.captured`, fake
CUDA or a real GPU) for that, statically:

- Each buffer's storage extent comes from the wrapper: `empty_strided_*` (a new storage),
  `reinterpret_tensor` (a view of another buffer's storage: that storage's extent, minus the
  offset) and `assert_size_stride` (an extern kernel's output or a graph input).
- Each launch binds the kernel's pointer parameters to the wrapper's buffers in order.
- Each `tl.load` / `tl.store` whose index is plain arithmetic on the kernel's own index
  variables, masked by nothing but the range masks, is evaluated at the last element of every
  range (`xindex = xnumel - 1` and so on). An offset at or past the extent is reported.

It finds definite errors only: an access whose mask holds more than the range masks (a pad's
condition), an indirect index (a load's result), a buffer the wrapper does not define, or a
combo / foreach kernel (several blocks, each with its own ranges), is skipped. An index that is
wrong but stays inside the storage is not found.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["OutOfBounds", "accesses_checked", "out_of_bounds"]

_TUPLE = r"\(([^()]*)\)"
_EMPTY = re.compile(rf"^(\w+) = empty_strided_\w+\({_TUPLE}, {_TUPLE}")
_REINTERPRET = re.compile(rf"^(\w+) = reinterpret_tensor\((\w+), {_TUPLE}, {_TUPLE}, (\d+)\)")
_ASSERT = re.compile(rf"^assert_size_stride\((\w+), {_TUPLE}, {_TUPLE}")
_RUN = re.compile(r"^(\w+)\.run\((.*)\)\s*$")
_DEF = re.compile(r"^def (\w+)\(([^)]*)\)")
_NUMEL = re.compile(r"^\s*(\w+numel) = (\d+)\s*$")
_ASSIGN = re.compile(r"^\s*(\w+) = (.+)$")
_ACCESS = re.compile(r"tl\.(load|store)\(")
_POINTER = re.compile(r"^(\w+) \+ \((.*)\)$")
_RANGE_MASK = re.compile(
    r"^(?:None|[xyz]mask|r0_mask|r1_mask)(?: & (?:[xyz]mask|r0_mask|r1_mask))*$"
)
_SAFE = re.compile(r"^[\w\s+\-*/%()]*$")


@dataclass(frozen=True)
class OutOfBounds:
    """One access past its buffer's storage: the kernel, the access, the buffer bound to its
    pointer, the offset at the last element of the kernel's ranges, and the storage extent."""

    kernel: str
    access: str  # "load" or "store"
    pointer: str
    buffer: str
    index: str
    offset: int
    extent: int

    def __str__(self) -> str:
        return (
            f"{self.kernel}: {self.access} of {self.buffer} ({self.pointer} + ({self.index})) "
            f"reaches element {self.offset} at its last index; the storage holds {self.extent}"
        )


def _ints(text: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(v) for v in text.replace(" ", "").split(",") if v)
    except ValueError:  # symbolic sizes: not checked
        return None


def _extent(sizes: tuple[int, ...], strides: tuple[int, ...]) -> int:
    if any(s == 0 for s in sizes):
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(sizes, strides, strict=True))


def _storages(wrapper: str) -> dict[str, int]:
    """Each buffer's elements reachable from its own start: its storage extent minus its offset."""
    extents: dict[str, int] = {}
    for raw in wrapper.splitlines():
        line = raw.strip()
        if m := _EMPTY.match(line):
            sizes, strides = _ints(m.group(2)), _ints(m.group(3))
            if sizes is not None and strides is not None and len(sizes) == len(strides):
                extents[m.group(1)] = _extent(sizes, strides)
        elif m := _REINTERPRET.match(line):
            base = extents.get(m.group(2))
            if base is not None:
                extents[m.group(1)] = base - int(m.group(5))
        elif m := _ASSERT.match(line):
            sizes, strides = _ints(m.group(2)), _ints(m.group(3))
            if m.group(1) not in extents and sizes is not None and strides is not None:
                if len(sizes) == len(strides):
                    extents[m.group(1)] = _extent(sizes, strides)
    return extents


def _last_values(source: str) -> dict[str, int] | None:
    """The kernel's index variables at the last element of each range; None for a kernel that
    sets a range twice (a combo or foreach kernel: each block of it has its own ranges)."""
    values: dict[str, int] = {}
    for line in source.splitlines():
        if m := _NUMEL.match(line):
            if m.group(1) in values:
                return None
            values[m.group(1)] = int(m.group(2))
    for prefix in ("x", "y", "z", "r0_", "r1_"):
        numel = values.get(f"{prefix}numel")
        if numel is not None:
            values[f"{prefix}index"] = numel - 1
            values[f"{prefix}offset"] = 0
            values[f"{prefix}base"] = numel - 1
    if "r0_index" in values:
        values["rindex"] = values["r0_index"]
    for line in source.splitlines():
        m = _ASSIGN.match(line)
        if m is None or m.group(1) in values or "tl." in m.group(2):
            continue
        value = _evaluate(m.group(2), values)
        if value is not None:
            values[m.group(1)] = value
    return values


def _evaluate(expr: str, values: dict[str, int]) -> int | None:
    expr = expr.strip()
    if not _SAFE.match(expr):
        return None
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return None
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    if not names <= values.keys():
        return None
    try:
        result = eval(compile(tree, "<index>", "eval"), {"__builtins__": {}}, dict(values))
    except (ArithmeticError, TypeError):
        return None
    return result if isinstance(result, int) else None


def _call_args(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose "(" is at ``text[start - 1]``."""
    args: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text[start:]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                args.append("".join(current).strip())
                return args
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    return []


def _accesses(source: str) -> list[tuple[str, str, str, str]]:
    """(load|store, pointer, index, mask) of each access of the form `ptr + (index)`."""
    found = []
    for m in _ACCESS.finditer(source):
        args = _call_args(source, m.end())
        mask_at = 1 if m.group(1) == "load" else 2
        if len(args) <= mask_at - 1:
            continue
        address = _POINTER.match(args[0])
        if address is None:
            continue
        mask = args[mask_at] if len(args) > mask_at and "=" not in args[mask_at] else "None"
        found.append((m.group(1), address.group(1), address.group(2), mask))
    return found


def _pointer_params(source: str) -> list[str]:
    for line in source.splitlines():
        if m := _DEF.match(line.strip()):
            params = [p.split(":")[0].strip() for p in m.group(2).split(",")]
            return [p for p in params if "ptr" in p]
    return []


def out_of_bounds(graph: Any) -> list[OutOfBounds]:
    """Every access of ``graph``'s launches found past its buffer's storage (module docstring).

    ``graph``: a captured graph (``GeneratedCode.captured[i]``: ``.wrapper``, ``.kernels``)."""
    return _scan(graph)[0]


def accesses_checked(graph: Any) -> int:
    """How many accesses of ``graph``'s launches `out_of_bounds` could evaluate (the rest are
    skipped: their own masks, indirect indices, buffers the wrapper does not define)."""
    return _scan(graph)[1]


def _evaluated(source: str) -> list[tuple[str, str, str, int]]:
    """A kernel's checkable accesses, (load|store, pointer, index, offset at the last index);
    none for a combo kernel (no single last index)."""
    values = _last_values(source)
    if values is None:
        return []
    evaluated = []
    for access, pointer, index, mask in _accesses(source):
        if not _RANGE_MASK.match(mask.strip()):
            continue  # a condition of its own (a pad): it may mask this element off
        offset = _evaluate(index, values)
        if offset is not None:
            evaluated.append((access, pointer, index, offset))
    return evaluated


def _scan(graph: Any) -> tuple[list[OutOfBounds], int]:
    checked = 0
    extents = _storages(graph.wrapper)
    kernels = {k.name: k for k in graph.kernels}
    parsed: dict[str, tuple[list[str], list[tuple[str, str, str, int]]]] = {}
    found: list[OutOfBounds] = []
    seen: set[tuple[str, str, str]] = set()
    for raw in graph.wrapper.splitlines():
        m = _RUN.match(raw.strip())
        if m is None or m.group(1) not in kernels:
            continue
        name = m.group(1)
        if name not in parsed:  # a kernel launched again is parsed once
            source = kernels[name].source
            parsed[name] = (_pointer_params(source), _evaluated(source))
        pointers, accesses = parsed[name]
        bound = dict(zip(pointers, (a.strip() for a in m.group(2).split(",")), strict=False))
        for access, pointer, index, offset in accesses:
            buffer = bound.get(pointer)
            if buffer is None or buffer not in extents:
                continue
            checked += 1
            if offset < extents[buffer] or (name, pointer, index) in seen:
                continue
            seen.add((name, pointer, index))
            found.append(OutOfBounds(name, access, pointer, buffer, index, offset, extents[buffer]))
    return found, checked
