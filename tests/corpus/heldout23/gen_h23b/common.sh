# sourced by case_*.sh: shared paths and launchers
set -u
G=/work/wt23b/tests/corpus/heldout23/gen_h23b
V=/work/lab23b/venv/bin
D=/work/lab23b/data
RUN=/work/lab23b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab23b/slurm/slurm.conf
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
T23="$G/t23.py --data $D/tok4m.bin"
# pids of this case's python processes (cwd $RUN) whose environment has $1 (e.g. RANK=1 or SLURM_PROCID=1)
envpids() { for p in $(pgrep -f "t23.py"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] || continue
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$1" && echo $p; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
sbwait() { sleep 5; while squeue -h -j $1 | grep -q .; do sleep 2; done; cp slurm-$1.out out.log; scontrol show job $1 | grep -E "JobState|Reason" >&2; }
quiet() { echo $(( $(date +%s) - $(stat -c %Y "$1") )); }
