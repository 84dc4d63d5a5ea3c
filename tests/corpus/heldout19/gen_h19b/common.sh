# sourced by case_*.sh: shared paths and helpers
set -u
G=/work/wt19b/tests/corpus/heldout19/gen_h19b
V=/work/lab19b/venv/bin
RUN=/work/lab19b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
export OMP_NUM_THREADS=1 SLURM_CONF=/work/lab19b/slurm/slurm.conf
# mpirun with 2 ranks of m19.py (mpi4py's -m mpi4py runner aborts the job on an uncaught exception)
MPI="nice -n 10 mpirun --allow-run-as-root -np 2"
M19="$V/python -m mpi4py $G/m19.py --data-dir /work/lab19b/data --steps 300 --hidden 1024"
# pids of processes of this case (cwd $RUN) whose command line matches $1 and whose environment has $2
# (e.g. OMPI_COMM_WORLD_RANK=1)
envpids() { for p in $(pgrep -f "$1"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] || continue
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$2" && echo $p; done; }
waitfor() { for i in $(seq 1 ${3:-300}); do grep -q "$1" "$2" 2>/dev/null && return 0; sleep 1; done; return 1; }
# two JAX processes of j19.py on this host, coordination service on process 0; both append to out.log
J19() { local port=$1; shift
  for i in 0 1; do nice -n 10 $V/python $G/j19.py --coord 127.0.0.1:$port --nproc 2 --pid $i "$@" >> out.log 2>&1 & done; }
