"""One GPU per xdist worker for `--magi-perf -n N`: counting, planning, claiming and pinning.

Usable without pytest. The plugin uses it in three places:

- The controller counts the host's GPUs (`host_gpu_count`), turns the count and the user's
  `CUDA_VISIBLE_DEVICES` into a `GpuPlan` (`plan_gpus`: worker slot i gets the i-th visible GPU)
  or refuses, and claims the planned GPUs for the run (`GpuBinding.claim`: a `flock` per GPU, so
  a second `--magi-perf -n N` run on the same host cannot time on the same GPUs).
- The controller tells the workers it is about to start their GPUs in its own environment, which
  they inherit (`SLOTS_VAR`: worker `gwK` takes slot K), and again in each worker's `workerinput`
  as xdist starts it (`GpuBinding.assign`, from xdist's `pytest_configure_node`; a worker replacing
  a crashed one gets the GPU the crashed one had).
- Each worker pins itself: `CUDA_VISIBLE_DEVICES=<its GPU>` in its environment, from the
  inherited slots in `pytest_load_initial_conftests` (before any `conftest.py` is imported: the
  repository's own root conftest imports Inductor, which initialises the CUDA driver), else from
  `workerinput` in `pytest_configure`. It checks first with `cuda_initialized`, because CUDA
  reads that variable once, when the process initialises the driver, and ignores it afterwards.

How the GPUs are counted: NVML (`libnvidia-ml.so.1`, the driver's management library, through
ctypes: `nvmlInit_v2`, `nvmlDeviceGetCount_v2`, `nvmlShutdown`). NVML neither calls `cuInit` nor
creates a CUDA context, and needs no torch (the controller of an xdist run never imports torch,
which costs seconds). `torch.cuda.device_count()` asks NVML first too in torch 2.x, but falls back
to `cudaGetDeviceCount` (which initialises the driver) when NVML fails. NVML numbers GPUs in PCI
bus order, as `nvidia-smi` does; a pinned worker gets `CUDA_DEVICE_ORDER=PCI_BUS_ID` (unless the
user chose an order or the GPUs) so its ordinal means the GPU `nvidia-smi` shows under it.
No NVML (no NVIDIA driver) counts as 0 GPUs.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

VISIBLE_VAR = "CUDA_VISIBLE_DEVICES"
ORDER_VAR = "CUDA_DEVICE_ORDER"
# the key of xdist's workerinput under which a worker receives its GPU
WORKERINPUT_KEY = "magi_gpu"
# the controller's environment variable (inherited by the workers it starts) holding the slots
SLOTS_VAR = "PYTEST_MAGI_GPU_SLOTS"
ONE_PROCESS_FIX = (
    "Time in one process: pytest --magi-perf -n 0 (or -n 1); keep -n for runs without --magi-perf"
)
CUDA_ERROR_NOT_INITIALIZED = 3


class GpuBindingError(ValueError):
    """GPUs cannot be given one to each perf worker; the message says why and the way out."""


# --------------------------------------------------------------------------- counting
def _nvml() -> Any:
    names = ("nvml.dll",) if sys.platform == "win32" else ("libnvidia-ml.so.1", "libnvidia-ml.so")
    for name in names:
        with contextlib.suppress(OSError):
            return ctypes.CDLL(name)
    return None


def host_gpu_count() -> int:
    """The NVIDIA GPUs of this host (NVML; `CUDA_VISIBLE_DEVICES` not applied); 0 without a
    driver. Initialises no CUDA and imports no torch (see the module docstring)."""
    nvml = _nvml()
    if nvml is None or nvml.nvmlInit_v2() != 0:
        return 0
    try:
        count = ctypes.c_uint(0)
        if nvml.nvmlDeviceGetCount_v2(ctypes.byref(count)) != 0:
            return 0
        return int(count.value)
    finally:
        nvml.nvmlShutdown()


def _ordinal(entry: str) -> int | None:
    return int(entry) if re.fullmatch(r"-?\d+", entry) else None


def visible_gpus(env: Mapping[str, str], host_count: int) -> list[str]:
    """The GPUs a process started with `env` would see, as `CUDA_VISIBLE_DEVICES` entries.

    Unset: every GPU of the host ("0".."n-1"). Set: its entries in order, cut where CUDA stops
    reading (an empty entry or an ordinal the host does not have); UUID and MIG entries are kept
    as given (no NVML lookup). Ordinals are normalised ("01" -> "1").
    """
    value = env.get(VISIBLE_VAR)
    if value is None:
        return [str(i) for i in range(host_count)]
    visible: list[str] = []
    for raw in value.split(",") if value.strip() else []:
        entry = raw.strip()
        number = _ordinal(entry)
        if not entry or (number is not None and not 0 <= number < host_count):
            break
        visible.append(entry if number is None else str(number))
    return visible


def host_index(entry: str) -> int | None:
    """The host ordinal a `CUDA_VISIBLE_DEVICES` entry names; None for a UUID or MIG entry."""
    return _ordinal(entry.strip())


# --------------------------------------------------------------------------- planning
@dataclass(frozen=True)
class GpuPlan:
    """The GPUs of a `--magi-perf -n N` run: worker slot i owns `gpus[i]`."""

    gpus: tuple[str, ...]  # CUDA_VISIBLE_DEVICES entries, one per worker slot
    visible: tuple[str, ...]  # every GPU the run could have used
    user_visible: str | None  # the user's CUDA_VISIBLE_DEVICES, None when unset
    user_order: bool  # whether the user set CUDA_DEVICE_ORDER

    def describe(self) -> str:
        return ", ".join(self.gpus)


def _visible_note(value: str | None) -> str:
    return "" if value is None else f" visible (CUDA_VISIBLE_DEVICES={value!r})"


def plan_gpus(workers: int, *, env: Mapping[str, str], host_count: int) -> GpuPlan:
    """One GPU for each of `workers` perf workers, or `GpuBindingError` saying why not.

    Refused: more workers than visible GPUs (one GPU shared by two workers makes speedups
    noise), and a `CUDA_VISIBLE_DEVICES` that names a GPU twice (two entries that cannot be told
    apart would put two workers on one GPU).
    """
    user_visible = env.get(VISIBLE_VAR)
    visible = visible_gpus(env, host_count)
    seen: dict[str, int] = {}
    for entry in visible:
        seen[entry] = seen.get(entry, 0) + 1
    twice = [entry for entry, n in seen.items() if n > 1]
    if twice:
        distinct = list(seen)
        raise GpuBindingError(
            f"--magi-perf -n {workers}: CUDA_VISIBLE_DEVICES={user_visible!r} names GPU "
            f"{twice[0]} {seen[twice[0]]} times, so its {len(visible)} entries are only "
            f"{len(distinct)} GPUs that can be told apart, and two perf workers would time on "
            f"one GPU. List each GPU once, e.g. CUDA_VISIBLE_DEVICES={','.join(distinct)} "
            f"pytest --magi-perf -n {min(workers, len(distinct))}"
        )
    if workers > len(visible):
        have = len(visible)
        head = (
            f"--magi-perf -n {workers} needs {workers} GPUs; this host has {have}"
            f"{_visible_note(user_visible)}. Under --magi-perf each xdist worker owns one GPU"
        )
        if have >= 2:
            fix = f"; use -n {have} or fewer (-n auto starts one worker per GPU)"
        elif have == 1:
            fix = (
                ", and workers sharing one GPU disturb each other's timings with their compiles "
                f"and runs, so speedups would be noise. {ONE_PROCESS_FIX}"
            )
        else:
            fix = f". {ONE_PROCESS_FIX}"
        raise GpuBindingError(head + fix)
    return GpuPlan(
        gpus=tuple(visible[:workers]),
        visible=tuple(visible),
        user_visible=user_visible,
        user_order=ORDER_VAR in env,
    )


def auto_workers(env: Mapping[str, str], host_count: int) -> int:
    """`-n auto` under `--magi-perf`: one worker per visible GPU, 1 with fewer than two GPUs."""
    return max(1, len(set(visible_gpus(env, host_count))))


# --------------------------------------------------------------------------- claiming
def _safe(entry: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", entry)


def _try_flock(handle: IO[str]) -> bool:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock (Windows): claims are not enforced
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@dataclass
class GpuBinding:
    """The controller's side of a plan: the run's claims on its GPUs and which live xdist worker
    owns which GPU (`assigned` keeps every worker ever bound, for the report)."""

    plan: GpuPlan
    folder: Path  # claim files and the per-GPU timing locks live here
    owners: dict[str, str] = field(default_factory=dict)
    assigned: dict[str, str] = field(default_factory=dict)
    _claims: list[IO[str]] = field(default_factory=list, repr=False)

    def claim_path(self, gpu: str) -> Path:
        return self.folder / f"gpu-{_safe(gpu)}.owner"

    def perf_lock_path(self, gpu: str) -> Path:
        """The `PerfLock` file of the worker on `gpu` (workers on other GPUs time meanwhile)."""
        return self.folder / f"perf-gpu-{_safe(gpu)}.lock"

    def claim(self) -> None:
        """Own the plan's GPUs for this run (released by `close`, or when the process ends).

        Raises `GpuBindingError` when another run (its controller's pid is in the file) owns one.
        """
        taken: dict[str, str] = {}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handles = [open(self.claim_path(gpu), "a+", encoding="utf-8") for gpu in self.plan.gpus]
        except OSError as exc:
            raise GpuBindingError(
                f"--magi-perf -n {len(self.plan.gpus)}: cannot write the GPU claims of this run "
                f"in {str(self.folder)!r} ({exc}); point TMPDIR at a writable folder"
            ) from None
        for gpu, handle in zip(self.plan.gpus, handles, strict=True):
            if _try_flock(handle):
                handle.seek(0)
                handle.truncate()
                handle.write(f"{os.getpid()}\n")
                handle.flush()
                self._claims.append(handle)
            else:
                handle.seek(0)
                taken[gpu] = handle.read().strip() or "?"
                handle.close()
        if taken:
            self.close()
            raise GpuBindingError(self._taken_message(taken))

    def _taken_message(self, taken: dict[str, str]) -> str:
        workers = len(self.plan.gpus)
        owned = ", ".join(f"GPU {gpu} (pid {pid})" for gpu, pid in taken.items())
        verb = "is" if len(taken) == 1 else "are"
        free = [gpu for gpu in self.plan.visible if gpu not in taken and self._is_free(gpu)]
        if len(free) >= workers:
            fix = (
                f"give this run other GPUs: CUDA_VISIBLE_DEVICES={','.join(free[:workers])} "
                f"pytest --magi-perf -n {workers}"
            )
        elif len(free) >= 2:
            fix = (
                f"use the free ones: CUDA_VISIBLE_DEVICES={','.join(free)} "
                f"pytest --magi-perf -n {len(free)}"
            )
        elif free:
            fix = (
                f"time in one process on the free one: CUDA_VISIBLE_DEVICES={free[0]} "
                f"pytest --magi-perf -n 0"
            )
        else:
            fix = "time in one process once it is done: pytest --magi-perf -n 0"
        return (
            f"--magi-perf -n {workers}: {owned} {verb} already owned by the perf workers of another "
            f"pytest run; two runs timing on one GPU disturb each other's timings. Wait for that "
            f"run to end, or {fix}"
        )

    def _is_free(self, gpu: str) -> bool:
        if gpu in self.plan.gpus:
            return True  # not taken: this run got it (and released it on refusing)
        with open(self.claim_path(gpu), "a+", encoding="utf-8") as handle:
            return _try_flock(handle)  # closing the file releases the probe's lock

    def _assignment(self, gpu: str) -> dict[str, str]:
        order = self.plan.user_order or self.plan.user_visible is not None
        return {
            "gpu": gpu,
            "set_order": "" if order else "PCI_BUS_ID",
            "perf_lock": str(self.perf_lock_path(gpu)),
        }

    def slots_variable(self) -> str:
        """`SLOTS_VAR`'s value: slot K's assignment for worker `gwK`, and the controller's pid
        (a worker takes a slot only from its parent, never from a stale variable)."""
        slots = [self._assignment(gpu) for gpu in self.plan.gpus]
        return json.dumps({"controller": os.getpid(), "slots": slots})

    def assign(self, worker_id: str) -> dict[str, str]:
        """The GPU of a starting worker, as its workerinput entry: `gwN` gets slot N, a worker
        replacing a crashed one the slot that is free. `GpuBindingError` when none is free."""
        free = [gpu for gpu in self.plan.gpus if gpu not in self.owners.values()]
        match = re.fullmatch(r"gw(\d+)", worker_id)
        slot = int(match.group(1)) if match else -1
        preferred = self.plan.gpus[slot] if 0 <= slot < len(self.plan.gpus) else None
        gpu = preferred if preferred in free else (free[0] if free else None)
        if gpu is None:
            live = ", ".join(f"{w} on GPU {g}" for w, g in sorted(self.owners.items()))
            raise GpuBindingError(
                f"--magi-perf: xdist worker {worker_id} needs a GPU of its own, but each of the "
                f"{len(self.plan.gpus)} GPUs of this run is already owned by another worker "
                f"({live}); run with -n {len(self.plan.gpus)} or fewer"
            )
        self.owners[worker_id] = gpu
        self.assigned[worker_id] = gpu
        return self._assignment(gpu)

    def release(self, worker_id: str) -> None:
        """A worker went down: its GPU is free for the worker that replaces it."""
        self.owners.pop(worker_id, None)

    def close(self) -> None:
        for handle in self._claims:
            handle.close()  # closing releases the flock
        self._claims.clear()


# --------------------------------------------------------------------------- pinning
def inherited_assignment(env: Mapping[str, str]) -> dict[str, str] | None:
    """In an xdist worker `gwK` started by a `--magi-perf -n N` controller: slot K of the
    controller's `SLOTS_VAR`; None elsewhere (and for a worker replacing a crashed one, whose K
    is past the slots: it pins from `workerinput`)."""
    worker, raw = env.get("PYTEST_XDIST_WORKER", ""), env.get(SLOTS_VAR)
    match = re.fullmatch(r"gw(\d+)", worker)
    if raw is None or match is None:
        return None
    try:
        data = json.loads(raw)
        if data["controller"] != os.getppid():
            return None
        slot = data["slots"][int(match.group(1))]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return {str(k): str(v) for k, v in slot.items()}


def _libcuda_mapped() -> bool | None:
    """Whether the CUDA driver library is loaded in this process; None where it cannot be told."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return any("libcuda.so" in line for line in maps)
    except OSError:
        return None


