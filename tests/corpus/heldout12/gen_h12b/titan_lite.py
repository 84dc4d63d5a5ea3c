"""Tiny decoder LM trained in the style of torchtitan's train.py (CPU, gloo): FSDP2 (fully_shard)
or DDP, torch.distributed.checkpoint (DCP) saves/resume, torchtitan-like metric lines
(step/loss/grad_norm/memory/tps/tflops/mfu), optional torch.compile. Used for heldout12 h12b_ logs.
Synthetic data: random-ish tokens from a seeded generator (or a .bin memmap with --data)."""
import argparse, logging, math, os, sys, time, json, datetime
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=100)
p.add_argument("--log-freq", type=int, default=10)
p.add_argument("--ckpt-interval", type=int, default=0)
p.add_argument("--ckpt-folder", default="checkpoint")
p.add_argument("--lr", type=float, default=8e-4)
p.add_argument("--warmup", type=int, default=20)
p.add_argument("--max-norm", type=float, default=1.0)
p.add_argument("--batch", type=int, default=8)
p.add_argument("--seq", type=int, default=64)
p.add_argument("--dim", type=int, default=96)
p.add_argument("--layers", type=int, default=2)
p.add_argument("--heads", type=int, default=4)
p.add_argument("--vocab", type=int, default=1024)
p.add_argument("--parallel", choices=["fsdp", "ddp"], default="fsdp")
p.add_argument("--compile", action="store_true")
p.add_argument("--data", default="")
p.add_argument("--num-workers", type=int, default=0)
p.add_argument("--metrics-dir", default="")
p.add_argument("--pg-timeout", type=float, default=0)
p.add_argument("--skip-nonfinite", action="store_true", help="skip optimizer step on non-finite grad norm")
p.add_argument("--fail-on-nan", action="store_true")
p.add_argument("--optim", choices=["adamw", "sgd"], default="adamw")
p.add_argument("--compile-fallback", action="store_true", help="torch._dynamo.config.suppress_errors: fall back to eager on compile errors")
p.add_argument("--keep-outputs", action="store_true", help="keep every step's logits for an end-of-run calibration report")
p.add_argument("--eval-freq", type=int, default=0)
p.add_argument("--sequential", action="store_true", help="read --data sequentially, one contiguous shard per rank")
p.add_argument("--index-file", default="", help="per-rank sample index (.npy) loaded before training; {rank} is substituted")
p.add_argument("--barrier-timeout", type=float, default=60)
p.add_argument("--sigterm-at-ckpt", action="store_true", help="on SIGTERM, finish up to the next checkpoint then exit")
args = p.parse_args()

logger = logging.getLogger()
h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter("[titan] %(asctime)s - %(name)s - %(levelname)s - %(message)s"))
logger.addHandler(h); logger.setLevel(logging.INFO)

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
kw = {}
if args.pg_timeout:
    kw["timeout"] = datetime.timedelta(seconds=args.pg_timeout)
dist.init_process_group("gloo", **kw)
logger.info(f"Starting job: tiny llama-style debug model, world size {world}")
torch.manual_seed(42)


class Block(nn.Module):
    def __init__(s, d, h):
        super().__init__()
        s.n1 = nn.RMSNorm(d); s.attn = nn.MultiheadAttention(d, h, batch_first=True)
        s.n2 = nn.RMSNorm(d); s.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
    def forward(s, x):
        T = x.size(1)
        m = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        y = s.n1(x)
        x = x + s.attn(y, y, y, attn_mask=m, need_weights=False)[0]
        return x + s.ff(s.n2(x))


class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.tok = nn.Embedding(args.vocab, args.dim)
        s.layers = nn.ModuleList([Block(args.dim, args.heads) for _ in range(args.layers)])
        s.norm = nn.RMSNorm(args.dim); s.out = nn.Linear(args.dim, args.vocab, bias=False)
    def forward(s, idx):
        x = s.tok(idx)
        for b in s.layers:
            x = b(x)
        return s.out(s.norm(x))


