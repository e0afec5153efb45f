"""Bad input: every wrong value a user can hand magi_passes, and the message they get.

Each test here backs one row of the table in docs/reliability.md; the row quotes the message and
the test asserts it. Messages must say what went wrong, what was expected and what was received.
Bugs that are known and not fixed yet are `xfail(strict=True)`: they flip to a failure the day
the behaviour changes, so the table and the test are updated together.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import torch
from torch import nn
from torch._dynamo.exc import BackendCompilerFailed, TorchRuntimeError
from torch._inductor import config as inductor_config
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import (
    ConvChannelsLastPass,
    DynamicReshapePass,
    MagiBackend,
    NdTilingPass,
    PassConfig,
    PassManager,
    inductor_options,
    is_conv_heavy,
    is_dynamic,
    magi_backend,
    magi_compile,
)

KNOWN_ENV = (
    "Known: MAGI_PASSES__ENABLE_CONV_CHANNELS_LAST, MAGI_PASSES__ENABLE_ND_TILING, "
    "MAGI_PASSES__ENABLE_DYNAMIC_RESHAPE, MAGI_PASSES__CONV_HEAVY_RATIO"
)
BOOL_EXPECTED = "expected a boolean, one of 1/true/yes/on or 0/false/no/off"


@pytest.fixture(autouse=True)
def _fresh_dynamo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import os

    for var in [v for v in os.environ if v.startswith("MAGI_PASSES__")]:
        monkeypatch.delenv(var)
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _conv() -> tuple[nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    return nn.Conv2d(3, 4, 3), torch.randn(1, 3, 5, 7)


def _compile_error(model: nn.Module, x: torch.Tensor, **compile_kwargs: Any) -> str:
    with pytest.raises(BackendCompilerFailed) as info:
        torch.compile(model, **compile_kwargs)(x)
    return str(info.value)


# --------------------------------------------------------------------------- environment
@pytest.mark.parametrize(
    ("var", "value", "message"),
    [
        pytest.param(
            "MAGI_PASSES__ENABLE_ND_TILING",
            "maybe",
            f"bad value for MAGI_PASSES__ENABLE_ND_TILING: 'maybe'; {BOOL_EXPECTED}",
            id="bool-maybe",
        ),
        pytest.param(
            "MAGI_PASSES__ENABLE_ND_TILING",
            "",
            f"bad value for MAGI_PASSES__ENABLE_ND_TILING: ''; {BOOL_EXPECTED}",
            id="bool-empty",
        ),
        pytest.param(
            "MAGI_PASSES__CONV_HEAVY_RATIO",
            "-3",
            "bad value for MAGI_PASSES__CONV_HEAVY_RATIO: '-3'; expected a positive integer",
            id="int-negative",
        ),
        pytest.param(
            "MAGI_PASSES__CONV_HEAVY_RATIO",
            "3.5",
            "bad value for MAGI_PASSES__CONV_HEAVY_RATIO: '3.5'; expected a positive integer",
            id="int-float",
        ),
        pytest.param(
            "MAGI_PASSES__CONV_HEAVY_RATIO",
            "0",
            "bad value for MAGI_PASSES__CONV_HEAVY_RATIO: '0'; expected a positive integer",
            id="int-zero",
        ),
        pytest.param(
            "MAGI_PASSES__ENABLE_FOO",
            "1",
            "unknown environment variable MAGI_PASSES__ENABLE_FOO='1': PassConfig has no field "
            f"'enable_foo'. {KNOWN_ENV}",
            id="unknown-field",
        ),
        pytest.param(
            "MAGI_PASSES__ENABLE_ND_TILLING",
            "1",
            "PassConfig has no field 'enable_nd_tilling'",
            id="misspelt-field",
        ),
    ],
)
def test_env_bad_value(var: str, value: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        PassConfig.from_env({var: value})
    assert message in str(info.value)


def test_env_misspelt_field_suggests_the_right_one() -> None:
    with pytest.raises(ValueError, match=r"did you mean MAGI_PASSES__ENABLE_ND_TILING\?$"):
        PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILLING": "1"})


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("TRUE", True), (" yes ", True), ("on", True), ("0", False), ("Off", False)],
)
def test_env_good_values_still_parse(raw: str, expected: bool) -> None:
    """The other side of the bad-value rows: the accepted spellings really are accepted."""
    config = PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILING": raw})
    assert config.enable_nd_tiling is expected


def test_env_is_read_by_the_magi_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad variable in the process environment fails the first `backend="magi"` compile."""
    monkeypatch.setenv("MAGI_PASSES__ENABLE_ND_TILING", "maybe")
    model, x = _conv()
    message = _compile_error(model, x, backend="magi")
    assert "backend='magi' raised:" in message
    assert f"ValueError: bad value for MAGI_PASSES__ENABLE_ND_TILING: 'maybe'; {BOOL_EXPECTED}" in (
        message
    )


