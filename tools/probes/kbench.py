"""Every Triton kernel Inductor compiled into a cache folder, timed alone with its own example
arguments, slowest first, with Inductor's byte count and the share of HBM bandwidth (GPU probe,
session 9: docs/benchmarks.md). Compile with `TORCHINDUCTOR_BENCHMARK_KERNEL=1
TORCHINDUCTOR_CACHE_DIR=DIR` first, then `python tools/probes/kbench.py DIR [HBM_GBPS]`."""

import glob
import importlib.util
import re
import sys

import triton


def main(folder: str, hbm_gbps: float) -> None:
    rows = []
    for i, path in enumerate(glob.glob(folder + "/**/*.py", recursive=True)):
        src = open(path).read()
        if "def get_args" not in src or "@triton.jit" not in src:
            continue
        spec = importlib.util.spec_from_file_location(f"kernel_{i}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            args = module.get_args()
            module.call(args)
            ms = triton.testing.do_bench(lambda m=module, a=args: m.call(a), rep=50)
        except Exception as exc:  # a wrapper module, not a kernel
            print("skip", path, type(exc).__name__, exc)
            continue
        name = re.search(r"def (triton_\w+)\(", src).group(1)
        found = re.search(r"'kernel_num_gb': ([0-9.e-]+)", src)
        gb = float(found.group(1)) if found else float("nan")
        tiles = re.search(r"size_hints=(\{[^}]*\})", src).group(1)
        rows.append((ms, name, gb, tiles))
    for ms, name, gb, tiles in sorted(rows, reverse=True):
        gbps = gb / ms * 1e3
        print(
            f"{ms * 1e3:9.1f} us {gb * 1e3:8.2f} MB {gbps:8.1f} GB/s {gbps / hbm_gbps:6.1%}  "
            f"{tiles:40s} {name}"
        )


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 4800.0)
