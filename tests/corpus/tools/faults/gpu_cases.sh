#!/bin/bash
# faultjob under torchrun on one CUDA GPU (the logs then carry real, non-zero TFLOP/s).
# Two ranks share the GPU, so DDP runs over gloo (CUDA tensors); the NCCL case shows what NCCL
# does with two ranks on one device. Usage: OUT=dir bash tests/corpus/tools/faults/gpu_cases.sh
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../../../.." && pwd)
OUT=${OUT:-/tmp/faultjob-gpu}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
cd "$REPO" || exit 1
export PYTHONPATH=$REPO PYTHONUNBUFFERED=1
MODEL=(--num-layers 4 --hidden-size 512 --num-attention-heads 8 --seq-length 256
    --vocab-size 8192 --micro-batch-size 16 --num-workers 1)

case_() {
    local name=$1 nproc=$2; shift 2
    "$PY" -m torch.distributed.run --nproc-per-node "$nproc" --master-port $((29500 + RANDOM % 999)) \
        -m bench.faultjob.train "${MODEL[@]}" "$@" >"$OUT/$name.log" 2>&1
    echo "$name rc=$? :: torchrun --nproc-per-node $nproc -m bench.faultjob.train ${MODEL[*]} $*"
}

"$PY" -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))'
case_ healthy_gpu_torchrun_1 2 --backend gloo --train-iters 80 --save /tmp/ck1 --save-interval 20
case_ straggler_gpu_torchrun_1 2 --backend gloo --train-iters 80 \
    --fault straggler --at-iteration 40 --fault-rank 1 --straggler-delay 0.4
case_ collective_hang_gpu_torchrun_1 2 --backend gloo --train-iters 200 --pg-timeout 60 \
    --fault collective_hang --at-iteration 30 --fault-rank 1
case_ nan_gpu_torchrun_1 2 --backend gloo --train-iters 80 --detect-anomaly \
    --fault nan --at-iteration 25 --fault-rank 0
case_ nccl_two_ranks_one_gpu_torchrun_1 2 --backend nccl --train-iters 40
case_ healthy_nccl_gpu_torchrun_1 1 --backend nccl --train-iters 60 --log-style core_v0.12
