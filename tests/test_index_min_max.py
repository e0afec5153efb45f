"""`magi_passes.index_min_max`: torch's Min / Max in Inductor's index propagation on the torch
versions that build SymPy's (2.11, 2.12), scoped to a compile, with the generated code
unchanged. On torch 2.13, which builds torch's already, the tests put SymPy's builders back
into index propagation (as torch 2.11 has them) to run the same path."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import sympy
import torch
from sympy.functions.elementary.miscellaneous import MinMaxBase
from torch import nn
from torch._inductor.index_propagation import SymPyOps, TypedExpr
from torch.utils._sympy.functions import Max, Min

from magi_passes import PassConfig
from magi_passes.compile.index_min_max import builds_sympy_min_max, torch_index_min_max

F = nn.functional


def _sympy_minimum(x: TypedExpr, y: TypedExpr) -> TypedExpr:
    return TypedExpr(sympy.Min(x.expr, y.expr), torch.promote_types(x.dtype, y.dtype))


def _sympy_maximum(x: TypedExpr, y: TypedExpr) -> TypedExpr:
    return TypedExpr(sympy.Max(x.expr, y.expr), torch.promote_types(x.dtype, y.dtype))


@pytest.fixture
def sympy_builders(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Index propagation as torch 2.11's: ``ops.minimum`` / ``maximum`` build SymPy's Min / Max
    (the running torch's own where it builds those already). Yields the two methods put in."""
    if not builds_sympy_min_max():
        monkeypatch.setattr(SymPyOps, "minimum", staticmethod(_sympy_minimum))
        monkeypatch.setattr(SymPyOps, "maximum", staticmethod(_sympy_maximum))
    yield {name: SymPyOps.__dict__[name] for name in ("minimum", "maximum")}


def _built(name: str) -> sympy.Expr:
    x, y = sympy.symbols("x y", integer=True)
    made = getattr(SymPyOps, name)(TypedExpr(x, torch.int64), TypedExpr(y, torch.int32))
    assert made.dtype == torch.int64
    return made.expr


def test_this_torch_builds_what_its_version_says() -> None:
    """torch 2.11 builds SymPy's Min in index propagation, 2.13 its own (pytorch#184589, May
    2026; 2.12, cut in April, is taken to be as 2.11: no 2.12 is installed here)."""
    found = re.match(r"(\d+)\.(\d+)", torch.__version__)
    assert found is not None
    older = (int(found.group(1)), int(found.group(2))) < (2, 13)
    assert builds_sympy_min_max() is older
    assert (type(_built("minimum")) is sympy.Min) is older


def test_the_block_builds_torchs_min_max_nests_and_restores(sympy_builders) -> None:
    assert builds_sympy_min_max()
    with torch_index_min_max() as changed:
        assert changed is True
        assert type(_built("minimum")) is Min and type(_built("maximum")) is Max
        assert not builds_sympy_min_max()
        with torch_index_min_max() as inner:  # an enclosing block has them: nothing to do
            assert inner is False
        assert type(_built("minimum")) is Min
    for name, method in sympy_builders.items():
        assert SymPyOps.__dict__[name] is method
    with torch_index_min_max(False) as off:
        assert off is False and type(_built("maximum")) is sympy.Max
    with pytest.raises(KeyError), torch_index_min_max():
        raise KeyError("restored on an error too")
    for name, method in sympy_builders.items():
        assert SymPyOps.__dict__[name] is method


def test_a_torch_that_builds_its_own_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def own_minimum(x: TypedExpr, y: TypedExpr) -> TypedExpr:
        return TypedExpr(Min(x.expr, y.expr), torch.promote_types(x.dtype, y.dtype))

    monkeypatch.setattr(SymPyOps, "minimum", staticmethod(own_minimum))
    saved = SymPyOps.__dict__["maximum"]
    with torch_index_min_max() as changed:
        assert changed is False
        assert SymPyOps.__dict__["minimum"].__func__ is own_minimum
        assert SymPyOps.__dict__["maximum"] is saved


class _PaddedConv(nn.Module):
    """A causal video conv's input as HunyuanVideo's decoder makes it: GroupNorm, SiLU, and a
    replicate pad (one clamp of the index per padded dim), then the convolution."""

    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(2, 8)
        self.conv = nn.Conv3d(8, 8, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.pad(F.silu(self.norm(x)), (1, 1, 1, 1, 2, 0), mode="replicate")
        return self.conv(h)


def test_fake_cuda_the_code_is_the_same_and_sympys_pairwise_checks_mostly_gone(
    inductor_codegen, sympy_builders, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The magi config's code for a replicate-padded conv input, generated (fake CUDA) with
    SymPy's Min / Max in index propagation and with torch's: the same code, and SymPy's
    pairwise comparison of Min / Max arguments (the slow part) runs a fraction as often: 584
    against 65 times on torch 2.11, 586 against 49 on torch 2.13 with 2.11's builders (the
    rest are Min / Max that Inductor builds elsewhere, value ranges among them)."""
    calls = [0]
    find = MinMaxBase.__dict__["_find_localzeros"].__func__

    def counted(cls: Any, values: Any, **options: Any) -> Any:
        calls[0] += 1
        return find(cls, values, **options)

    monkeypatch.setattr(MinMaxBase, "_find_localzeros", classmethod(counted))
    model = _PaddedConv().to(torch.bfloat16)
    x = torch.randn(1, 8, 3, 6, 10, dtype=torch.bfloat16)
    texts: dict[bool, str] = {}
    pairwise: dict[bool, int] = {}
    for on in (False, True):
        calls[0] = 0
        code = inductor_codegen(model, x, config=PassConfig(torch_index_min_max=on))
        texts[on], pairwise[on] = code.normalized(), calls[0]
        for name, method in sympy_builders.items():  # restored after each compile
            assert SymPyOps.__dict__[name] is method
    assert texts[True] == texts[False]
    assert "minimum" in texts[True] or "tl.where" in texts[True]
    assert pairwise[True] * 5 < pairwise[False], pairwise
