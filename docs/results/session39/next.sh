#!/usr/bin/env bash
# Session 39's GPU steps (issue 18: compile <= torch.compile's on every zoo model), for the
# one-GPU kind. `bash docs/results/session39/next.sh STEP...` in the background (setsid), logs in
# /tmp/s39, `bash tools/gpu_poll.sh /tmp/s39 540 s39_logs.tgz` to wait. Each cold compile runs
# alone in a process of its own with empty caches; `cold_abba` alternates the sides (torch.compile,
# magi, magi, torch.compile) so that a host slowing during the run (session 38's did, 2x) moves
# both sides alike.
#   setup     wheels, this checkout, versions, the GPU
#   ltx2      LTX-2's decoder in its session 38 form (weights in place, norm inputs pinned, root
#             frame), never compiled cold beside torch.compile
#   allegro   Allegro's decoder in its session 38 form (root frame), the same
#   allegroclp  Allegro's weights in place (magi-form-cl-params, cold) beside magi, magi without
#             the GroupNorm statistics rewrite (its 376 mean reductions, 376 clones and 376
#             expands in fake CUDA) and torch.compile in one process: session 38 ran out of
#             budget before the cl-params side's comparisons
#   svd       SVD's decoder in its session 38 form (root frame)
#   ea        EasyAnimate's decoder (1.024x cold in session 38, one round a side)
#   zoo       the zoo's never-slower test on the three forms session 38 changed
#   small     sd-vae, resnet50, efficientnet_b0 and MiniMax-H3, one cold compile a side
#   recompute `PassConfig.recompute_norm_producers` (zoo variant magi-form-recompute, cold and
#             first) beside magi and torch.compile in one process, on EasyAnimate and VidTok
#             (where it fires in fake CUDA; not on SVD, HunyuanVideo, Mochi): the lever session
#             39 built after its budget was spent
#   recold    EasyAnimate's cold compile with the lever against torch.compile, alternated
#   chunks    Allegro's and EasyAnimate's GroupNorm statistics chunked with their weights in
#             place (magi-form-cl-params-gn-chunks, cold and first), chunked alone, magi and
#             torch.compile in one process: in fake CUDA (session 39) Allegro 1077 and 1143
#             launches against the form's 1413 and Inductor's 1179, EasyAnimate 571 and 595
#             against 689 and 603; on HunyuanVideo the chunked statistics compiled 18% faster
#             at 0.992x the form's speed (session 34)
#   chunkscold  magi-form-cl-params-gn-chunks alternated with torch.compile, on both
# Session 39 ran `setup ltx2 allegro svd ea allegroclp zoo small`; the budget ran out during
# svd's third compile, so ea, allegroclp, zoo and small are still to run, with recompute,
# recold, chunks and chunkscold (the levers it built or found after that).
set -u
LOGS=/tmp/s39
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=3
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    ltx2) cold_abba ltx2-video-vae torch.compile magi ;;
    allegro) cold_abba allegro-vae torch.compile magi ;;
    allegroclp)
        step allegro_clp cold_model allegro-vae allegro_clp \
            magi-form-cl-params,magi,magi-form-no-gn-stats,torch.compile ;;
    svd) cold_abba svd-vae torch.compile magi ;;
    ea) cold_abba easyanimate-vae torch.compile magi ;;
    zoo)
        step zoo python -m pytest -p no:cacheprovider -v -rA -n 0 --magi-perf \
            --magi-report "$LOGS/r_zoo.json" tests/test_zoo_gpu.py \
            -k "video_vae_is_never_slower and (ltx2 or allegro or svd)" ;;
    small) cold_pairs sd-vae resnet50 efficientnet_b0 minimax-h3-vae ;;
    recompute)
        for m in easyanimate-vae vidtok-vae; do
            step "${m%-vae}_recompute" cold_model "$m" "${m%-vae}_recompute" \
                magi-form-recompute,magi,torch.compile
        done ;;
    recold) cold_abba easyanimate-vae torch.compile magi-form-recompute ;;
    chunks)
        for m in allegro-vae easyanimate-vae; do
            step "${m%-vae}_chunks" cold_model "$m" "${m%-vae}_chunks" \
                magi-form-cl-params-gn-chunks,magi-form-gn-chunks,magi,torch.compile
        done ;;
    chunkscold)
        for m in allegro-vae easyanimate-vae; do
            cold_abba "$m" torch.compile magi-form-cl-params-gn-chunks
        done ;;
    esac
done
echo done >"$LOGS/ALL.done"
