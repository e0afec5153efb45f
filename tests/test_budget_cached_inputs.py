"""Budgets of models that take a cache as an argument: diffusers' KVAE-3D and Kandinsky-6 decoders
take a dict of their causal convs' cached frames, which the eager call fills with cpu tensors.

The tensors inside list, tuple and dict inputs become fake cuda tensors as the top-level ones do,
in new containers, so what the traced call writes into the cache stays out of the caller's; the
codegen mode records the first call's arguments as they are at that call. KVAE-3D's torch.compile
side meets torch 2.13's own sympy bug, and the budget says so and names the fix."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import pytest_magi
from magi_passes import PassConfig
from magi_passes.compile.sympy_retry import has_identity_number_bug
from pytest_magi import zoo
from pytest_magi.bench import codegen
from pytest_magi.budget import BudgetError


class CachedCausalConv(nn.Module):
    """KVAE's causal conv in small: the cached frames (the clip's first frame repeated on the
    first call) concatenated in front of the clip, the last frames kept for the next call."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(4, 4, 3, padding=(0, 1, 1))

    def forward(self, x: torch.Tensor, cache: dict[str, Any]) -> torch.Tensor:
        padding = cache["padding"]
        if padding is None:
            padding = x[:, :, :1].expand(-1, -1, 2, -1, -1)
        out = self.conv(torch.cat([padding, x], dim=2))
        cache["padding"] = torch.clone(x[:, :, -2:])
        return out


class _Owner:
    """What `codegen._first_call` needs of a zoo model: ``.module`` and ``.run()``."""

    def __init__(self) -> None:
        self.module = CachedCausalConv().eval()

    def run(self) -> Any:
        cache: dict[str, Any] = {"padding": None}
        x = torch.randn(1, 4, 6, 5, 5)
        with torch.no_grad():
            return [self.module(chunk, cache) for chunk in x.split(3, dim=2)]


def test_a_cpu_tensor_in_a_dict_input_is_generated_on_fake_cuda_and_the_dict_is_left_alone() -> (
    None
):
    module = CachedCausalConv().eval()
    x = torch.randn(1, 4, 3, 5, 5)
    kept = torch.randn(1, 4, 2, 5, 5)
    cache: dict[str, Any] = {"padding": kept}
    filled = pytest_magi.budget(module, x, cache)
    assert filled.kernels >= 1 and any(g.launches for g in filled.graphs), filled
    assert cache == {"padding": kept} and cache["padding"] is kept  # nothing written back
    empty: dict[str, Any] = {"padding": None}
    first = pytest_magi.budget(module, x, empty, config=PassConfig())
    assert empty == {"padding": None}, empty
    # the first call repeats a frame instead of reading the cache: other code, no error
    assert first.kernels >= 1


def test_the_codegen_mode_records_the_first_call_as_it_was_called() -> None:
    args, kwargs = codegen._first_call(_Owner())  # type: ignore[arg-type]
    x, cache = args
    assert kwargs == {} and tuple(x.shape) == (1, 4, 3, 5, 5)
    assert cache == {"padding": None}  # not the frames the run's second call left there


def _decoder_case(name: str) -> codegen.Case:
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    (case,) = codegen.zoo_cases([name], torch.bfloat16)
    return case


@pytest.mark.slow
def test_kandinsky6_decoder_budgets_on_fake_cuda() -> None:
    """The codegen mode's call of the Kandinsky-6 decoder (tiny, bf16), plain and with magi."""
    case = _decoder_case("kandinsky6-sr-vae")
    for config in (None, PassConfig()):
        b = pytest_magi.budget(case.fn, *case.inputs, config=config)
        assert b.kernels > 0 and b.bytes > 0 and b.estimated_ms > 0, b


@pytest.mark.slow
def test_kvae_decoder_budgets_with_magi_and_says_why_torch_compile_cannot() -> None:
    """KVAE-3D's decoder (tiny, bf16) generates with the magi passes; plain Inductor raises on
    torch's sympy bug, and the BudgetError names it and the fix."""
    case = _decoder_case("kvae-3d-vae")
    b = pytest_magi.budget(case.fn, *case.inputs, config=PassConfig())
    assert b.kernels > 0 and b.bytes > 0 and b.estimated_ms > 0, b
    if not has_identity_number_bug():
        pytest.skip(f"torch {torch.__version__} has no sympy bug of a clamped Identity")
    with pytest.raises(BudgetError) as raised:
        pytest_magi.budget(case.fn, *case.inputs)
    message = str(raised.value)
    assert "sympy bug of torch" in message and "clamp of a constant Identity" in message, message
    assert "Fix: generate with config=PassConfig()" in message, message
    assert "device mismatch" not in message, message


def test_the_sympy_bug_is_named_with_its_fix() -> None:
    """The failure and its fix, on the minimal concatenation of a clamped clip (fast)."""
    if not has_identity_number_bug():
        pytest.skip(f"torch {torch.__version__} has no sympy bug of a clamped Identity")

    def clamped_cat(x: torch.Tensor) -> torch.Tensor:
        return torch.cat([x[:, :, :2], F.pad(x, (0, 0, 0, 0, 1, 1), mode="replicate")], 2) * 2

    x = torch.randn(1, 4, 3, 4, 6, dtype=torch.bfloat16)
    with pytest.raises(BudgetError, match=r"Fix: generate with config=PassConfig\(\)"):
        pytest_magi.budget(clamped_cat, x)
    off = PassConfig(work_around_inductor_bugs=False)
    with pytest.raises(BudgetError, match="has work_around_inductor_bugs=False: set it True"):
        pytest_magi.budget(clamped_cat, x, config=off)
    assert pytest_magi.budget(clamped_cat, x, config=PassConfig()).kernels == 1
