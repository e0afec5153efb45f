#!/usr/bin/env bash
# Sourced by a session's GPU script (docs/results/session*/run.sh), with LOGS set to its log
# folder on the device machine: makes the folder, clears the end marker of an earlier run, points
# TORCHINDUCTOR_CACHE_DIR at $LOGS/inductor_cache (unless set), sets HBM (the GPU's HBM
# bandwidth in GB/s, for --hbm-gbps) and defines
#   step NAME CMD...   run CMD, its output in $LOGS/NAME.log and its exit status in $LOGS/NAME.rc;
#   setup_step         the `setup` step: tools/gpu_setup.sh, then each GPU's name, clock and power
#                      cap, and the host's cores;
#   setup_room_step    setup_step, then tests/test_stack_room.py on the host's Python (where the
#                      frame-stack chunks thrash depends on the build; NO_ROOM_TEST=1 skips it);
#   suite_step NAME    the GPU suites (`SUITE`: perf pairs, examples, config sweep, workarounds,
#                      channels-last, norm inputs, bounds, the Wan zoo tests, kernel configs,
#                      the backend's compile workers, UpcastMatmulPass on a GPU),
#                      `--magi-perf -n 2 --dist loadgroup` (one xdist worker per GPU), report in
#                      $LOGS/r_NAME.json;
#   suite_one_gpu_step NAME   the same in one process on one GPU (`-n 0`);
#   cold_pairs MODEL...   each MODEL compiled cold as torch.compile, then magi (`cold_model`),
#                      or as each of COLD_VARIANTS (space-separated) where that is set;
#   cold_abba MODEL A B   MODEL compiled cold as A, B, B, A (each `cold_model`, a process of
#                      its own with empty caches): a host that slows or speeds up during the
#                      four compiles moves both sides' means alike. Logs $LOGS/<model>_{A,B}_{1,2}.log;
#   profile_step MODEL SIDE [ENV=VALUE...]   MODEL's cold compile as SIDE under cProfile, empty
#                      caches, the whole profile kept ($LOGS/prof_SIDE.pstats);
#   cold VARIANT TAG [ENV=VALUE...]   the Wan decode (T=3) compiled as VARIANT in a process of its
#                      own with empty Inductor, Triton and decision caches ($LOGS/cache_TAG).
#   cold_model MODEL TAG VARIANTS [ENV=VALUE...]   MODEL (full size, bf16) compiled as each of
#                      VARIANTS (comma-separated) in one process with empty caches
#                      ($LOGS/cache_TAG): the first one's compile is cold, the others are timed
#                      against it (COLD_ROUNDS rounds, 5 unless set; eager untimed).
#   cold_both MODEL A B TAG [ENV=VALUE...]   (2-GPU kind) MODEL compiled cold as variant A on GPU 0
#                      and B on GPU 1 at the same time, then again with the GPUs swapped (A and
#                      B may be VARIANTS lists, as cold_model's; BOTH_ROUNDS picks rounds): each
#                      side's compile shares the host with the other's, so contention falls on
#                      both alike (session 32's lanes compiled unrelated models beside each
#                      other). Logs $LOGS/TAG_{A,B}_{1,2}.log.
#   cold_both_each ROUNDS A B SUFFIX MODEL...   cold_both for each MODEL, tagged by its name
#                      without -vae and SUFFIX.
# The script ends with `echo done >"$LOGS/ALL.done"`; tools/gpu_poll.sh waits for that marker.
: "${LOGS:?set LOGS to the log folder before sourcing tools/gpu_steps.sh}"
mkdir -p "$LOGS"
rm -f "$LOGS/ALL.done"
# the steps' shared Inductor cache (the cold steps give each compile an empty one of its own)
export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-$LOGS/inductor_cache}
mkdir -p "$TORCHINDUCTOR_CACHE_DIR"
export PYTHONUNBUFFERED=1
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
*H100*) HBM=3350 ;;  # H100 SXM HBM3
*) HBM=4800 ;;       # H200 HBM3e
esac
step() {
    local name=$1
    shift
    echo "== $(date -u +%T) $name: $*" >"$LOGS/$name.log"
    ("$@") >>"$LOGS/$name.log" 2>&1
    echo $? >"$LOGS/$name.rc"
}

setup_step() {
    step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=index,name,clocks.max.sm,power.limit --format=csv && nproc'
}
setup_room_step() {
    setup_step
    [ -n "${NO_ROOM_TEST:-}" ] ||
        step stack_room python -m pytest -p no:cacheprovider -q -rA tests/test_stack_room.py
}

SUITE=(tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py tests/test_workarounds.py
    tests/test_channels_last.py tests/test_norm_inputs.py tests/test_bounds.py tests/test_zoo_gpu.py
    tests/test_kernel_configs.py tests/test_backend.py tests/test_upcast_matmul.py)
SUITE_K="not test_zoo_gpu or wan_decode_holds or wan-form"
# the GPU suites as step NAME, with xdist's arguments after it
gpu_suites() {
    local name=$1
    shift
    step "$name" python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf "$@" \
        --magi-report "$LOGS/r_$name.json" "${SUITE[@]}" -k "$SUITE_K"
}
suite_step() { gpu_suites "$1" -n 2 --dist loadgroup; }
# the same on the one GPU of the one-GPU kind, in one process (`-n 0`: two workers would time
# their pairs on a shared card; `-p no:xdist` would leave the `xdist_group` marker unregistered)
suite_one_gpu_step() { gpu_suites "$1" -n 0; }

