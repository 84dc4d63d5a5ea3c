# sourced by case_*.sh: shared paths and launchers (private cluster lab26b, venv /work/lab26b/venv)
set -u
G=/work/wt26b/tests/corpus/heldout26/gen_h26b
V=/work/lab26b/venv/bin
D=/work/lab26b/data
RUN=/work/lab26b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab26b/slurm/slurm.conf
# single-host torchrun, 2 ranks, c10d rendezvous on a fixed port $PORT (37000-37099, outside 26000-34999)
TR() { nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT "$@"; }
T26="$G/t26.py --data $D/feat.bin --hidden 768 --batch 128"
# pids of this case's t26.py processes (cwd $RUN) whose environment has $1 (RANK=1 or SLURM_PROCID=1)
envpids() { for p in $(pgrep -f "t26.py"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] || continue
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$1" && echo $p; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q -- "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
sbrun() { J=$(sbatch --parsable job.sh); echo "job $J $(date -u +%T)"; }
sbdone() { sleep 3; while squeue -h -j $J | grep -q .; do sleep 2; done; cp $1 out.log; scontrol show job $J | grep -E "JobState|Reason" >&2; }
quiet() { echo $(( $(date +%s) - $(stat -c %Y "$1") )); }
log() { echo "$CASE: $* $(date -u +%T)"; }
