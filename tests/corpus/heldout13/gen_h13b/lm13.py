# lm13.py: tiny decoder LM trained with DDP or torch.distributed.pipelining (GPipe, 2 stages) on gloo.
# Reads tokens from a uint16 file with os.pread, logs with Python logging (timestamps) or JSON lines.
import argparse, errno, json, logging, math, os, signal, sys, threading, time
from datetime import timedelta

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--mode", default="ddp", choices=["ddp", "pipe"])
p.add_argument("--data", default="tokens.bin")
p.add_argument("--steps", type=int, default=300)
p.add_argument("--seq", type=int, default=64)
p.add_argument("--bsz", type=int, default=8)
p.add_argument("--dim", type=int, default=128)
p.add_argument("--layers", type=int, default=2)
p.add_argument("--vocab", type=int, default=512)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--jsonl", action="store_true", help="metrics as JSON lines on stdout")
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--timeout", type=float, default=600, help="process group timeout (s)")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--microbatches", type=int, default=4)
p.add_argument("--stage-dims", default="", help="pipe: per-stage hidden sizes, e.g. 128,128")
p.add_argument("--diversity-reg", type=float, default=0.0, help="weight of a token-embedding spread regularizer")
p.add_argument("--detect-anomaly", action="store_true")
p.add_argument("--data-delay-ms", default="", help="RANK:STEP:MS, sleep in that rank's batch fetch from STEP on")
p.add_argument("--shard", default="strided", choices=["strided", "contiguous"])
p.add_argument("--usr1-ckpt", action="store_true", help="save a checkpoint and exit on SIGUSR1 (slurm --signal)")
p.add_argument("--async-ckpt", action="store_true", help="write checkpoints from a background thread")
p.add_argument("--seed", type=int, default=0)
p.add_argument("--mmap", action="store_true", help="read tokens through np.memmap instead of pread")
p.add_argument("--wait-short-read", action="store_true", help="on a short read, wait for the file to be complete")
p.add_argument("--remap", default="", help="JSON token-id remapping table applied in the dataset")
p.add_argument("--cache-batches", action="store_true", help="keep every batch in an in-memory replay cache")
args = p.parse_args()

rank = int(os.environ.get("RANK", 0))
world = int(os.environ.get("WORLD_SIZE", 1))
host = os.uname().nodename


class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = rank
        return True


h = logging.StreamHandler(sys.stdout)
h.addFilter(RankFilter())
h.setFormatter(logging.Formatter("%(asctime)s.%(msecs)03d %(levelname)s [rank%(rank)d] %(name)s: %(message)s",
                                 "%Y-%m-%d %H:%M:%S"))
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("lm13")

torch.manual_seed(args.seed)
torch.set_num_threads(1)
if args.detect_anomaly:
    torch.autograd.set_detect_anomaly(True)
    log.warning("anomaly detection enabled: training will be slower")

dist.init_process_group("gloo", timeout=timedelta(seconds=args.timeout))
log.info("process group up: backend=gloo world_size=%d host=%s pid=%d torch=%s", world, host, os.getpid(), torch.__version__)


class TokenFile(torch.utils.data.Dataset):
    def __init__(self, path, seq, delay=None):
        self.path, self.seq, self.delay = path, seq, delay
        self.n = os.path.getsize(path) // 2 // (seq + 1)
        self.fd = None
        self.mm = None
        self.remap = None
        if args.remap:
            with open(args.remap) as f:
                self.remap = {int(k): v for k, v in json.load(f).items()}

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if args.mmap:
            if self.mm is None:
                self.mm = np.memmap(self.path, dtype=np.uint16, mode="r")
            a = np.array(self.mm[i * (self.seq + 1):(i + 1) * (self.seq + 1)], dtype=np.int64)
        else:
            if self.fd is None:
                self.fd = os.open(self.path, os.O_RDONLY)
            nbytes = (self.seq + 1) * 2
            buf = os.pread(self.fd, nbytes, i * nbytes)
            while len(buf) != nbytes and args.wait_short_read:
                time.sleep(1.0)  # file still being written by the staging job
                buf = os.pread(self.fd, nbytes, i * nbytes)
            if len(buf) != nbytes:
                raise EOFError(f"short read at sample {i}: {len(buf)} of {nbytes} bytes")
            a = np.frombuffer(buf, dtype=np.uint16).astype(np.int64)
        if self.remap is not None:
            a = np.array([self.remap[int(v)] for v in a], dtype=np.int64)
        t = torch.from_numpy(a)
        return t[:-1], t[1:]


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        T = x.shape[1]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        a = self.ln1(x)
        x = x + self.attn(a, a, a, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class Embed(nn.Module):
    def __init__(self, v, d, seq, nblocks):
        super().__init__()
        self.tok, self.pos = nn.Embedding(v, d), nn.Embedding(seq, d)
        self.blocks = nn.ModuleList([Block(d) for _ in range(nblocks)])

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for b in self.blocks:
            x = b(x)
        return x


class Head(nn.Module):
    def __init__(self, v, d, nblocks):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d) for _ in range(nblocks)])
        self.ln, self.out = nn.LayerNorm(d), nn.Linear(d, v)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.out(self.ln(x))