def test_env_is_read_by_inductor_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAGI_PASSES__CONV_HEAVY_RATIO", "-3")
    with pytest.raises(ValueError, match=re.escape("MAGI_PASSES__CONV_HEAVY_RATIO: '-3'")):
        inductor_options()


# --------------------------------------------------------------------------- PassConfig
@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(
            lambda: PassConfig(enable_nd_tiling="yes"),  # type: ignore[arg-type]
            "PassConfig.enable_nd_tiling must be a bool, got 'yes' (str); pass True or False",
            id="bool-field-str",
        ),
        pytest.param(
            lambda: PassConfig(conv_heavy_ratio=0),
            "PassConfig.conv_heavy_ratio must be a positive int, got 0",
            id="ratio-zero",
        ),
        pytest.param(
            lambda: PassConfig(conv_heavy_ratio=True),
            "PassConfig.conv_heavy_ratio must be an int, got True (bool)",
            id="ratio-bool",
        ),
        pytest.param(
            lambda: PassConfig().replace(enable_fo=True),
            "unknown PassConfig field(s) ['enable_fo']; known fields: enable_conv_channels_last",
            id="replace-unknown",
        ),
        pytest.param(
            lambda: PassConfig.from_env({}, enable_foo=True),
            "unknown PassConfig field(s) ['enable_foo']; known fields: enable_conv_channels_last",
            id="from-env-override-unknown",
        ),
    ],
)
def test_pass_config_bad_value(build: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        build()
    assert message in str(info.value)


# --------------------------------------------------------------------------- backend options
@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param(
            {"enable_nd_tilling": False},
            "ValueError: unknown magi backend option 'enable_nd_tilling': neither a PassConfig "
            "field (",
            id="misspelt-pass-field",
        ),
        pytest.param(
            {"triton.max_tile": 2},
            "ValueError: unknown magi backend option 'triton.max_tile': neither a PassConfig field",
            id="misspelt-inductor-key",
        ),
        pytest.param(
            {"enable_nd_tiling": "no"},
            "ValueError: PassConfig.enable_nd_tiling must be a bool, got 'no' (str); "
            "pass True or False",
            id="pass-field-wrong-type",
        ),
        pytest.param(
            {"conv_heavy_ratio": "3"},
            "ValueError: PassConfig.conv_heavy_ratio must be an int, got '3' (str)",
            id="ratio-wrong-type",
        ),
        pytest.param(
            {"pass_config": {"enable_nd_tiling": False}},
            "TypeError: magi backend option 'pass_config' must be a magi_passes.PassConfig, "
            "got {'enable_nd_tiling': False}",
            id="pass-config-dict",
        ),
    ],
)
def test_backend_bad_option(options: dict[str, Any], message: str) -> None:
    model, x = _conv()
    error = _compile_error(model, x, backend="magi", options=options)
    assert "backend='magi' raised:" in error
    assert message in error


@pytest.mark.parametrize(
    ("key", "close"),
    [
        ("enable_nd_tilling", "did you mean enable_nd_tiling"),
        ("triton.max_tile", "did you mean triton.max_tiles"),
    ],
)
def test_backend_unknown_option_lists_close_matches(key: str, close: str) -> None:
    model, x = _conv()
    assert close in _compile_error(model, x, backend="magi", options={key: False})


