#!/usr/bin/env python3
"""t33: a small DDP (gloo, CPU) classification trainer that prints like ten other projects, for heldout33 gen_h33b
(started from heldout32's gen_h32b/t32.py: same model, data and optimiser; every earlier style dropped, new styles and knobs).

Rank/world come from torchrun (RANK/WORLD_SIZE) or from srun (SLURM_PROCID/SLURM_NTASKS with --master host:port).
Styles (--style): neox, axolotl, tvref, gluon, sb3, dgl, flair, catalyst, mindspore, monai.
"""
import argparse, datetime, faulthandler, json, logging, math, os, shutil, signal, socket, sys, threading, time, traceback, warnings

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--style", default="neox")
p.add_argument("--data", default="/work/lab33b/data/feat.bin")
p.add_argument("--rows", type=int, default=60000)
p.add_argument("--dim", type=int, default=48)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--batch", type=int, default=96)
p.add_argument("--steps", type=int, default=2000)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--log-every", type=int, default=50)
p.add_argument("--epoch-steps", type=int, default=0)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-pad-mb", type=int, default=0)
p.add_argument("--ckpt-retries", type=int, default=0)     # a failed save (OSError) is retried this many times (5 s apart)
p.add_argument("--resume", action="store_true")
p.add_argument("--master", default="")
p.add_argument("--pg-timeout", type=int, default=1800)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--persistent", action="store_true")
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-extra-s", type=float, default=0)  # an expensive "full" evaluation at the first eval (silent, this many s)
p.add_argument("--noisy", action="store_true")
p.add_argument("--read", default="memmap")               # memmap | pread | open (open+read the file for every sample)
p.add_argument("--flood", action="store_true")           # a warning every step (healthy noise)
p.add_argument("--plugin", default="")                   # import this module at start (a metrics plugin)
p.add_argument("--cache-mb", type=int, default=0)        # at --cache-at every rank builds an in-memory feature index of this size
p.add_argument("--cache-at", type=int, default=0)
p.add_argument("--nested-at", type=int, default=0)       # at this step rank 0 serialises a deeply nested run-config (json)
p.add_argument("--nested-depth", type=int, default=0)
p.add_argument("--fork-lock-at", type=int, default=0)   # from this step a stats thread holds a lock the DataLoader workers also take
p.add_argument("--usr1-save", action="store_true")     # SIGUSR1: save a checkpoint at the next step and go on
p.add_argument("--uploader", default="")                 # host:port of a metrics collector; a background thread posts to it
p.add_argument("--tag", default="")
a = p.parse_args()

if a.master:
    mh, mp = a.master.split(":")
    os.environ.setdefault("MASTER_ADDR", mh); os.environ.setdefault("MASTER_PORT", mp)
    os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
    os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
    os.environ.setdefault("LOCAL_RANK", "0")
rank = int(os.environ.get("RANK", 0)); world = int(os.environ.get("WORLD_SIZE", 1)); lrank = int(os.environ.get("LOCAL_RANK", 0))
S = a.style
host = os.environ.get("SLURMD_NODENAME") or os.uname().nodename
PID = os.getpid()
EXP = a.tag or "mlp48"
faulthandler.enable()
if a.nested_depth: sys.setrecursionlimit(a.nested_depth * 4 + 1000)

def hms(sec):
    sec = int(sec); return f"{sec // 3600}:{sec % 3600 // 60:02d}:{sec % 60:02d}"

# ---------------------------------------------------------------- output plumbing per style
class Axo(logging.Formatter):
    def format(s, r):
        t = self_time(r)
        return f"[{t}] [{r.levelname}] [{r.name}.{r.funcName}:{r.lineno}] [PID:{r.process}] [RANK:{rank}] {r.getMessage()}"
def self_time(r):
    return datetime.datetime.fromtimestamp(r.created).strftime("%Y-%m-%d %H:%M:%S") + f",{int(r.msecs):03d}"

class MS(logging.Formatter):
    """MindSpore: '[WARNING] ME(pid:tid,MainProcess):2024-11-25-14:30:00.123.456 [mindspore/file.py:123] message'."""
    def format(s, r):
        t = datetime.datetime.fromtimestamp(r.created)
        us = t.strftime("%f")
        return f"[{r.levelname}] ME({r.process}:{r.thread % 10**15},{r.processName}):{t.strftime('%Y-%m-%d-%H:%M:%S')}.{us[:3]}.{us[3:]} [{getattr(r, 'src', 'mindspore/train/model.py:1090')}] {r.getMessage()}"

