"""t20.py: tiny token-MLP language model, data parallel with torch.distributed (gloo, CPU).

Rank/world from torchrun (RANK/WORLD_SIZE/LOCAL_RANK) or srun (SLURM_PROCID/SLURM_NTASKS); host from SLURMD_NODENAME or
the hostname. Each rank reads its batches from token shards (uint16) in --data-dir with plain open/seek/read.
Log styles: --fmt logging (Python logging, custom format) or --fmt plain (print lines, every --log-every steps), or
--fmt epoch (one line per epoch only).
"""
import argparse, errno, glob, logging, os, socket, sys, time
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--data-dir", required=True, help="may contain {rank}")
p.add_argument("--train-glob", default="train-*.bin")
p.add_argument("--eval-glob", default="valid-*.bin")
p.add_argument("--steps", type=int, default=1000)
p.add_argument("--steps-per-epoch", type=int, default=200)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-batches", type=int, default=8)
p.add_argument("--eval-batch", type=int, default=0, help="eval batch size (default: --batch)")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--ckpt-fallback", default="")
p.add_argument("--resume", action="store_true")
p.add_argument("--vocab", type=int, default=8192)
p.add_argument("--ctx", type=int, default=16)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--batch", type=int, default=64)
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--pg-timeout", type=int, default=1800)
p.add_argument("--fd-cache", action="store_true", help="keep shard files open between reads")
p.add_argument("--fmt", choices=["logging", "plain", "epoch"], default="logging")
p.add_argument("--master", default="", help="addr:port when not under torchrun")
a = p.parse_args()

rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
host = os.environ.get("SLURMD_NODENAME") or socket.gethostname()
if a.master:
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = a.master.rsplit(":", 1)
os.environ.setdefault("RANK", str(rank)); os.environ.setdefault("WORLD_SIZE", str(world))

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"%(asctime)s %(levelname)-7s [r{rank}@{host}] %(name)s: %(message)s")
log = logging.getLogger("lmtrain")

def out(msg):
    if a.fmt == "logging":
        log.info(msg)
    else:
        print(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] {msg}", flush=True)

class Shards:
    """reads random (ctx+1)-token windows from the shard files matching a glob"""
    def __init__(self, pattern, seed):
        self.files = sorted(glob.glob(os.path.join(a.data_dir.format(rank=rank), pattern)))
        self.rng = np.random.default_rng(seed)
        self.cache = {}
    def _open(self, path):
        if not a.fd_cache:
            return open(path, "rb")
        f = self.cache.get(path)
        if f is None or f.closed:
            try:
                f = open(path, "rb")
            except OSError as e:
                if e.errno != errno.EMFILE:
                    raise
                log.warning("open(%s) failed: %s; closing %d cached shard handles and retrying", path, e, len(self.cache))
                for g in self.cache.values():
                    g.close()
                self.cache.clear()
                f = open(path, "rb")
            self.cache[path] = f
        return f
    def batch(self, n):
        rows = []
        for _ in range(n):
            path = self.files[self.rng.integers(len(self.files))]
            f = self._open(path)
            size = os.fstat(f.fileno()).st_size // 2
            off = int(self.rng.integers(size - a.ctx - 1))
            f.seek(off * 2)
            rows.append(np.frombuffer(f.read((a.ctx + 1) * 2), dtype=np.uint16).astype(np.int64))
            if not a.fd_cache:
                f.close()
        t = torch.from_numpy(np.stack(rows))
        return t[:, :-1], t[:, -1]

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(a.vocab, 64)
        self.l1 = nn.Linear(64 * a.ctx, a.hidden); self.l2 = nn.Linear(a.hidden, a.hidden)
        self.head = nn.Linear(a.hidden, a.vocab)
    def forward(self, x):
        h = self.emb(x).flatten(1)
        return self.head(F.gelu(self.l2(F.gelu(self.l1(h)))))

