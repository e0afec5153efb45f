#!/usr/bin/env bash
# (Superseded by docs/results/session33/next.sh, which runs these steps with session 33's levers.)
# The GPU steps session 32 could not run (its device time ran out), for the next session, written
# for the 2-GPU kind: `bash docs/results/session32/next.sh STEP...` (background, as run.sh), logs
# in /tmp/s33, `bash tools/gpu_poll.sh /tmp/s33 540 s33_logs.tgz` to wait.
#   setup     wheels, this checkout, versions, each GPU
#   coldsym   the compile-time target's open cases, each side cold at the same time as the
#             other on the other GPU, then swapped (`cold_both`): HunyuanVideo (torch.compile
#             against the form), mochi (torch.compile against the form, decided plain: 1.316x
#             in session 32 beside an unrelated compile), Kandinsky-6 SR (the new form)
#   zootests  the never-slower tests of the models last run in session 22 or given a form in
#             sessions 31-32, one xdist worker per GPU (`-v`)
#   suite     the GPU suites after session 32's changes (recorded decisions before the blockers)
set -u
LOGS=/tmp/s33
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    coldsym)
        cold_both hunyuanvideo-vae torch.compile magi hv MAGI_PASSES__DECIDED_ON=H100,H200
        cold_both mochi-vae torch.compile magi mochi
        cold_both kandinsky6-sr-vae torch.compile magi k6 ;;
    zootests)
        step zootests python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
            -n 2 --dist loadgroup tests/test_zoo_gpu.py -k "video_vae_is_never_slower and (svd \
or easyanimate or vidtok or minimax or kvae or kandinsky6 or hunyuanvideo1.5 or mochi)" ;;
    suite) suite_step suite ;;
    esac
done
echo done >"$LOGS/ALL.done"
