"""Three pieces of :func:`pytest_magi.capture.fake_cuda.fake_cuda` that need more than a one-line patch.

Both exist because a CPU-only torch build has no CUDA *device guard* and no CUDA kernels, while
Inductor and the Python bindings occasionally want one of them even when every tensor is fake.

* :func:`getitem` replaces ``torch.Tensor.__getitem__`` for cuda tensors. The C binding
  (``THPVariable_getitem``) opens a CUDA device guard before it decomposes the index into
  ``aten.select`` / ``aten.slice`` / ``aten.unsqueeze`` / ``aten.alias`` / ``aten.index``, and a
  CPU-only build has no guard for CUDA ("PyTorch is not linked with support for cuda devices";
  torch 2.13 no longer installs a no-op one in that case). This function performs the same
  decomposition in Python (``at::indexing::get_item`` / ``handleDimInMultiDimIndexing`` of
  ATen/TensorIndexing.h, the Python unpacking of torch/csrc/autograd/python_variable_indexing),
  so dynamo's fake run and AOTAutograd's trace record the same aten ops, with the same
  arguments, as on a real GPU. The op sequence is checked against the C binding on cpu tensors
  (same code path there: the decomposition does not depend on the device) by
  ``tests/test_fake_cuda_ops.py``.
* :func:`setitem` replaces ``torch.Tensor.__setitem__`` for cuda tensors, for the same reason
  (``THPVariable_setitem`` opens the guard too; a diffusers decoder writing a convolution into a
  slice, ``output[:, :, :n] = self.conv(x)``, failed): the view :func:`getitem`'s decomposition
  takes, then ``at::indexing::copy_to`` (``copy_``, ``fill_`` from a number, or the value's
  leading 1s dropped and broadcast), or ``index_put_`` where the index holds tensors. Checked
  the same way.
* :func:`cpu_for_cuda_constants` maps ``device=cuda`` to cpu for the real (not fake) one-element
  tensors that Inductor's joint-graph ``constant_fold_uniform_value`` computes to learn a
  constant's value (``aten.full([1], v, device=cuda)`` and pointwise ops on it, then ``.item()``).
  Only the value is kept: the replacement node is built from the node's fake value (device
  included), so the graph is the one a GPU gives.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map_only

_PY_SSIZE_T_MAX = 2**63 - 1
_PY_SSIZE_T_MIN = -(2**63)
_SYMINT_MIN = -(2**62)  # c10::SymInt::min_representable_int()

aten = torch.ops.aten


# ------------------------------------------------------------------------------ __getitem__
class _Index:
    """One entry of an index tuple, as ``at::indexing::TensorIndex`` holds it."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: Any = None) -> None:
        self.kind = kind  # "int", "slice", "ellipsis", "none", "bool", "tensor"
        self.value = value


def _is_long(obj: Any) -> bool:
    """``THPUtils_checkLong`` (ints and numpy ints, not bools) or a SymInt."""
    if isinstance(obj, bool):
        return False
    if isinstance(obj, (int, torch.SymInt)):
        return True
    try:
        import numpy as np
    except ImportError:
        return False
    return isinstance(obj, np.integer)


def _as_long(obj: Any) -> Any:
    return obj if isinstance(obj, torch.SymInt) else int(obj)


def _slice_index(value: Any) -> int:
    """``_PyEval_SliceIndex`` (clamped to Py_ssize_t) then ``clip_val``."""
    v = operator.index(value)
    v = max(_PY_SSIZE_T_MIN, min(_PY_SSIZE_T_MAX, v))
    if v < _SYMINT_MIN:
        warnings.warn(
            "Truncating the start/stop/step of slice. This is likely because of saved old "
            "models when the start/stop/step were larger.",
            UserWarning,
            stacklevel=4,
        )
        return _SYMINT_MIN
    return v


def _unpack_slice(s: slice) -> tuple[Any, Any, Any]:
    """``__PySlice_Unpack`` of python_variable_indexing.h."""
    if s.step is None:
        step: Any = 1
    elif isinstance(s.step, torch.SymInt):
        step = s.step
    else:
        step = _slice_index(s.step)
        if step == 0:
            raise ValueError("slice step cannot be zero")
    if isinstance(s.start, torch.SymInt):
        start: Any = s.start
    elif s.start is None:
        start = _PY_SSIZE_T_MAX if step < 0 else 0
    else:
        start = _slice_index(s.start)
    if isinstance(s.stop, torch.SymInt):
        stop: Any = s.stop
    elif s.stop is None:
        stop = _SYMINT_MIN if step < 0 else _PY_SSIZE_T_MAX
    else:
        stop = _slice_index(s.stop)
    return start, stop, step


