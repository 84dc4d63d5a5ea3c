# Data-parallel numpy MLP classifier with mpi4py (gradients averaged with MPI Allreduce), run under mpirun.
# Rank 0 prints Keras-style `verbose=2` epoch lines; every rank reads its training shard from --data-dir.
import argparse, os, sys, time
import numpy as np
from mpi4py import MPI

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=20)
p.add_argument("--steps", type=int, default=100)        # steps per epoch
p.add_argument("--batch", type=int, default=128)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--data-dir", required=True)
p.add_argument("--read-retries", type=int, default=0)   # retry a failed shard read this many times
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--label-smoothing", default="0.0")
a = p.parse_args()

comm = MPI.COMM_WORLD
rank, world = comm.Get_rank(), comm.Get_size()
D, C = 64, 10
if rank == 0:
    print(f"mpi world size {world}, processor {MPI.Get_processor_name()}, {MPI.Get_library_version().splitlines()[0]}", flush=True)

# each rank's shard: 20 files of 2048 samples (float32 features + uint8 label), written by the data prep step
def read_shard(i):
    path = os.path.join(a.data_dir, f"rank{rank}", f"part-{i:05d}.bin")
    for attempt in range(a.read_retries + 1):
        try:
            with open(path, "rb") as f:
                raw = f.read()
            break
        except OSError as e:
            if attempt == a.read_retries:
                raise
            print(f"WARNING rank {rank}: read of {path} failed ({e}); retrying ({attempt + 1}/{a.read_retries})",
                  flush=True)
            time.sleep(0.5)
    arr = np.frombuffer(raw, dtype=np.float32).reshape(-1, D + 1)
    return arr[:, :D], arr[:, D].astype(np.int64)

rng = np.random.default_rng(rank)
W1 = np.random.default_rng(0).normal(0, 1 / np.sqrt(D), (D, a.hidden)).astype(np.float32)
W2 = np.random.default_rng(1).normal(0, 1 / np.sqrt(a.hidden), (a.hidden, C)).astype(np.float32)
params = [W1, np.zeros(a.hidden, np.float32), W2, np.zeros(C, np.float32)]
eps = float(a.label_smoothing)
if rank == 0:
    n = sum(x.size for x in params)
    print(f"Model: mlp_classifier, {n} trainable params, global batch {a.batch * world}", flush=True)

def fwd_bwd(X, y):
    W1, b1, W2, b2 = params
    h = X @ W1 + b1; r = np.maximum(h, 0)
    z = r @ W2 + b2; z -= z.max(1, keepdims=True)
    pr = np.exp(z); pr /= pr.sum(1, keepdims=True)
    t = np.full_like(pr, eps / C); t[np.arange(len(y)), y] += 1 - eps
    loss = -(t * np.log(pr + 1e-9)).sum(1).mean()
    acc = (pr.argmax(1) == y).mean()
    dz = (pr - t) / len(y)
    gW2 = r.T @ dz; gb2 = dz.sum(0)
    dr = dz @ W2.T; dr[h <= 0] = 0
    gW1 = X.T @ dr; gb1 = dr.sum(0)
    return loss, acc, [gW1, gb1, gW2, gb2]

flat = np.zeros(sum(x.size for x in params), np.float32)
shard = 0
X, y = read_shard(shard)
for ep in range(1, a.epochs + 1):
    if rank == 0:
        print(f"Epoch {ep}/{a.epochs}", flush=True)
    t0 = time.time(); ls = []; ac = []
    for s in range(a.steps):
        if (s + 1) % 25 == 0:
            shard = (shard + 1) % 20
            X, y = read_shard(shard)
        idx = rng.integers(0, len(X), a.batch)
        loss, acc, g = fwd_bwd(X[idx], y[idx])
        np.concatenate([x.ravel() for x in g], out=flat)
        comm.Allreduce(MPI.IN_PLACE, flat, op=MPI.SUM)
        flat /= world
        o = 0
        for x in params:
            x -= a.lr * flat[o:o + x.size].reshape(x.shape); o += x.size
        ls.append(loss); ac.append(acc)
    stats = comm.allreduce(np.array([np.mean(ls), np.mean(ac)]), op=MPI.SUM) / world
    dt = time.time() - t0
    if rank == 0:
        print(f"{a.steps}/{a.steps} - {dt:.0f}s - {dt / a.steps * 1000:.0f}ms/step - loss: {stats[0]:.4f} - accuracy: {stats[1]:.4f}",
              flush=True)
        if a.ckpt_dir and ep % 5 == 0:
            os.makedirs(a.ckpt_dir, exist_ok=True)
            fn = os.path.join(a.ckpt_dir, f"weights.{ep:02d}-{stats[0]:.2f}.npz")
            np.savez(fn, *params)
            print(f"\nEpoch {ep}: saving model to {fn}", flush=True)
comm.Barrier()
if rank == 0:
    print("Training complete.", flush=True)