root = logging.getLogger(); root.handlers.clear()
h = logging.StreamHandler(sys.stdout)
lvl = logging.INFO if rank == 0 else logging.WARNING
if S == "axolotl":
    h.setFormatter(Axo())
elif S == "gluon":
    h.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
elif S == "flair":
    h.setFormatter(logging.Formatter("%(asctime)-15s %(message)s"))
elif S == "mindspore":
    h.setFormatter(MS()); lvl = logging.INFO
elif S == "monai":
    h.setFormatter(logging.Formatter("%(asctime)s - %(message)s"))
elif S == "catalyst":
    h.setFormatter(logging.Formatter("%(message)s"))
else:
    h.setFormatter(logging.Formatter("%(message)s"))
root.addHandler(h); root.setLevel(lvl)
logging.captureWarnings(True)
L = logging.getLogger({"axolotl": "axolotl.train", "gluon": "root", "flair": "flair", "mindspore": "mindspore", "monai": "StatsHandler"}.get(S, "__main__"))
if S == "gluon": L = logging.getLogger()
def lg(name): return logging.getLogger(name)

def r0(msg, err=False):
    if rank == 0: print(msg, file=sys.stderr if err else sys.stdout, flush=True)

def info(msg):
    if S in ("neox", "tvref", "sb3", "catalyst"): r0(msg)
    elif S == "dgl": print(msg, flush=True)
    elif S == "mindspore":
        if rank == 0: print(msg, flush=True)
    else: L.info(msg)

def warn(msg):
    if S in ("neox", "tvref", "sb3", "catalyst", "dgl"): print(f"WARNING: {msg}", file=sys.stderr, flush=True)
    elif S == "mindspore": L.warning(msg, extra={"src": "mindspore/train/callback/_callback.py:412"})
    else: L.warning(msg)

if a.plugin:
    import importlib
    importlib.import_module(a.plugin)

# ---------------------------------------------------------------- distributed init
if S == "tvref":
    print(f"| distributed init (rank {rank}): env://", flush=True)
if S == "neox":
    r0(f"NeoXArgs.from_ymls() ['configs/{EXP}.yml', 'configs/local_setup.yml']")
    r0(f"> initializing torch distributed ...")
if S == "mindspore":
    L.warning("For 'context.set_context', the parameter 'device_target' will be deprecated and removed in a future version. Please use the api mindspore.set_device() instead.", extra={"src": "mindspore/context.py:1358"})
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
torch.manual_seed(0); torch.set_num_threads(1)

# ---------------------------------------------------------------- data
import fcntl
LOCK = threading.Lock()
class Feats(Dataset):
    def __init__(s):
        g = np.random.default_rng(11); s.w = g.standard_normal((a.dim, 10)).astype(np.float32)
        s.x = np.memmap(a.data, dtype=np.float32, mode="r", shape=(a.rows, a.dim)); s.fd = None
        if a.read == "pread": s.fd = os.open(a.data, os.O_RDONLY)
    def __len__(s): return a.rows
    def row(s, i):
        if a.fork_lock_at:
            with LOCK: pass
        if a.read == "open":
            with open(a.data, "rb") as f:
                f.seek(i * a.dim * 4); return np.frombuffer(f.read(a.dim * 4), dtype=np.float32).copy()
        if s.fd is not None:
            return np.frombuffer(os.pread(s.fd, a.dim * 4, i * a.dim * 4), dtype=np.float32).copy()
        return np.array(s.x[i])
    def __getitem__(s, i):
        x = s.row(i)
        return torch.from_numpy(x), int(np.argmax(x @ s.w))

class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.inp = nn.Linear(a.dim, a.hidden); s.mid = nn.Linear(a.hidden, a.hidden); s.out = nn.Linear(a.hidden, 10)
        s.norm = nn.LayerNorm(a.hidden)
    def forward(s, x):
        h = F.gelu(s.inp(x))
        h = s.norm(F.gelu(s.mid(h)) + h)
        return s.out(h)

model = Net(); nparam = sum(q.numel() for q in model.parameters())
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr, weight_decay=0.01)
ds = Feats()
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)
dl = DataLoader(ds, batch_size=a.batch, sampler=sampler, num_workers=a.workers, drop_last=True,
                persistent_workers=a.persistent and a.workers > 0)
per_epoch = len(dl)
EP = a.epoch_steps or per_epoch
NEP = math.ceil(a.steps / EP)
PEAK = 2.0e11

def lr_at(s):
    w = 100
    return a.lr * (s / w if s < w else 0.5 * (1 + math.cos(math.pi * min(1.0, (s - w) / max(1, a.steps - w)))))

