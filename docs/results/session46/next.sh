#!/usr/bin/env bash
# Session 46's GPU steps (issue 18), for the two-GPU kind: `bash docs/results/session46/next.sh
# STEP...` in the background (setsid), logs in /tmp/s46, `bash tools/gpu_poll.sh /tmp/s46 540
# s46_logs.tgz` to wait.
#   setup        tools/gpu_setup.sh, the GPUs, and tests/test_stack_room.py on this Python
#                (NO_ROOM_TEST=1 skips the test: 9 passed on the GPU hosts' Python, session 45)
#   kk1/kk2      KVAE-3D and Kandinsky-6 SR: torch.compile cold on one GPU, magi cold on the
#                other at the same time, the GPUs swapped between the two steps (their forms
#                take the root frame since session 45's CPU evidence; their only H200 rounds,
#                session 31, took 1.056x and 1.034x)
#   kkframes     KVAE-3D's and Kandinsky-6 SR's forms cold, then a frame per module instance timed
#                against each in the same process (the same graph, the same speed)
#   zookk        tests/test_zoo_gpu.py's never-slower tests of KVAE-3D and Kandinsky-6 SR
#                (--magi-perf, one xdist worker per GPU): their forms changed in session 45
#   hm1/hm2      HunyuanVideo-1.5 and Mochi as kk1/kk2 (0.974x on an H200 in session 31, alone;
#                Mochi 0.91x on an H100 only)
#   mg1          KVAE-3D as kk1, magi's line now saying whether its graph was compiled again after
#                one of torch's sympy failures (run 1: magi's AOT dispatch and post-grad passes
#                twice torch.compile's, as a retry makes them; 75.9 and 76.2 s against 71.0 and
#                60.0)
#   sf1/sf2      KVAE-3D: torch.compile cold on one GPU, magi-form-sympy-first (the form's graph
#                compiled inside the workaround's scopes from its first try) on the other, the GPUs
#                swapped between the two steps
#   suite        the GPU suites (every requires_cuda test) on this tree
#   zoovae       tests/test_zoo_gpu.py's never-slower tests of every video VAE but Wan's
#                (--magi-perf, one xdist worker per GPU): each decoder in its form as shipped
#   targets      issue 18's targets on the Wan decode in its form (T=3 and T=21, the slope a further
#                latent frame, against torch.compile with frames isolated, every output against
#                fp32; profiled): measured on H100s only so far (60.79 ms a further frame, session
#                30; 1.407x at T=21)
# For the next machine: `NO_ROOM_TEST=1 ... next.sh setup suite targets` (about 15 minutes of two
# H200s), then `zoovae` on one of its own (13 decoders, two sides each: about 16 minutes).
# Run 1: `setup kk1 kk2 kkframes zookk hm1 hm2` (NO_ROOM_TEST=1) on the tree of aba403b (run1/);
# run 2: `setup mg1 sf1 sf2` (NO_ROOM_TEST=1) on the tree of 3f918f9 (run2/).
set -u
LOGS=/tmp/s46
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=3
for s in "$@"; do
    case $s in
    setup) setup_room_step ;;
    kk[12]) cold_both_each "${s#kk}" torch.compile magi "" kvae-3d-vae kandinsky6-sr-vae ;;
    kkframes)
        step kvae-3d_frames cold_model kvae-3d-vae kvae-3d_frames magi,magi-form-instance-frames
        step kandinsky6-sr_frames cold_model kandinsky6-sr-vae kandinsky6-sr_frames \
            magi,magi-form-instance-frames ;;
    zookk) step zookk python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
        -n 2 --magi-report "$LOGS/r_zookk.json" tests/test_zoo_gpu.py -k "kvae or kandinsky" ;;
    hm[12]) cold_both_each "${s#hm}" torch.compile magi "" hunyuanvideo1.5-vae mochi-vae ;;
    suite) suite_step suite ;;
    zoovae) step zoovae python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
        -n 2 --magi-report "$LOGS/r_zoovae.json" tests/test_zoo_gpu.py -k test_video_vae_is_never_slower ;;
    targets) step targets python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
        --baseline torch.compile+frames --variants magi --rounds 3 --profile --profile-rounds 1 \
        --profile-top 20 --hbm-gbps "$HBM" --json "$LOGS/targets.json" ;;
    mg1) cold_both_each 1 torch.compile magi "" kvae-3d-vae ;;
    sf[12]) cold_both_each "${s#sf}" torch.compile magi-form-sympy-first _sf kvae-3d-vae ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