# MODEL's cold compile as SIDE (torch.compile or magi) under cProfile, in a process with empty
# caches (tools/probes/gpu_compile_profile.py): $LOGS/prof_SIDE.log, the whole profile in
# $LOGS/prof_SIDE.pstats
profile_step() {
    local m=$1 v=$2 dir=$LOGS/cache_prof_$2
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    step "prof_$v" env TORCHINDUCTOR_CACHE_DIR="$dir" TRITON_CACHE_DIR="$dir/triton" "$@" \
        python tools/probes/gpu_compile_profile.py "$m" "$v" --lines 70 \
        --stats "$LOGS/prof_$v.pstats"
}

# one variant of the Wan decode (T=3) compiled in a process of its own with empty Inductor,
# Triton and decision caches: a cold compile, as a user's first run pays it
cold() {
    local v=$1 dir=$LOGS/cache_$2
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    env TORCHINDUCTOR_CACHE_DIR=$dir TRITON_CACHE_DIR=$dir/triton "$@" python benchmarks/zoo.py \
        --models wan2.2-vae --frames 3 --baseline "$v" --variants "$v" --rounds 3 --hbm-gbps $HBM
}

# a zoo model compiled cold as the first of VARIANTS, the rest timed against it in one process;
# eager runs once for the numerics, untimed (`--no-eager-timing`: Allegro's eager rounds took
# 30-40 s of each such process, session 40)
cold_model() {
    local m=$1 dir=$LOGS/cache_$2 vs=$3
    shift 3
    rm -rf "$dir" && mkdir -p "$dir"
    env TORCHINDUCTOR_CACHE_DIR=$dir TRITON_CACHE_DIR=$dir/triton "$@" python benchmarks/zoo.py \
        --models "$m" --baseline "${vs%%,*}" --variants "$vs" --rounds "${COLD_ROUNDS:-5}" \
        --hbm-gbps $HBM --no-eager-timing
}

# each MODEL compiled cold as torch.compile, then as magi (or as each of COLD_VARIANTS), each in a
# process of its own with empty caches (`cold_model`): $LOGS/<model without -vae>_<variant>.log
cold_pairs() {
    local m v
    for m in "$@"; do
        for v in ${COLD_VARIANTS:-torch.compile magi}; do
            step "${m%-vae}_${v}" cold_model "$m" "${m%-vae}_${v}" "$v"
        done
    done
}

# MODEL compiled cold as A, B, B, A, each alone in a process of its own with empty caches
cold_abba() {
    local m=$1 a=$2 b=$3 t=${1%-vae}
    step "${t}_${a}_1" cold_model "$m" "${t}_${a}_1" "$a"
    step "${t}_${b}_1" cold_model "$m" "${t}_${b}_1" "$b"
    step "${t}_${b}_2" cold_model "$m" "${t}_${b}_2" "$b"
    step "${t}_${a}_2" cold_model "$m" "${t}_${a}_2" "$a"
}

# two variants of one model compiled cold at once, one per GPU, then swapped (ROUND 1 and 2; set
# BOTH_ROUNDS="1" or "2" for one of them). A and B may be comma-separated lists: the first is
# compiled cold, the rest are timed against it in the same process; logs are named by the first,
# or by A_NAME and B_NAME where set. A_ENV and B_ENV (ENV=VALUE words) set variables for one side
# only: `A_ENV=TORCH_WARM_POOL=0 A_NAME=magi-cold-pool cold_both resnet50 magi magi rn` compiles
# magi with its compile workers started late beside magi with them started early.
cold_both() {
    local m=$1 a=$2 b=$3 tag=$4 r
    local na=${A_NAME:-${a%%,*}} nb=${B_NAME:-${b%%,*}}
    shift 4
    for r in ${BOTH_ROUNDS:-1 2}; do
        local ga=$((r - 1)) gb=$((2 - r))
        # shellcheck disable=SC2086  # the side's ENV=VALUE words, split on purpose
        CUDA_VISIBLE_DEVICES=$ga step "${tag}_${na}_$r" cold_model "$m" "${tag}_${na}_$r" \
            "$a" "$@" ${A_ENV:-} &
        # shellcheck disable=SC2086
        CUDA_VISIBLE_DEVICES=$gb step "${tag}_${nb}_$r" cold_model "$m" "${tag}_${nb}_$r" \
            "$b" "$@" ${B_ENV:-} &
        wait
    done
}

# cold_both for each MODEL in turn, as A against B, the rounds in ROUNDS ("1", "2" or "1 2"), each
# tagged by the model's name without -vae and SUFFIX: `cold_both_each 1 torch.compile magi ""
# cosmos-vae vidtok-vae`. A_ENV, A_NAME, B_ENV and B_NAME pass through as cold_both reads them.
cold_both_each() {
    local rounds=$1 a=$2 b=$3 suffix=$4 m
    shift 4
    for m in "$@"; do
        BOTH_ROUNDS=$rounds cold_both "$m" "$a" "$b" "${m%-vae}$suffix"
    done
}
