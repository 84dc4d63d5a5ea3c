# sourced by case_*.sh: shared paths and launchers
set -u
G=/work/wt18b/tests/corpus/heldout18/gen_h18b
V=/work/lab18b/venv/bin
RUN=/work/lab18b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab18b/slurm/slurm.conf
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
# pids of processes whose command line matches $1 and whose environment has $2 (e.g. RANK=1 or SLURM_PROCID=2),
# not counting children that inherited the same environment (DataLoader workers)
envpids() { for p in $(pgrep -f "$1"); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$2" || continue
  pp=$(awk '{print $4}' /proc/$p/stat 2>/dev/null); tr '\0' '\n' < /proc/$pp/environ 2>/dev/null | grep -qx "$2" || echo $p; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
