# sourced by case_*.sh: shared paths and launchers
set -u
G=/work/wt22b/tests/corpus/heldout22/gen_h22b
V=/work/lab22b/venv/bin
D=/work/lab22b/data
DATA=$D/shard0.bin,$D/shard1.bin,$D/shard2.bin,$D/shard3.bin
RUN=/work/lab22b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab22b/slurm/slurm.conf
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
T22="$G/t22.py --data $DATA"
# pids of this case's processes (cwd $RUN) whose command line matches $1 and whose environment has $2 (e.g. RANK=1)
envpids() { for p in $(pgrep -f "$1"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] || continue
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$2" && echo $p; done; }
# wait until file $2 contains $1 (at most $3 s, default 300)
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
# wait for an sbatch job to leave the queue, then copy its output file to out.log
sbwait() { sleep 5; while squeue -h -j $1 | grep -q .; do sleep 2; done; cp slurm-$1.out out.log; scontrol show job $1 | grep -E "JobState|Reason" >&2; }
quiet() { echo $(( $(date +%s) - $(stat -c %Y "$1") )); }