def _expect_true(cond: Any) -> bool:
    if isinstance(cond, torch.SymBool):
        return bool(cond.node.expect_true(__file__, 0))
    return bool(cond)


def _statically_known_true(cond: Any) -> bool:
    if isinstance(cond, torch.SymBool):
        return bool(cond.node.statically_known_true(__file__, 0))
    return bool(cond)


def _apply_slice(
    t: torch.Tensor, dim: int, start: Any, stop: Any, step: Any, disable_optimization: bool
) -> torch.Tensor:
    """``impl::applySlice``."""
    if not _expect_true(step > 0):
        raise ValueError("step must be greater than zero")
    sizes = t.shape
    if len(sizes) > 0:
        length = sizes[dim]
        if (
            not disable_optimization
            and _statically_known_true(start == 0)
            and _statically_known_true(length <= stop)
            and step == 1
        ):
            return t
    return aten.slice.Tensor(t, dim, start, stop, step)


def _apply_select(t: torch.Tensor, dim: int, index: Any, real_dim: int) -> torch.Tensor:
    """``impl::applySelect``."""
    sizes = t.shape
    if not isinstance(index, torch.SymInt) and index == 0 and dim == 0 and len(sizes) == 0:
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    size = sizes[dim]
    in_bounds = size > -1 - index
    in_bounds = (
        in_bounds & (size > index)
        if isinstance(in_bounds, torch.SymBool)
        else (in_bounds and size > index)
    )
    if not _expect_true(in_bounds):
        raise IndexError(
            f"index {index} is out of bounds for dimension {real_dim} with size {size}"
        )
    return aten.select.int(t, dim, index)


def _bool_to_indexing_tensor(t: torch.Tensor, value: bool) -> torch.Tensor:
    """``boolToIndexingTensorCPUOrCUDA``: ``at::empty({1}, long).fill_(0.)`` or ``empty({0})``."""
    if value:
        return aten.fill_.Scalar(
            aten.empty.memory_format([1], dtype=torch.long, layout=t.layout, device=t.device), 0.0
        )
    return aten.empty.memory_format([0], dtype=torch.long, layout=t.layout, device=t.device)


def _record_tensor_index(tensor: torch.Tensor, out: list[Any], dim: int) -> int:
    """``recordTensorIndex``: returns the new dim."""
    if not out:
        out.extend([None] * (dim + 1))
        out[dim] = tensor
    else:
        out.append(tensor)
    if tensor.dtype in (torch.uint8, torch.bool):
        return dim + tensor.dim()
    return dim + 1


def _count_specified(objs: tuple[Any, ...]) -> int:
    """``count_specified_dimensions`` of the Python objects (everything but ``...``/None/bools)."""
    count = 0
    for obj in objs:
        if isinstance(obj, torch.Tensor):
            count += obj.dim() if obj.dtype in (torch.uint8, torch.bool) else 1
        elif obj is not None and obj is not Ellipsis and not isinstance(obj, bool):
            count += 1
    return count


def _sequence_to_tensor(self: torch.Tensor, seq: Any) -> torch.Tensor:
    """``indexing_tensor_from_data``: a long (or byte/bool) tensor on ``self``'s device."""
    return torch.tensor(seq, dtype=_infer_index_dtype(seq), device=self.device)


def _infer_index_dtype(seq: Any) -> torch.dtype:
    """bool or uint8 when ``infer_scalar_type`` says so, else long (without making a tensor)."""
    if isinstance(seq, torch.Tensor):
        return seq.dtype if seq.dtype in (torch.uint8, torch.bool) else torch.long
    dtype = getattr(seq, "dtype", None)  # numpy arrays and scalars
    if dtype is not None:
        name = str(dtype)
        return {"bool": torch.bool, "uint8": torch.uint8}.get(name, torch.long)
    if isinstance(seq, bool):
        return torch.bool
    if isinstance(seq, (str, bytes)) or not _is_sequence(seq):
        return torch.long
    kinds = {_infer_index_dtype(item) for item in seq}
    if kinds and len(kinds) == 1 and next(iter(kinds)) in (torch.bool, torch.uint8):
        return next(iter(kinds))
    return torch.long


def _to_index(self: torch.Tensor, obj: Any) -> _Index:
    """The object -> ``TensorIndex`` conversion of ``applySlicing`` (python_variable_indexing)."""
    if _is_long(obj):
        return _Index("int", _as_long(obj))
    if isinstance(obj, slice):
        return _Index("slice", _unpack_slice(obj))
    if obj is Ellipsis:
        return _Index("ellipsis")
    if obj is None:
        return _Index("none")
    if isinstance(obj, bool):
        return _Index("bool", obj)
    if isinstance(obj, torch.Tensor):
        return _Index("tensor", obj)
    if _is_sequence(obj):
        return _Index("tensor", _sequence_to_tensor(self, obj))
    try:
        return _Index("int", operator.index(obj))
    except TypeError:
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
            f"are valid indices (got {type(obj).__name__})"
        ) from None


