"""t25.py: a small tabular classifier (MLP, 32 features -> 10 classes) trained with DDP on gloo, with several
log styles, for the h25b_ corpus logs. Batches are read from a float32 feature file (os.pread, or np.memmap with
--mmap); labels come from a fixed random teacher network, so the loss falls."""
import argparse, datetime, math, os, socket, sys, time, urllib.request
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--style", default="composer", choices=["composer", "ds", "plain", "colo"])
p.add_argument("--steps", type=int, default=3000)
p.add_argument("--bs", type=int, default=256)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--log-every", type=int, default=50)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-batches", type=int, default=50)
p.add_argument("--eval-sleep", type=float, default=0.0, help="extra per-eval-batch delay (slow metric computation)")
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-pad-mb", type=int, default=0, help="optimizer-state padding written with each checkpoint")
p.add_argument("--resume", action="store_true")
p.add_argument("--mmap", action="store_true")
p.add_argument("--pg-timeout", type=float, default=120)
p.add_argument("--master", default="", help="addr:port for srun launches")
p.add_argument("--metrics-url", default="", help="optional metrics push endpoint; failures are retried and ignored")
p.add_argument("--warmup-prefetch", type=int, default=0, help="batches read ahead before step 1 (slow first step)")
p.add_argument("--spike-at", type=int, default=0, help="step at which a batch with shuffled labels is used (loss spike)")
p.add_argument("--label-smoothing-cfg", default="", help="config string parsed at eval (k=v,...)")
p.add_argument("--epoch-steps", type=int, default=500)
p.add_argument("--keep-activations", type=float, default=0.0, help="MB of per-step activation copies kept for a 'replay buffer' that is never trimmed")
a = p.parse_args()

if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    host = os.environ.get("SLURMD_NODENAME", socket.gethostname())
    addr, port = a.master.split(":")
    dist.init_process_group("gloo", init_method=f"tcp://{addr}:{port}", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=a.pg_timeout))
else:
    host = socket.gethostname()
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
    rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
torch.set_num_threads(1)
NF, NC = 32, 10

def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")

def out(msg, all_ranks=False):
    if rank == 0 or all_ranks:
        print(msg, flush=True)

# ---- data
nbytes = os.path.getsize(a.data)
nrows = nbytes // (NF * 4)
ntrain = int(nrows * 0.9)
fd = os.open(a.data, os.O_RDONLY)
mm = np.memmap(a.data, dtype=np.float32, mode="r", shape=(nrows, NF)) if a.mmap else None
g = torch.Generator().manual_seed(1234)
teacher = nn.Sequential(nn.Linear(NF, 64), nn.Tanh(), nn.Linear(64, NC))
for q in teacher.parameters():
    q.requires_grad_(False)
    q.data.normal_(0, 1.0, generator=g)

def read_rows(start, n):
    if mm is not None:
        x = np.array(mm[start:start + n])
    else:
        buf = os.pread(fd, n * NF * 4, start * NF * 4)
        x = np.frombuffer(buf, dtype=np.float32).reshape(-1, NF)
    x = torch.from_numpy(x.copy())
    return x, teacher(x).argmax(1)

def batch(step):
    per = ntrain // world
    start = rank * per + ((step * a.bs) % (per - a.bs))
    return read_rows(start, a.bs)

# ---- model
model = nn.Sequential(nn.Linear(NF, a.hidden), nn.GELU(), nn.Linear(a.hidden, a.hidden), nn.GELU(),
                      nn.Linear(a.hidden, NC))
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
nparams = sum(q.numel() for q in model.parameters())
start_step = 0
if a.ckpt_dir:
    os.makedirs(a.ckpt_dir, exist_ok=True)
    last = os.path.join(a.ckpt_dir, "latest")
    if a.resume and os.path.exists(last):
        name = open(last).read().strip()
        sd = torch.load(os.path.join(a.ckpt_dir, name), weights_only=False)
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start_step = sd["step"]

