"""`pytest_magi.capture.config_guard`: scoped Inductor config patches and the leak check, without pytest.

Every test here also runs under the plugin's own leak check: a test that left Inductor's config
changed would fail, so each restoration below is proven twice.
"""

from __future__ import annotations

import pytest
import torch._inductor.config as config

from pytest_magi.capture.config_guard import (
    ConfigLeakError,
    ConfigLeakGuard,
    ConfigPatch,
    ConfigPatchStack,
    UnknownConfigKeyError,
    config_diff,
    format_config_diff,
    restore_inductor_config,
    snapshot_inductor_config,
)


def test_dict_and_kwargs_patch_as_a_context_manager() -> None:
    assert config.triton.max_tiles is None and config.max_autotune is False
    with ConfigPatch(
        {"triton.max_tiles": 2}, max_autotune=True, triton__prefer_nd_tiling=True
    ) as p:
        assert p.applied
        assert config.triton.max_tiles == 2
        assert config.max_autotune is True
        assert config.triton.prefer_nd_tiling is True
    assert not p.applied
    assert config.triton.max_tiles is None and config.max_autotune is False
    assert config.triton.prefer_nd_tiling is False


def test_restored_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError), ConfigPatch(triton__max_tiles=2):
        raise RuntimeError("boom")
    assert config.triton.max_tiles is None


def test_apply_and_restore() -> None:
    patch = ConfigPatch({"triton.max_tiles": 2})
    assert config.triton.max_tiles is None  # validated, not applied yet
    patch.apply()
    with pytest.raises(RuntimeError, match="already applied"):
        patch.apply()
    assert config.triton.max_tiles == 2
    patch.restore()
    patch.restore()  # a no-op
    assert config.triton.max_tiles is None


@pytest.mark.parametrize(
    ("key", "suggestion"),
    [
        ("triton.max_tile", "'triton.max_tiles'"),
        ("max_tiles", "'triton.max_tiles'"),
        ("maxautotune", "'max_autotune'"),
    ],
)
def test_unknown_key_lists_close_matches(key: str, suggestion: str) -> None:
    with pytest.raises(UnknownConfigKeyError) as info:
        ConfigPatch({key: 2})
    message = str(info.value)
    assert message.startswith(f"unknown torch._inductor.config key {key!r}: did you mean ")
    assert suggestion in message
    assert "triton__max_tiles=2" in message  # the kwargs spelling is explained
    assert isinstance(info.value, KeyError)


def test_unknown_kwarg_is_reported_dotted() -> None:
    with pytest.raises(KeyError, match=r"key 'triton\.max_tile': did you mean 'triton\.max_tiles'"):
        ConfigPatch(triton__max_tile=2)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"max_autotune": 1},
            "torch._inductor.config.max_autotune is a bool (now False); got 1 of type int",
        ),
        ({"triton.max_tiles": True}, None),  # None now: any value; see below
        ({"unbacked_symint_fallback": True}, "is an int (now 8192); got True of type bool"),
        ({"unbacked_symint_fallback": "30"}, "is an int (now 8192); got '30' of type str"),
    ],
)
def test_type_check_against_the_current_value(
    changes: dict[str, object], message: str | None
) -> None:
    if message is None:
        ConfigPatch(changes)  # the current value is None: every type is accepted
        return
    with pytest.raises(TypeError) as info:
        ConfigPatch(changes)
    assert message in str(info.value)


def test_none_and_int_for_float_are_accepted() -> None:
    with ConfigPatch({"triton.max_tiles": 2}), ConfigPatch({"triton.max_tiles": None}):
        assert config.triton.max_tiles is None
    float_keys = [k for k, v in snapshot_inductor_config().items() if isinstance(v, float)]
    assert float_keys
    with ConfigPatch({float_keys[0]: 1}):
        pass


def test_validation_happens_before_anything_is_set() -> None:
    with pytest.raises(TypeError):
        ConfigPatch({"triton.max_tiles": 2, "max_autotune": "yes"})
    assert config.triton.max_tiles is None
    with pytest.raises(ValueError, match="patched twice"):
        ConfigPatch({"triton.max_tiles": 2}, triton__max_tiles=3)


