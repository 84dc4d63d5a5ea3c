# sourced by case_*.sh: shared paths and launchers
set -u
G=/work/wt15b/tests/corpus/heldout15/gen_h15b
V=/work/lab15b/venv/bin
DATA=/work/lab15b/tokens.bin
RUN=/work/lab15b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
# srun -l style: both ranks started directly with RANK/WORLD_SIZE/MASTER_ADDR, lines prefixed "<rank>: ", appending to out.log
srunl() { for r in 0 1; do ( MASTER_ADDR=${MADDR:-127.0.0.1} MASTER_PORT=${PORT:-29815} RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 \
  nice -n 10 $V/python -u "$@" 2>&1 | sed -u "s/^/$r: /" >> out.log ) & done; wait; }
# pid of the training process (not a DataLoader worker) whose environment has RANK=$2, command line matching $1
rankpid() { for p in $(pgrep -f "$1"); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$2" || continue;
  pp=$(awk '{print $4}' /proc/$p/stat); tr '\0' '\n' < /proc/$pp/environ 2>/dev/null | grep -q "^RANK=" || echo $p; done | tail -1; }
# pids of the DataLoader workers of that process
workerpids() { pgrep -P "$1"; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
