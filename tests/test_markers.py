"""Marker parsing (`pytest_magi.plugin.markers`): strict arguments, UsageError texts, requires_cuda."""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch

from pytest_magi.plugin.markers import (
    MARKERS,
    PARSERS,
    MinSpeedup,
    NotOurs,
    RequiresCuda,
    foreign_markers,
    parse_min_speedup,
    parse_requires_cuda,
    requires_cuda_skip_reason,
)

NODE = "tests/test_x.py::test_y"
# see tests/test_plugin.py
QUICK = ("-p", "no:cacheprovider", "-p", "no:unraisableexception", "-p", "no:hypothesispytest")


def test_marker_table_is_signature_first() -> None:
    assert (
        set(MARKERS)
        == set(PARSERS)
        == {
            "requires_cuda",
            "min_speedup",
            "min_estimated_speedup",
            "no_graph_breaks",
            "no_recompiles",
            "magi",
        }
    )
    for name, line in MARKERS.items():
        signature, _, help_text = line.partition(": ")
        assert signature == name or (signature.startswith(name + "(") and signature.endswith(")"))
        assert help_text and not help_text.endswith(".")


@pytest.mark.parametrize(
    ("args", "kwargs", "ratio"),
    [((1.2,), {}, 1.2), ((2,), {}, 2.0), ((), {"ratio": 1.05}, 1.05)],
)
def test_min_speedup_good(args: tuple[Any, ...], kwargs: dict[str, Any], ratio: float) -> None:
    parsed = parse_min_speedup(NODE, args, kwargs)
    assert parsed == MinSpeedup(ratio=ratio)
    assert isinstance(parsed.ratio, float)
    with pytest.raises(AttributeError):
        parsed.ratio = 3.0  # type: ignore[misc]  # frozen


EXPECTED_RATIO = (
    "expected a finite number > 0 such as 1.2 (the required candidate/baseline speedup)"
)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("fast",), {}, f"ratio='fast'; {EXPECTED_RATIO}"),
        ((0,), {}, f"ratio=0; {EXPECTED_RATIO}"),
        ((-1.5,), {}, f"ratio=-1.5; {EXPECTED_RATIO}"),
        ((True,), {}, f"ratio=True; {EXPECTED_RATIO}"),
        ((float("nan"),), {}, f"ratio=nan; {EXPECTED_RATIO}"),
        ((float("inf"),), {}, f"ratio=inf; {EXPECTED_RATIO}"),
        ((None,), {}, f"ratio=None; {EXPECTED_RATIO}"),
        ((), {}, f"the ratio is missing; {EXPECTED_RATIO}"),
        (
            (1.2, 3),
            {},
            "unexpected positional argument(s) 3; expected the signature min_speedup(ratio)",
        ),
        ((1.2,), {"rounds": 3}, "unknown keyword argument(s) rounds; expected only ratio, reason"),
        ((1.2,), {"ratio": 1.3}, "ratio given twice (1.2 and ratio=1.3); expected one ratio"),
    ],
)
def test_min_speedup_bad(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(pytest.UsageError) as info:
        parse_min_speedup(NODE, args, kwargs)
    assert str(info.value) == f"{NODE}: @pytest.mark.min_speedup(ratio): {message}"


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, RequiresCuda()),
        ({"min_capability": None}, RequiresCuda()),
        ({"min_capability": (8, 0)}, RequiresCuda((8, 0))),
        ({"min_capability": [9, 0]}, RequiresCuda((9, 0))),
        ({"reason": "big GPU test"}, RequiresCuda(reason="big GPU test")),
        ({"min_capability": (9, 0), "reason": "TMA"}, RequiresCuda((9, 0), "TMA")),
    ],
)
def test_requires_cuda_good(kwargs: dict[str, Any], expected: RequiresCuda) -> None:
    assert parse_requires_cuda(NODE, (), kwargs) == expected


