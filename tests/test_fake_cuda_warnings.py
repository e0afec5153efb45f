"""The plugin silences the warning its own fake-CUDA codegen provokes, and only that one.

`fake_cuda()` sets `force_disable_caches=True`; every compile under it makes dynamo warn
"dynamo_pgo force disabled by torch.compiler.config.force_disable_caches" (once per
`torch._dynamo.reset()`). That is the plugin's doing, so the plugin filters it, inside the block
that sets it; the user's own warnings still reach the summary.
"""

from __future__ import annotations

import warnings

import pytest
import torch

from pytest_magi.capture.fake_cuda import FORCE_DISABLED_WARNING

TESTS = """
import warnings

import torch

from pytest_magi.capture.codegen import kernel_counts
from pytest_magi.capture.fake_cuda import fake_cuda


def f(x):
    return (x.sin() + 1).cos()


def test_counts():
    torch._dynamo.reset()  # dynamo warns once per reset: this run must see its warning
    assert kernel_counts(f, torch.randn(8, 8)).forward == 1
    warnings.warn("the user's own warning", UserWarning)


def test_compile_under_fake_cuda():
    torch._dynamo.reset()
    with fake_cuda() as env, env.fake_mode:
        torch.compile(f, backend="eager")(torch.empty(8, 8, device="cuda"))
"""


def test_fake_cuda_codegen_leaves_no_pgo_warning_but_the_users_own(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_warned=TESTS)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(passed=2)
    out = result.stdout.str()
    assert "force disabled by" not in out and "force_disable_caches" not in out
    result.stdout.fnmatch_lines(["*warnings summary*", "*UserWarning: the user's own warning*"])


@pytest.mark.skipif(
    torch.cuda.is_available(), reason="on a real GPU fake_cuda() patches nothing (no fake CUDA)"
)
def test_the_filter_ends_with_the_block() -> None:
    from pytest_magi.capture.fake_cuda import fake_cuda

    message = "dynamo_pgo force disabled by torch.compiler.config.force_disable_caches"
    before = list(warnings.filters)
    with fake_cuda():
        assert warnings.filters[0][0] == "ignore" and warnings.filters[0][1].match(message)
        assert torch._inductor.config.force_disable_caches is True
    assert warnings.filters == before
    assert FORCE_DISABLED_WARNING.startswith(".*")
