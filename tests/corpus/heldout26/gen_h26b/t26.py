"""Tiny DDP (gloo) regression/classification trainer with several log styles (lab26b held-out logs)."""
import argparse, datetime, json, logging, math, os, sys, time
import numpy as np, torch, torch.distributed as dist, torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--data", required=True); p.add_argument("--style", default="hf")
p.add_argument("--steps", type=int, default=1000); p.add_argument("--log-every", type=int, default=50)
p.add_argument("--batch", type=int, default=64); p.add_argument("--hidden", type=int, default=256)
p.add_argument("--lr", type=float, default=3e-3); p.add_argument("--master", default=None)
p.add_argument("--pg-timeout", type=int, default=1800); p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-every", type=int, default=0); p.add_argument("--ckpt-pad-mb", type=int, default=0)
p.add_argument("--resume", action="store_true"); p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--lr-bump-at", type=int, default=0); p.add_argument("--epoch-rows", type=int, default=0)
p.add_argument("--keep-last", action="store_true"); p.add_argument("--eval-full-at", type=int, default=0); p.add_argument("--tb", action="store_true"); p.add_argument("--fsync", action="store_true")
a = p.parse_args()

if a.master:
    h, pt = a.master.split(":"); os.environ.update(MASTER_ADDR=h, MASTER_PORT=pt,
        RANK=os.environ["SLURM_PROCID"], WORLD_SIZE=os.environ["SLURM_NTASKS"])
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
torch.manual_seed(0); torch.set_num_threads(1)
host = os.uname().nodename
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s [rank%(rank)s]: %(message)s"
                    if a.style == "pylog" else "%(asctime)s | %(levelname)s | %(name)s | %(message)s", stream=sys.stdout)
old = logging.getLogRecordFactory()
def fac(*x, **k):
    r = old(*x, **k); r.rank = rank; return r
logging.setLogRecordFactory(fac)
L = logging.getLogger("trainer.loop" if a.style == "pylog" else "fairseq_cli.train")
LD = logging.getLogger("trainer.data" if a.style == "pylog" else "fairseq.data.data_utils")
LC = logging.getLogger("trainer.checkpoint" if a.style == "pylog" else "fairseq.checkpoint_utils")

D = 32
feat = np.memmap(a.data, dtype=np.float32, mode="r").reshape(-1, D)
N = feat.shape[0] if not a.epoch_rows else a.epoch_rows
g = torch.Generator().manual_seed(1234)
teacher = torch.randn(D, 10, generator=g)
model = nn.Sequential(nn.Linear(D, a.hidden), nn.GELU(), nn.Linear(a.hidden, a.hidden), nn.GELU(), nn.Linear(a.hidden, 10))
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
nparams = sum(p.numel() for p in model.parameters())
per_rank_batches = N // (a.batch * world) + (1 if a.keep_last and N % (a.batch * world) else 0)

def batch(i):
    # rows for global step i on this rank; wraps over an epoch of N rows (last batch may be partial)
    b = (i - 1) % per_rank_batches
    lo = (b * world + rank) * a.batch; hi = min(lo + a.batch, N)
    x = torch.from_numpy(np.array(feat[lo:hi])) if hi > lo else torch.from_numpy(np.array(feat[0:a.batch]))
    y = (x @ teacher).argmax(1)
    return x, y

def out(s):
    print(s, flush=True)

def save(step):
    os.makedirs(a.ckpt_dir, exist_ok=True)
    path = os.path.join(a.ckpt_dir, f"checkpoint_{step}.pt")
    sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
          "pad": torch.zeros(a.ckpt_pad_mb * 262144) if a.ckpt_pad_mb else None}
    t = time.time()
    if a.style == "megatron": out(f"saving checkpoint at iteration {step:8d} to {a.ckpt_dir}")
    elif a.style in ("fairseq", "pylog"): LC.info(f"Preparing to save checkpoint for epoch 1 @ {step} updates")
    elif a.style == "hf": out(f"Saving model checkpoint to {a.ckpt_dir}/checkpoint-{step}")
    elif a.style == "lightning": pass
    with open(path + ".tmp", "wb") as f:
        torch.save(sd, f)
        if a.fsync: f.flush(); os.fsync(f.fileno())
    os.replace(path + ".tmp", path)
    with open(os.path.join(a.ckpt_dir, "latest"), "w") as f: f.write(str(step))
    dt = time.time() - t
    if a.style == "megatron": out(f"  successfully saved checkpoint at iteration {step:8d} to {a.ckpt_dir}")
    elif a.style in ("fairseq", "pylog"): LC.info(f"Saved checkpoint {path} (epoch 1 @ {step} updates, score None) (writing took {dt:.4f} seconds)")
    elif a.style == "hf": out(f"Configuration saved in {a.ckpt_dir}/checkpoint-{step}/config.json")
    elif a.style == "lightning": out(f"Epoch 0, global step {step}: 'train_loss' reached {last_loss:.5f} (best {last_loss:.5f}), saving model to '{path}' as top 1")
    elif a.style == "keras": out(f"Epoch {epoch_of(step)}: saving model to {path}")
    elif a.style == "jsonl": out(json.dumps({"ts": time.strftime("%FT%T"), "event": "checkpoint_saved", "step": step, "path": path, "secs": round(dt, 3)}))