def test_stack_restores_in_reverse_order_to_the_mark() -> None:
    stack = ConfigPatchStack()
    stack({"triton.max_tiles": 2})
    mark = stack.mark()
    stack(triton__max_tiles=3)
    with stack(max_autotune=True):
        assert config.max_autotune is True
    assert config.max_autotune is False
    assert config.triton.max_tiles == 3
    stack.restore_to(mark)
    assert config.triton.max_tiles == 2
    stack.restore_all()
    assert config.triton.max_tiles is None
    assert stack.patches == ()


def test_diff_and_restore() -> None:
    before = snapshot_inductor_config()
    assert config_diff(before, snapshot_inductor_config()) == {}
    config.triton.max_tiles = 3
    config.max_autotune = True
    diff = config_diff(before, snapshot_inductor_config())
    assert diff == {"max_autotune": (False, True), "triton.max_tiles": (None, 3)}
    assert list(diff) == sorted(diff)
    assert format_config_diff(diff) == (
        "  torch._inductor.config.max_autotune: False -> True\n"
        "  torch._inductor.config.triton.max_tiles: None -> 3"
    )
    restore_inductor_config(diff)
    assert config_diff(before, snapshot_inductor_config()) == {}


def test_in_place_mutation_of_a_list_value_is_seen() -> None:
    key, value = next((k, v) for k, v in snapshot_inductor_config().items() if isinstance(v, list))
    before = snapshot_inductor_config()
    live = config
    for part in key.split(".")[:-1]:
        live = getattr(live, part)
    getattr(live, key.split(".")[-1]).append("x")
    diff = config_diff(before, snapshot_inductor_config())
    assert list(diff) == [key]
    restore_inductor_config(diff)
    assert config_diff(before, snapshot_inductor_config()) == {}


def test_leak_guard_raises_names_keys_and_restores() -> None:
    with pytest.raises(ConfigLeakError) as info, ConfigLeakGuard(what="the block"):
        config.triton.max_tiles = 3
    assert config.triton.max_tiles is None
    message = str(info.value)
    assert message.startswith(
        "the block changed torch._inductor.config and did not restore it (1 key; restored now):\n"
        "  torch._inductor.config.triton.max_tiles: None -> 3\n"
    )
    assert isinstance(info.value, AssertionError)  # a failure, not an error, in a test


def test_leak_guard_adds_a_note_when_the_block_raises() -> None:
    with pytest.raises(ValueError) as info, ConfigLeakGuard():
        config.max_autotune = True
        raise ValueError("the real problem")
    assert config.max_autotune is False
    assert any("max_autotune: False -> True" in note for note in info.value.__notes__)


def test_leak_guard_allows_patches_of_its_stack_and_restores_them() -> None:
    stack = ConfigPatchStack()
    stack(triton__max_tiles=2)  # before the guard: kept
    with ConfigLeakGuard(patches=stack) as guard:
        stack(max_autotune=True)  # inside: restored by the guard, not a leak
    assert guard.leaked == {}
    assert config.max_autotune is False and config.triton.max_tiles == 2
    stack.restore_all()


def test_leak_guard_custom_handler() -> None:
    seen: list[str] = []

    def on_leak(message: str):  # type: ignore[no-untyped-def]
        seen.append(message)
        raise KeyboardInterrupt  # any NoReturn handler

    with pytest.raises(KeyboardInterrupt), ConfigLeakGuard(on_leak=on_leak):
        config.triton.max_tiles = 5
    assert "triton.max_tiles: None -> 5" in seen[0]
    assert config.triton.max_tiles is None


def test_config_patch_fixture(config_patch: ConfigPatchStack) -> None:
    patch = config_patch({"triton.max_tiles": 2})
    assert isinstance(patch, ConfigPatch) and patch.applied
    with config_patch(triton__max_tiles=3):
        assert config.triton.max_tiles == 3
    assert config.triton.max_tiles == 2  # restored by the plugin when the test ends
