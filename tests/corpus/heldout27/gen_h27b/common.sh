# sourced by case_*.sh: paths and launchers for the private cluster lab27b (venv /work/lab27b/venv)
set -u
G=/work/wt27b/tests/corpus/heldout27/gen_h27b
V=/work/lab27b/venv/bin
RUN=/work/lab27b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab27b/slurm/slurm.conf
T="$G/t27.py"
# single-host torchrun, 2 ranks, c10d rendezvous on localhost:$PORT (38000-38999)
TR() { nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT "$@"; }
# pids of this case's t27.py processes (cwd $RUN) whose environment has line $1 (RANK=1, SLURM_PROCID=1)
envpids() { for p in $(pgrep -f "gen_h27b/t27.py"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] || continue
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$1" && echo $p; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q -- "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
sbrun() { J=$(sbatch --parsable "$@" job.sh); echo "$CASE job $J $(date -u +%T)"; }
sbdone() { sleep 3; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp $1 out.log; scontrol show job $J | grep -E "JobState|Reason"; }
quiet() { echo $(( $(date +%s) - $(stat -c %Y "$1") )); }
log() { echo "$CASE: $* $(date -u +%T)"; }
# wait until no t27.py of this case is left (max $1 s)
waitgone() { for i in $(seq 1 ${1:-300}); do [ -z "$(pgrep -f gen_h27b/t27.py | while read p; do [ "$(readlink /proc/$p/cwd 2>/dev/null)" = "$RUN" ] && echo $p; done)" ] && return 0; sleep 1; done; return 1; }