def save(step, model, opt):
    if rank != 0:
        return
    t0 = time.time()
    state = {"step": step, "model": model.state_dict(), "opt": opt.state_dict()}
    name = f"step_{step:07d}.pt"
    try:
        os.makedirs(a.ckpt_dir, exist_ok=True)
        path = os.path.join(a.ckpt_dir, name)
        torch.save(state, path + ".tmp"); os.replace(path + ".tmp", path)
    except (OSError, RuntimeError) as e:  # torch.save reports a failed open as RuntimeError
        if not a.ckpt_fallback:
            raise
        log.warning("checkpoint write to %s failed (%s), writing to fallback dir %s", a.ckpt_dir, e, a.ckpt_fallback,
                    exc_info=True)
        os.makedirs(a.ckpt_fallback, exist_ok=True)
        path = os.path.join(a.ckpt_fallback, name)
        torch.save(state, path + ".tmp"); os.replace(path + ".tmp", path)
    mb = os.path.getsize(path) / 2**20
    out(f"saved checkpoint {path} ({mb:.1f} MiB in {time.time()-t0:.2f}s)")

def main():
    out(f"starting rank {rank}/{world} on {host} pid {os.getpid()} torch {torch.__version__}")
    dist.init_process_group("gloo", timeout=timedelta(seconds=a.pg_timeout))
    torch.manual_seed(0)
    model = Model()
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr)
    start = 0
    if a.resume:
        cks = sorted(glob.glob(os.path.join(a.ckpt_dir, "step_*.pt")))
        if cks:
            st = torch.load(cks[-1], weights_only=False)
            model.load_state_dict(st["model"]); opt.load_state_dict(st["opt"]); start = st["step"]
            out(f"resumed from {cks[-1]} at step {start}")
    if rank == 0:
        n = sum(p.numel() for p in model.parameters())
        out(f"model params {n/1e6:.2f}M, world {world}, global batch {a.batch*world}, steps {a.steps}")
    train = Shards(a.train_glob, 1000 + rank + start)
    t_log, t_ep, comp = time.time(), time.time(), 0.0
    ep_loss, ep_n = 0.0, 0
    for step in range(start + 1, a.steps + 1):
        c0 = time.time()
        x, y = train.batch(a.batch)
        loss = F.cross_entropy(ddp(x), y)
        opt.zero_grad(set_to_none=True)
        comp += time.time() - c0
        loss.backward()
        opt.step()
        ep_loss += loss.item(); ep_n += 1
        if a.fmt != "epoch" and step % a.log_every == 0:
            dt = time.time() - t_log; t_log = time.time()
            ct = torch.tensor([comp * 1000 / a.log_every]); comp = 0.0
            allc = [torch.zeros(1) for _ in range(world)]; dist.all_gather(allc, ct)
            allc = [float(c) for c in allc]
            slow = int(np.argmax(allc))
            if rank == 0:
                out(f"step {step}/{a.steps} loss {loss.item():.4f} lr {a.lr:.1e} "
                    f"step_time {dt*1000/a.log_every:.1f}ms samples/s {a.batch*world*a.log_every/dt:.1f} "
                    f"data+fwd max {allc[slow]:.1f}ms (rank {slow}) min {min(allc):.1f}ms")
        if step % a.steps_per_epoch == 0:
            ep = step // a.steps_per_epoch
            if a.fmt == "epoch" and rank == 0:
                dt = time.time() - t_ep
                out(f"Epoch {ep}/{a.steps // a.steps_per_epoch} - {dt:.1f}s - loss {ep_loss/ep_n:.4f} - "
                    f"{a.batch*world*ep_n/dt:.1f} samples/s")
            t_ep, ep_loss, ep_n = time.time(), 0.0, 0
        if a.eval_every and step % a.eval_every == 0:
            ev = Shards(a.eval_glob, 7)
            tot, cnt = 0.0, 0
            with torch.no_grad():
                for _ in range(a.eval_batches if ev.files else 0):
                    ex, ey = ev.batch(a.eval_batch or a.batch)
                    tot += F.cross_entropy(model(ex), ey).item(); cnt += 1
            vl = torch.tensor([tot / cnt]); dist.all_reduce(vl); vl /= world
            if rank == 0:
                out(f"eval step {step}: val_loss {vl.item():.4f} ppl {float(torch.exp(vl)):.1f}")
        if a.ckpt_every and step % a.ckpt_every == 0:
            save(step, model, opt)
            dist.barrier()
    if rank == 0:
        out(f"training finished: {a.steps} steps")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