def epoch_of(step): return (step - 1) // per_rank_batches + 1

start = 0
if a.resume and a.ckpt_dir and os.path.exists(os.path.join(a.ckpt_dir, "latest")):
    s = int(open(os.path.join(a.ckpt_dir, "latest")).read())
    path = os.path.join(a.ckpt_dir, f"checkpoint_{s}.pt")
    if a.style == "megatron": out(f" loading checkpoint from {a.ckpt_dir} at iteration {s}")
    else: out(f"Resuming training from checkpoint {path}")
    sd = torch.load(path, map_location="cpu")
    model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
    if a.style == "megatron": out(f"  successfully loaded checkpoint from {a.ckpt_dir} at iteration {start}")

# banners
if rank == 0:
    if a.style == "hf":
        out("***** Running training *****"); out(f"  Num examples = {N:,}"); out(f"  Num Epochs = {math.ceil(a.steps/per_rank_batches)}")
        out(f"  Instantaneous batch size per device = {a.batch}"); out(f"  Total train batch size (w. parallel, distributed & accumulation) = {a.batch*world}")
        out("  Gradient Accumulation steps = 1"); out(f"  Total optimization steps = {a.steps:,}"); out(f"  Number of trainable parameters = {nparams:,}")
    elif a.style == "lightning":
        out("GPU available: False, used: False"); out("TPU available: False, using: 0 TPU cores"); out("HPU available: False, using: 0 HPUs")
        out(f"Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/{world}")
        out("----------------------------------------------------------------------------------------------------")
        out(f"distributed_backend=gloo\nAll distributed processes registered. Starting with {world} processes")
        out("----------------------------------------------------------------------------------------------------\n")
        out("  | Name  | Type       | Params | Mode \n----------------------------------------------\n0 | model | Sequential | " + f"{nparams/1000:.0f} K  | train\n----------------------------------------------")
        out(f"{nparams/1000:.0f} K     Trainable params\n0         Non-trainable params\n{nparams/1000:.0f} K     Total params\n{nparams*4/1e6:.3f}     Total estimated model params size (MB)")
    elif a.style == "megatron":
        out("------------------------ arguments ------------------------")
        for k, v in sorted(vars(a).items()): out(f"  {k} {'.'*(40-len(k))} {v}")
        out("-------------------- end of arguments ---------------------")
        out(f"> building model ...\n > number of parameters on (tensor, pipeline) model parallel rank (0, 0): {nparams}")
        out(f"[after model, optimizer, and learning rate scheduler are built] datetime: {time.strftime('%Y-%m-%d %H:%M:%S')} ")
        out("training ...")
    elif a.style in ("fairseq", "pylog"):
        L.info(f"model: Sequential, criterion: CrossEntropyCriterion"); L.info(f"num. shared model params: {nparams:,} (num. trained: {nparams:,})")
        LD.info(f"loaded {N:,} examples from: {a.data}")
        L.info(f"training on {world} devices (CPUs); max tokens per device = None and max sentences per device = {a.batch}")
    elif a.style == "jsonl":
        out(json.dumps({"ts": time.strftime("%FT%T"), "event": "start", "world_size": world, "params": nparams, "steps": a.steps, "host": host}))
    if a.tb:
        try:
            from torch.utils.tensorboard import SummaryWriter  # noqa
        except Exception:
            logging.getLogger("trainer.loop" if a.style == "pylog" else "fairseq.logging.progress_bar").exception("tensorboard not found, please install with: pip install tensorboard; continuing without it")

bar = None
if rank == 0 and a.style in ("hf", "lightning"):
    from tqdm import tqdm
    bar = tqdm(total=a.steps, initial=start, desc="Epoch 0" if a.style == "lightning" else None, mininterval=2.0, file=sys.stderr)

