"""Tiny image-classifier DDP training loop (custom loop, gloo/CPU) used for the h14b_ logs.
Fault options are off by default; see README.md."""
import argparse, fcntl, json, logging, os, signal, sys, time, threading, faulthandler
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist
from torch.utils.data import Dataset, DataLoader, DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=300)
p.add_argument("--bs", type=int, default=32)
p.add_argument("--img", type=int, default=32)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--resume", action="store_true")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--persistent", action="store_true")
p.add_argument("--dl-timeout", type=float, default=0)
p.add_argument("--data-config", default="")       # JSON with a list of shard files
p.add_argument("--shm-batches", action="store_true")  # big float batches from workers (shared memory)
p.add_argument("--amp-fp16", action="store_true")
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--zero", action="store_true")
p.add_argument("--compile", default="")           # dynamo backend, e.g. aot_eager
p.add_argument("--fullgraph", action="store_true")
p.add_argument("--clip-report", action="store_true")  # model forward calls .item() (graph break)
p.add_argument("--per-rank-times", action="store_true")
p.add_argument("--sigterm-ckpt", action="store_true")
p.add_argument("--faulthandler", action="store_true")
p.add_argument("--epoch-sync-timeout", type=float, default=0)  # TCPStore key handshake per epoch
p.add_argument("--mixup-from", type=int, default=-1)  # step from which a 'mixup' path feeds soft labels as indices (bug)
p.add_argument("--metrics-url", default="")
p.add_argument("--interleave", action="store_true")
p.add_argument("--flock", action="store_true")     # shared flock on a shard while reading it
p.add_argument("--deadlock-at", type=int, default=-1)  # rank 1 deadlocks on two locks at this step
p.add_argument("--timeout-s", type=float, default=1800)
args = p.parse_args()

rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1))
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [%(levelname)s] [rank{rank}] %(name)s: %(message)s")
log = logging.getLogger("train")
if args.faulthandler:
    faulthandler.enable()
torch.manual_seed(0)
torch.set_num_threads(1)
import datetime
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.timeout_s))
log.info("initialized process group: backend=gloo world_size=%d host=%s pid=%d", world, os.uname().nodename, os.getpid())

class Synth(Dataset):
    def __init__(self, n, img, shards=None):
        self.n, self.img, self.shards = n, img, shards
    def __len__(self): return self.n
    def __getitem__(self, i):
        if self.shards:
            f = self.shards[i % len(self.shards)] if args.interleave else self.shards[(i // 8192) % len(self.shards)]
            with open(f, "rb") as fh:
                if args.flock: fcntl.flock(fh, fcntl.LOCK_SH)
                fh.seek((i % 512) * 16); raw = fh.read(16)
            g = torch.Generator().manual_seed(int.from_bytes(raw[:8], "little") % (2**31))
        else:
            g = torch.Generator().manual_seed(i)
        y = int(torch.randint(0, 10, (1,), generator=g))
        x = torch.randn(3, self.img, self.img, generator=g) * 0.5 + y / 10.0
        return x, y

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1); self.b1 = nn.BatchNorm2d(16)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1, stride=2); self.b2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, 10); self.emb = nn.Embedding(10, 10)
    def forward(self, x, y=None):
        h = F.relu(self.b1(self.c1(x))); h = F.relu(self.b2(self.c2(h)))
        h = h.mean((2, 3))
        if args.clip_report and h.abs().max().item() > 100.0:
            h = h.clamp(-100, 100)
        out = self.fc(h)
        if y is not None:
            out = out + 0.0 * self.emb(y).sum()
        return out

shards = None
if args.data_config:
    cfg = json.load(open(args.data_config))
    log.info("data config %s: %d shards under %s", args.data_config, len(cfg["shards"]), cfg["root"])
    shards = [os.path.join(cfg["root"], s) for s in cfg["shards"]]
ds = Synth(args.steps * args.bs * world + 4096, args.img, shards)
sampler = DistributedSampler(ds, shuffle=False)
dl = DataLoader(ds, batch_size=args.bs, sampler=sampler, num_workers=args.workers,
                persistent_workers=args.persistent and args.workers > 0, timeout=args.dl_timeout,
                prefetch_factor=(4 if args.workers else None))
model = Net()
ddp = torch.nn.parallel.DistributedDataParallel(model)
fwd = ddp
if args.compile:
    fwd = torch.compile(ddp, backend=args.compile, fullgraph=args.fullgraph)
if args.zero:
    from torch.distributed.optim import ZeroRedundancyOptimizer
    opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.SGD, lr=args.lr, momentum=0.9)
else:
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**24, growth_interval=50) if args.amp_fp16 else None
start = 0
os.makedirs(args.ckpt_dir, exist_ok=True)
ck = os.path.join(args.ckpt_dir, "last.pt")
if args.resume and os.path.exists(ck):
    sd = torch.load(ck, weights_only=False)
    model.load_state_dict(sd["model"]); start = sd["step"]
    log.info("resumed from %s at step %d", ck, start)

def save(step, why=""):
    if args.zero:
        opt.consolidate_state_dict(to=0)
    if rank == 0:
        t = time.time()
        sd = {"model": model.state_dict(), "step": step}
        if args.zero: sd["opt"] = opt.state_dict()
        torch.save(sd, ck + ".tmp"); os.replace(ck + ".tmp", ck)
        log.info("saved checkpoint %s (step %d%s) in %.2fs", ck, step, why, time.time() - t)
    dist.barrier()