def _driver_initialized() -> bool:
    mapped = _libcuda_mapped()
    if mapped is False:
        return False  # cuInit lives in libcuda: not loaded, not called
    try:
        libcuda = ctypes.CDLL("nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    # before cuInit every driver call answers CUDA_ERROR_NOT_INITIALIZED, and initialises nothing
    return bool(libcuda.cuDeviceGetCount(ctypes.byref(count)) != CUDA_ERROR_NOT_INITIALIZED)


def cuda_initialized() -> bool:
    """Whether this process initialised CUDA already, after which `CUDA_VISIBLE_DEVICES` is
    ignored: torch's context exists, or the driver was initialised without one (e.g.
    `torch.cuda.is_available()`, which calls `cudaGetDeviceCount`)."""
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None)
    if cuda is not None and cuda.is_initialized():
        return True
    return _driver_initialized()


def pin_environment(assignment: Mapping[str, str], env: Mapping[str, str]) -> dict[str, str]:
    """The variables that pin a worker to its assigned GPU (`GpuBinding.assign`), given its
    current environment: `CUDA_VISIBLE_DEVICES`, the device order where ours counted the GPUs,
    and a `PerfLock` file of its GPU unless the user chose one (`MAGI_PERF_LOCK`)."""
    from .perf_lock import LOCK_ENV

    pinned = {VISIBLE_VAR: assignment["gpu"]}
    if assignment.get("set_order"):
        pinned[ORDER_VAR] = assignment["set_order"]
    if not env.get(LOCK_ENV) and assignment.get("perf_lock"):
        pinned[LOCK_ENV] = assignment["perf_lock"]
    return pinned


