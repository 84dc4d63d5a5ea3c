# sourced by case_*.sh: shared paths and launchers
set -u
G=/work/wt24b/tests/corpus/heldout24/gen_h24b
V=/work/lab23b/venv/bin
D=/work/lab24b/data
RUN=/work/lab24b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab24b/slurm/slurm.conf
TR="nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
T24="$G/t24.py --data $D/tok3m.bin"
envpids() { for p in $(pgrep -f "t24.py"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] || continue
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$1" && echo $p; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q -- "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
sbwait() { sleep 5; while squeue -h -j $1 | grep -q .; do sleep 2; done; cp slurm-$1.out out.log; scontrol show job $1 | grep -E "JobState|Reason" >&2; }
# sbatch job.sh; wait for the job to leave the queue; copy its output file ($2) to out.log
sbrun() { J=$(sbatch --parsable job.sh); echo "job $J"; }
sbdone() { sleep 5; while squeue -h -j $J | grep -q .; do sleep 2; done; cp $1 out.log; scontrol show job $J | grep -E "JobState|Reason" >&2; }
