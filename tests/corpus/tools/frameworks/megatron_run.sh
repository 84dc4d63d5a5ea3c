#!/bin/bash
# Megatron-LM (pretrain_gpt.py, --mock-data, local transformer impl, 1 GPU) checkpoint scenarios.
#
# Usage: megatron_run.sh MEGATRON_DIR LOG_DIR GROUP
#   MEGATRON_DIR  a Megatron-LM source tree (megatron/, pretrain_gpt.py, gpt_builders.py,
#                 model_provider.py), here the tag core_v0.16.1
#   LOG_DIR       where the <scenario>.log files go
#   GROUP         "all", or N to run only the first N of the runs listed at the end (in order:
#                 torch_dist saves, resume, SIGKILL during a sync save of a ~0.3B model,
#                 --async-save saves, NVRx local (non-persistent) checkpoints SIGKILLed after
#                 the local save at 15, resume from it, SIGTERM with --exit-signal-handler,
#                 async resume, SIGKILL during an async save of the ~0.3B model)
# Each run is `torchrun --nproc_per_node 1 pretrain_gpt.py ...` behind job.sh (a stand-in for
# an sbatch script), stdout+stderr together, PYTHONUNBUFFERED=1. Needs a CUDA GPU, PyTorch,
# and nvidia-resiliency-ext for the local-checkpoint runs.
set -u
MG=$(realpath "$1"); LOGS=$(realpath "$2"); GROUP=$3
HERE=$(dirname "$(realpath "$0")")
JOB="$HERE/job.sh"
export CUDA_DEVICE_MAX_CONNECTIONS=1 PYTHONUNBUFFERED=1
W=/tmp/mgwork
mkdir -p "$LOGS" "$W"
cd "$MG" || exit 1

TINY="--num-layers 2 --hidden-size 128 --num-attention-heads 4 --vocab-size 1024"
BIG="--num-layers 24 --hidden-size 1024 --num-attention-heads 16 --vocab-size 32000"
COMMON="--seq-length 128 --max-position-embeddings 128 --micro-batch-size 2 --global-batch-size 2
 --lr 1e-4 --min-lr 1e-5 --lr-decay-style cosine --lr-warmup-iters 2 --lr-decay-iters 100
 --weight-decay 0.01 --clip-grad 1.0 --bf16 --transformer-impl local --no-gradient-accumulation-fusion
 --no-persist-layer-norm --no-masked-softmax-fusion --no-bias-gelu-fusion --no-bias-dropout-fusion
 --mock-data --tokenizer-type NullTokenizer --eval-iters 0 --eval-interval 1000
 --log-interval 1 --ckpt-format torch_dist --distributed-backend nccl"

train() {  # train LOGNAME ARGS... (foreground, 120 s at most)
  local log="$LOGS/$1.log"; shift
  timeout 120 "$JOB" torchrun --nproc_per_node 1 --master_port 29511 pretrain_gpt.py $COMMON "$@" > "$log" 2>&1
  echo "$(basename "$log"): rc=$?"
}

train_and_signal() {  # train_and_signal LOGNAME SIGNAL PATTERN ARGS...: send SIGNAL to the worker once PATTERN is logged
  local log="$LOGS/$1.log" sig=$2 pat=$3; shift 3
  "$JOB" torchrun --nproc_per_node 1 --master_port 29511 pretrain_gpt.py $COMMON "$@" > "$log" 2>&1 &
  local job=$! tr="" worker="" i
  for i in $(seq 1 2400); do  # 120 s
    grep -qE "$pat" "$log" 2>/dev/null && break
    kill -0 $job 2>/dev/null || break
    sleep 0.05
  done
  tr=$(pgrep -P $job | head -1); [ -n "$tr" ] && worker=$(pgrep -P "$tr" | head -1)
  [ -n "$worker" ] && kill -s "$sig" "$worker"
  wait $job
  echo "$(basename "$log"): rc=$? (sent $sig to worker ${worker:-none})"
}

# Runs in priority order (the device time is short): GROUP=all runs everything, GROUP=N the first N.
N=99; [ "$GROUP" != all ] && N=$GROUP
rm -rf $W/*
runs=(
  "train megatron_torch_dist_saves $TINY --train-iters 30 --save-interval 10 --save $W/sync"
  "train megatron_torch_dist_resume $TINY --train-iters 40 --save-interval 10 --save $W/sync --load $W/sync"
  "train_and_signal megatron_interrupted_save KILL saving[[:space:]]checkpoint[[:space:]]at[[:space:]]iteration[[:space:]]+10[[:space:]] $BIG --train-iters 30 --save-interval 5 --save $W/kill"
  "train megatron_async_saves $TINY --train-iters 30 --save-interval 10 --save $W/async --async-save --use-persistent-ckpt-worker"
  "train_and_signal megatron_nvrx_local_saves KILL saved[[:space:]]local[[:space:]]checkpoint[[:space:]]from[[:space:]]iteration[[:space:]]+15 $TINY --train-iters 30 --save-interval 10 --save $W/local --non-persistent-ckpt-type local --non-persistent-local-ckpt-dir $W/localckpt --non-persistent-save-interval 3"
  "train megatron_nvrx_local_resume $TINY --train-iters 30 --save-interval 10 --save $W/local --load $W/local --non-persistent-ckpt-type local --non-persistent-local-ckpt-dir $W/localckpt --non-persistent-save-interval 3"
  "train_and_signal megatron_sigterm_exit_save TERM iteration[[:space:]]+13/ $TINY --train-iters 30 --save-interval 10 --save $W/term --exit-signal-handler"
  "train megatron_async_resume $TINY --train-iters 40 --save-interval 10 --save $W/async --load $W/async --async-save --use-persistent-ckpt-worker"
  "train_and_signal megatron_async_interrupted_save KILL scheduled[[:space:]]an[[:space:]]async[[:space:]]checkpoint[[:space:]]save[[:space:]]at[[:space:]]iteration[[:space:]]+10[[:space:]] $BIG --train-iters 30 --save-interval 5 --save $W/killasync --async-save --use-persistent-ckpt-worker"
)
i=0
for r in "${runs[@]}"; do
  i=$((i + 1)); [ $i -gt "$N" ] && break
  $r
  # stop early when the first run did not even save (a setup problem: later runs would fail alike)
  [ $i -eq 1 ] && ! grep -q "successfully saved checkpoint" "$LOGS/megatron_torch_dist_saves.log" && break
done
