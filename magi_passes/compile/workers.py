"""Inductor's Triton compile workers, started before dynamo traces where CUDA is in use, and
`BackgroundWorker`: a process of its own that compiles measured graphs' plain variants
(`PassConfig.compile_plain_in_background`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch

from ..config import ENV_PREFIX


def warm_compile_workers(inductor_patches: Mapping[str, Any] | None = None) -> bool:
    """Start Inductor's Triton compile workers now, where CUDA is in use; True if asked.

    torch's own registered ``"inductor"`` backend starts them when dynamo looks it up, but
    ``torch.compile(model)`` with its default backend, and a backend that calls ``compile_fx``
    itself, start them only when Inductor is entered, after dynamo has traced. Until the workers
    answer, Inductor compiles each Triton kernel in the process, one after another, while the
    generated module loads: a short compile reaches its kernels first, and its module load
    takes seconds longer on the side whose workers came up late.
    A `MagiBackend` starts them when it is made, so `magi_compile` has them up while dynamo
    traces (or, where CUDA was not in use yet then, at its first graph), and so does
    `inductor_options()` for ``backend="inductor"``. Nothing is started where this process has
    not initialised CUDA (the model not on a GPU yet: CUDA reads ``CUDA_VISIBLE_DEVICES`` once,
    when it initialises, and pytest-magi pins each xdist worker to its GPU so, so this never
    initialises it), with ``compile_threads`` 1 (in Inductor's config or in ``inductor_patches``,
    the backend's options), or with ``TORCH_WARM_POOL=0``, torch's own switch; the pool is
    torch's, one per process, and outlives the backend as it does there.

    Measured: docs/results.md, "Cold compile".
    """
    threads = (inductor_patches or {}).get("compile_threads")
    if isinstance(threads, int) and threads <= 1:
        return False
    if not _cuda_in_use():
        return False
    from torch._inductor.async_compile import maybe_warm_pool

    maybe_warm_pool()  # honours TORCH_WARM_POOL and Inductor's compile_threads
    return True


def _cuda_in_use() -> bool:
    """Whether this process has initialised CUDA; asks nothing that would initialise it.

    Its own name so that a test can say "in use" to `warm_compile_workers` alone: saying it to
    ``torch.cuda.is_initialized`` would also make Inductor's lowering ask the driver for its device.
    """
    return torch.cuda.is_initialized()


# --------------------------------------------------------------------------- background compile
#: how long a `BackgroundCompile` waits for its variant unless told
BACKGROUND_WAIT_S = 1800.0
#: the backend waits for a background compile as long as the magi variant took to compile
#: here (what compiling the plain one here instead would cost), and at least this long
BACKGROUND_MIN_WAIT_S = 1.0
#: the variable that turns `PassConfig.compile_plain_in_background` on (`PassConfig.from_env`
#: reads the field's name in any case)
BACKGROUND_ENV = f"{ENV_PREFIX}COMPILE_PLAIN_IN_BACKGROUND"


class BackgroundWorker:
    """One Python process that compiles a backend's plain variants, one graph at a time, while
    the backend compiles their magi variants (`PassConfig.compile_plain_in_background`).

    `start()` launches it (``python -m magi_passes.compile.backend --serve``) so that its
    imports overlap dynamo's tracing; it says "ready" once they are done. `submit` sends it one
    graph at a time, also while it is still importing: the job waits in its input, so a model of
    one graph, whose graph comes before the imports are done, still has its two variants
    compiled at once. It shares this process's Inductor and Triton caches (their folders go with
    each job), so the variant's own compile here afterwards finds them warm: an FX graph cache
    hit where the two keys agree, Triton's compiled kernels at least. Nothing it does decides
    what runs: the backend compiles the variant itself either way. The process ends with this
    one (its input closes)."""

    def __init__(self) -> None:
        self.process: Any = None
        self.folder: Any = None
        self.is_ready = False

    def start(self) -> None:
        import os
        import subprocess
        import sys
        import tempfile
        from pathlib import Path

        if self.process is not None and self.process.poll() is None:
            return
        self.is_ready = False
        self.folder = Path(tempfile.mkdtemp(prefix="magi-background-"))
        with open(self.folder / "stderr", "w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "magi_passes.compile.backend", "--serve"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                # unbuffered bytes: `_line` selects on the pipe, which a buffer read ahead
                # would leave looking empty
                bufsize=0,
                # its own backend only compiles: it starts no process of its own
                env={k: v for k, v in os.environ.items() if not _turns_background_on(k)},
            )

    def submit(
        self,
        gm: torch.fx.GraphModule,
        inputs: Any,
        pass_config: Any,
        inductor_patches: Mapping[str, Any],
    ) -> BackgroundCompile:
        """Send ``gm`` for ``inputs`` with ``pass_config``: the graph (pickled, with the
        placeholder metadata dynamo gave it, which Inductor's cache key reads), each input's
        shape, strides, dtype, device and kind, the grad mode, the Inductor patches and the cache
        folders. A graph or an input that cannot be sent, or a process that ended as it
        started, gives a `BackgroundCompile` that says why, and nothing is sent."""
        import pickle

        try:
            job = _job(gm, inputs, pass_config, inductor_patches)
            data = pickle.dumps(job)
        except Exception as exc:  # an unpicklable target or patch, a non-tensor input
            return BackgroundCompile(None, f"not sent ({type(exc).__name__}: {exc})")
        self.start()
        self.ready()  # takes its "ready" if it came; one that has ended is stopped
        if self.process is None:
            return BackgroundCompile(None, "not sent (the background process ended as it started)")
        path = self.folder / f"job-{id(job)}.pkl"
        path.write_bytes(data)
        try:
            self.process.stdin.write(f"{path}\n".encode())
        except OSError as exc:  # the process is gone
            return BackgroundCompile(None, f"the background process is gone ({exc})")
        return BackgroundCompile(self, "", path)

    def ready(self, timeout: float = 0.0) -> bool:
        """Whether the process has done its imports and takes jobs, waiting up to ``timeout``
        seconds for it to say so (it must have been started)."""
        if not self.is_ready and self.process is not None:
            line = self._line(timeout)
            if line == "":  # it ended before it was ready
                self.stop()
            self.is_ready = line == "ready"
        return self.is_ready

    def reply(self, timeout: float) -> str:
        """The process's answer to the job in flight: "" when it compiled, else why not (within
        ``timeout`` seconds, which count its imports where it was sent the job before it was
        ready)."""
        import time

        deadline = time.monotonic() + timeout
        line = self._line(timeout)
        if line == "ready" and not self.is_ready:  # the job waited for the imports
            self.is_ready = True
            line = self._line(max(0.0, deadline - time.monotonic()))
        if line is None:
            state = "compiling" if self.is_ready else "starting"
            self.stop()
            return f"still {state} after {timeout:g} s"
        if not line:  # it died
            tail = (self.folder / "stderr").read_text(errors="replace").strip().splitlines()
            code = self.process.wait()
            self.stop()
            return f"exit {code}: {tail[-1] if tail else 'no message'}"
        return "" if line == "ok" else line

    def _line(self, timeout: float) -> str | None:
        """The process's next line on its answer channel, stripped ("" once it has ended), or
        None when it says nothing within ``timeout`` seconds."""
        import select

        out = self.process.stdout
        readable, _, _ = select.select([out], [], [], timeout)
        if not readable:
            return None
        line = out.readline()
        return line.decode(errors="replace").strip() if line else ""

    def stop(self) -> None:
        """End the process (a job in flight that is no longer needed) and remove its folder;
        `submit` starts another."""
        import shutil

        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None
        self.is_ready = False
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def _turns_background_on(var: str) -> bool:
    return var.startswith(ENV_PREFIX) and var.upper() == BACKGROUND_ENV


class BackgroundCompile:
    """One graph's plain variant sent to a `BackgroundWorker` (or why it was not)."""

    def __init__(self, worker: BackgroundWorker | None, error: str, path: Any = None) -> None:
        self.worker = worker
        self.error = error
        self.path = path

    def wait(self, timeout: float = BACKGROUND_WAIT_S) -> str:
        """Wait for the variant; "" when the process compiled it, else why not."""
        if self.worker is None:
            return self.error
        self.error = self.worker.reply(timeout)
        self._done()
        return self.error

    def cancel(self) -> None:
        """The variant is not needed after all: stop the process compiling it."""
        if self.worker is not None:
            self.worker.stop()
        self._done()

    def _done(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def _job(
    gm: torch.fx.GraphModule, inputs: Any, pass_config: Any, patches: Mapping[str, Any]
) -> dict[str, Any]:
    import os

    from torch._inductor.runtime.cache_dir_utils import cache_dir

    return {
        "gm": gm,
        "placeholders": [
            (
                getattr(node, "_dynamo_source", None),
                (node.meta.get("tensor_dict") or {}).get("_dynamo_static_input_type"),
            )
            for node in gm.graph.find_nodes(op="placeholder")
        ],
        "param_name_to_source": getattr(gm, "_param_name_to_source", None),
        "compile_id": gm.meta.get("dynamo_compile_id"),
        "inputs": [_input_spec(t) for t in inputs],
        "grad": torch.is_grad_enabled(),
        "pass_config": pass_config,
        "patches": dict(patches),
        "caches": {
            "TORCHINDUCTOR_CACHE_DIR": cache_dir(),
            **(
                {"TRITON_CACHE_DIR": os.environ["TRITON_CACHE_DIR"]}
                if "TRITON_CACHE_DIR" in os.environ
                else {}
            ),
        },
    }


def _input_spec(t: Any) -> tuple[Any, ...]:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"an input that is not a tensor ({type(t).__name__})")
    return (
        tuple(t.shape),
        tuple(t.stride()),
        t.storage_offset(),
        t.dtype,
        str(t.device),
        t.requires_grad,
        isinstance(t, torch.nn.Parameter),
        getattr(t, "_dynamo_static_input_type", None),
    )


def input_of(spec: tuple[Any, ...]) -> torch.Tensor:
    shape, stride, offset, dtype, device, requires_grad, parameter, _ = spec
    if offset:
        extent = offset + sum((s - 1) * st for s, st in zip(shape, stride, strict=True)) + 1
        t = torch.empty(extent, dtype=dtype, device=device).as_strided(shape, stride, offset)
    else:
        t = torch.empty_strided(shape, stride, dtype=dtype, device=device)
    return torch.nn.Parameter(t, requires_grad) if parameter else t.requires_grad_(requires_grad)
