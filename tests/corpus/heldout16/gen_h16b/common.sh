# sourced by case_*.sh: shared paths and launchers
set -u
G=/work/wt16b/tests/corpus/heldout16/gen_h16b
V=/work/lab16b/bin
RUN=/work/lab16b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
# pid of the training process whose environment has RANK=$2 and command line matching $1 (not a DataLoader worker)
rankpid() { for p in $(pgrep -f "$1"); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$2" || continue;
  pp=$(awk '{print $4}' /proc/$p/stat); tr '\0' '\n' < /proc/$pp/environ 2>/dev/null | grep -q "^RANK=" || echo $p; done | tail -1; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