# ---------------------------------------------------------------- checkpoints
def ckpt_path(step):
    d = a.ckpt_dir; e = step // EP
    return {"neox": f"{d}/global_step{step}/mp_rank_00_model_states.pt", "axolotl": f"{d}/checkpoint-{step}/pytorch_model.bin",
            "tvref": f"{d}/model_{e}.pth", "gluon": f"{d}/{EXP}-{e:04d}.params", "sb3": f"{d}/rl_model_{step * a.batch * world}_steps.zip",
            "dgl": f"{d}/graphsage_step{step}.pt", "flair": f"{d}/checkpoint_step{step}.pt", "catalyst": f"{d}/checkpoints/train.{e}.pth",
            "mindspore": f"{d}/{EXP}-{e}_{step % EP or EP}.ckpt", "monai": f"{d}/net_checkpoint_{step}.pt"}[S]

def latest_ckpt():
    if not (a.ckpt_dir and os.path.isdir(a.ckpt_dir)): return None, 0
    best = (None, 0)
    for n in range(0, a.steps + 1, max(1, a.ckpt_every)):
        if n and os.path.exists(ckpt_path(n)): best = (ckpt_path(n), n)
    return best

start = 0
if a.resume:
    path, st = latest_ckpt()
    if path:
        info(f"Resuming from {path}")
        sd = torch.load(path, map_location="cpu", weights_only=False)
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]

def write_ckpt(path, step):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    sd = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}
    if a.ckpt_pad_mb: sd["pad"] = torch.zeros(a.ckpt_pad_mb * 262144)
    with open(path, "wb") as f:
        torch.save(sd, f); f.flush(); os.fsync(f.fileno())

def save(step):
    path = ckpt_path(step); t0 = time.time()
    if rank == 0:
        if S == "neox": print(f"saving checkpoint at iteration {step:7d} to {a.ckpt_dir}", flush=True)
        elif S == "axolotl": lg("transformers.trainer").info(f"Saving model checkpoint to {os.path.dirname(path)}")
        elif S == "tvref": pass
        elif S == "dgl": print(f"Part {rank}, saving model to {path}", flush=True)
        elif S == "flair": L.info("saving model of current epoch") if False else None
        for k in range(a.ckpt_retries + 1):
            try:
                write_ckpt(path, step); break
            except OSError as e:
                if k == a.ckpt_retries: raise
                warn(f"checkpoint save to {path} failed ({e}); retrying in 5 s ({k + 1}/{a.ckpt_retries})"); time.sleep(5)
    dist.barrier()
    dt = time.time() - t0
    if rank == 0:
        if S == "neox": print(f"  successfully saved checkpoint at iteration {step:7d} to {a.ckpt_dir}", flush=True)
        elif S == "gluon": L.info(f'Saved checkpoint to "{path}"')
        elif S == "sb3": pass
        elif S == "catalyst": pass
        elif S == "monai": lg("CheckpointSaver").info(f"Saved checkpoint at iteration: {step}") if False else L.info(f"Saved checkpoint at epoch: {step // EP}")
        elif S == "axolotl": lg("axolotl.callbacks").info(f"checkpoint saved in {dt:.2f}s")

# ---------------------------------------------------------------- evaluation
def evaluate():
    ddp.eval(); tot = 0.0; c1 = 0.0; c5 = 0.0; n = 0; t0 = time.time()
    with torch.no_grad():
        for i in range(0, 12000, 1000):
            xb = torch.from_numpy(np.array(ds.x[i:i + 1000]))
            yb = torch.from_numpy(np.argmax(xb.numpy() @ ds.w, 1))
            o = model(xb); tot += F.cross_entropy(o, yb).item() * len(xb); n += len(xb)
            c1 += (o.argmax(1) == yb).sum().item(); c5 += (o.topk(5, 1).indices == yb[:, None]).any(1).sum().item()
    if a.eval_extra_s and not W.extra_done:
        W.extra_done = True; time.sleep(a.eval_extra_s)   # the full-set evaluation the run does once (no output while it runs)
    t = torch.tensor([tot, c1, n, c5]); dist.all_reduce(t); ddp.train()
    return (t[0] / t[2]).item(), (t[1] / t[2]).item(), time.time() - t0, (t[3] / t[2]).item()

# ---------------------------------------------------------------- a metrics uploader thread (noise)
UPQ = []
def uploader():
    backoff = 1
    while True:
        time.sleep(2)
        if not UPQ: continue
        step = UPQ[-1]
        try:
            hh, pp = a.uploader.split(":")
            c = socket.create_connection((hh, int(pp)), timeout=2); c.sendall(json.dumps({"step": step}).encode()); c.close(); backoff = 1
        except OSError as e:
            warn(f"metrics upload failed ({e!r}); retrying in {backoff}s, {len(UPQ)} records buffered")
            time.sleep(backoff); backoff = min(backoff * 2, 16)
