#!/usr/bin/env bash
# Session 49's GPU runs, each on a one-H200 machine of its own (torch 2.11.0+cu130):
# run 1 (run1/, tree 9bef100): `LOGS=/tmp/s49 UPCAST_MODELS="cosmos-vae minimax-h3-vae"
#   NO_ROOM_TEST=1 bash docs/results/session48/next.sh setup zoocos suite upcast coldcos` in the
#   background, polled with tools/gpu_poll.sh; every step rc 0 but `suite` (15 passed, 1 failed:
#   the upcast pass's GPU test, whose contiguous inputs a fused attention kernel took on the GPU)
# run 2 (run2/, this script, `bash docs/results/session49/run2.sh` on the last 232 s of the
#   budget): the upcast GPU test with Cosmos-like channels-first inputs, then Cosmos's
#   never-slower test with `enable_upcast_matmul` added to its form (a working-tree change for
#   this run, not kept: magi_passes/forms.py as shipped leaves it off)
set -u
L=$OUT/s49x.log
python3 -m pip install -q --no-deps --no-build-isolation wheels/*.whl >"$L" 2>&1
python3 -m pip install -q --no-deps --no-build-isolation -e . >>"$L" 2>&1
python3 -c 'import torch;print(torch.__version__, torch.cuda.get_device_name())' >>"$L" 2>&1
python3 -m pytest -p no:cacheprovider -v -rA -m requires_cuda -n 0 tests/test_upcast_matmul.py 2>&1 | grep --line-buffered -v -E 'DEBUG|pow_by_natural' >>"$L"
echo "== zoocos upcast $(date +%T)" >>"$L"
python3 -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf -n 0 --magi-report "$OUT/r_zoocos_up.json" tests/test_zoo_gpu.py -k "test_video_vae_is_never_slower and cosmos" 2>&1 | grep --line-buffered -v -E 'DEBUG|pow_by_natural' >>"$L"
echo "== end $(date +%T)" >>"$L"
grep -E 'PASSED|FAILED|passed|failed|speedup|cosmos-vae-full|^E ' "$L" | cut -c1-400 | tail -30