def test_backend_unknown_option_lists_every_pass_config_field() -> None:
    model, x = _conv()
    error = _compile_error(model, x, backend="magi", options={"enable_nd_tilling": False})
    listed = re.search(
        r"neither a PassConfig field \(([^)]*)\) nor a torch._inductor.config key", error
    )
    assert listed is not None, error
    assert listed.group(1).split(", ") == sorted(PassConfig.field_names())


def test_backend_rejects_a_mode() -> None:
    model, x = _conv()
    error = _compile_error(model, x, backend="magi", mode="max-autotune")
    assert (
        "ValueError: the magi backend takes no mode (got mode='max-autotune'); pass Inductor "
        "settings through options={...} instead"
    ) in error


def test_magi_compile_rejects_a_backend() -> None:
    model, _ = _conv()
    with pytest.raises(TypeError) as info:
        magi_compile(model, backend="inductor")
    assert str(info.value) == (
        "magi_compile() chooses the backend itself; call torch.compile(..., backend=...) "
        "directly to use another one"
    )


@pytest.mark.parametrize("config", [{"enable_nd_tiling": False}, "no-nd-tiling"])
def test_magi_compile_config_must_be_a_pass_config(config: Any) -> None:
    model, _ = _conv()
    with pytest.raises(TypeError, match="magi_compile: config must be a magi_passes.PassConfig"):
        magi_compile(model, config=config)  # at the call, before any compile


# --------------------------------------------------------------------------- call-site checks
FIELDS = ", ".join(PassConfig.field_names())
N_FIELDS = len(PassConfig.field_names())


def _graph_module() -> torch.fx.GraphModule:
    return torch.fx.symbolic_trace(nn.ReLU())


