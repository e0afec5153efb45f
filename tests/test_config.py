"""PassConfig: defaults, validation and MAGI_PASSES__* environment parsing."""

from __future__ import annotations

import dataclasses

import pytest

from magi_passes import PassConfig


def test_defaults_match_the_contract() -> None:
    c = PassConfig()
    assert c.enable_conv_channels_last is True
    assert c.enable_nd_tiling is True
    assert c.enable_dynamic_reshape is True
    assert c.conv_heavy_ratio == 300


def test_frozen_and_hashable() -> None:
    c = PassConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.enable_nd_tiling = False  # type: ignore[misc]
    assert hash(c) == hash(PassConfig())
    assert c != PassConfig(enable_nd_tiling=False)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("0", False), ("1", True), ("false", False), ("TRUE", True), (" off ", False), ("yes", True)],
)
def test_from_env_booleans(raw: str, expected: bool) -> None:
    c = PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILING": raw})
    assert c.enable_nd_tiling is expected
    assert c.enable_conv_channels_last is True


def test_from_env_reads_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAGI_PASSES__CONV_HEAVY_RATIO", "50")
    monkeypatch.setenv("MAGI_PASSES__ENABLE_CONV_CHANNELS_LAST", "0")
    c = PassConfig.from_env()
    assert c.conv_heavy_ratio == 50 and c.enable_conv_channels_last is False


def test_from_env_ignores_other_variables() -> None:
    assert PassConfig.from_env({"MAGI_PASSES_X": "1", "PATH": "/bin"}) == PassConfig()


def test_from_env_bad_bool_names_variable_value_and_accepted() -> None:
    with pytest.raises(ValueError) as e:
        PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILING": "maybe"})
    msg = str(e.value)
    assert "MAGI_PASSES__ENABLE_ND_TILING" in msg and "'maybe'" in msg
    assert "1/true/yes/on" in msg and "0/false/no/off" in msg


@pytest.mark.parametrize("raw", ["-3", "0", "1.5", "ten"])
def test_from_env_bad_int(raw: str) -> None:
    with pytest.raises(
        ValueError, match=r"MAGI_PASSES__CONV_HEAVY_RATIO: '.*'; expected a positive integer"
    ):
        PassConfig.from_env({"MAGI_PASSES__CONV_HEAVY_RATIO": raw})


def test_from_env_unknown_field_suggests_close_names() -> None:
    with pytest.raises(ValueError) as e:
        PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILIN": "1"})
    msg = str(e.value)
    assert "MAGI_PASSES__ENABLE_ND_TILIN" in msg
    assert "did you mean MAGI_PASSES__ENABLE_ND_TILING" in msg


def test_overrides_win_and_unknown_override_fails() -> None:
    c = PassConfig.from_env({"MAGI_PASSES__ENABLE_ND_TILING": "1"}, enable_nd_tiling=False)
    assert c.enable_nd_tiling is False
    with pytest.raises(ValueError, match="unknown PassConfig field"):
        PassConfig.from_env({}, nd_tiles=3)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"enable_nd_tiling": 1},
        {"conv_heavy_ratio": 0},
        {"conv_heavy_ratio": True},
        {"decided_on": ("H100",)},
        {"decided_on": "H100,,H200"},
        {"decided_on": " "},
        {"decided_plain_on": "H100,"},
        {"decided_plain_on": 7},
        {"decided_on": "H100,H200", "decided_plain_on": " H200"},
    ],
)
def test_constructor_validates_types(kwargs: dict) -> None:
    with pytest.raises(ValueError, match="PassConfig"):
        PassConfig(**kwargs)


def test_replace_and_key() -> None:
    c = PassConfig().replace(enable_nd_tiling=False)
    assert c.enable_nd_tiling is False
    assert "enable_nd_tiling=False" in c.key()
    assert c.key() != PassConfig().key()
    with pytest.raises(ValueError, match="unknown PassConfig field"):
        PassConfig().replace(bogus=1)


def test_decided_on_is_read_from_the_environment_and_matches_device_names() -> None:
    """A comma-separated list of device-name parts: the entry a device's name contains."""
    c = PassConfig.from_env({"MAGI_PASSES__DECIDED_ON": " H100, H200 "})
    assert c.decided_on == "H100, H200"
    assert c.decided_for("NVIDIA H100 80GB HBM3") == "H100"
    assert c.decided_for("NVIDIA H200") == "H200"
    assert c.decided_for("NVIDIA A100-SXM4-80GB") is None
    assert PassConfig().decided_for("NVIDIA H100 80GB HBM3") is None  # empty: measure everywhere
    assert "decided_on='H100, H200'" in c.key()


def test_decided_plain_on_is_read_from_the_environment_and_kept_apart_from_decided_on() -> None:
    """`decided_plain_on`: the devices whose measurement kept plain Inductor; a name in both
    lists is refused with both values and the fix."""
    c = PassConfig.from_env(
        {"MAGI_PASSES__DECIDED_PLAIN_ON": "H200", "MAGI_PASSES__DECIDED_ON": "H100"}
    )
    assert c.decided_plain_for("NVIDIA H200") == "H200"
    assert c.decided_plain_for("NVIDIA H100 80GB HBM3") is None
    assert c.decided_for("NVIDIA H100 80GB HBM3") == "H100"
    assert PassConfig().decided_plain_for("NVIDIA H200") is None
    assert "decided_plain_on='H200'" in c.key()
    with pytest.raises(ValueError, match=r"'H200' is in both decided_on='H200'.*name it in one"):
        PassConfig(decided_on="H200", decided_plain_on="H100,H200")