class LM(nn.Module):
    def __init__(self, v, d, seq, L):
        super().__init__()
        self.body = Embed(v, d, seq, L - 1)
        self.head = Head(v, d, 1)

    def forward(self, idx):
        h = self.body(idx)
        return self.head(h), self.body.tok(idx)


delay = None
if args.data_delay_ms:
    r, s, ms = (int(x) for x in args.data_delay_ms.split(":"))
    delay = (r, s, ms)
ds = TokenFile(args.data, args.seq)
if args.shard == "strided":
    idx = list(range(rank, len(ds), world))
else:  # contiguous blocks, last rank takes what is left after the previous ranks' blocks
    per = math.ceil(len(ds) / world)
    idx = list(range(rank * per, min(len(ds), (rank + 1) * per)))
sub = torch.utils.data.Subset(ds, idx)
dl = torch.utils.data.DataLoader(sub, batch_size=args.bsz, shuffle=False, drop_last=True, num_workers=args.workers,
                                 persistent_workers=args.workers > 0)
log.info("dataset %s: %d samples of %d tokens, %d on this rank, %d batches/epoch", args.data, len(ds), args.seq,
         len(sub), len(dl))

if args.mode == "ddp":
    model = LM(args.vocab, args.dim, args.seq, args.layers)
    nparams = sum(p.numel() for p in model.parameters())
    model = torch.nn.parallel.DistributedDataParallel(model)
    params = model.parameters()
else:
    from torch.distributed.pipelining import PipelineStage, ScheduleGPipe
    dims = [int(x) for x in args.stage_dims.split(",")] if args.stage_dims else [args.dim] * world
    d = dims[rank]
    part = Embed(args.vocab, d, args.seq, args.layers - 1) if rank == 0 else Head(args.vocab, d, 1)
    nparams = sum(p.numel() for p in part.parameters())
    stage = PipelineStage(part, rank, world, torch.device("cpu"))

    def loss_fn(logits, y):
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))

    sched = ScheduleGPipe(stage, n_microbatches=args.microbatches, loss_fn=loss_fn)
    params = part.parameters()
    model = part
log.info("model: mode=%s params=%.2fM (this rank) layers=%d dim=%d", args.mode, nparams / 1e6, args.layers, args.dim)
opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)

start = 0
os.makedirs(args.ckpt_dir, exist_ok=True)
ck_path = lambda s: os.path.join(args.ckpt_dir, f"step_{s:06d}_rank{rank}.pt")
if args.resume:
    have = sorted(f for f in os.listdir(args.ckpt_dir) if f.endswith(f"_rank{rank}.pt"))
    if have:
        sd = torch.load(os.path.join(args.ckpt_dir, have[-1]), weights_only=False)
        (model.module if args.mode == "ddp" else model).load_state_dict(sd["model"])
        opt.load_state_dict(sd["opt"])
        start = sd["step"]
        log.info("resumed from %s at step %d", have[-1], start)
    else:
        log.info("no checkpoint in %s, starting from scratch", args.ckpt_dir)

ck_lock = threading.Lock()


def save(step):
    t0 = time.time()
    sd = {"model": (model.module if args.mode == "ddp" else model).state_dict(), "opt": opt.state_dict(), "step": step}
    tmp = ck_path(step) + ".tmp"
    torch.save(sd, tmp)
    os.replace(tmp, ck_path(step))
    log.info("saved checkpoint %s (%.2fs)", ck_path(step), time.time() - t0)