class Tokens(torch.utils.data.IterableDataset):
    def __init__(s):
        s.rank = rank
    def __iter__(s):
        if args.data and args.sequential:
            data = np.memmap(args.data, dtype=np.uint16, mode="r")
            shard = len(data) // world
            lo, hi = s.rank * shard, (s.rank + 1) * shard if s.rank < world - 1 else len(data)
            off = lo
            while True:
                x = torch.from_numpy(data[off:min(off + args.seq + 1, hi)].astype(np.int64))
                yield x[:-1], x[1:]
                off += args.seq + 1
                if off >= hi:
                    off = lo
        if args.data:
            data = np.memmap(args.data, dtype=np.uint16, mode="r")
            i = s.rank * 104729
            while True:
                off = (i * 7919) % (len(data) - args.seq - 1); i += 2
                x = torch.from_numpy(data[off:off + args.seq + 1].astype(np.int64))
                yield x[:-1], x[1:]
        g = torch.Generator().manual_seed(1000 + s.rank)
        base = torch.randint(0, args.vocab, (4096,), generator=g)
        while True:
            o = int(torch.randint(0, 4096 - args.seq - 1, (1,), generator=g))
            x = base[o:o + args.seq + 1]
            yield x[:-1], x[1:]


model = LM()
nparams = sum(p.numel() for p in model.parameters())
logger.info(f"Model llama3 debugmodel size: {nparams:,} total parameters")
if args.parallel == "fsdp":
    from torch.distributed.fsdp import fully_shard
    from torch.distributed.device_mesh import init_device_mesh
    mesh = init_device_mesh("cpu", (world,))
    for b in model.layers:
        fully_shard(b, mesh=mesh)
    fully_shard(model, mesh=mesh)
    logger.info("Applied FSDP to the model")
else:
    from torch.nn.parallel import DistributedDataParallel as DDP
    model = DDP(model)
    logger.info("Applied DDP to the model")
if args.compile:
    if args.compile_fallback:
        import torch._dynamo
        torch._dynamo.config.suppress_errors = True
    model = torch.compile(model)
    logger.info("Compiling the model with torch.compile")

if args.optim == "sgd":
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
else:
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.1, fused=False)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / args.warmup))
loader = torch.utils.data.DataLoader(Tokens(), batch_size=args.batch, num_workers=args.num_workers)

import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
step = 0
if args.ckpt_interval and os.path.isdir(args.ckpt_folder):
    steps = sorted(int(d.split("-")[1]) for d in os.listdir(args.ckpt_folder) if d.startswith("step-"))
    if steps:
        t0 = time.perf_counter()
        msd, osd = get_state_dict(model, opt)
        state = {"model": msd, "optim": osd, "train_state": {"step": torch.tensor(0)}}
        logger.info(f"Loading the checkpoint at step {steps[-1]}.")
        dcp.load(state, checkpoint_id=os.path.join(args.ckpt_folder, f"step-{steps[-1]}"))
        set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
        step = int(state["train_state"]["step"])
        for _ in range(step):
            sched.step()
        logger.info(f"Finished loading the checkpoint in {time.perf_counter()-t0:.2f} seconds.")
    else:
        logger.info(f"Checkpointing active. Checkpoints will be loaded from and saved to {args.ckpt_folder}")

stop_requested = False
if args.sigterm_at_ckpt:
    import signal
    def _on_term(signum, frame):
        global stop_requested
        stop_requested = True
        logger.warning("Received SIGTERM; will save a checkpoint at the next checkpoint interval and exit")
    signal.signal(signal.SIGTERM, _on_term)

if args.index_file:
    path = args.index_file.format(rank=rank)
    logger.info(f"Loading sample index from {path}")
    t0 = time.perf_counter()
    index = np.load(path)
    logger.info(f"Loaded sample index: {len(index):,} entries in {time.perf_counter()-t0:.2f}s")
    dist.monitored_barrier(timeout=datetime.timedelta(seconds=args.barrier_timeout))
    logger.info("All ranks finished loading the sample index")