def _is_sequence(obj: Any) -> bool:
    """``PySequence_Check`` (dicts are mappings, not sequences)."""
    return hasattr(type(obj), "__getitem__") and not isinstance(obj, dict)


def _treat_sequence_as_tuple(index: Any) -> bool:
    if isinstance(index, tuple):
        return True
    if isinstance(index, torch.Tensor) or not _is_sequence(index):
        return False
    try:
        n = len(index)
    except TypeError:
        return False
    if n >= 32:
        return False
    for i in range(n):
        try:
            obj = index[i]
        except Exception:  # noqa: BLE001 - PySequence_GetItem failing: not a tuple
            return False
        if isinstance(obj, (torch.Tensor, slice)) or _is_sequence(obj):
            return True
        if obj is Ellipsis or obj is None:
            return True
    return False


def _handle_dim(
    result: torch.Tensor,
    original: torch.Tensor,
    idx: _Index,
    dim: int,
    specified: int,
    real_dim: int,
    out: list[Any],
) -> tuple[torch.Tensor, int]:
    """``handleDimInMultiDimIndexing`` (slice optimisation on: never JIT tracing here)."""
    if idx.kind == "int":
        return _apply_select(result, dim, idx.value, real_dim), dim
    if idx.kind == "slice":
        start, stop, step = idx.value
        result = _apply_slice(result, dim, start, stop, step, disable_optimization=False)
        if out:
            out.append(None)
        return result, dim + 1
    if idx.kind == "ellipsis":
        ellipsis_ndims = original.dim() - specified
        if out:
            out.extend([None] * ellipsis_ndims)
        return result, dim + ellipsis_ndims
    if idx.kind == "none":
        result = aten.unsqueeze.default(result, dim)
        if out:
            out.append(None)
        return result, dim + 1
    if idx.kind == "bool":
        result = aten.unsqueeze.default(result, dim)
        return result, _record_tensor_index(_bool_to_indexing_tensor(result, idx.value), out, dim)
    tensor = idx.value
    if tensor.dim() == 0 and not tensor.is_floating_point() and not tensor.is_complex():
        if tensor.dtype not in (torch.uint8, torch.bool):
            return _apply_select(result, dim, int(tensor.item()), real_dim), dim
        result = aten.unsqueeze.default(result, dim)
        value = bool(tensor.item() != 0)
        return result, _record_tensor_index(_bool_to_indexing_tensor(result, value), out, dim)
    return result, _record_tensor_index(tensor, out, dim)


def _dispatch_index(t: torch.Tensor, indices: list[Any]) -> torch.Tensor:
    while indices and indices[-1] is None:
        indices.pop()
    return aten.index.Tensor(t, indices)


def getitem(self: torch.Tensor, index: Any) -> torch.Tensor:
    """``THPVariable_getitem`` after its device guard: the aten ops the C binding dispatches."""
    if index is None:
        return aten.unsqueeze.default(self, 0)
    if index is Ellipsis:
        return aten.alias.default(self)
    if _is_long(index):
        return _apply_select(self, 0, _as_long(index), 0)
    if isinstance(index, slice):
        start, stop, step = _unpack_slice(index)
        return _apply_slice(self, 0, start, stop, step, disable_optimization=True)
    if isinstance(index, bool):
        result = aten.unsqueeze.default(self, 0)
        return _dispatch_index(result, [_bool_to_indexing_tensor(result, index)])
    result, out = _apply_slicing(self, index)
    if not out:
        return aten.alias.default(result) if result is self else result
    return _dispatch_index(result, out)


def _apply_slicing(self: torch.Tensor, index: Any) -> tuple[torch.Tensor, list[Any]]:
    """``applySlicing`` of an index that is not a lone int, slice, None, ``...`` or bool (both
    bindings, get and set): the view of every basic entry, and the tensor indices left for
    ``index`` / ``index_put_`` (empty: none)."""
    if _treat_sequence_as_tuple(index):
        if not isinstance(index, tuple):
            warnings.warn(
                "Using a non-tuple sequence for multidimensional indexing is deprecated and will "
                "be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 "
                "this will be interpreted as tensor index, x[torch.tensor(seq)], which will result "
                "either in an error or a different result",
                UserWarning,
                stacklevel=4,
            )
        objs = tuple(index)
    else:
        objs = (index,)
    specified = _count_specified(objs)
    if specified > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    out: list[Any] = []
    result, dim = self, 0
    for i, obj in enumerate(objs):  # converted one at a time, as the binding does
        result, dim = _handle_dim(result, self, _to_index(self, obj), dim, specified, i, out)
    return result, out


