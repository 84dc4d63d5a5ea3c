#!/bin/bash
# nanoGPT's train.py on ONE GPU shared by two DDP ranks (gloo with CUDA tensors; NCCL refuses two
# ranks on one device), bf16 autocast, nanoGPT's own A100-based mfu. Run on the GPU machine:
#
#   bash tests/corpus/tools/stragglers/run_gpu_nanogpt.sh NANOGPT_DIR OUT_DIR [NAME...]
#
# NANOGPT_DIR holds nanoGPT's train.py, model.py, configurator.py; each run writes OUT_DIR/NAME.log.
set -u
NANOGPT=$(cd "$1" && pwd)
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
ONLY=("$@")
HERE=$(cd "$(dirname "$0")" && pwd)
W=${W:-/tmp/sgjob_gpu}
mkdir -p "$W/bin" "$W/runs"
cp "$HERE"/slowrank.py "$HERE"/nanogpt_run.py "$W/bin/"
PY=${PY:-python3}
TR="$PY -m torch.distributed.run --nproc-per-node 2"
NG=(bin/nanogpt_run.py --nanogpt "$NANOGPT" --one-gpu --backend=gloo --compile=False
    --dataset=synth --n_layer=6 --n_head=6 --n_embd=384 --block_size=256 --batch_size=32
    --gradient_accumulation_steps=2 --eval_iters=20 --warmup_iters=50 --learning_rate=6e-4
    --dropout=0.0)

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
    local t0=$SECONDS
    (cd "$W" && env PYTHONUNBUFFERED=1 "${envs[@]}" timeout 100 "$@") > "$OUT/$name.log" 2>&1
    echo "$name rc=$? $((SECONDS - t0))s ${envs[*]}"
}

# The healthy run goes first; its median iteration time sets the injected delays, so that the
# slow rank makes iterations about the stated factor slower: slow X -> (X - 1) * median seconds.
run nanogpt_gpu_gen_2 -- \
    $TR --master-port 29742 "${NG[@]}" --workdir runs/g2 --max_iters=300 --lr_decay_iters=300 --log_interval=5 --eval_interval=100
BASE=$(grep -o 'time [0-9.]*ms' "$OUT/nanogpt_gpu_gen_2.log" | awk '{print $2+0}' | sort -n |
    awk '{a[NR]=$1} END {print (NR ? a[int((NR + 1) / 2)] : 50) / 1000}')
echo "median iteration time of the healthy run: ${BASE}s"
slow() { awk -v b="$BASE" -v x="$1" 'BEGIN {printf "%.4f", (x - 1) * b}'; }

run nanogpt_gpu_gen_1 SLOW_RANK=1 SLOW_FROM=120 SLOW_S="$(slow 2.5)" -- \
    $TR --master-port 29741 "${NG[@]}" --workdir runs/g1 --max_iters=300 --lr_decay_iters=300 --log_interval=5 --eval_interval=100
run nanogpt_gpu_gen_4 PAUSES=150:1.5@1 -- \
    $TR --master-port 29744 "${NG[@]}" --workdir runs/g4 --max_iters=360 --lr_decay_iters=360 --log_interval=2 --eval_interval=120
run nanogpt_gpu_gen_3 SLOW_RANK=0 SLOW_FROM=200 SLOW_S="$(slow 1.5)" -- \
    $TR --master-port 29743 "${NG[@]}" --workdir runs/g3 --max_iters=360 --lr_decay_iters=360 --log_interval=2 --eval_interval=120
run nanogpt_gpu_gen_6 PAUSES=100:2 -- \
    $TR --master-port 29746 "${NG[@]}" --workdir runs/g6 --max_iters=240 --lr_decay_iters=240 --log_interval=1 --eval_interval=200
run nanogpt_gpu_gen_5 SLOW_RANK=1 SLOW_FROM=80 SLOW_S="$(slow 4)" -- \
    $TR --master-port 29745 "${NG[@]}" --workdir runs/g5 --max_iters=240 --lr_decay_iters=240 --log_interval=1 --eval_interval=200