if a.uploader and rank == 0:
    threading.Thread(target=uploader, name="metrics-uploader", daemon=True).start()

def stats_thread():
    """Collects DataLoader queue statistics; holds LOCK while it samples (the workers take it per sample)."""
    while True:
        with LOCK:
            time.sleep(0.05)
        time.sleep(0.001)
USR1 = []
if a.usr1_save:
    signal.signal(signal.SIGUSR1, lambda n, f: USR1.append(n))

# ---------------------------------------------------------------- banners
def banner():
    if S == "neox":
        r0(f"> setting tensorboard ...")
        r0(f"> building GPT2BPETokenizer tokenizer ...")
        r0(f"> initializing model parallel with size 1")
        r0(f"> setting random seeds to 1234 ...")
        r0(f"building GPT2 model ...")
        r0(f"SEED_LAYERS=False BASE_SEED=1234 SEED_FN=None")
        r0(f" > number of parameters on model parallel rank 0: {nparam}")
        r0(f"> learning rate decay style: cosine")
        r0(f"> building train, validation, and test datasets ...")
        r0(f"    train:      {a.steps * a.batch * world}\n    validation: 12000\n    test:       0")
        r0(f"setting training data start iteration to {start}")
        r0(f"done with setups ...")
        r0(f"time (ms) | model and optimizer: {312.8:.2f} | train/valid/test data iterators: {41.6:.2f}")
        r0(f"training ...")
    elif S == "axolotl":
        L.info(f"loading tokenizer... EleutherAI/{EXP}")
        lg("axolotl.utils.data").info(f"Loading prepared dataset from disk at last_run_prepared/{EXP}...")
        lg("axolotl.utils.trainer").info(f"total_num_steps: {a.steps}")
        lg("axolotl.utils.models").info(f"converting modules to torch.float32")
        lg("axolotl.train").info(f"Starting trainer...")
        if rank == 0:
            print(f"***** Running training *****\n  Num examples = {a.rows:,}\n  Num Epochs = {NEP}\n  Instantaneous batch size per device = {a.batch}\n"
                  f"  Total train batch size (w. parallel, distributed & accumulation) = {a.batch * world}\n  Gradient Accumulation steps = 1\n"
                  f"  Total optimization steps = {a.steps:,}\n  Number of trainable parameters = {nparam:,}", flush=True)
    elif S == "tvref":
        r0(f"Namespace(data_path='{a.data}', model='{EXP}', device='cpu', batch_size={a.batch}, epochs={NEP}, workers={a.workers}, opt='adamw', lr={a.lr}, "
           f"momentum=0.9, weight_decay=0.01, label_smoothing=0.0, lr_scheduler='cosineannealinglr', lr_warmup_epochs=0, print_freq={a.log_every}, "
           f"output_dir='{a.ckpt_dir or '.'}', resume='', start_epoch=0, sync_bn=False, test_only=False, amp=False, world_size={world}, dist_url='env://', "
           f"distributed=True, rank={rank}, gpu=0, dist_backend='gloo')")
        r0("Loading data\nLoading training data\nTook 0.0123456789 seconds\nLoading validation data\nCreating data loaders\nCreating model\nStart training")
    elif S == "gluon":
        L.info(f"Namespace(batch_size={a.batch}, kv_store='dist_sync', lr={a.lr}, model='{EXP}', num_epochs={NEP}, log_interval={a.log_every}, save_frequency=1)")
        L.info(f"Start training with [cpu(0)]")
    elif S == "sb3":
        r0("Using cpu device\nWrapping the env with a `Monitor` wrapper\nWrapping the env in a DummyVecEnv.")
    elif S == "dgl":
        print(f"rank: {rank}", flush=True)
        print(f"Namespace(graph_name='{EXP}', ip_config='ip_config.txt', part_config='data/{EXP}.json', n_classes=10, backend='gloo', num_gpus=-1, "
              f"num_epochs={NEP}, num_hidden={a.hidden}, num_layers=2, fan_out='10,25', batch_size={a.batch}, batch_size_eval=1000, log_every={a.log_every}, "
              f"eval_every={a.eval_every}, lr={a.lr}, dropout=0.5, local_rank={lrank}, pad_data=False, net_type='socket')", flush=True)
        print(f"part {rank}, train: {a.rows // world} (local: {a.rows // world}), val: 6000 (local: 6000), test: 6000 (local: 6000)", flush=True)
    elif S == "flair":
        D = "-" * 100
        L.info(D); L.info(f'Model: "TextClassifier(\n  (decoder): Linear(in_features={a.hidden}, out_features=10, bias=True)\n  (loss_function): CrossEntropyLoss()\n)"')
        L.info(D); L.info(f"Corpus: {a.rows} train + 12000 dev + 0 test sentences"); L.info(D)
        L.info("Train:  %d sentences" % a.rows); L.info("        (train_with_dev=False, train_with_test=False)"); L.info(D)
        L.info("Training Params:"); L.info(f' - learning_rate: "{a.lr}" '); L.info(f' - mini_batch_size: "{a.batch}"'); L.info(f' - max_epochs: "{NEP}"')
        L.info(' - shuffle: "True"'); L.info(D); L.info("Plugins:"); L.info(" - LinearScheduler | warmup_fraction: '0.1'"); L.info(D)
        L.info("Final evaluation on model from best epoch (best-model.pt)"); L.info(" - metric: \"('micro avg', 'f1-score')\""); L.info(D)
        L.info("Computation:"); L.info(" - compute on device: cpu"); L.info(" - embedding storage: cpu"); L.info(D)
        L.info(f'Model training base path: "{a.ckpt_dir or "resources/taggers/" + EXP}"'); L.info(D)
        L.info(f"Multi-GPU training: world size {world}, rank {rank}"); L.info(D)
    elif S == "catalyst":
        pass
    elif S == "mindspore":
        if rank == 0: print(f"============== Starting Training ==============", flush=True)
    elif S == "monai":
        lg("ignite.engine.engine.SupervisedTrainer").info(f"Engine run resuming from iteration {start}, epoch {start // EP} until {NEP} epochs") if rank == 0 else None
    if a.noisy:
        warnings.warn("torch.distributed._all_gather_base is a private function and will be deprecated. Please use torch.distributed.all_gather_into_tensor instead.", FutureWarning)
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.", FutureWarning)

