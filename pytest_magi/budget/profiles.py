"""Device profiles: the few numbers a budget's time estimate needs, each naming its source.

A :class:`Profile` is data: achieved memory bandwidth, the dense bf16/fp16 matmul peak, the fp32
peak and the cost of one launch. ``PROFILES`` holds the named ones (``"h100"``, ``"h200"``);
:func:`get_profile` resolves a name, a ``Profile`` or a mapping of its fields;
:func:`measure_profile` measures one on a real CUDA GPU (it refuses, saying why, without one).
No torch import at module level.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from collections.abc import Callable, Mapping
from typing import Any

#: what each field means, in the order a user gives them
FIELDS: dict[str, str] = {
    "name": "the profile's name (str)",
    "bandwidth_tb_s": "achieved HBM bandwidth, TB/s (1e12 bytes per second)",
    "matmul_tflops": "dense bf16/fp16 matmul peak, TFLOP/s",
    "fp32_tflops": "fp32 peak (no tensor cores), TFLOP/s",
    "launch_us": "cost of one kernel launch or extern call, microseconds",
    "source": "where the numbers come from (datasheet, measurement, assumption)",
}
#: fields a profile may leave out: meaning and default
OPTIONAL_FIELDS: dict[str, tuple[str, float]] = {
    "channels_first_conv_traffic": (
        "how many times its bytes a bf16/fp16 convolution with a channels-first input moves "
        "(>= 1; cuDNN converts the operands to channels-last and the result back)",
        3.0,
    ),
    "index_divmod_g_per_s": (
        "integer divisions and remainders by a size known only at run time (a dynamic shape's "
        "index arithmetic in Triton kernels) the whole device computes, billions per second",
        # calibrated on one H200 kernel: docs/results.md, "Perf budgets against the GPU"
        340.0,
    ),
}


def _is_number(value: Any) -> bool:
    """A finite int or float (not a bool): what every numeric profile field must be."""
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


@dataclasses.dataclass(frozen=True)
class Profile:
    """A device as the budget estimate sees it (fields: see ``FIELDS``).

    Every field is required; a missing or non-positive one is a ``ValueError`` naming it.
    """

    name: str | None = None
    bandwidth_tb_s: float | None = None
    matmul_tflops: float | None = None
    fp32_tflops: float | None = None
    launch_us: float | None = None
    source: str | None = None
    channels_first_conv_traffic: float = OPTIONAL_FIELDS["channels_first_conv_traffic"][1]
    index_divmod_g_per_s: float = OPTIONAL_FIELDS["index_divmod_g_per_s"][1]

    def __post_init__(self) -> None:
        label = f"Profile {self.name!r}" if isinstance(self.name, str) else "Profile"
        for field, meaning in FIELDS.items():
            value = getattr(self, field)
            if value is None:
                given = [f for f in FIELDS if getattr(self, f) is not None]
                raise ValueError(
                    f"{label} is missing {field} ({meaning}); a profile needs all of "
                    f"{', '.join(FIELDS)} (given: {', '.join(given) or 'none'})"
                )
            if field in ("name", "source"):
                if not isinstance(value, str) or not value.strip():
                    raise ValueError(f"{label}: {field}={value!r}, expected a non-empty str")
                continue
            if not _is_number(value) or value < 0 or (value == 0 and field != "launch_us"):
                raise ValueError(
                    f"{label}: {field}={value!r}, expected a positive number ({meaning})"
                )
        traffic = self.channels_first_conv_traffic
        if not _is_number(traffic) or traffic < 1:
            raise ValueError(
                f"{label}: channels_first_conv_traffic={traffic!r}, expected a number >= 1 "
                f"({OPTIONAL_FIELDS['channels_first_conv_traffic'][0]})"
            )
        rate = self.index_divmod_g_per_s
        if not _is_number(rate) or rate <= 0:
            raise ValueError(
                f"{label}: index_divmod_g_per_s={rate!r}, expected a positive number "
                f"({OPTIONAL_FIELDS['index_divmod_g_per_s'][0]})"
            )

    # units the estimate computes in
    @property
    def bytes_per_s(self) -> float:
        return float(self.bandwidth_tb_s or 0) * 1e12

    @property
    def matmul_flop_per_s(self) -> float:
        return float(self.matmul_tflops or 0) * 1e12

    @property
    def fp32_flop_per_s(self) -> float:
        return float(self.fp32_tflops or 0) * 1e12

    @property
    def index_divmod_per_s(self) -> float:
        return float(self.index_divmod_g_per_s) * 1e9

    @property
    def launch_s(self) -> float:
        return float(self.launch_us or 0) * 1e-6

    def to_dict(self) -> dict[str, Any]:
        return {field: getattr(self, field) for field in (*FIELDS, *OPTIONAL_FIELDS)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        """A profile from a mapping of its fields; an unknown key is a ``ValueError``."""
        unknown = sorted(set(data) - set(FIELDS) - set(OPTIONAL_FIELDS))
        if unknown:
            raise ValueError(
                f"profile fields {unknown!r} are unknown; a profile has {', '.join(FIELDS)} "
                f"and optionally {', '.join(OPTIONAL_FIELDS)}"
            )
        return cls(**dict(data))


_LAUNCH_NOTE = (
    "index divisions by run-time sizes at 340 G/s calibrated on one H200 kernel (the "
    "upsample of VAEDecoderLike with dynamic H/W: 0.497 ms measured); "
    "launch cost 3 us per launch is an assumption (a kernel launched by Inductor's wrapper, not "
    "a CUDA graph); a channels-first bf16/fp16 convolution moving 3x its bytes is an assumption "
    "(cuDNN's tensor-core kernels run channels-last: it converts input and weight and converts "
    "the output back, each read and written once more)"
)

PROFILES: dict[str, Profile] = {
    "h100": Profile(
        name="h100",
        bandwidth_tb_s=3.35,
        matmul_tflops=989.0,
        fp32_tflops=67.0,
        launch_us=3.0,
        source=(
            "NVIDIA H100 SXM datasheet: HBM3 3.35 TB/s, 989 TFLOP/s dense bf16/fp16, 67 TFLOP/s "
            "fp32; datasheet peaks, not achieved rates (not measured by this project); "
            + _LAUNCH_NOTE
        ),
    ),
    "h200": Profile(
        name="h200",
        bandwidth_tb_s=4.3,
        matmul_tflops=790.0,
        fp32_tflops=50.8,
        launch_us=3.0,
        source=(
            "measured on an H200 by measure_profile (torch 2.11): device-to-device copy 4.24-4.3 "
            "TB/s (datasheet HBM3e 4.8 TB/s), 8192^3 bf16 matmul 769-798 TFLOP/s (790 taken), "
            "fp32 matmul with TF32 off 50.8 TFLOP/s; back-to-back empty Triton launches from "
            "Python measured 14.4 us, which moves every suite pair's estimate further from its "
            "measured ratio (docs/results.md, 'Perf budgets against the GPU'), so 3 us is kept; "
            + _LAUNCH_NOTE
        ),
    ),
}


def get_profile(profile: str | Profile | Mapping[str, Any]) -> Profile:
    """``"h200"`` / ``"h100"``, a :class:`Profile`, or a mapping of its fields -> ``Profile``.

    An unknown name is a ``ValueError`` naming it and the known ones."""
    if isinstance(profile, Profile):
        return profile
    if isinstance(profile, str):
        try:
            return PROFILES[profile.lower()]
        except KeyError:
            raise ValueError(
                f"unknown device profile {profile!r}; known profiles: "
                f"{', '.join(sorted(PROFILES))}, or give Profile(name=..., bandwidth_tb_s=..., "
                f"matmul_tflops=..., fp32_tflops=..., launch_us=..., source=...)"
            ) from None
    if isinstance(profile, Mapping):
        return Profile.from_dict(profile)
    raise TypeError(
        f"profile={profile!r}: expected a profile name ({', '.join(sorted(PROFILES))}), a "
        f"pytest_magi.budget.Profile or a dict of its fields"
    )


# --------------------------------------------------------------------------- measuring
def _median_seconds(run: Callable[[], object], repeat: int, inner: int) -> float:
    """Median over ``repeat`` rounds of ``inner`` calls of ``run``, per call, timed with CUDA
    events (GPU time), after a warm-up round."""
    import torch

    run()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(inner):
            run()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1e3 / inner)
    return statistics.median(times)


def _launch_seconds(device: Any, launches: int) -> float:
    """Wall time per launch of an (almost) empty kernel, launched back to back and synchronised
    once: what a launch costs the host and the queue when the kernels themselves take no time."""
    import time

    import torch

    x = torch.zeros(1, device=device)
    try:
        import triton

        # no names from this scope in the body: Triton resolves them in the module's globals
        @triton.jit
        def _empty(ptr):
            pass

        def launch() -> None:
            _empty[(1,)](x)

    except ImportError:  # no Triton: an aten kernel on one element instead

        def launch() -> None:
            x.add_(0)

    for _ in range(100):
        launch()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(launches):
            launch()
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - start) / launches)
    return statistics.median(rounds)


DIVMODS_PER_ELEMENT = 8  # the index divisions and remainders of `split_indices`' kernel
# sizes of a video activation's dimensions (W, H, T, C/32): each index is int64, so each division
# is the int64 routine a dynamic kernel's `xindex // ks0` compiles to
DIVMOD_SIZES = (120, 68, 7, 4)


@functools.cache
def _split_kernel() -> Any:
    """The Triton kernel of `split_indices`, made once (a new `triton.jit` function would look
    its compiled code up again at every launch)."""
    import triton
    import triton.language as tl

    # the kernel's body resolves `tl` in this module's globals (Triton reads them, not locals)
    globals().setdefault("tl", tl)

    @triton.jit
    def _split(out_ptr, n, d0, d1, d2, d3, BLOCK: tl.constexpr):
        i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        a = i % d0
        b = (i // d0) % d1
        c = (i // (d0 * d1)) % d2
        e = (i // (d0 * d1 * d2)) % d3
        f = i // (d0 * d1 * d2 * d3)
        tl.store(out_ptr + i, (a + b + c + e + f).to(tl.int32), mask=i < n)

    return _split


def split_indices(out: Any, sizes: tuple[int, int, int, int] = DIVMOD_SIZES) -> None:
    """Write into each element of the int32 tensor ``out`` the sum of the five coordinates its
    index splits into over ``sizes`` (innermost first): the index arithmetic of a dynamic
    shape's Triton kernel, 8 divisions and remainders by run-time values an element."""
    block = 1024
    grid = ((out.numel() + block - 1) // block,)
    _split_kernel()[grid](out, out.numel(), *sizes, BLOCK=block)


def _index_divmod_rate(device: Any, elements: int = 1 << 26) -> float:
    """Index divisions and remainders by run-time sizes per second (`split_indices` over
    ``elements`` indices, 4 bytes stored an element, so the arithmetic outlasts the traffic)."""
    import torch

    out = torch.empty(elements, dtype=torch.int32, device=device)
    seconds = _median_seconds(lambda: split_indices(out), repeat=10, inner=5)
    return DIVMODS_PER_ELEMENT * elements / seconds


def _copy_bandwidth(device: Any, gib: float) -> float:
    """Bytes per second of a device-to-device copy of ``gib`` GiB (read plus written)."""
    import torch

    src = torch.empty(int(gib * 2**30) // 4, dtype=torch.float32, device=device)
    dst = torch.empty_like(src)
    seconds = _median_seconds(lambda: dst.copy_(src), repeat=10, inner=5)
    return 2 * src.numel() * src.element_size() / seconds


def _matmul_seconds(device: Any, n: int, dtype: str, repeat: int) -> float:
    """Seconds per ``n``-cubed matmul in ``dtype``."""
    import torch

    a = torch.randn(n, n, device=device, dtype=getattr(torch, dtype))
    b = torch.randn(n, n, device=device, dtype=getattr(torch, dtype))
    return _median_seconds(lambda: torch.mm(a, b), repeat=repeat, inner=3)


def measure_profile(
    device: str = "cuda", *, name: str | None = None, copy_gib: float = 1.0, matmul_n: int = 8192
) -> Profile:
    """Measure a :class:`Profile` on a real CUDA GPU: achieved bandwidth by a large
    device-to-device copy (``copy_gib`` GiB read and written), the bf16 matmul peak and the
    fp32 peak (TF32 off) by ``matmul_n``-cubed matmuls, the launch cost by a loop of empty
    kernels, and the rate of a dynamic shape's index divisions by a Triton kernel of them. Takes a few seconds. Without a CUDA GPU it raises ``RuntimeError`` saying so."""
    import torch

    if not isinstance(device, str) or not (device == "cuda" or device.startswith("cuda:")):
        raise ValueError(f"measure_profile(device={device!r}): expected 'cuda' or 'cuda:N'")
    if not torch.cuda.is_available():
        raise RuntimeError(
            f"measure_profile(device={device!r}) measures a real CUDA GPU, and there is none "
            f"here (torch.cuda.is_available() is False; torch {torch.__version__}). On this "
            f"machine use a named profile ({', '.join(sorted(PROFILES))}) or Profile(...); run "
            f"measure_profile() on the GPU machine and keep its Profile as data"
        )
    dev = torch.device(device)
    with torch.cuda.device(dev):
        bandwidth = _copy_bandwidth(dev, copy_gib)
        mm_s = _matmul_seconds(dev, matmul_n, "bfloat16", repeat=10)
        previous = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = False
        try:
            fp32_s = _matmul_seconds(dev, matmul_n, "float32", repeat=5)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = previous
        launch_s = _launch_seconds(dev, launches=2000)
        divmod_rate = _index_divmod_rate(dev)
        gpu = torch.cuda.get_device_name(dev)
    flops = 2 * matmul_n**3
    return Profile(
        name=name or gpu.lower().replace(" ", "-"),
        bandwidth_tb_s=round(bandwidth / 1e12, 3),
        matmul_tflops=round(flops / mm_s / 1e12, 1),
        fp32_tflops=round(flops / fp32_s / 1e12, 1),
        launch_us=round(launch_s * 1e6, 2),
        index_divmod_g_per_s=round(divmod_rate / 1e9, 1),
        source=(
            f"measured by pytest_magi.budget.measure_profile on {gpu}, torch {torch.__version__}: "
            f"{copy_gib:g} GiB device copy, {matmul_n}^3 bf16 and fp32 (TF32 off) matmuls "
            f"(medians of CUDA-event timings), back-to-back empty-kernel launches, a Triton "
            f"kernel of int64 index divisions and remainders"
        ),
    )
