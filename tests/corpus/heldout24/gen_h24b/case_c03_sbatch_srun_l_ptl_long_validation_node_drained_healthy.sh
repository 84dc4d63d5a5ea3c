#!/bin/bash
# sbatch -N2 (lab24n1,lab24n2), srun --label, -o %x-%j.out, PTL/NeMo-style progress lines; 400-batch validations
# (long pauses); an admin sets lab24n2 DRAIN mid-run (no effect on a running job); the run completes.
CASE=c03; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-tiny -N 2 -w lab24n1,lab24n2 --ntasks-per-node=1 --mem=1500M -o %x-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T24 --master 127.0.0.1:29741 --fmt ptl --steps 2000 --epoch-steps 500 --log-every 25 --eval-every 500 --eval-batches 3000 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "global_step=799.0" nemo-tiny-$J.out 300
scontrol update nodename=lab24n2 state=drain reason="hc: ib port flap"; echo "drained $(date -u +%T)"
sbdone nemo-tiny-$J.out; scontrol update nodename=lab24n2 state=resume; sinfo