EXPECTED_CAP = "expected a (major, minor) pair of non-negative ints such as (8, 0), or None"


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {"min_capability": (8,)}, f"min_capability=(8,); {EXPECTED_CAP}"),
        ((), {"min_capability": "8.0"}, f"min_capability='8.0'; {EXPECTED_CAP}"),
        ((), {"min_capability": 8}, f"min_capability=8; {EXPECTED_CAP}"),
        ((), {"min_capability": (8.0, 0)}, f"min_capability=(8.0, 0); {EXPECTED_CAP}"),
        ((), {"min_capability": (True, 0)}, f"min_capability=(True, 0); {EXPECTED_CAP}"),
        ((), {"min_capability": (8, -1)}, f"min_capability=(8, -1); {EXPECTED_CAP}"),
        ((), {"min_capability": (8, 0, 1)}, f"min_capability=(8, 0, 1); {EXPECTED_CAP}"),
        ((), {"reason": 3}, "reason=3; expected a str (or None)"),
        (
            (),
            {"min_capabilty": (8, 0)},
            "unknown keyword argument min_capabilty; expected min_capability (a typo?)",
        ),
    ],
)
def test_requires_cuda_bad(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(pytest.UsageError) as info:
        parse_requires_cuda(NODE, args, kwargs)
    assert str(info.value) == (
        f"{NODE}: @pytest.mark.requires_cuda(min_capability=(major, minor)): {message}"
    )


@pytest.mark.parametrize(
    ("args", "kwargs", "said"),
    [(((8, 0),), {}, "(8, 0)"), ((), {"memory_gb": 80}, "memory_gb=80"), (("big",), {}, "'big'")],
)
def test_requires_cuda_of_another_meaning_is_not_ours(
    args: tuple[Any, ...], kwargs: dict[str, Any], said: str
) -> None:
    with pytest.raises(NotOurs, match=re.escape(said)):
        parse_requires_cuda(NODE, args, kwargs)


def test_markers_another_project_registers_are_found_by_their_line() -> None:
    registered = [
        *MARKERS.values(),
        "requires_cuda(reason): a GPU test of this project",
        "slow: a slow test",
        "min_speedup: ours in all but the line",
    ]
    assert foreign_markers(registered) == {
        "requires_cuda": "requires_cuda(reason): a GPU test of this project",
        "min_speedup": "min_speedup: ours in all but the line",
    }
    assert foreign_markers(MARKERS.values()) == {}


def test_a_reason_leads_the_skip_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    reason = requires_cuda_skip_reason(RequiresCuda(reason="big GPU test"))
    assert reason is not None and reason.startswith("big GPU test: requires a CUDA GPU: ")


# --------------------------------------------------------------------------- requires_cuda
def test_skip_reason_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    reason = requires_cuda_skip_reason(RequiresCuda())
    assert reason is not None
    assert reason.startswith("requires a CUDA GPU: torch.cuda.is_available() is False (torch ")
    reason = requires_cuda_skip_reason(RequiresCuda((8, 0)))
    assert reason is not None and reason.startswith("requires CUDA capability >= 8.0: ")


def _pretend_gpu(monkeypatch: pytest.MonkeyPatch, name: str, capability: tuple[int, int]) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda index=None: capability)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=None: name)


def test_skip_reason_names_the_device_and_its_capability(monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend_gpu(monkeypatch, "Tesla T4", (7, 5))
    assert requires_cuda_skip_reason(RequiresCuda((8, 0))) == (
        "requires CUDA capability >= 8.0: cuda:0 (Tesla T4) has capability 7.5"
    )
    assert requires_cuda_skip_reason(RequiresCuda((7, 5))) is None
    assert requires_cuda_skip_reason(RequiresCuda()) is None


def test_capability_compares_as_a_version(monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend_gpu(monkeypatch, "NVIDIA H100", (9, 0))
    assert requires_cuda_skip_reason(RequiresCuda((8, 6))) is None
    assert requires_cuda_skip_reason(RequiresCuda((10, 0))) is not None


# --------------------------------------------------------------------------- at collection
def test_bad_marker_is_a_usage_error_at_collection(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_fine():
            pass

        @pytest.mark.min_speedup(0)
        def test_bad():
            pass
        """
    )
    result = pytester.runpytest(*QUICK)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: test_bad_marker_is_a_usage_error_at_collection.py::test_bad: "
            f"@pytest.mark.min_speedup(ratio): ratio=0; {EXPECTED_RATIO}"
        ]
    )
    assert "passed" not in result.stdout.str()  # nothing ran


def test_class_and_function_markers_are_all_validated_and_the_closest_wins(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.requires_cuda(min_capability=(8,))
        class TestGpu:
            @pytest.mark.requires_cuda(min_capability=(9, 0))
            def test_it(self):
                pass
        """
    )
    result = pytester.runpytest(*QUICK)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *::TestGpu::test_it: *min_capability=(8,); *"])
