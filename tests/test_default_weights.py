"""The default configuration never computes with stale weights, however the weights change.

`PassConfig.channels_last_weights_once` (weights converted outside the graph, cached per weight
version) is opt-in: its cache cannot see an in-place update through `.data`, which has a version
counter of its own. These tests use the defaults exactly as a user gets them (`backend="magi"`,
no options, no environment), on a conv3d model (the rewrite fires on it by default), and change
the weights every way users do after the first call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import torch
from torch import nn

from magi_passes import PassConfig

UPDATES: dict[str, Callable[[nn.Module], None]] = {
    "data-add_": lambda m: m[0].weight.data.add_(0.5),
    "no_grad-add_": lambda m: m[0].weight.add_(0.5),
    "data-assign": lambda m: setattr(m[0].weight, "data", m[0].weight.data * 2),
    "load_state_dict": lambda m: m.load_state_dict({k: v * 3 for k, v in m.state_dict().items()}),
}


@pytest.fixture(autouse=True)
def _defaults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import os

    for var in [v for v in os.environ if v.startswith("MAGI_PASSES__")]:
        monkeypatch.delenv(var)
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def test_weights_once_is_opt_in() -> None:
    assert PassConfig().channels_last_weights_once is False
    assert PassConfig.from_env({}).channels_last_weights_once is False


@pytest.mark.parametrize("update", list(UPDATES), ids=list(UPDATES))
def test_default_magi_backend_sees_every_weight_update(update: str) -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv3d(3, 4, 3, padding=1), nn.SiLU()).eval()
    x = torch.randn(1, 3, 4, 6, 5)
    compiled = torch.compile(model, backend="magi")
    with torch.no_grad():
        first = compiled(x)
        torch.testing.assert_close(first, model(x))
        UPDATES[update](model)
        expected = model(x)
        assert not torch.allclose(expected, first), "the update changed nothing: a useless test"
        torch.testing.assert_close(compiled(x), expected, msg=f"stale weights after {update}")