def save(step):
    t0 = time.time()
    name = f"ep{step // a.epoch_steps}-ba{step}-rank0.pt"
    if a.style == "composer":
        out(f"[checkpoint] Saving checkpoint to {a.ckpt_dir}/{name}")
    elif a.style == "ds":
        out(f"[{now()},000] [INFO] [engine.py:3593:_save_checkpoint] Saving model checkpoint: {a.ckpt_dir}/global_step{step}/mp_rank_00_model_states.pt")
    elif a.style == "colo":
        out(f"[{now()}] INFO     colossalai - colossalai - INFO: booster.save_model -> {a.ckpt_dir}/{name}")
    else:
        out(f"{now()} saving checkpoint step={step} -> {a.ckpt_dir}/{name}")
    if rank == 0:
        sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
        if a.ckpt_pad_mb:
            sd["pad"] = torch.randn(a.ckpt_pad_mb * 262144)
        tmp = os.path.join(a.ckpt_dir, name + ".tmp")
        with open(tmp, "wb") as f:
            torch.save(sd, f)
            f.flush(); os.fsync(f.fileno())
        os.replace(tmp, os.path.join(a.ckpt_dir, name))
        with open(os.path.join(a.ckpt_dir, "latest"), "w") as f:
            f.write(name)
    dist.barrier()
    dt = time.time() - t0
    if a.style == "composer":
        out(f"[checkpoint] Saved checkpoint {name} in {dt:.2f}s")
    elif a.style == "ds":
        out(f"[{now()},000] [INFO] [engine.py:3671:_save_checkpoint] successfully saved checkpoint global_step{step} ({dt:.1f}s)")
    elif a.style == "colo":
        out(f"[{now()}] INFO     colossalai - colossalai - INFO: checkpoint saved in {dt:.2f} s")
    else:
        out(f"{now()} checkpoint saved step={step} secs={dt:.2f}")

def evaluate(step):
    t0 = time.time()
    if a.label_smoothing_cfg:
        cfg = dict(kv.split("=") for kv in a.label_smoothing_cfg.split(","))
        smoothing = float(cfg["eval_label_smoothing"])
    else:
        smoothing = 0.0
    model.eval()
    tot = torch.zeros(3)
    with torch.no_grad():
        for i in range(a.eval_batches):
            s = ntrain + ((rank * a.eval_batches + i) * a.bs) % (nrows - ntrain - a.bs)
            x, y = read_rows(s, a.bs)
            lo = model(x)
            tot += torch.tensor([F.cross_entropy(lo, y, label_smoothing=smoothing).item() * len(y),
                                 (lo.argmax(1) == y).sum().item(), len(y)])
            if a.eval_sleep:
                time.sleep(a.eval_sleep)
    dist.all_reduce(tot)
    model.train()
    vl, acc = (tot[0] / tot[2]).item(), (tot[1] / tot[2]).item()
    dt = time.time() - t0
    if a.style == "composer":
        out(f"[Eval batch={a.eval_batches}/{a.eval_batches}] Eval on eval data:")
        out(f"\t Eval metrics/eval/CrossEntropy: {vl:.4f}")
        out(f"\t Eval metrics/eval/MulticlassAccuracy: {acc:.4f}")
        out(f"\t Eval time/eval: {dt:.1f}s")
    elif a.style == "ds":
        out(f"[{now()},000] [INFO] [eval] global_step={step} eval_loss={vl:.4f} eval_acc={acc:.4f} eval_time={dt:.1f}s")
    elif a.style == "colo":
        out(f"[{now()}] INFO     colossalai - colossalai - INFO: [Eval] step {step} | val loss {vl:.4f} | val acc {acc:.2%} | {dt:.1f}s")
    else:
        out(f"{now()} eval step={step} val_loss={vl:.4f} val_acc={acc:.4f} took={dt:.1f}s")

def push_metrics(step, loss):
    if not a.metrics_url or rank != 0:
        return
    for attempt in range(1, 4):
        try:
            urllib.request.urlopen(a.metrics_url + f"?step={step}&loss={loss:.4f}", timeout=0.5)
            return
        except Exception as e:
            print(f"WARNING:metrics_push:push to {a.metrics_url} failed (attempt {attempt}/3): {e!r}; retrying",
                  file=sys.stderr, flush=True)
            time.sleep(0.2)
    print(f"WARNING:metrics_push:giving up on step {step}; metrics will be sent with the next interval",
          file=sys.stderr, flush=True)

# ---- banner
if a.style == "composer":
    out(f"******************************\nConfig:\nnode_name: {host}\nnum_nodes: {world}\nrank_zero_seed: 17\n"
        f"max_duration: {a.steps}ba\ndevice_train_microbatch_size: {a.bs}\nn_params: {nparams}\nbackend: gloo\n"
        "******************************")
elif a.style == "ds":
    out(f"[{now()},000] [INFO] [comm.py:658:init_distributed] Initializing TorchBackend in DeepSpeed with backend gloo")
    out(f"[{now()},000] [INFO] [config.py:1000:print] DeepSpeedEngine configuration: world_size={world} "
        f"train_micro_batch_size_per_gpu={a.bs} gradient_accumulation_steps=1 steps_per_print={a.log_every}")
elif a.style == "colo":
    out(f"[{now()}] INFO     colossalai - colossalai - INFO: colossalai/initialize.py:75 launch")
    out(f"[{now()}] INFO     colossalai - colossalai - INFO: Distributed environment is initialized, world size: {world}")
    out(f"[{now()}] INFO     colossalai - colossalai - INFO: Model params: {nparams/1e6:.2f} M, plugin: TorchDDPPlugin")