# ---------------------------------------------------------------- per-style progress lines
class W:
    t = time.time(); ep_t = time.time(); loss_sum = 0.0; loss_n = 0; ep_loss = 0.0; ep_n = 0; best = None; best_ep = 0; tot_loss = 0.0; tot_n = 0
    acc = 0.0; val = None; extra_done = False; losses = []; accs = []; bt = []; last = time.time(); ep_sq = 0.0
from tqdm import tqdm
bar = None

def sb3_table(d):
    """stable-baselines3 HumanOutputFormat."""
    rows = []; tag = None
    for k in d:
        v = d[k]
        vs = f"{v:<8.3g}" if isinstance(v, float) else str(v)
        if "/" in k:
            t, kk = k.split("/", 1)
            if t != tag: rows.append((t + "/", "")); tag = t
            rows.append(("   " + kk, vs))
        else: rows.append((k, vs))
    kw = max(len(r[0]) for r in rows); vw = max(len(r[1]) for r in rows)
    dash = "-" * (kw + vw + 7)
    out = [dash] + [f"| {k}{' ' * (kw - len(k))} | {v}{' ' * (vw - len(v))} |" for k, v in rows] + [dash]
    return "\n".join(out)

def new_epoch(ep):
    global bar
    W.ep_t = time.time(); W.ep_loss = 0.0; W.ep_n = 0; W.acc = 0.0; W.ep_sq = 0.0
    if rank != 0: return
    if S == "tvref": pass
    elif S == "catalyst":
        bar = tqdm(total=EP, desc=f"{ep + 1}/{NEP} * Epoch (train)", mininterval=3.0, file=sys.stderr, ncols=None, dynamic_ncols=False)
    elif S == "axolotl":
        pass