stop = {"sig": None}
if args.sigterm_ckpt:
    def h(sig, frm):
        stop["sig"] = sig
        log.warning("received signal %s; will checkpoint at the next step boundary and exit", signal.Signals(sig).name)
    signal.signal(signal.SIGTERM, h)

store = None
if args.epoch_sync_timeout:
    store = dist.distributed_c10d._get_default_store()

def post_metrics(step, loss, sps):
    import urllib.request
    for attempt in range(1, 4):
        try:
            urllib.request.urlopen(urllib.request.Request(args.metrics_url, data=json.dumps({"step": step, "loss": loss, "samples_per_s": sps}).encode()), timeout=2)
            return
        except Exception as e:
            log.warning("metrics push failed (attempt %d/3): %s", attempt, e)
            time.sleep(1)
    log.error("giving up pushing metrics for step %d; continuing training", step)

def evaluate():
    model.eval(); c = n = 0
    with torch.no_grad():
        for i in range(8):
            g = torch.Generator().manual_seed(10**6 + i * world + rank)
            y = torch.randint(0, 10, (64,), generator=g)
            x = torch.randn(64, 3, args.img, args.img, generator=g) * 0.5 + (y / 10.0)[:, None, None, None]
            c += (model(x).argmax(1) == y).sum().item(); n += 64
    t = torch.tensor([c, n], dtype=torch.float64); dist.all_reduce(t)
    model.train(); return (t[0] / t[1]).item()

log.info("model params=%d steps=%d global_batch=%d workers=%d", sum(p.numel() for p in model.parameters()), args.steps, args.bs * world, args.workers)
step = start; t0 = time.time(); seen = 0; epoch = 0
it = iter(dl)
while step < args.steps:
    ts = time.time()
    try:
        x, y = next(it)
    except StopIteration:
        epoch += 1; sampler.set_epoch(epoch); it = iter(dl); x, y = next(it)
    if step == args.deadlock_at and rank == 1:
        a, c = threading.Lock(), threading.Lock()
        def other():
            with c:
                time.sleep(0.2)
                with a: pass
        threading.Thread(target=other, daemon=True).start()
        with a:
            time.sleep(0.2)
            with c: pass
    if store is not None and step > start and step % 100 == 0:
        store.set(f"epoch_sync/{step}/rank{rank}", "1")
        store.wait([f"epoch_sync/{step}/rank{r}" for r in range(world)], datetime.timedelta(seconds=args.epoch_sync_timeout))
    yin = y
    if args.mixup_from >= 0 and step >= args.mixup_from:
        lam = 0.7
        perm = torch.randperm(x.size(0)); x = lam * x + (1 - lam) * x[perm]
        yin = lam * y.float() + (1 - lam) * y[perm].float()   # soft labels
    tf = time.time()
    with torch.autocast("cpu", dtype=torch.float16, enabled=args.amp_fp16):
        out = fwd(x, yin)
        loss = F.cross_entropy(out.float(), y)
    tf = time.time() - tf
    opt.zero_grad(set_to_none=True)
    if scaler:
        old = scaler.get_scale()
        scaler.scale(loss).backward(); scaler.step(opt); scaler.update()
        if scaler.get_scale() < old:
            log.warning("step %d: gradient overflow (inf/nan in fp16 grads), skipping optimizer step; loss scale %.0f -> %.0f", step, old, scaler.get_scale())
    else:
        loss.backward(); opt.step()
    step += 1; seen += x.size(0) * world
    dt = time.time() - ts
    if args.per_rank_times:
        tt = torch.tensor([tf]); outl = [torch.zeros(1) for _ in range(world)]; dist.all_gather(outl, tt)
        per = [o.item() for o in outl]
    if step % args.log_every == 0:
        el = time.time() - t0
        msg = "step %d/%d loss %.4f | %.1f samples/s | step_time %.3fs" % (step, args.steps, loss.item(), seen / el, el / args.log_every * (seen and 1))
        if args.per_rank_times:
            msg += " | per-rank fwd time " + " ".join("r%d=%.3fs" % (i, v) for i, v in enumerate(per))
        if scaler: msg += " | loss_scale %.0f" % scaler.get_scale()
        if rank == 0 or not args.per_rank_times:
            log.info(msg)
        if args.metrics_url and rank == 0:
            threading.Thread(target=post_metrics, args=(step, loss.item(), seen / el), daemon=True).start()
        t0 = time.time(); seen = 0
    if args.eval_every and step % args.eval_every == 0:
        te = time.time(); acc = evaluate()
        if rank == 0: log.info("eval at step %d: accuracy %.3f (%.1fs)", step, acc, time.time() - te)
        t0 = time.time(); seen = 0
    if args.ckpt_every and step % args.ckpt_every == 0:
        save(step)
    if args.sigterm_ckpt:
        fl = torch.tensor([0 if stop["sig"] is None else 1]); dist.all_reduce(fl, op=dist.ReduceOp.MAX)
        if fl.item() and stop["sig"] is None: stop["sig"] = -1
    if stop["sig"] is not None:
        save(step, ", on signal"); log.warning("exiting after signal checkpoint at step %d", step)
        dist.destroy_process_group(); sys.exit(0)
if args.ckpt_every: save(step, ", final")
log.info("training finished: %d steps", step)
dist.destroy_process_group()
