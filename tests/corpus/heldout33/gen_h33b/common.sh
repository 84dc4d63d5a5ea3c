# sourced by case_*.sh: paths and launchers for the private cluster lab33b (venv /work/lab33b/venv)
set -u
G=/work/wt33b/tests/corpus/heldout33/gen_h33b
V=/work/lab33b/venv/bin
RUN=/work/lab33b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab33b/slurm/slurm.conf
T="$G/t33.py"
# single-host torchrun, 2 ranks, c10d rendezvous on localhost:$PORT (44600-44699)
TR() { nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT "$@"; }
# pids of this case's t33.py processes (cwd $RUN) whose environment has line $1 (RANK=1, SLURM_PROCID=1)
mypids() { for p in $(pgrep -f "gen_h33b/t33.py"); do [ "$(readlink /proc/$p/cwd 2>/dev/null)" = "$RUN" ] && echo $p; done; }
envpids() { for p in $(mypids); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$1" && echo $p; done; }
# the training process of rank $1 (not a DataLoader worker: the one whose parent is not itself a t33.py)
rankpid() { for p in $(envpids "$1"); do pp=$(ps -o ppid= -p $p | tr -d ' '); c=$(tr '\0' ' ' < /proc/$pp/cmdline 2>/dev/null)
  case "$c" in *torch.distributed.run*) echo $p;; *t33.py*) ;; *) echo $p;; esac; done; }
# DataLoader worker processes of the training process $1
workerpids() { pgrep -P $1 | while read c; do tr '\0' ' ' < /proc/$c/cmdline 2>/dev/null | grep -q t33.py && echo $c; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -aq -- "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
sbrun() { J=$(sbatch --parsable "$@" job.sh); echo "$CASE job $J $(date -u +%T)"; }
sbdone() { sleep 3; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp $1 out.log; scontrol show job $J | grep -E "JobState|Reason"; }
quiet() { echo $(( $(date +%s) - $(stat -c %Y "$1") )); }
log() { echo "$CASE: $* $(date -u +%T)"; }
waitgone() { for i in $(seq 1 ${1:-300}); do [ -z "$(mypids)" ] && return 0; sleep 1; done; return 1; }
# this case's torchrun agents (cwd $RUN)
agentpids() { for p in $(pgrep -f "torch.distributed.run"); do [ "$(readlink /proc/$p/cwd 2>/dev/null)" = "$RUN" ] && echo $p; done; }
# an ext4 file system on a loop file, mounted at /work/lab33b/mnt/$1 ($2 MiB, extra mkfs.ext4 options in $3)
mkloop() { local m=/work/lab33b/mnt/$1; umount $m 2>/dev/null; mkdir -p $m; rm -f /work/lab33b/img/$1.img; mkdir -p /work/lab33b/img
  truncate -s ${2}M /work/lab33b/img/$1.img; mkfs.ext4 -q -F ${3:-} /work/lab33b/img/$1.img; mount -o loop /work/lab33b/img/$1.img $m; echo $m; }
rmloop() { umount /work/lab33b/mnt/$1 2>/dev/null || umount -l /work/lab33b/mnt/$1; rm -f /work/lab33b/img/$1.img; }
