"""Bad input to the testing API (compiled_pair, inductor_codegen, kernel_counts, kernel_diff,
the pair's checks): each fails where it is given, naming the argument, the value, what is
accepted and the fix. One test per row of docs/reliability.md, "Bad input: the testing API"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import torch
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import PassConfig, inductor_options
from pytest_magi.capture import kernels
from pytest_magi.capture.codegen import KernelParseError, inductor_codegen, kernel_counts
from pytest_magi.capture.kernel_diff import kernel_diff
from pytest_magi.pairs.compiled import CompiledPair

aten = torch.ops.aten


class Noop(CustomGraphPass):
    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        pass

    def uuid(self) -> str:
        return "noop"


def sin(x: torch.Tensor) -> torch.Tensor:
    return x.sin() + 1


X = torch.randn(4, 4)


@pytest.fixture(scope="module")
def pair() -> CompiledPair:
    return CompiledPair.build(sin, X, passes=[Noop()])


# (id, call, exception, message): the message is matched literally
CASES: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    (
        "config-is-inductor-options",
        lambda: kernel_counts(sin, X, config=inductor_options()),
        TypeError,
        "(dict); fix: that dict looks like inductor_options()'s result, which is for "
        "torch.compile(model, options=...); here pass a PassConfig, e.g. "
        "kernel_counts(config=PassConfig(enable_nd_tiling=False))",
    ),
    (
        "config-is-a-string",
        lambda: inductor_codegen(sin, X, config="magi"),
        TypeError,
        "inductor_codegen: config must be a magi_passes.PassConfig or None, got 'magi' (str); "
        "fix: inductor_codegen(config=PassConfig(...)), or leave it out for the default",
    ),
    (
        "inductor-config-not-a-dict",
        lambda: inductor_codegen(sin, X, inductor_config=["triton.max_tiles"]),
        TypeError,
        "inductor_config=['triton.max_tiles']: expected a dict of torch._inductor.config patches",
    ),
    (
        "inductor-config-unknown-key",
        lambda: kernel_counts(sin, X, inductor_config={"triton.max_tile": 2}),
        ValueError,
        "inductor_config: unknown torch._inductor.config key 'triton.max_tile': did you mean "
        "'triton.max_tiles'?",
    ),
    (
        "inductor-config-wrong-type",
        lambda: CompiledPair.build(sin, X, inductor_config={"triton.cudagraphs": "yes"}),
        TypeError,
        "inductor_config: torch._inductor.config.triton.cudagraphs is a bool (now False); got "
        "'yes' of type str",
    ),
    (
        "backward-not-bool",
        lambda: inductor_codegen(sin, X, backward="yes"),
        TypeError,
        "backward='yes': expected True or False",
    ),
    (
        "passes-not-a-list",
        lambda: kernel_counts(sin, X, passes=Noop()),
        TypeError,
        "wrap a single pass in a list: passes=[Noop(...)]",
    ),
    (
        "passes-holds-a-class",
        lambda: CompiledPair.build(sin, X, passes=[Noop]),
        TypeError,
        "passes[0]=Noop is a class, not a pass: give an instance, passes=[Noop()]",
    ),
    (
        "passes-holds-a-non-callable",
        lambda: inductor_codegen(sin, X, passes=[3]),
        TypeError,
        "passes[0]=3 is not callable; expected a list of post-grad passes",
    ),
    (
        "passes-with-a-foreign-backend",
        lambda: CompiledPair.build(sin, X, passes=[Noop()], candidate="aot_eager"),
        ValueError,
        "candidate='aot_eager' is a dynamo backend of its own: passes= and inductor_config= "
        "apply to Inductor only",
    ),
    (
        "label-not-a-str",
        lambda: CompiledPair.build(sin, X, label=3),
        TypeError,
        "label=3: expected a str naming the pair (or None)",
    ),
    (
        "kernel-diff-of-a-number",
        lambda: kernel_diff(3, "code"),
        TypeError,
        "kernel_diff: expected a GeneratedCode (what inductor_codegen returns), output code "
        "(a str) or a list of KernelInfo, got int",
    ),
]

PAIR_CASES: list[tuple[str, Callable[[CompiledPair], Any], type[Exception], str]] = [
    (
        "op-count-of-a-number",
        lambda p: p.op_count(3),
        TypeError,
        "op=3: expected an op such as torch.ops.aten.clone (any overload)",
    ),
    (
        "op-count-unknown-side",
        lambda p: p.op_count(aten.sin, side="cand"),
        ValueError,
        "side='cand': expected one of 'baseline', 'candidate'",
    ),
    (
        "op-count-unknown-stage",
        lambda p: p.op_count(aten.sin, stage="middle"),
        ValueError,
        "stage='middle': expected 'before' (the post-grad graph before the passes ran) or 'after'",
    ),
    (
        "assert-ops-count-not-int",
        lambda p: p.assert_ops(after={aten.sin: "1"}),
        ValueError,
        "after[<OpOverloadPacket(op='aten.sin')>]='1': expected a count, an int >= 0",
    ),
    (
        "expect-compile-unknown-count",
        lambda p: p.expect_compile(breaks=0),
        TypeError,
        "expect_compile(breaks=...): unknown count; accepted: frames, graphs, graph_breaks, "
        "recompiles, eager_fallbacks, automatic_dynamic",
    ),
    (
        "expect-compile-negative",
        lambda p: p.expect_compile(graph_breaks=-1),
        ValueError,
        "expect_compile(graph_breaks=-1): expected a maximum count, an int >= 0",
    ),
    (
        "expect-compile-nothing",
        lambda p: p.expect_compile(),
        TypeError,
        "expect_compile() needs at least one maximum, e.g. graph_breaks=0",
    ),
    (
        "assert-close-unknown-reference",
        lambda p: p.assert_close(reference="fp16"),
        ValueError,
        "reference='fp16': expected one of 'eager', 'fp32', 'fp64'",
    ),
    (
        "assert-close-tolerances-with-a-reference",
        lambda p: p.assert_close(reference="fp64", rtol=1e-3),
        ValueError,
        "rtol/atol apply to reference='eager' only",
    ),
    (
        "profile-top-zero",
        lambda p: p.profile(top=0),
        ValueError,
        "top=0: expected an int >= 1",
    ),
    (
        "kernel-diff-timed-not-bool",
        lambda p: p.kernel_diff(timed="yes"),
        TypeError,
        "timed='yes': expected True or False",
    ),
]


@pytest.mark.parametrize(
    ("call", "exc", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_call_fails_at_the_call(
    call: Callable[[], Any], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=re.escape(message)):
        call()


@pytest.mark.parametrize(
    ("call", "exc", "message"), [c[1:] for c in PAIR_CASES], ids=[c[0] for c in PAIR_CASES]
)
def test_bad_pair_check_fails_at_the_call(
    pair: CompiledPair, call: Callable[[CompiledPair], Any], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=re.escape(message)):
        call(pair)


def test_kernel_counts_raises_when_a_launched_kernel_was_not_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A parser that falls behind a new torch fails, naming the torch version, instead of
    returning a smaller count (here: the kernel-definition pattern no longer matches)."""
    monkeypatch.setattr(kernels, "_KERNEL_DEF_RE", re.compile(r"(?!x)x(?P<name>)(?P<src>)"))
    with pytest.raises(KernelParseError) as info:
        kernel_counts(sin, X)
    text = str(info.value)
    assert f"generated code of torch {torch.__version__}" in text
    assert (
        "it defines 1 kernel(s) (async_compile.triton) and launches 1, but the parser found 0"
        in text
    )
    assert "launched but not parsed: ['triton_poi_fused_add_sin_0']" in text


def test_output_code_in_an_unknown_form_is_not_counted_short() -> None:
    code = (
        "triton_poi_fused_0 = async_compile.triton('triton_poi_fused_0', r'''\n"
        "@triton.jit\ndef triton_poi_fused_0(x): pass\n''')\n"
        "def call(args):\n    triton_poi_fused_0.run(buf0, stream=s)\n"
    )
    with pytest.raises(
        KernelParseError, match="launched but not parsed: \\['triton_poi_fused_0'\\]"
    ):
        kernels.parse_wrapper(code, "inference")
    with pytest.raises(KernelParseError):
        kernels.count_kernels(code)


def test_pass_config_still_accepted() -> None:
    assert kernel_counts(sin, X, config=PassConfig()).forward == 1