# ------------------------------------------------------------------------------ __setitem__
def _has_hint(size: Any) -> bool:
    return not isinstance(size, torch.SymInt) or size.node.has_hint()


def _strip_leading_ones(sizes: Any) -> list[Any]:
    """``slicePrefix1sSize``: the sizes from the first one that is not a known 1."""
    first = len(sizes)
    for i, size in enumerate(sizes):
        if not _has_hint(size) or size != 1:
            first = i
            break
    return list(sizes[first:])


def _same_sizes(a: Any, b: Any) -> bool:
    return len(a) == len(b) and all(x == y for x, y in zip(a, b, strict=True))


def _copy_to(dst: torch.Tensor, src: torch.Tensor) -> None:
    """``at::indexing::copy_to``: a copy of the same sizes, a fill from a cpu scalar, or the
    value with its leading 1s dropped, broadcast to ``dst``'s sizes, then copied."""
    if _same_sizes(dst.shape, src.shape):
        aten.copy_.default(dst, src)
        return
    if src.dim() == 0 and src.device.type == "cpu":
        aten.fill_.Tensor(dst, src)
        return
    view = aten.view.default(src, _strip_leading_ones(src.shape))
    if not _same_sizes(dst.shape, view.shape):
        view = aten.expand.default(view, list(dst.shape))
    aten.copy_.default(dst, view)


def _value_to_tensor(self: torch.Tensor, value: Any) -> torch.Tensor:
    """``valueToTensor`` of a cuda tensor's assignment: a tensor as it is; a number a 0-dim
    tensor of ``self``'s dtype, on cpu (made outside any tracing, as ``scalar_tensor_static``
    makes it, then lifted) or, for a symbolic number, ``aten.scalar_tensor`` on ``self``'s
    device."""
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return aten.scalar_tensor.default(
            value, dtype=self.dtype, layout=self.layout, device=self.device
        )
    if isinstance(value, bool) or _is_long(value):
        number: Any = int(value)
    elif isinstance(value, (float, complex)):
        number = value
    else:
        raise TypeError(f"can't assign a {type(value).__name__} to a {self.type()}")
    from torch.utils._python_dispatch import _disable_current_modes

    with _disable_current_modes():
        constant = torch.scalar_tensor(number, dtype=self.dtype, device="cpu")
    return aten.lift_fresh.default(constant)  # as the binding hands a fresh tensor to tracing


def setitem(self: torch.Tensor, index: Any, value: Any) -> None:
    """``THPVariable_setitem`` after its device guard (``at::indexing::set_item``): the view
    ``getitem`` would take, then the value copied into it, or ``index_put_`` where the index
    holds tensors."""
    value = _value_to_tensor(self, value)
    if index is False:
        return
    if index is Ellipsis:
        _copy_to(self, value)
        return
    if index is None or index is True:
        _copy_to(aten.unsqueeze.default(self, 0), value)
        return
    if _is_long(index):
        _copy_to(_apply_select(self, 0, _as_long(index), 0), value)
        return
    if isinstance(index, slice):
        start, stop, step = _unpack_slice(index)
        _copy_to(_apply_slice(self, 0, start, stop, step, disable_optimization=False), value)
        return
    result, out = _apply_slicing(self, index)
    if not out:
        _copy_to(result, value)
        return
    sizes = list(value.shape)
    stripped = _strip_leading_ones(sizes)
    if not _same_sizes(sizes, stripped):
        value = aten.view.default(value, stripped)
    aten.index_put_.default(result, out, value)


def needs_torch_function(self: torch.Tensor, index: Any) -> bool:
    """Whether the C binding would hand this indexing to ``__torch_function__``."""
    from torch.overrides import has_torch_function

    objs = index if isinstance(index, tuple) else (index,)
    tensors = [self] + [o for o in objs if isinstance(o, torch.Tensor)]
    return has_torch_function(tensors)


# ------------------------------------------------------------------------------ constant folding
def _cpu_if_cuda(device: torch.device) -> torch.device:
    return torch.device("cpu") if device.type == "cuda" else device


class CudaConstantsOnCpu(TorchDispatchMode):
    """Every op under this mode that names a cuda device runs on cpu instead (real tensors)."""

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        args, kwargs = tree_map_only(torch.device, _cpu_if_cuda, (args, kwargs or {}))
        return func(*args, **kwargs)


def cpu_for_cuda_constants(method: Any) -> Any:
    """Wrap a ``UniformValueConstantFolder`` method to compute its constants on cpu."""
    import functools

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with CudaConstantsOnCpu():
            return method(*args, **kwargs)

    return wrapper
