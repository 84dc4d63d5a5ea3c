# sourced by case_*.sh: paths and launchers shared by every case
set -u
G=/work/wt14b/tests/corpus/heldout14/gen_h14b
V=/work/lab14b/venv/bin
RUN=/work/lab14b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
# srun -l style: start both ranks ourselves, each line prefixed "<rank>: ", all appending to out.log
srunl() { for r in 0 1; do ( MASTER_ADDR=127.0.0.1 MASTER_PORT=${PORT:-29714} RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 \
  nice -n 10 $V/python -u "$@" 2>&1 | sed -u "s/^/$r: /" >> out.log ) & done; wait; }
# pid of the newest process running $1 whose environment has RANK=$2 (main process, not a DataLoader worker)
rankpid() { for p in $(pgrep -f "$1"); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$2" || continue;
  pp=$(awk '{print $4}' /proc/$p/stat); tr '\0' '\n' < /proc/$pp/environ 2>/dev/null | grep -q "^RANK=" || echo $p; done | tail -1; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
