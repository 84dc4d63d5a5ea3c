# Labels of the h33b_ logs, written by hand from each kept log by tests/corpus/LABELLING.md (no engine was run).
TOOLS = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, tqdm 4.70.1; Slurm 22.05.8 (private cluster lab33b, "
         "4 slurmd on one host) where sbatch/srun is named; iptables 1.8.9 (nf_tables) and iproute2 ip/tc where named; gen_h33b/t33.py")
TRN = "torchrun --nproc-per-node 2 (c10d rendezvous on localhost)"
SB = "sbatch -N2 + srun --label"
H2 = ("two network namespaces as hosts gpu-b33-01/gpu-b33-02 (veth 10.233.7.11/12, UTS names via unshare), "
      "torchrun --nnodes 2 --nproc-per-node 1 on each, both hosts' output appended to one file")
ENTRIES = [
]