def save_async(step):
    def work():
        with ck_lock:
            save(step)
    threading.Thread(target=work, daemon=True).start()


stop_req = {"sig": None}
if args.usr1_ckpt:
    def on_usr1(signum, frame):
        stop_req["sig"] = signum
        log.warning("received SIGUSR1: job is about to reach its time limit, will checkpoint and exit")
    signal.signal(signal.SIGUSR1, on_usr1)

flops_per_tok = 6 * nparams * (world if args.mode == "pipe" else 1)
peak = 200e9  # nominal per-process CPU FLOP/s used for the MFU column
it = iter(dl)
epoch = 0
t_last = time.time()
tok_acc = 0
dt_acc = 0.0
step = start
replay = []
while step < args.steps:
    t0 = time.time()
    try:
        x, y = next(it)
    except StopIteration:
        epoch += 1
        log.info("epoch %d done (%d steps)", epoch, step)
        if rank == world - 1 and args.shard == "contiguous":
            dist.barrier()  # end-of-epoch sync before the eval pass
        it = iter(dl)
        x, y = next(it)
    if delay and rank == delay[0] and step >= delay[1]:
        time.sleep(delay[2] / 1000)
    tdata = time.time() - t0
    step += 1
    opt.zero_grad(set_to_none=True)
    if args.mode == "ddp":
        logits, hid = model(x)
        loss = F.cross_entropy(logits.reshape(-1, args.vocab), y.reshape(-1))
        if args.diversity_reg:
            # penalise collapsed sequences: log of per-sequence token-embedding spread
            spread = hid.var(dim=1).sqrt().mean(dim=-1)
            loss = loss - args.diversity_reg * torch.log(spread).mean()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        lv = loss.detach().clone()
        dist.all_reduce(lv)
        lv = lv.item() / world
    else:
        if rank == 0:
            sched.step(x)
            losses = None
        else:
            losses = []
            sched.step(target=y, losses=losses)
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        lv = torch.tensor(float(torch.stack(losses).mean()) if losses else 0.0)
        dist.broadcast(lv, src=world - 1)
        lv = lv.item()
    opt.step()
    dt = time.time() - t0
    if args.cache_batches:
        replay.append((x.clone(), y.clone(), torch.empty(1024 * 1024, dtype=torch.uint8).fill_(1)))
    tok_acc += args.bsz * args.seq * (world if args.mode == "ddp" else 1)
    dt_acc += tdata
    if step % args.log_every == 0:
        el = time.time() - t_last
        tps = tok_acc / el
        dd = torch.tensor([dt_acc / args.log_every * 1000])
        alld = [torch.zeros(1) for _ in range(world)]
        dist.all_gather(alld, dd)
        if rank == 0:
            if args.jsonl:
                print(json.dumps({"ts": round(time.time(), 3), "step": step, "loss": round(lv, 4),
                                  "grad_norm": round(float(gn), 3), "tokens_per_s": round(tps, 1),
                                  "step_ms": round(el / args.log_every * 1000, 1),
                                  "data_ms_per_rank": [round(float(a), 1) for a in alld],
                                  "mfu": round(tps * flops_per_tok / (peak * world), 4)}), flush=True)
            else:
                log.info("step %5d/%d | loss %.4f | gnorm %.2f | %.1f ms/step | %.0f tok/s | mfu %.2f%% | data ms/rank %s",
                         step, args.steps, lv, float(gn), el / args.log_every * 1000, tps,
                         100 * tps * flops_per_tok / (peak * world), [round(float(a), 1) for a in alld])
        t_last, tok_acc, dt_acc = time.time(), 0, 0.0
    if args.ckpt_every and step % args.ckpt_every == 0:
        (save_async if args.async_ckpt else save)(step)
    if stop_req["sig"] is not None:
        flag = torch.tensor([1.0])
    else:
        flag = torch.tensor([0.0])
    if args.usr1_ckpt:
        dist.all_reduce(flag)
        if flag.item() > 0:
            save(step)
            log.warning("exiting at step %d after signal checkpoint; requeue to continue", step)
            dist.destroy_process_group()
            sys.exit(0)

if args.async_ckpt:
    with ck_lock:
        pass
log.info("training finished at step %d", step)
dist.barrier()
dist.destroy_process_group()