# (id, call, exception type, the exact message): each is a row of docs/reliability.md
CALL_SITE_CASES: list[tuple[str, Any, type[Exception], str]] = [
    (
        "pass-config-unknown-field",
        lambda: PassConfig(enable_nd_tilling=False),
        TypeError,
        "PassConfig(...): unknown field enable_nd_tilling=False; expected one of "
        f"{FIELDS}; did you mean enable_nd_tiling?",
    ),
    (
        "pass-config-too-many-positional",
        lambda: PassConfig(*([True] * (N_FIELDS + 1))),
        TypeError,
        f"PassConfig(...): got {N_FIELDS + 1} positional arguments {(True,) * (N_FIELDS + 1)!r}; "
        f"expected at most {N_FIELDS} ({FIELDS}); fix: pass fields by name, e.g. "
        "PassConfig(enable_nd_tiling=False)",
    ),
    (
        "pass-config-ratio-str",
        lambda: PassConfig(conv_heavy_ratio="3"),
        ValueError,
        "PassConfig.conv_heavy_ratio must be an int, got '3' (str); pass a whole number, e.g. "
        "conv_heavy_ratio=300",
    ),
    (
        "pass-config-ratio-negative",
        lambda: PassConfig(conv_heavy_ratio=-1),
        ValueError,
        "PassConfig.conv_heavy_ratio must be a positive int, got -1; pass e.g. "
        "conv_heavy_ratio=300 (Inductor's own layout heuristic)",
    ),
    (
        "replace-misspelt",
        lambda: PassConfig().replace(enable_nd_tilling=False),
        ValueError,
        f"unknown PassConfig field(s) ['enable_nd_tilling']; known fields: {FIELDS}; did you "
        "mean enable_nd_tiling?",
    ),
    (
        "from-env-environ-list",
        lambda: PassConfig.from_env(["MAGI_PASSES__ENABLE_ND_TILING=0"]),
        TypeError,
        "PassConfig.from_env: environ must be a mapping of variable names to str values (like "
        "os.environ), or None, got ['MAGI_PASSES__ENABLE_ND_TILING=0'] (list); fix: "
        "PassConfig.from_env({'MAGI_PASSES__ENABLE_ND_TILING': '0'})",
    ),
    (
        "from-env-value-not-str",
        lambda: PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILING": 0}),
        TypeError,
        "PassConfig.from_env: environ['MAGI_PASSES__ENABLE_ND_TILING'] must be a str, as in "
        "os.environ, got 0 (int); fix: {'MAGI_PASSES__ENABLE_ND_TILING': '1'}",
    ),
    (
        "magi-backend-config-dict",
        lambda: MagiBackend({"enable_nd_tiling": False}),
        TypeError,
        "MagiBackend: config must be a magi_passes.PassConfig or None, got "
        "{'enable_nd_tiling': False} (dict); fix: "
        "MagiBackend(config=PassConfig(enable_nd_tiling=False))",
    ),
    (
        "magi-backend-config-str",
        lambda: MagiBackend("no-nd-tiling"),
        TypeError,
        "MagiBackend: config must be a magi_passes.PassConfig or None, got 'no-nd-tiling' (str); "
        "fix: MagiBackend(config=PassConfig(...)), or leave it out for the default",
    ),
    (
        "magi-backend-patches-list",
        lambda: MagiBackend(None, [("triton.max_tiles", 2)]),
        TypeError,
        "MagiBackend: inductor_config_patches must be a dict with str keys, or None, got "
        "[('triton.max_tiles', 2)] (list); fix: MagiBackend(inductor_config_patches="
        "{'enable_nd_tiling': False, 'triton.max_tiles': 2})",
    ),
    (
        "magi-backend-patches-misspelt",
        lambda: MagiBackend(None, {"enable_nd_tilling": False}),
        ValueError,
        "unknown magi backend option 'enable_nd_tilling': neither a PassConfig field "
        f"({', '.join(sorted(FIELDS.split(', ')))}) nor a torch._inductor.config key; did you "
        "mean enable_nd_tiling, triton.prefer_nd_tiling?",
    ),
    (
        "inductor-options-given-its-own-result",
        lambda: inductor_options(config=inductor_options(PassConfig())),
        TypeError,
        "inductor_options: config must be a magi_passes.PassConfig or None, got {",
    ),
    (
        "inductor-options-misspelt-key",
        lambda: inductor_options(max_autotun=True),
        ValueError,
        "inductor_options: max_autotun must be a torch._inductor.config key, got True (bool); "
        "fix: spell the key as torch._inductor.config does (write dots as '__' in keyword "
        "arguments: triton__max_tiles=2); did you mean max_autotune, max_autotune_gemm, "
        "max_autotune_pointwise?",
    ),
    (
        "magi-compile-not-callable",
        lambda: magi_compile("model.pt"),
        TypeError,
        "magi_compile: model must be a torch.nn.Module or a function, got 'model.pt' (str); "
        "fix: magi_compile(model) with the module itself, e.g. magi_compile(MyNet())",
    ),
    (
        "magi-compile-config-dict",
        lambda: magi_compile(nn.ReLU(), config={"enable_nd_tiling": False}),
        TypeError,
        "magi_compile: config must be a magi_passes.PassConfig or None, got "
        "{'enable_nd_tiling': False} (dict); fix: "
        "magi_compile(config=PassConfig(enable_nd_tiling=False))",
    ),
    (
        "magi-compile-dynamic-str",
        lambda: magi_compile(nn.ReLU(), dynamic="yes"),
        TypeError,
        "magi_compile: dynamic must be True, False or None, got 'yes' (str); fix: "
        "magi_compile(dynamic=True)",
    ),
    (
        "magi-compile-form-unknown",
        lambda: magi_compile(nn.ReLU(), form="wan"),
        ValueError,
        "magi_compile: form must be 'auto', None, a CompileForm or a known form's name "
        "(allegro-decoder, cogvideox-decoder, cosmos-decoder, easyanimate-decoder, "
        "hunyuanvideo-decoder, hunyuanvideo1.5-decoder, kandinsky6-sr-decoder, kvae-3d-decoder, "
        "ltx-video-decoder, ltx2-video-decoder, minimax-h3-decoder, mochi-decoder, svd-decoder, "
        "timm-efficientnet, timm-resnet, vidtok-decoder, wan-decoder), got 'wan' (str); fix: "
        "magi_compile(model, form=None) for the generic form",
    ),
    (
        "magi-backend-called-with-a-module",
        lambda: magi_backend(nn.ReLU(), [torch.randn(2)]),
        TypeError,
        "magi_backend: gm must be a torch.fx.GraphModule (dynamo calls the backend), got ReLU() "
        "(ReLU); fix: let dynamo call it: torch.compile(model, backend='magi')",
    ),
    (
        "magi-backend-options-list",
        lambda: magi_backend(_graph_module(), [torch.randn(2)], options=[("a", 1)]),
        TypeError,
        "magi_backend: options must be a dict with str keys, or None, got [('a', 1)] (list); "
        "fix: magi_backend(options={'enable_nd_tiling': False})",
    ),
    (
        "pass-manager-config-dict",
        lambda: PassManager({"enable_nd_tilling": False}),
        TypeError,
        "PassManager: config must be a magi_passes.PassConfig or None, got "
        f"{{'enable_nd_tilling': False}} (dict); fix: build one from its fields ({FIELDS}), e.g. "
        "PassManager(config=PassConfig(enable_nd_tiling=False))",
    ),
    (
        "pass-manager-record-graphs-str",
        lambda: PassManager(record_graphs="no"),
        TypeError,
        "PassManager: record_graphs must be True or False, got 'no' (str); fix: "
        "PassManager(record_graphs=True)",
    ),
    (
        "pass-constructor-config-bool",
        lambda: ConvChannelsLastPass(True),
        TypeError,
        "ConvChannelsLastPass: config must be a magi_passes.PassConfig or None, got True (bool); "
        "fix: ConvChannelsLastPass(config=PassConfig(...)), or leave it out for the default",
    ),
    (
        "pass-constructor-config-dict",
        lambda: NdTilingPass({"enable_nd_tiling": True}),
        TypeError,
        "NdTilingPass: config must be a magi_passes.PassConfig or None, got "
        "{'enable_nd_tiling': True} (dict); fix: "
        "NdTilingPass(config=PassConfig(enable_nd_tiling=True))",
    ),
    (
        "pass-constructor-dynamic-reshape",
        lambda: DynamicReshapePass(PassConfig),
        TypeError,
        "DynamicReshapePass: config must be a magi_passes.PassConfig or None, got "
        "<class 'magi_passes.config.PassConfig'> (type); fix: "
        "DynamicReshapePass(config=PassConfig(...)), or leave it out for the default",
    ),
    (
        "is-dynamic-graph-module",
        lambda: is_dynamic(_graph_module()),
        TypeError,
        "is_dynamic: graph must be a torch.fx.Graph, got ReLU() (ReLU); fix: pass the "
        "module's graph: is_dynamic(gm.graph)",
    ),
    (
        "is-conv-heavy-none",
        lambda: is_conv_heavy(None, 300),
        TypeError,
        "is_conv_heavy: graph must be a torch.fx.Graph, got None (NoneType); fix: pass the "
        "torch.fx.Graph a post-grad pass receives, e.g. is_conv_heavy(gm.graph)",
    ),
    (
        "is-conv-heavy-ratio-float",
        lambda: is_conv_heavy(torch.fx.Graph(), 1.5),
        TypeError,
        "is_conv_heavy: ratio must be a positive int, got 1.5 (float); fix: "
        "is_conv_heavy(..., ratio=300)",
    ),
    (
        "is-conv-heavy-ratio-zero",
        lambda: is_conv_heavy(torch.fx.Graph(), 0),
        ValueError,
        "is_conv_heavy: ratio must be a positive int, got 0 (int); fix: "
        "is_conv_heavy(..., ratio=300)",
    ),
]


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [pytest.param(call, kind, message, id=case) for case, call, kind, message in CALL_SITE_CASES],
)
def test_call_site_checks(call: Any, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind) as info:
        call()
    text = str(info.value)
    if message.endswith("{"):  # a repr too long to spell out: the start, then the fix
        assert text.startswith(message), text
        assert "fix: that dict looks like inductor_options()'s result" in text
    else:
        assert text == message


