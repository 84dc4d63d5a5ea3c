"""Small DDP language-model training script (gloo, CPU) in the style of a typical
research training loop: token data from a .bin memmap, periodic logging, checkpoints,
resume, optional SIGTERM-checkpoint handler. Used to produce heldout11 h11b_ logs."""
import argparse, datetime, logging, math, os, signal, sys, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--steps", type=int, default=200)
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--save-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--resume", default="")
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--batch", type=int, default=8)
p.add_argument("--seq", type=int, default=64)
p.add_argument("--d-model", type=int, default=128)
p.add_argument("--layers", type=int, default=2)
p.add_argument("--vocab", type=int, default=512)
p.add_argument("--num-workers", type=int, default=0)
p.add_argument("--dl-timeout", type=float, default=0)
p.add_argument("--pg-timeout", type=float, default=0)
p.add_argument("--handle-sigterm", action="store_true")
p.add_argument("--io-retries", type=int, default=0)
p.add_argument("--step-sleep", type=float, default=0.0)
args = p.parse_args()

rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1))
local_rank = int(os.environ.get("LOCAL_RANK", 0))
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"[%(asctime)s][%(levelname)s][rank{rank}] %(message)s")
log = logging.getLogger("train")

kw = {}
if args.pg_timeout:
    kw["timeout"] = datetime.timedelta(seconds=args.pg_timeout)
dist.init_process_group("gloo", **kw)
torch.manual_seed(1234 + rank)


class TokenDataset(torch.utils.data.Dataset):
    def __init__(self, path, seq, n):
        self.path, self.seq, self.n = path, seq, n
    def __len__(self):
        return self.n
    def _read(self, i):
        data = np.memmap(self.path, dtype=np.uint16, mode="r")
        off = (i * 7919) % (len(data) - self.seq - 1)
        x = torch.from_numpy(data[off:off + self.seq + 1].astype(np.int64))
        return x[:-1], x[1:]
    def __getitem__(self, i):
        for attempt in range(args.io_retries + 1):
            try:
                return self._read(i)
            except OSError as e:
                if attempt == args.io_retries:
                    raise
                logging.getLogger("data").warning(
                    f"read of {self.path} failed ({e}); retrying in 2s ({attempt+1}/{args.io_retries})")
                time.sleep(2)


class Block(nn.Module):
    def __init__(self, d, h=4):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab, d, layers, seq):
        super().__init__()
        self.tok = nn.Embedding(vocab, d); self.pos = nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(layers))
        self.ln = nn.LayerNorm(d); self.head = nn.Linear(d, vocab, bias=False)
    def forward(self, idx):
        T = idx.shape[1]
        mask = torch.triu(torch.full((T, T), float("-inf")), 1)
        x = self.tok(idx) + self.pos(torch.arange(T))
        for b in self.blocks:
            x = b(x, mask)
        return self.head(self.ln(x))


model = TinyLM(args.vocab, args.d_model, args.layers, args.seq)
nparams = sum(p.numel() for p in model.parameters())
opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1)
start_step = 0
if args.resume:
    log.info(f"resuming from {args.resume}")
    sd = torch.load(args.resume, map_location="cpu")
    model.load_state_dict(sd["model"]); opt.load_state_dict(sd["optimizer"])
    start_step = sd["step"]
    log.info(f"resumed at step {start_step}")
model = DDP(model)
if rank == 0:
    log.info(f"world_size={world} params={nparams/1e6:.2f}M batch={args.batch}x{args.seq} steps={args.steps} lr={args.lr}")

ds = TokenDataset(args.data, args.seq, 10**6)
sampler = torch.utils.data.distributed.DistributedSampler(ds, world, rank, seed=0)
dl = torch.utils.data.DataLoader(ds, batch_size=args.batch, sampler=sampler,
                                 num_workers=args.num_workers, timeout=args.dl_timeout)


def save(step, tag=None):
    if rank != 0:
        return
    os.makedirs(args.ckpt_dir, exist_ok=True)
    path = os.path.join(args.ckpt_dir, tag or f"step_{step:06d}.pt")
    t0 = time.time()
    torch.save({"model": model.module.state_dict(), "optimizer": opt.state_dict(), "step": step}, path)
    log.info(f"saved checkpoint {path} ({time.time()-t0:.2f}s)")


stop = {"sig": None}
if args.handle_sigterm:
    def _h(signum, frame):
        stop["sig"] = signum
        log.warning(f"received signal {signal.Signals(signum).name}, will checkpoint and exit after this step")
    signal.signal(signal.SIGTERM, _h)

def lr_at(step):
    warm = 20
    if step < warm:
        return args.lr * (step + 1) / warm
    return args.lr * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(1, args.steps - warm)))

it = iter(dl)
t_log = time.time(); tokens = 0
step = start_step
while step < args.steps:
    x, y = next(it)
    for g in opt.param_groups:
        g["lr"] = lr_at(step)
    logits = model(x)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if args.step_sleep:
        time.sleep(args.step_sleep)
    step += 1
    tokens += x.numel() * world
    if step % args.log_every == 0:
        l = loss.detach().clone(); dist.all_reduce(l); l /= world
        dt = time.time() - t_log
        if rank == 0:
            log.info(f"step {step}/{args.steps} | loss {l.item():.4f} | lr {lr_at(step-1):.2e} | "
                     f"grad_norm {gnorm.item():.3f} | {dt/args.log_every*1000:.1f} ms/step | {tokens/dt:.0f} tok/s")
        t_log = time.time(); tokens = 0
    if args.save_every and step % args.save_every == 0:
        save(step)
    if stop["sig"] is not None:
        flag = torch.tensor([1])
    else:
        flag = torch.tensor([0])
    if args.handle_sigterm:
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        if flag.item():
            save(step, f"preempt_step_{step:06d}.pt")
            log.info(f"exiting at step {step} after preemption checkpoint")
            dist.barrier(); dist.destroy_process_group()
            sys.exit(0)

if rank == 0:
    log.info(f"training done: {step} steps")
save(step, "final.pt")
dist.destroy_process_group()
