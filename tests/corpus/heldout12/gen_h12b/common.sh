# sourced by case_*.sh: paths and the launcher used by every case
set -u
G=/work/wt12b/tests/corpus/heldout12/gen_h12b
V=/work/lab12b/venv/bin
RUN=/work/lab12b/runs/$CASE
rm -rf "$RUN"; mkdir -p "$RUN"; cd "$RUN"
TR="nice -n 10 $V/torchrun --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0"
TITAN="$TR --local-ranks-filter 0 --role rank --tee 3 $G/titan_lite.py"