def initialized_message(worker_id: str, gpu: str) -> str:
    return (
        f"--magi-perf worker {worker_id}: CUDA was initialised in this process before "
        f"pytest-magi could pin the worker to GPU {gpu} (CUDA reads CUDA_VISIBLE_DEVICES once, "
        f"when it initialises), so this worker would time on a GPU it may share with another "
        f"worker; its tests are not run. Something initialised CUDA while pytest started, before "
        f"the conftest.py files were imported: a pytest plugin (or -p module) calling "
        f"torch.cuda.is_available(), torch.cuda.init() or making a CUDA tensor at import (in a "
        f"worker replacing a crashed one, which pins after its conftests: a conftest.py too). "
        f"Move that into a fixture or a test, or time in one process: pytest --magi-perf -n 0"
    )


# --------------------------------------------------------------------------- records
def timed_gpu(device: str | None, name: str | None) -> tuple[int | None, str | None]:
    """(host GPU index, GPU name) of a pair timed on `device` ('cuda', 'cuda:1', 'cpu'); the
    name is the timing's device string. (None, None) off CUDA; the index is None where
    `CUDA_VISIBLE_DEVICES` names the GPU by UUID."""
    if device is None or not str(device).startswith("cuda"):
        return None, None
    _, _, suffix = str(device).partition(":")
    visible = os.environ.get(VISIBLE_VAR)
    entries = [e.strip() for e in visible.split(",")] if visible is not None else None
    if suffix:
        local = int(suffix)
    elif entries is not None and len(entries) == 1:
        local = 0  # a pinned worker sees one GPU: no need to ask CUDA
    else:
        import torch

        local = torch.cuda.current_device()
    if entries is None:
        return local, name
    return (host_index(entries[local]) if local < len(entries) else None), name