else:
    out(f"{now()} start host={host} world={world} params={nparams} steps={a.steps} resume_from={start_step}")
print(f"{now()} rank {rank}/{world} on {host} pid {os.getpid()} ready", flush=True) if a.style == "plain" else None

if a.resume and start_step:
    if a.style == "composer":
        out(f"[checkpoint] Resuming from checkpoint {a.ckpt_dir}/{open(last).read().strip()} at batch {start_step}")
    elif a.style == "ds":
        out(f"[{now()},000] [INFO] [engine.py:3100:load_checkpoint] loaded checkpoint global_step{start_step}")
    else:
        out(f"{now()} resumed from step {start_step}")

if a.warmup_prefetch:
    t0 = time.time()
    out(f"{now()} prefetching {a.warmup_prefetch} batches into the host cache ..." if a.style != "composer"
        else f"[prefetch] warming dataloader cache with {a.warmup_prefetch} batches")
    for i in range(a.warmup_prefetch):
        batch(i)
        _ = torch.randn(400, 400) @ torch.randn(400, 400)
    dist.barrier()

# ---- train
replay = []
t_win = time.time(); t_start = time.time(); n_win = 0; loss_win = 0.0
for step in range(start_step + 1, a.steps + 1):
    x, y = batch(step)
    if a.spike_at and step == a.spike_at:
        y = torch.randint(0, NC, y.shape)
        x = x * 8
    lr = a.lr * min(1.0, step / 200) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / a.steps)))
    for gr in opt.param_groups:
        gr["lr"] = lr
    loss = F.cross_entropy(ddp(x), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
    opt.step()
    n_win += 1; loss_win += loss.item()
    if a.keep_activations:
        replay.append(torch.ones(int(a.keep_activations * 262144)))
    if step % a.log_every == 0 or step == start_step + 1:
        dt = time.time() - t_win
        sps = n_win * a.bs * world / dt
        ml = loss_win / n_win
        ep = (step - 1) // a.epoch_steps
        if a.style == "composer":
            out(f"[batch={step}/{a.steps}]:\n\t Train time/batch: {step}\n\t Train time/sample: {step * a.bs * world}\n"
                f"\t Train time/batch_in_epoch: {(step - 1) % a.epoch_steps + 1}\n\t Train time/epoch: {ep}\n"
                f"\t Train trainer/device_train_microbatch_size: {a.bs}\n\t Train loss/train/total: {ml:.4f}\n"
                f"\t Train throughput/batches_per_sec: {n_win / dt:.4f}\n\t Train throughput/samples_per_sec: {sps:.2f}\n"
                f"\t Train lr-AdamW/group0: {lr:.4e}\n\t Train time/train: {(time.time() - t_start) / 3600:.4f}")
        elif a.style == "ds":
            out(f"[{now()},000] [INFO] [logging.py:107:log_dist] [Rank 0] step={step}, skipped=0, lr=[{lr:.6e}], mom=[(0.9, 0.999)]")
            out(f"steps: {step} loss: {ml:.4f} iter time (s): {dt / n_win:.3f} samples/sec: {sps:.3f}")
        elif a.style == "colo":
            out(f"Epoch [{ep + 1}] Step {step}/{a.steps}: loss={ml:.4f}, lr={lr:.2e}, grad_norm={gn.item():.3f}, "
                f"throughput={sps:.1f} samples/s, step_time={1000 * dt / n_win:.1f}ms")
        else:
            out(f"{now()} step={step}/{a.steps} loss={ml:.4f} lr={lr:.3e} gnorm={gn.item():.2f} "
                f"samples_per_s={sps:.0f} ms_per_step={1000 * dt / n_win:.1f}")
        push_metrics(step, ml)
        t_win = time.time(); n_win = 0; loss_win = 0.0
    if a.eval_every and step % a.eval_every == 0:
        evaluate(step)
        t_win = time.time(); n_win = 0; loss_win = 0.0
    if a.ckpt_dir and a.ckpt_every and step % a.ckpt_every == 0:
        save(step)
        t_win = time.time(); n_win = 0; loss_win = 0.0

total = time.time() - t_start
if a.style == "composer":
    out(f"Training finished: {a.steps} batches in {total:.1f}s")
elif a.style == "ds":
    out(f"[{now()},000] [INFO] [launch] training finished after {a.steps} steps, {total:.1f}s")
elif a.style == "colo":
    out(f"[{now()}] INFO     colossalai - colossalai - INFO: Training complete, total time {total:.1f}s")
else:
    out(f"{now()} done steps={a.steps} elapsed_s={total:.1f}")
dist.destroy_process_group()
