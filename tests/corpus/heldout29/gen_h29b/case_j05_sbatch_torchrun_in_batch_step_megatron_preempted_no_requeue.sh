#!/bin/bash
# sbatch -N1 --no-requeue (partition train, lab29n4) with torchrun in the batch step, Megatron-like; after iteration
# 700 a 1-node job on lab29n4 in partition 'urgent' (PriorityTier 10, OverSubscribe=NO) preempts it (PreemptMode=REQUEUE, but the
# job is not requeueable): cancelled due to preemption.
CASE=j05; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J mega-pt -N 1 -n 2 -w lab29n4 --mem=1500M --no-requeue -o %x-%j.out
export OMP_NUM_THREADS=1
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:40645 $T --style megatron --steps 20000 --log-every 50 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "iteration      700/" mega-pt-$J.out 400
U=$(sbatch --parsable -p urgent -N 1 -w lab29n4 --mem=100M -J urgent-eval -o /dev/null --wrap "sleep 20"); log "urgent $U"
sbdone mega-pt-$J.out; while squeue -h -j $U | grep -q .; do sleep 2; done