def on_step(step, loss, gn, acc1, acc5):
    ep = (step - 1) // EP; i = (step - 1) % EP
    W.loss_sum += loss; W.loss_n += 1; W.ep_loss += loss; W.ep_n += 1; W.tot_loss += loss; W.tot_n += 1; W.acc += acc1; W.ep_sq += loss * loss
    now = time.time(); W.bt.append(now - W.last); W.last = now
    W.losses.append(loss); W.accs.append((acc1, acc5)); W.losses = W.losses[-20:]; W.accs = W.accs[-20:]; W.bt = W.bt[-20:]
    if bar is not None:
        bar.update(1)
        if S == "catalyst": bar.set_postfix(accuracy01=f"{acc1:.3f}", loss=f"{loss:.3f}", lr=f"{lr_at(step):.4f}", refresh=False)
    if a.flood:
        warn_flood(step)
    if step % a.log_every and not (S == "tvref" and i == 0): return
    dt = time.time() - W.t; W.t = time.time(); n = max(1, W.loss_n); sps = a.batch * world * n / dt; lr = lr_at(step)
    avg = W.loss_sum / n; W.loss_sum = 0.0; W.loss_n = 0
    ms = 1000 * dt / n
    if S == "neox":
        r0(f" samples/sec: {sps:.3f} | iteration {step:8d}/{a.steps:8d} | elapsed time per iteration (ms): {ms:.1f} | learning rate: {lr:.3E} | "
           f"approx flops per GPU: {6 * nparam * a.batch / (dt / n) / 1e12:.1f}TFLOPS | lm_loss: {avg:.6E} | loss scale: 1.0 | "
           f"number of skipped iterations:   0 | number of nan iterations:   0 |")
    elif S == "axolotl":
        r0(f"{{'loss': {avg:.4f}, 'grad_norm': {gn:.6f}, 'learning_rate': {lr:.6e}, 'epoch': {step / EP:.2f}}}")
    elif S == "tvref":
        if rank == 0:
            bt = sum(W.bt) / len(W.bt); l = W.losses; ac = W.accs
            eta = datetime.timedelta(seconds=int(bt * (EP - i)))
            print(f"Epoch: [{ep}]  [{i:>{len(str(EP))}}/{EP}]  eta: {eta}  lr: {lr}  img/s: {a.batch / bt:.4f}  loss: {loss:.4f} ({np.median(l):.4f})  "
                  f"acc1: {100 * acc1:.4f} ({100 * np.mean([x[0] for x in ac]):.4f})  acc5: {100 * acc5:.4f} ({100 * np.mean([x[1] for x in ac]):.4f})  "
                  f"time: {bt:.4f}  data: {min(W.bt) * 0.04:.4f}", flush=True)
    elif S == "gluon":
        L.info(f"Epoch[{ep}] Batch [{max(0, i + 1 - a.log_every)}-{i + 1}]\tSpeed: {sps / world:.2f} samples/sec\taccuracy={W.acc / max(1, W.ep_n):.6f}")
    elif S == "sb3":
        if rank == 0:
            el = time.time() - T_START
            print(sb3_table({"rollout/ep_len_mean": 200.0, "rollout/ep_rew_mean": float(-100 * avg), "time/fps": int(sps), "time/iterations": step // a.log_every,
                             "time/time_elapsed": int(el), "time/total_timesteps": step * a.batch * world, "train/approx_kl": float(0.004 + gn / 1000),
                             "train/clip_fraction": float(0.05 + 0.01 * avg), "train/clip_range": 0.2, "train/entropy_loss": float(-1.4 + 0.1 * avg),
                             "train/explained_variance": float(1 - avg / 2.3), "train/learning_rate": float(lr), "train/loss": float(avg),
                             "train/n_updates": step, "train/policy_gradient_loss": float(-0.002 * avg), "train/std": 0.998, "train/value_loss": float(avg * 40)}), flush=True)
    elif S == "dgl":
        print(f"Part {rank} | Epoch {ep:05d} | Step {i + 1:05d} | Loss {loss:.4f} | Train Acc {acc1:.4f} | Speed (samples/sec) {sps / world:.4f} | "
              f"GPU 0.0 MB | Mean step time {dt / n:.3f} s", flush=True)
    elif S == "flair":
        if (i + 1) % max(1, EP // 10) == 0 or True:
            el = time.time() - W.ep_t
            L.info(f"epoch {ep + 1} - iter {i + 1}/{EP} - loss {W.ep_loss / W.ep_n:.8f} - time (sec): {el:.2f} - samples/sec: {sps / world:.2f} - lr: {lr:.6f} - momentum: 0.000000")
    elif S == "mindspore":
        if rank == 0: print(f"epoch: {ep + 1} step: {i + 1}, loss is {loss}", flush=True)
    elif S == "monai":
        L.info(f"Epoch: {ep + 1}/{NEP}, Iter: {i + 1}/{EP} -- train_loss: {loss:.4f} ")

def warn_flood(step):
    if S == "sb3": print(f"/work/lab33b/venv/lib/python3.11/site-packages/torch/nn/modules/module.py:1773: UserWarning: obs dtype float32 differs from the declared observation space dtype float64; casting", file=sys.stderr, flush=True)
    else: warn(f"tokenizer: sequence {step * a.batch} truncated to max_seq_len=48 (64 tokens); set truncation_side or raise max_seq_len to silence this warning")

def on_epoch_end(ep, step):
    global bar
    el = time.time() - W.ep_t
    if bar is not None: bar.close(); bar = None
    v = evaluate() if a.eval_every else None
    tl = W.ep_loss / max(1, W.ep_n); ta = W.acc / max(1, W.ep_n)
    if rank != 0 and S not in ("dgl", "mindspore"): return
    if S == "tvref":
        print(f"Epoch: [{ep}] Total time: {datetime.timedelta(seconds=int(el))}", flush=True)
        if v:
            print(f"Test:  [ 0/12]  eta: 0:00:00  loss: {v[0]:.4f} ({v[0]:.4f})  acc1: {100 * v[1]:.4f} ({100 * v[1]:.4f})  acc5: {100 * v[3]:.4f} ({100 * v[3]:.4f})  time: {v[2] / 12:.4f}  data: 0.0011", flush=True)
            print(f"Test:  Total time: {datetime.timedelta(seconds=int(v[2]))}\nTest:  Acc@1 {100 * v[1]:.3f} Acc@5 {100 * v[3]:.3f}", flush=True)
    elif S == "gluon":
        L.info(f"Epoch[{ep}] Train-accuracy={ta:.6f}"); L.info(f"Epoch[{ep}] Time cost={el:.3f}")
        if v: L.info(f"Epoch[{ep}] Validation-accuracy={v[1]:.6f}")
    elif S == "dgl":
        print(f"Part {rank}, Epoch Time(s): {el:.4f}, sample+data_copy: {el * 0.08:.4f}, forward: {el * 0.31:.4f}, backward: {el * 0.47:.4f}, update: {el * 0.09:.4f}, "
              f"#seeds: {EP * a.batch}, #inputs: {EP * a.batch * 27}", flush=True)
        if v: print(f"Part {rank}, Val Acc {v[1]:.4f}, Test Acc {v[1] - 0.004:.4f}, time: {v[2]:.4f}", flush=True)
    elif S == "flair":
        D = "-" * 100
        L.info(D); L.info(f"EPOCH {ep + 1} done: loss {tl:.4f} - lr: {lr_at(step):.6f}")
        if v:
            L.info(f"DEV : loss {v[0]:.8f} - f1-score (micro avg)  {v[1]:.4f}")
            if W.best is None or v[1] > W.best:
                W.best = v[1]; L.info(f" - 0 epochs without improvement"); L.info("saving best model")
            else: L.info(f" - 1 epochs without improvement")
        L.info(D)
    elif S == "catalyst":
        fps = EP * a.batch * world / el
        print(f"train ({ep + 1}/{NEP}) _timer/_fps: {fps:.4f} | _timer/batch_time: {el / EP:.4f} | _timer/data_time: {el / EP * 0.05:.4f} | _timer/model_time: {el / EP * 0.95:.4f} | "
              f"accuracy01: {ta:.4f} | accuracy01/std: {0.04:.4f} | loss: {tl:.4f} | loss/mean: {tl:.4f} | loss/std: {math.sqrt(max(0.0, W.ep_sq / max(1, W.ep_n) - tl * tl)):.4f} | lr: {lr_at(step):.6f} | momentum: 0.9000", flush=True)
        if v:
            print(f"valid ({ep + 1}/{NEP}) _timer/_fps: {12000 / v[2]:.4f} | _timer/batch_time: {v[2] / 12:.4f} | accuracy01: {v[1]:.4f} | accuracy03: {v[3] - 0.05:.4f} | accuracy05: {v[3]:.4f} | loss: {v[0]:.4f}", flush=True)
            print(f"* Epoch ({ep + 1}/{NEP}) ", flush=True)
    elif S == "mindspore":
        if rank == 0: print(f"epoch time: {1000 * el:.3f} ms, per step time: {1000 * el / EP:.3f} ms", flush=True)
    elif S == "monai":
        if v:
            L.info(f"Epoch[{ep + 1}] Metrics -- val_accuracy: {v[1]:.4f} val_loss: {v[0]:.4f} ")
            if W.best is None or v[1] > W.best:
                W.best = v[1]; W.best_ep = ep + 1
            L.info(f"Key metric: val_accuracy best value: {W.best:.4f} at epoch: {W.best_ep}")
        lg("ignite.engine.engine.SupervisedTrainer").info(f"Epoch[{ep + 1}] Complete. Time taken: {int(el) // 3600:02d}:{int(el) % 3600 // 60:02d}:{int(el) % 60:02d}.{int(el * 1000) % 1000:03d}")
    elif S == "axolotl":
        if v: print(f"{{'eval_loss': {v[0]:.6f}, 'eval_runtime': {v[2]:.4f}, 'eval_samples_per_second': {12000 / v[2]:.3f}, 'eval_steps_per_second': {12 / v[2]:.3f}, 'epoch': {step / EP:.2f}}}", flush=True)
    elif S == "neox":
        if v:
            D = "-" * 91
            print(f"{D}\n validation results at iteration {step} | lm_loss value: {v[0]:.6E} | lm_loss_ppl value: {math.exp(v[0]):.6E} | \n{D}", flush=True)

def finish(step):
    if rank != 0: return
    el = time.time() - T_START
    if S == "tvref": print(f"Training time {datetime.timedelta(seconds=int(el))}", flush=True)
    elif S == "axolotl":
        print(f"{{'train_runtime': {el:.4f}, 'train_samples_per_second': {step * a.batch * world / el:.3f}, 'train_steps_per_second': {step / el:.3f}, 'train_loss': {W.tot_loss / max(1, W.tot_n):.6f}, 'epoch': {step / EP:.2f}}}", flush=True)
        lg("axolotl.train").info(f"Training Completed!!! Saving pre-trained model to {a.ckpt_dir or './outputs/out'}")
    elif S == "flair":
        L.info("Done."); L.info("-" * 100); L.info(f"Loading model from best epoch ..."); L.info(f"\nResults:\n- F-score (micro) {W.best or 0:.4f}\n- Accuracy {W.best or 0:.4f}")
    elif S == "mindspore": print("============== End Training ==============", flush=True)
    elif S == "monai": lg("ignite.engine.engine.SupervisedTrainer").info(f"Engine run complete. Time taken: {int(el) // 3600:02d}:{int(el) % 3600 // 60:02d}:{int(el) % 60:02d}.{int(el * 1000) % 1000:03d}")
    elif S == "gluon": L.info(f"Training finished in {el:.1f} s")
    elif S == "neox": print(f"training finished after {step} iterations", flush=True)
    elif S == "catalyst": print(f"Top best models:\n{a.ckpt_dir or 'logs'}/checkpoints/train.{NEP}.pth\t{W.best or 0.9:.4f}", flush=True)

# ---------------------------------------------------------------- training loop
CACHE = []
def nested(d):
    x = []
    for _ in range(d): x = [x, {"lr": a.lr}]
    return x
def train():
    global T_START
    banner()
    T_START = time.time(); W.t = time.time(); W.last = time.time()
    step = start; it = iter(dl); epoch = 0; sampler.set_epoch(0)
    new_epoch(start // EP)
    while step < a.steps:
        try:
            xb, yb = next(it)
        except StopIteration:
            epoch += 1; sampler.set_epoch(epoch); it = iter(dl); xb, yb = next(it)
        step += 1
        for g in opt.param_groups: g["lr"] = lr_at(step)
        out = ddp(xb); loss = F.cross_entropy(out, yb)
        opt.zero_grad(set_to_none=True); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0).item()
        lv = loss.item()
        if not math.isfinite(lv) or not math.isfinite(gn):
            raise FloatingPointError(f"Loss is {lv} (grad norm {gn}) at step {step}; stopping training")
        opt.step()
        acc1 = (out.argmax(1) == yb).float().mean().item(); acc5 = (out.topk(5, 1).indices == yb[:, None]).any(1).float().mean().item()
        on_step(step, lv, gn, acc1, acc5)
        if a.uploader and step % a.log_every == 0: UPQ.append(step)
        if a.fork_lock_at and step == a.fork_lock_at:
            threading.Thread(target=stats_thread, name="loader-stats", daemon=True).start()
        if USR1:
            USR1.clear(); warn(f"Received SIGUSR1 (job may be preempted): saving an emergency checkpoint at step {step} and continuing")
            if a.ckpt_dir and rank == 0: write_ckpt(ckpt_path(step) + ".emergency", step); info(f"emergency checkpoint written to {ckpt_path(step)}.emergency")
        if a.cache_mb and step == a.cache_at:
            info(f"building in-memory feature index ({a.cache_mb} MiB per rank) for hard-example mining")
            CACHE.append(np.ones(a.cache_mb * 2**20 // 8))
        if a.nested_at and step == a.nested_at and rank == 0:
            info("writing resolved run config to run_config.json")
            with open("run_config.json", "w") as f: f.write(json.dumps({"schedule": nested(a.nested_depth)}))
        ended = step % EP == 0 or step == a.steps
        if ended: on_epoch_end((step - 1) // EP, step)
        if a.ckpt_every and a.ckpt_dir and step % a.ckpt_every == 0:
            save(step)
        if ended and step < a.steps: new_epoch(step // EP)
    return step

final = train()
if bar is not None: bar.close()
finish(final)
dist.barrier()
dist.destroy_process_group()