def test_kernel_counts_given_inductor_options_names_pass_config() -> None:
    """The issue's example: a dict where a PassConfig is expected fails at once, naming it."""
    from pytest_magi.capture.codegen import kernel_counts

    with pytest.raises(TypeError) as info:
        kernel_counts(torch.sin, torch.randn(4), config=inductor_options(PassConfig()))
    assert "config must be a magi_passes.PassConfig or None" in str(info.value)
    assert "inductor_options()'s result" in str(info.value)


class _Recorder(CustomGraphPass):
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        self.calls += 1

    def uuid(self) -> str:
        return "bad-input-recorder"


@pytest.mark.xfail(
    strict=True,
    reason="magi_passes bug: a post_grad_custom_post_pass given in options= is silently "
    "replaced by the PassManager instead of chained (backend.py MagiBackend.__call__)",
)
def test_user_pass_in_backend_options_is_chained() -> None:
    model, x = _conv()
    recorder = _Recorder()
    with inductor_config.patch(fx_graph_cache=False):
        torch.compile(model, backend="magi", options={"post_grad_custom_post_pass": recorder})(x)
    assert recorder.calls == 1


@pytest.mark.xfail(
    strict=True,
    reason="magi_passes bug: inductor_options(post_grad_custom_post_pass=...) is overwritten by "
    "the PassManager instead of chained (backend.py inductor_options)",
)
def test_user_pass_in_inductor_options_is_chained() -> None:
    recorder = _Recorder()
    options = inductor_options(post_grad_custom_post_pass=recorder)
    manager = options["post_grad_custom_post_pass"]
    assert manager is recorder or getattr(manager, "user_pass", None) is recorder