lossf = nn.CrossEntropyLoss()
t0 = time.time(); tl = t0; acc_loss = 0.0; acc_n = 0; last_loss = float("nan"); keras_t = t0
for step in range(start + 1, a.steps + 1):
    lr = a.lr * min(1.0, step / 100) * (0.5 * (1 + math.cos(math.pi * step / a.steps)) * 0.9 + 0.1)
    if a.lr_bump_at and step >= a.lr_bump_at: lr = lr * 1e15  # a mis-typed lr override (1e12 instead of 1e-3)
    for pg in opt.param_groups: pg["lr"] = lr
    x, y = batch(step)
    xb = x.view(a.batch, 4, D // 4)  # packed as (B, groups, feat) for the grouped input norm
    xb = (xb - xb.mean(-1, keepdim=True)).reshape(a.batch, D)
    loss = lossf(ddp(xb), y)
    opt.zero_grad(); loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0e9 if a.lr_bump_at else 1.0)
    opt.step()
    lv = loss.item(); acc_loss += lv; acc_n += 1; last_loss = lv
    if not math.isfinite(lv):
        if rank == 0 and bar: bar.close()
        raise FloatingPointError(f"Loss is {lv} at step {step}, stopping training (grad norm {gn.item():.3e})")
    if bar: bar.update(1)
    if a.eval_full_at and step == a.eval_full_at:
        if rank == 0: out(f"Running full-dataset evaluation at step {step} ...")
        with torch.no_grad():
            allx = torch.from_numpy(np.array(feat)).repeat(12, 1)  # all rows x 12 augmentations in one go
            big = model[0](allx); big = model[1](big)
            ev = (big.sum() / big.numel()).item()
    if step % a.log_every == 0:
        now = time.time(); dt = (now - tl) / a.log_every; tl = now
        al = acc_loss / acc_n; acc_loss = 0.0; acc_n = 0
        sps = a.batch * world / dt
        ep = step / per_rank_batches
        if a.style == "hf" and rank == 0:
            bar.write(str({"loss": round(al, 4), "grad_norm": round(gn.item(), 4), "learning_rate": float(f"{lr:.4e}"), "epoch": round(ep, 2)}), file=sys.stderr)
        elif a.style == "lightning" and rank == 0:
            bar.set_postfix(v_num=0, train_loss=f"{al:.3f}", refresh=False)
        elif a.style == "megatron" and rank == 0:
            out(f" iteration {step:8d}/{a.steps:8d} | consumed samples: {step*a.batch*world:12d} | elapsed time per iteration (ms): {dt*1000:.1f} | learning rate: {lr:.3E} | global batch size: {a.batch*world:5d} | lm loss: {al:.6E} | loss scale: 1.0 | grad norm: {gn.item():.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        elif a.style == "fairseq" and rank == 0:
            L.name = "train_inner"; logging.getLogger("train_inner").info(f"epoch {int(ep)+1:03d}:  {step % per_rank_batches or per_rank_batches:5d} / {per_rank_batches} loss={al/math.log(2):.3f}, ppl={2**(al/math.log(2)):.2f}, wps={sps*D:.0f}, ups={1/dt:.2f}, wpb={a.batch*world*D}, bsz={a.batch*world}, num_updates={step}, lr={lr:.5g}, gnorm={gn.item():.3f}, train_wall={now-t0:.0f}, gb_free=N/A, wall={now-t0:.0f}")
        elif a.style == "pylog":
            L.info(f"step {step}/{a.steps} | loss {al:.4f} | lr {lr:.3e} | grad_norm {gn.item():.3f} | {sps:.0f} samples/s | {dt*1000:.1f} ms/step")
        elif a.style == "jsonl":
            out(json.dumps({"ts": time.strftime("%FT%T"), "rank": rank, "step": step, "loss": round(al, 5), "lr": float(f"{lr:.4e}"), "grad_norm": round(gn.item(), 4), "samples_per_sec": round(sps, 1), "step_ms": round(dt * 1000, 2)}))
        elif a.style == "keras" and rank == 0:
            out(f"{step % per_rank_batches or per_rank_batches}/{per_rank_batches} - {now-keras_t:.0f}s - loss: {al:.4f} - lr: {lr:.4e} - {dt*1000:.0f}ms/step")
    if a.style == "keras" and rank == 0 and step % per_rank_batches == 1:
        out(f"Epoch {epoch_of(step)}/{math.ceil(a.steps/per_rank_batches)}"); keras_t = time.time()
    if a.ckpt_dir and a.ckpt_every and step % a.ckpt_every == 0:
        if rank == 0: save(step)
        dist.barrier()
if bar: bar.close()
if rank == 0:
    tot = time.time() - t0
    if a.style == "hf": out(f"\n\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n\n"); out(str({"train_runtime": round(tot, 2), "train_samples_per_second": round((a.steps-start)*a.batch*world/tot, 3), "train_steps_per_second": round((a.steps-start)/tot, 3), "train_loss": round(last_loss, 4), "epoch": round(a.steps/per_rank_batches, 2)}))
    elif a.style == "lightning": out(f"`Trainer.fit` stopped: `max_steps={a.steps}` reached.")
    elif a.style == "megatron": out(f"[after training is done] datetime: {time.strftime('%Y-%m-%d %H:%M:%S')} ")
    elif a.style in ("fairseq", "pylog"): L.info(f"done training in {tot:.1f} seconds")
    elif a.style == "jsonl": out(json.dumps({"ts": time.strftime("%FT%T"), "event": "end", "step": a.steps, "secs": round(tot, 1)}))
    elif a.style == "keras": out("Training finished.")
dist.destroy_process_group()
