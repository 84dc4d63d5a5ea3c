#!/bin/bash
# Runs every straggler / healthy-twin generator and writes its stdout+stderr, as a Slurm job log
# would hold it, to $OUT/<name>.log (default: tests/corpus/incoming/).
#
#   bash tests/corpus/tools/stragglers/run_all.sh            # all runs
#   bash tests/corpus/tools/stragglers/run_all.sh NAME...    # only these (e.g. nanogpt_gen_2)
#
# The scripts are copied to $W/bin and run from $W (default /tmp/sgjob), so that paths printed
# in the logs (DeepSpeed's launcher command, Lightning's warnings) name a neutral folder.
# nanoGPT's train.py/model.py/configurator.py are expected in $NANOGPT (not vendored; see README).
set -u
REPO=$(cd "$(dirname "$0")/../../../.." && pwd)
PY=${PY:-/work/fwenv/bin/python}
BIN=$(dirname "$PY")
W=${W:-/tmp/sgjob}
OUT=${OUT:-$REPO/tests/corpus/incoming}
NANOGPT=${NANOGPT:-/tmp/nanogpt}
mkdir -p "$W/bin" "$W/runs" "$OUT"
cp "$REPO"/tests/corpus/tools/stragglers/*.py "$W/bin/"
export DS_ACCELERATOR=cpu

ONLY=("$@")
# The machine (2 CPUs) is shared: before each run wait (at most IDLE_MAX s) until the CPUs
# were at least IDLE_PCT% (default 60) idle over 3 s, so other jobs slow the runs less.
cpu_idle_pct() {
    local a b
    read -r _ u1 n1 s1 i1 w1 q1 f1 t1 _ < /proc/stat
    sleep 3
    read -r _ u2 n2 s2 i2 w2 q2 f2 t2 _ < /proc/stat
    a=$(((i2 + w2) - (i1 + w1)))
    b=$(((u2 + n2 + s2 + q2 + f2 + t2) - (u1 + n1 + s1 + q1 + f1 + t1)))
    echo $((100 * a / (a + b + 1)))
}
wait_idle() {
    local t0=$SECONDS
    while [ $((SECONDS - t0)) -lt "${IDLE_MAX:-600}" ] && [ "$(cpu_idle_pct)" -lt "${IDLE_PCT:-60}" ]; do
        sleep 5
    done
}
run() {  # run NAME [VAR=VALUE...] -- COMMAND...
    local name=$1
    shift
    local envs=()
    while [ "$1" != "--" ]; do
        envs+=("$1")
        shift
    done
    shift
    if [ ${#ONLY[@]} -gt 0 ] && [[ ! " ${ONLY[*]} " == *" $name "* ]]; then
        return
    fi
    rm -rf "${W:?}/runs/$name"
    mkdir -p "$W/runs/$name"
    wait_idle
    local t0=$SECONDS
    (cd "$W" && env PYTHONUNBUFFERED=1 "${envs[@]}" "$@") > "$OUT/$name.log" 2>&1
    echo "$name rc=$? $((SECONDS - t0))s ${envs[*]}"
}

TR="$BIN/torchrun --nproc-per-node 2"
DS="$BIN/deepspeed --num_gpus 2"
NG=(bin/nanogpt_run.py --nanogpt "$NANOGPT" --peak-flops 6e9 --device=cpu --backend=gloo
    --compile=False --dataset=synth --n_layer=2 --n_head=2 --n_embd=64 --block_size=64
    --batch_size=8 --gradient_accumulation_steps=2 --eval_iters=10 --warmup_iters=20
    --learning_rate=1e-3 --dtype=float32 --dropout=0.0)

# --- plain PyTorch DDP, per-rank timing table / per-rank lines --------------------------------
DD=(bin/ddp_timing_run.py --steps 240 --width 512)
run ddp_timing_gen_1 BASE_S=0.1 SLOW_RANK=1 SLOW_FROM=80 SLOW_S=0.375 -- \
    $TR --master-port 29701 "${DD[@]}" --out runs/ddp_timing_gen_1
run ddp_timing_gen_2 BASE_S=0.1 PAUSES=130:1.5 -- \
    $TR --master-port 29702 "${DD[@]}" --save-every 60 --out runs/ddp_timing_gen_2
run ddp_timing_gen_3 BASE_S=0.1 SLOW_RANK=0 SLOW_FROM=140 SLOW_S=0.07 -- \
    $TR --master-port 29703 "${DD[@]}" --style lines --log-every 15 --out runs/ddp_timing_gen_3
run ddp_timing_gen_4 BASE_S=0.1 PAUSES=100:2.0@1 -- \
    $TR --master-port 29704 "${DD[@]}" --style lines --log-every 15 --save-every 80 --out runs/ddp_timing_gen_4
run ddp_timing_gen_5 BASE_S=0.1 SLOW_RANK=1 SLOW_FROM=60 SLOW_S=0.19 SLOW_JITTER=0.6 -- \
    $TR --master-port 29705 "${DD[@]}" --out runs/ddp_timing_gen_5
run ddp_timing_gen_6 BASE_S=0.1 -- \
    $TR --master-port 29706 "${DD[@]}" --log-every 30 --out runs/ddp_timing_gen_6

# --- Hugging Face Trainer ---------------------------------------------------------------------
HF=(bin/hf_trainer_run.py --max-steps 200)
run hf_trainer_gen_1 BASE_S=0.2 -- \
    $TR --master-port 29711 "${HF[@]}" --out runs/hf_trainer_gen_1 --tokens-seen --eval-steps 80 --save-steps 100
run hf_trainer_gen_2 BASE_S=0.2 SLOW_RANK=1 SLOW_FROM=90 SLOW_S=0.33 -- \
    $TR --master-port 29712 "${HF[@]}" --out runs/hf_trainer_gen_2 --tokens-seen
run hf_trainer_gen_3 BASE_S=0.2 SLOW_RANK=0 SLOW_FROM=70 SLOW_S=0.66 -- \
    $TR --master-port 29713 "${HF[@]}" --out runs/hf_trainer_gen_3 --logging-steps 20 --eval-steps 80
run hf_trainer_gen_4 BASE_S=0.2 PAUSES=110:3 -- \
    $TR --master-port 29714 "${HF[@]}" --out runs/hf_trainer_gen_4 --logging-steps 20
run hf_trainer_gen_5 BASE_S=0.2 SLOW_RANK=1 SLOW_FROM=120 SLOW_S=0.2 -- \
    $TR --master-port 29715 "${HF[@]}" --out runs/hf_trainer_gen_5 --log-level info --disable-tqdm --tokens-seen --save-steps 100
run hf_trainer_gen_6 BASE_S=0.2 PAUSES=50:2@1 -- \
    $TR --master-port 29716 "${HF[@]}" --out runs/hf_trainer_gen_6 --log-level info --disable-tqdm --tokens-seen --save-steps 100

# --- Lightning (launches its second process itself) ------------------------------------------
PL=(bin/lightning_run.py --max-steps 400)
run lightning_gen_1 BASE_S=0.06 SLOW_RANK=1 SLOW_FROM=150 SLOW_S=0.085 -- \
    "$PY" "${PL[@]}" --out runs/lightning_gen_1
run lightning_gen_2 BASE_S=0.06 -- \
    "$PY" "${PL[@]}" --out runs/lightning_gen_2 --val-every 50 --ckpt-every 100
run lightning_gen_3 BASE_S=0.06 PAUSES=250:2 -- \
    "$PY" "${PL[@]}" --out runs/lightning_gen_3 --refresh 10
run lightning_gen_4 BASE_S=0.06 SLOW_RANK=0 SLOW_FROM=230 SLOW_S=0.05 -- \
    "$PY" "${PL[@]}" --out runs/lightning_gen_4 --refresh 10 --val-every 50
run lightning_gen_5 BASE_S=0.06 SLOW_RANK=1 SLOW_FROM=100 SLOW_S=0.17 SLOW_JITTER=0.6 -- \
    "$PY" "${PL[@]}" --out runs/lightning_gen_5 --ckpt-every 100
run lightning_gen_6 BASE_S=0.06 PAUSES=120:1@1 -- \
    "$PY" "${PL[@]}" --out runs/lightning_gen_6

# --- DeepSpeed (ZeRO-1, its own launcher) -----------------------------------------------------
DSA=(bin/deepspeed_run.py --width 512 --batch 64 --log-level info)
run deepspeed_gen_1 BASE_S=0.06 -- \
    $DS --master_port 29721 "${DSA[@]}" --steps 300 --save-every 100 --out runs/deepspeed_gen_1
run deepspeed_gen_2 BASE_S=0.06 SLOW_RANK=1 SLOW_FROM=120 SLOW_S=0.07 -- \
    $DS --master_port 29722 "${DSA[@]}" --steps 300 --out runs/deepspeed_gen_2
run deepspeed_gen_3 BASE_S=0.06 SLOW_RANK=1 SLOW_FROM=50 SLOW_S=0.21 -- \
    $DS --master_port 29723 "${DSA[@]}" --steps 120 --breakdown --out runs/deepspeed_gen_3
run deepspeed_gen_4 BASE_S=0.06 PAUSES=70:1.5 -- \
    $DS --master_port 29724 "${DSA[@]}" --steps 120 --breakdown --out runs/deepspeed_gen_4
run deepspeed_gen_5 BASE_S=0.06 SLOW_RANK=0 SLOW_FROM=250 SLOW_S=0.06 -- \
    $DS --master_port 29725 "${DSA[@]}" --steps 400 --steps-per-print 20 --save-every 200 --out runs/deepspeed_gen_5
run deepspeed_gen_6 BASE_S=0.06 PAUSES=200:2 -- \
    $DS --master_port 29726 "${DSA[@]}" --steps 400 --steps-per-print 20 --save-every 200 --out runs/deepspeed_gen_6

# --- nanoGPT train.py -------------------------------------------------------------------------
run nanogpt_gen_1 BASE_S=0.15 SLOW_RANK=1 SLOW_FROM=80 SLOW_S=0.2 -- \
    $TR --master-port 29731 "${NG[@]}" --workdir runs/nanogpt_gen_1 --max_iters=200 --lr_decay_iters=200 --log_interval=5 --eval_interval=100
run nanogpt_gen_2 BASE_S=0.15 -- \
    $TR --master-port 29732 "${NG[@]}" --workdir runs/nanogpt_gen_2 --max_iters=200 --lr_decay_iters=200 --log_interval=5 --eval_interval=100
run nanogpt_gen_3 BASE_S=0.15 PAUSES=120:2@0 -- \
    $TR --master-port 29733 "${NG[@]}" --workdir runs/nanogpt_gen_3 --max_iters=160 --lr_decay_iters=160 --log_interval=1 --eval_interval=80
run nanogpt_gen_4 BASE_S=0.15 SLOW_RANK=1 SLOW_FROM=50 SLOW_S=0.6 -- \
    $TR --master-port 29734 "${NG[@]}" --workdir runs/nanogpt_gen_4 --max_iters=160 --lr_decay_iters=160 --log_interval=1 --eval_interval=80
run nanogpt_gen_5 BASE_S=0.15 SLOW_RANK=1 SLOW_FROM=120 SLOW_S=0.2 SLOW_JITTER=0.6 -- \
    $TR --master-port 29735 "${NG[@]}" --workdir runs/nanogpt_gen_5 --max_iters=200 --lr_decay_iters=200 --log_interval=2 --eval_interval=100
run nanogpt_gen_6 BASE_S=0.15 -- \
    $TR --master-port 29736 "${NG[@]}" --workdir runs/nanogpt_gen_6 --max_iters=200 --lr_decay_iters=200 --log_interval=2 --eval_interval=100
