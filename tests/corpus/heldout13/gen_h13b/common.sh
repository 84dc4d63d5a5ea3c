# sourced by case_*.sh: paths and launchers shared by every case
set -u
G=/work/wt13b/tests/corpus/heldout13/gen_h13b
V=/work/lab13b/venv/bin
RUN=/work/lab13b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
$V/python $G/mkdata.py tokens.bin 1000000
export OMP_NUM_THREADS=1
TR="nice -n 10 $V/torchrun --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
# srun-style: start the ranks ourselves, all appending to out.log
srun2() { for r in 0 1; do MASTER_ADDR=127.0.0.1 MASTER_PORT=${PORT:-29613} RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 \
  nice -n 10 $V/python -u "$@" >> out.log 2>&1 & done; wait; }
