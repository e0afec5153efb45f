#!/usr/bin/env bash
# The GPU steps for the session after 33 (session 33 had 63 s of device time: none ran), written
# for the 2-GPU kind: `bash docs/results/session33/next.sh STEP...` (background, as session 32's
# run.sh), logs in /tmp/s34, `bash tools/gpu_poll.sh /tmp/s34 540 s34_logs.tgz` to wait.
# In order of what the open targets need:
#   setup     wheels, this checkout, versions, each GPU
#   coldsym   the compile-time target's open cases, each side cold at the same time as the other
#             on the other GPU, then swapped (`cold_both`): HunyuanVideo torch.compile against
#             the form, and against the form with the chunked statistics (their chunk reduction
#             now one fixed config, session 33) and with pointwise autotuning off; mochi
#             torch.compile against the form (decided plain: 1.316x in session 32 beside an
#             unrelated compile; in fake CUDA on the CPU magi_compile generated it in 30.1 and
#             30.2 s against torch.compile's 35.8 and 34.6)
#   coldseq   the same compiles one after another, each alone on the machine (for a 1-GPU
#             kind, where `cold_both` cannot run: no contention at all, twice the wall time)
#   hvab      HunyuanVideo's runtime, the form against those two levers and torch.compile, one
#             process (rounds 5): a lever joins the form only if it is no slower
#   suite     the GPU suites after sessions 32-33's code (recorded decisions before the
#             blockers, the torch 2.13 retry, the chunk statistics' config)
#   zootests  the never-slower tests of the models last run in session 22 or given a form in
#             sessions 31-32, one xdist worker per GPU (`-v`); its report (r_zootests.json)
#             holds each graph's measured decision: the decoders without a form (svd,
#             easyanimate, vidtok, minimax-h3, ltx2-video, allegro) compile two variants and a
#             timing cold, so recording their decisions is how their cold compile gets to
#             torch.compile's (their last measurements are session 7's, on older passes)
set -u
LOGS=/tmp/s34
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
HV=hunyuanvideo-vae
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    coldsym)
        cold_both $HV torch.compile magi hv MAGI_PASSES__DECIDED_ON=H100,H200
        cold_both $HV torch.compile magi-form-gn-chunks hvc MAGI_PASSES__DECIDED_ON=H100,H200
        cold_both $HV torch.compile magi-form-no-pw-autotune hvp MAGI_PASSES__DECIDED_ON=H100,H200
        cold_both mochi-vae torch.compile magi mochi ;;
    coldseq)
        for v in torch.compile magi magi-form-gn-chunks magi-form-no-pw-autotune; do
            step "hv_${v}_seq" cold_model $HV "hv_${v}_seq" "$v" MAGI_PASSES__DECIDED_ON=H100,H200
        done
        for v in torch.compile magi; do
            step "mochi_${v}_seq" cold_model mochi-vae "mochi_${v}_seq" "$v"
        done ;;
    hvab)
        step hvab env MAGI_PASSES__DECIDED_ON=H100,H200 python benchmarks/zoo.py --models $HV \
            --baseline magi --variants magi,magi-form-gn-chunks,magi-form-no-pw-autotune,torch.compile \
            --rounds 5 --hbm-gbps $HBM --json "$LOGS/hvab.json" ;;
    suite) suite_step suite ;;
    zootests)
        step zootests python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
            -n 2 --dist loadgroup --magi-report "$LOGS/r_zootests.json" tests/test_zoo_gpu.py \
            -k "video_vae_is_never_slower and (svd or easyanimate or vidtok or minimax or kvae \
or kandinsky6 or hunyuanvideo1.5 or mochi or ltx2 or allegro)" ;;
    esac
done
echo done >"$LOGS/ALL.done"