# --------------------------------------------------------------------------- PassManager
def test_pass_manager_user_pass_not_callable() -> None:
    with pytest.raises(TypeError) as info:
        PassManager(user_pass=42)
    assert str(info.value) == (
        "PassManager(user_pass=...) must be a callable taking a torch.fx.Graph (ideally a "
        "CustomGraphPass with uuid()), got 42"
    )


def test_pass_manager_user_pass_is_a_pass_manager() -> None:
    with pytest.raises(
        ValueError, match="got another PassManager: the magi passes would run twice"
    ):
        PassManager(user_pass=PassManager())


# --------------------------------------------------------------------------- inputs and models
def test_input_on_meta_device_behaves_like_eager() -> None:
    """Model on cpu, input on meta: eager computes a meta result, and so does the compiled model."""
    model, x = _conv()
    eager = model(x.to("meta"))
    compiled = torch.compile(model, backend="magi")(x.to("meta"))
    assert compiled.device.type == "meta"
    assert compiled.shape == eager.shape and compiled.dtype == eager.dtype


@pytest.mark.requires_cuda
def test_input_on_other_device_is_named() -> None:
    """torch 2.11 reports an internal assertion from inside the compile; the backend says what is wrong."""
    model, x = _conv()
    with pytest.raises(RuntimeError):
        model(x.cuda())  # eager refuses too
    torch._dynamo.reset()
    with pytest.raises(RuntimeError) as compiled:
        torch.compile(model, backend="magi")(x.cuda())
    message = str(compiled.value)
    assert "on different devices (cpu, cuda:0)" in message
    assert "model.to(x.device)" in message


def test_meta_and_scalar_inputs_are_not_a_device_mix() -> None:
    from magi_passes.compile.variants import _check_one_device

    # eager accepts these next to cpu tensors, so the backend must too (no error)
    _check_one_device([torch.ones(2), torch.ones(2, device="meta"), torch.tensor(1.0)])