metrics_f = None
if args.metrics_dir:
    os.makedirs(args.metrics_dir, exist_ok=True)
    metrics_f = open(os.path.join(args.metrics_dir, f"metrics_rank{rank}.jsonl"), "a")

flops_per_token = 6 * nparams
peak_flops = 2.0e11
logger.info(f"Training starts at step {step + 1}, with local batch size {args.batch}, global batch size "
            f"{args.batch * world}, sequence length {args.seq}, total steps {args.steps} "
            f"(warmup {args.warmup})")
it = iter(loader)
ntok = 0; t_last = time.perf_counter(); losses = []; outputs_history = []
while step < args.steps:
    step += 1
    x, y = next(it)
    ntok += x.numel()
    logits = model(x)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_norm, foreach=True)
    if hasattr(gn, "full_tensor"):
        gn = gn.full_tensor()
    if args.skip_nonfinite and not torch.isfinite(gn):
        logger.warning(f"step {step}: non-finite grad norm {gn.item()}, skipping optimizer step")
        opt.zero_grad(set_to_none=True)
    else:
        opt.step(); opt.zero_grad(set_to_none=True)
    sched.step()
    losses.append(loss.detach())
    if args.keep_outputs:
        outputs_history.append(logits)
    if step == 1 or step % args.log_freq == 0:
        lt = torch.stack(losses).mean(); lmax = torch.stack(losses).max()
        red = torch.stack([lt, -lmax]).clone()
        dist.all_reduce(red, op=dist.ReduceOp.SUM)
        avg_loss = red[0].item() / world
        dt = time.perf_counter() - t_last
        tps = ntok / dt
        tflops = flops_per_token * tps / 1e12
        mfu = 100 * flops_per_token * tps / peak_flops
        import resource
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        logger.info(f"step: {step:2}  loss: {avg_loss:7.4f}  grad_norm: {gn.item():7.4f}  memory: {rss:5.2f}GiB({rss/16*100:.2f}%)"
                    f"  tps: {round(tps):,}  tflops: {tflops:,.4f}  mfu: {mfu:.2f}%")
        if metrics_f:
            metrics_f.write(json.dumps({"step": step, "loss": avg_loss, "grad_norm": gn.item(), "tps": tps}) + "\n"); metrics_f.flush()
        if args.fail_on_nan and not math.isfinite(avg_loss):
            raise RuntimeError(f"Loss is NaN at step {step}; stopping training")
        losses.clear(); ntok = 0; t_last = time.perf_counter()
    if args.eval_freq and step % args.eval_freq == 0:
        with torch.no_grad():
            ex, ey = next(it)
            el = model(ex)
            eval_loss = F.cross_entropy(el.view(-1, el.size(-1)), ey.view(-1)).detach()
        if rank == 0:
            dist.all_reduce(eval_loss)
            eval_loss /= world
            logger.info(f"eval step: {step}  eval_loss: {eval_loss.item():7.4f}  eval_ppl: {math.exp(eval_loss.item()):.2f}")
    if args.ckpt_interval and step % args.ckpt_interval == 0:
        t0 = time.perf_counter()
        logger.info(f"Saving the checkpoint (or staging if async is enabled).")
        msd, osd = get_state_dict(model, opt)
        dcp.save({"model": msd, "optim": osd, "train_state": {"step": torch.tensor(step)}},
                 checkpoint_id=os.path.join(args.ckpt_folder, f"step-{step}"))
        logger.info(f"Finished saving the checkpoint (or staging if async is enabled)in {time.perf_counter()-t0:.2f} seconds.")
        if stop_requested:
            logger.info("Exiting after checkpoint because SIGTERM was received")
            break

logger.info("Sleeping 2 seconds for other ranks to complete")
time.sleep(2)
logger.info("Training completed")
dist.destroy_process_group()