@pytest.mark.parametrize(
    ("x", "eager_message"),
    [
        pytest.param(
            torch.randn(1, 3, 5, 7, dtype=torch.float16),
            "Input type (c10::Half) and bias type (float) should be the same",
            id="dtype-mismatch",
        ),
        pytest.param(
            torch.randn(1, 5, 5, 7),
            "Given groups=1, weight of size [4, 3, 3, 3], expected input[1, 5, 5, 7] to have 3 "
            "channels, but got 5 channels instead",
            id="channel-mismatch",
        ),
    ],
)
def test_model_that_fails_eagerly_shows_the_eager_message(
    x: torch.Tensor, eager_message: str
) -> None:
    model, _ = _conv()
    with pytest.raises(RuntimeError, match=re.escape(eager_message)):
        model(x)
    with pytest.raises(TorchRuntimeError) as info:
        torch.compile(model, backend="magi")(x)
    assert eager_message in str(info.value)


def _failing_user_pass(graph: torch.fx.Graph) -> None:
    raise RuntimeError("user pass failed: no conv found")


def test_failing_chained_user_pass_is_named_in_the_error() -> None:
    """A compile that fails inside the post-grad passes surfaces the original error."""
    model, x = _conv()
    with inductor_config.patch(post_grad_custom_post_pass=_failing_user_pass, fx_graph_cache=False):
        with pytest.raises(Exception) as info:
            torch.compile(model, backend="magi")(x)
    assert type(info.value).__name__ == "InductorError"
    assert "RuntimeError: user pass failed: no conv found" in str(info.value)


# --------------------------------------------------------------------------- pytest_magi modules
def _plugin_cases() -> list[tuple[str, Any, type[Exception], str]]:
    from pytest_magi.capture import normalize
    from pytest_magi.capture.fake_cuda import fake_cuda
    from pytest_magi.capture.lifetime import release_compiled

    def enter_fake_cuda(**kwargs: Any) -> None:
        with fake_cuda(**kwargs):
            pass

    return [
        (
            "normalize-code-bytes",
            lambda: normalize.normalize_code(b"def call(): pass"),
            TypeError,
            "normalize_code: text must be a str, got b'def call(): pass' (bytes); fix: decode it "
            "first: text.decode()",
        ),
        (
            "normalize-fx-graph-none",
            lambda: normalize.normalize_fx_graph(None),
            TypeError,
            "normalize_fx_graph: text must be a str, got None (NoneType); fix: pass the generated "
            "code as text, e.g. str(graph) or GeneratedCode.normalized()",
        ),
        (
            "renumber-symbols-prefix-str",
            lambda: normalize.renumber_symbols("s3 + s5", "s"),
            TypeError,
            "renumber_symbols: prefixes must be a non-empty iterable of identifier prefixes (not "
            "one str), got 's'; fix: renumber_symbols(text, prefixes=('s', 'ks'))",
        ),
        (
            "fake-cuda-properties-dict",
            lambda: enter_fake_cuda(properties={"major": 8}),
            TypeError,
            "fake_cuda: properties must be a FakeDeviceProperties or None, got {'major': 8} (dict); "
            "fix: fake_cuda(properties=FakeDeviceProperties(major=8, minor=0, "
            "multi_processor_count=108)) or leave it out for the H100-like default",
        ),
        (
            "fake-cuda-emulate-cudnn-str",
            lambda: enter_fake_cuda(emulate_cudnn="yes"),
            TypeError,
            "fake_cuda: emulate_cudnn must be True or False, got 'yes' (str); fix: "
            "fake_cuda(emulate_cudnn=True)",
        ),
        (
            "release-compiled-not-callable",
            lambda: release_compiled([3]),
            TypeError,
            "release_compiled: functions must be callables (the functions given to "
            "torch.compile, or what it returned), got 3; fix: "
            "release_compiled([fn], backends=[backend])",
        ),
    ]


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [pytest.param(call, kind, message, id=case) for case, call, kind, message in _plugin_cases()],
)
def test_plugin_module_call_site_checks(call: Any, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message
