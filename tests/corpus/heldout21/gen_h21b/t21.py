"""t21.py: tiny next-token MLP, data parallel with torch.distributed (gloo, CPU), batches from a torch DataLoader.

Rank/world from torchrun (RANK/WORLD_SIZE), srun (SLURM_PROCID/SLURM_NTASKS) or --spawn N (torch.multiprocessing).
Host from SLURMD_NODENAME or the hostname. Token shards are uint16 files read through np.memmap in a map-style
Dataset with a DistributedSampler.
Log styles: --fmt json (one JSON object per line), --fmt rank (every rank prints `[time][rank r/w host] ...`),
--fmt hf (rank 0 prints HF-Trainer-like dicts and a tqdm progress bar on stderr).
"""
import argparse, glob, gzip, io, json, math, os, signal, socket, sys, threading, time, warnings
from datetime import datetime, timedelta
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist
from torch.utils.data import Dataset, DataLoader, DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--data-dir", required=True, help="may contain {rank}")
p.add_argument("--train-glob", default="train-*.bin")
p.add_argument("--eval-glob", default="valid-*.bin")
p.add_argument("--shard-per-epoch", action="store_true", help="each epoch a rank reads one shard: files[epoch*world+rank]")
p.add_argument("--steps", type=int, default=1000)
p.add_argument("--samples-per-epoch", type=int, default=12800)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--batch", type=int, default=64)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--cache-samples", action="store_true", help="dataset keeps every decoded sample (with features)")
p.add_argument("--cache-feat", type=int, default=4096, help="float32 features per cached token")
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-batches", type=int, default=20)
p.add_argument("--eval-batch", type=int, default=256)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--ckpt-compress", action="store_true", help="gzip the checkpoint (slow)")
p.add_argument("--ckpt-extra-mb", type=int, default=0, help="extra optimizer-state-like payload in the checkpoint")
p.add_argument("--resume", action="store_true")
p.add_argument("--vocab", type=int, default=8192)
p.add_argument("--vocab-from-data", action="store_true", help="vocab = max token id in this rank's shards + 1")
p.add_argument("--ctx", type=int, default=16)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--temp-start", type=float, default=1.0, help="logit temperature")
p.add_argument("--temp-decay", type=float, default=0.0, help="temperature decrease per step")
p.add_argument("--temp-min", type=float, default=0.0)
p.add_argument("--anomaly", action="store_true", help="torch.autograd.set_detect_anomaly(True)")
p.add_argument("--pg-timeout", type=int, default=1800)
p.add_argument("--upload-after-ckpt", action="store_true", help="background uploader thread after each save")
p.add_argument("--upload-slow-rank", type=int, default=-1, help="this rank's uploader holds its lock longer")
p.add_argument("--metrics-url", default="", help="host:port to push metrics to (retried, optional)")
p.add_argument("--legacy-amp", action="store_true", help="use torch.cuda.amp (deprecated) wrappers")
p.add_argument("--sigterm-save", action="store_true", help="on SIGTERM save a checkpoint and exit")
p.add_argument("--fmt", choices=["json", "rank", "hf"], default="json")
p.add_argument("--master", default="", help="addr:port when not under torchrun")
p.add_argument("--spawn", type=int, default=0, help="start N ranks with torch.multiprocessing.spawn")
a = p.parse_args()

rank, world, host = 0, 1, os.environ.get("SLURMD_NODENAME") or socket.gethostname()
T0 = time.time()


def now():
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def emit(event, level="INFO", all_ranks=False, **kv):
    """one record; json: all fields; rank: human line; hf: dicts/plain lines from rank 0"""
    if rank != 0 and not all_ranks:
        return
    if a.fmt == "json":
        rec = {"ts": datetime.now().isoformat(timespec="milliseconds"), "level": level, "host": host, "rank": rank,
               "event": event}
        rec.update(kv)
        print(json.dumps(rec), flush=True)
    elif a.fmt == "rank":
        body = " | ".join(f"{k} {v}" for k, v in kv.items() if k != "msg")
        msg = kv.get("msg", event)
        print(f"[{now()}][rank {rank}/{world} {host}] {level:<5} {msg}" + (f" | {body}" if body else ""), flush=True)
    else:
        if "hf" in kv:
            print(kv["hf"], flush=True)
        else:
            print(f"[{now()}] {level} {kv.get('msg', event)}", flush=True)


class Tokens(Dataset):
    def __init__(self, files, n, seed):
        self.files = files
        self.maps = [np.memmap(f, dtype=np.uint16, mode="r") for f in files]
        self.n, self.seed = n, seed
        self.cache = {}

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if a.cache_samples and i in self.cache:
            return self.cache[i][0]
        rng = np.random.default_rng(self.seed * 1000003 + i)
        m = self.maps[int(rng.integers(len(self.maps)))]
        off = int(rng.integers(len(m) - a.ctx - 1))
        t = torch.from_numpy(m[off:off + a.ctx + 1].astype(np.int64))
        if a.cache_samples:  # keep the sample and its "features" (a float32 view per token) for the next epochs
            self.cache[i] = (t, np.random.default_rng(i).random((a.ctx + 1, a.cache_feat), dtype=np.float32))
        return t


class Model(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.emb = nn.Embedding(vocab, 64)
        self.l1 = nn.Linear(64 * a.ctx, a.hidden)
        self.l2 = nn.Linear(a.hidden, a.hidden)
        self.head = nn.Linear(a.hidden, vocab)

    def forward(self, x, temp=1.0):
        h = self.emb(x).flatten(1)
        return self.head(F.gelu(self.l2(F.gelu(self.l1(h))))) / temp


state_lock, metrics_lock = threading.Lock(), threading.Lock()


def uploader(step):
    """copies the newest checkpoint to the 'archive' dir; takes the state lock, then the metrics lock"""
    with state_lock:
        emit("upload", all_ranks=True, msg=f"uploading checkpoint step {step} to archive", step=step)
        if rank == a.upload_slow_rank:
            time.sleep(6.0)
        with metrics_lock:
            pass
    emit("upload_done", all_ranks=True, msg=f"upload of step {step} done", step=step)


def push_metrics(rec, _fails=[0]):
    if not a.metrics_url or _fails[0] >= 3 or rank != 0:
        return
    hostp, port = a.metrics_url.rsplit(":", 1)
    for attempt in range(1, 4):
        try:
            with socket.create_connection((hostp, int(port)), timeout=2) as s:
                s.sendall((json.dumps(rec) + "\n").encode())
            return
        except OSError as e:
            emit("metrics_push_failed", level="WARNING",
                 msg=f"metrics push to {a.metrics_url} failed: {e!r}; retrying in 1s (attempt {attempt}/3)")
            time.sleep(1)
    _fails[0] += 1
    if _fails[0] >= 3:
        emit("metrics_disabled", level="WARNING", msg="metrics push disabled after 3 failed pushes; training continues")


def save(step, model, opt, reason="periodic"):
    if rank == 0:
        t0 = time.time()
        os.makedirs(a.ckpt_dir, exist_ok=True)
        path = os.path.join(a.ckpt_dir, f"checkpoint-{step}.pt" + (".gz" if a.ckpt_compress else ""))
        if a.fmt == "hf":
            emit("save", msg=f"Saving model checkpoint to {path}")
        else:
            emit("checkpoint_start", msg=f"saving checkpoint {path} ({reason})", step=step)
        st = {"step": step, "model": model.state_dict(), "opt": opt.state_dict()}
        if a.ckpt_extra_mb:
            st["extra"] = torch.from_numpy(np.random.default_rng(step).random(a.ckpt_extra_mb * 2**18, dtype=np.float32))
        if a.ckpt_compress:
            buf = io.BytesIO(); torch.save(st, buf)
            with gzip.open(path + ".tmp", "wb", compresslevel=9) as f:
                f.write(buf.getvalue())
        else:
            torch.save(st, path + ".tmp")
        os.replace(path + ".tmp", path)
        mb = os.path.getsize(path) / 2**20
        emit("checkpoint_saved", msg=f"checkpoint saved: {path} ({mb:.1f} MiB in {time.time()-t0:.1f}s)", step=step,
             path=path, size_mb=round(mb, 1), seconds=round(time.time() - t0, 1))
    dist.barrier()


def main(local=None):
    global rank, world
    if local is not None:
        rank, world = local, a.spawn
    else:
        rank = int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
        world = int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))
    if a.master:
        os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = a.master.rsplit(":", 1)
    os.environ["RANK"], os.environ["WORLD_SIZE"] = str(rank), str(world)
    torch.set_num_threads(1)
    if a.anomaly:
        torch.autograd.set_detect_anomaly(True)
    stop = {"sig": None}
    if a.sigterm_save:
        signal.signal(signal.SIGTERM, lambda s, f: stop.__setitem__("sig", s))
    emit("start", all_ranks=True, msg=f"process started pid {os.getpid()} torch {torch.__version__}", pid=os.getpid())
    dist.init_process_group("gloo", timeout=timedelta(seconds=a.pg_timeout))
    emit("pg_ready", all_ranks=True, msg=f"process group ready: backend gloo world_size {world}", world_size=world)

    files = sorted(glob.glob(os.path.join(a.data_dir.format(rank=rank), a.train_glob)))
    vocab = a.vocab
    if a.vocab_from_data:
        vocab = int(max(int(np.memmap(f, dtype=np.uint16, mode="r").max()) for f in files)) + 1
        emit("vocab", all_ranks=True, msg=f"vocab size from data: {vocab}", vocab=vocab)
    torch.manual_seed(0)
    model = Model(vocab)
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=a.lr)
    if a.legacy_amp:
        scaler = torch.cuda.amp.GradScaler(enabled=False)
    start = 0
    if a.resume:
        cks = sorted(glob.glob(os.path.join(a.ckpt_dir, "checkpoint-*.pt*")), key=lambda s: int(s.split("-")[-1].split(".")[0]))
        if cks:
            emit("resume", all_ranks=True, msg=f"loading checkpoint {cks[-1]}", path=cks[-1])
            st = torch.load(cks[-1], weights_only=False)
            model.load_state_dict(st["model"]); opt.load_state_dict(st["opt"]); start = st["step"]
            emit("resumed", all_ranks=True, msg=f"resumed at step {start}", step=start)
    n_params = sum(p.numel() for p in model.parameters())
    if a.fmt == "hf":
        emit("cfg", hf="***** Running training *****")
        emit("cfg", hf=f"  Num examples = {a.samples_per_epoch * world:,}\n  Num Epochs = "
             f"{math.ceil(a.steps * a.batch * world / (a.samples_per_epoch * world))}\n  Instantaneous batch size per device = {a.batch}\n"
             f"  Total train batch size (w. parallel, distributed & accumulation) = {a.batch * world}\n"
             f"  Gradient Accumulation steps = 1\n  Total optimization steps = {a.steps:,}\n"
             f"  Number of trainable parameters = {n_params:,}")
    else:
        emit("config", msg=f"model params {n_params/1e6:.2f}M world {world} global batch {a.batch*world} steps {a.steps}",
             params=n_params, world=world, global_batch=a.batch * world, steps=a.steps, workers=a.workers)

    def loader(epoch):
        if a.shard_per_epoch:
            fl = [files[epoch * world + rank]]
            emit("shard", all_ranks=True, msg=f"epoch {epoch}: reading shard {os.path.basename(fl[0])}", epoch=epoch)
            ds = Tokens(fl, a.samples_per_epoch, 11 + rank)
            smp = None
        else:
            ds = Tokens(files, a.samples_per_epoch * world, 11)
            smp = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=0)
            smp.set_epoch(epoch)
        return DataLoader(ds, batch_size=a.batch, sampler=smp, shuffle=smp is None, num_workers=a.workers,
                          persistent_workers=False, drop_last=True)

    steps_per_epoch = a.samples_per_epoch // a.batch
    bar = None
    if a.fmt == "hf" and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=a.steps, initial=start, mininterval=8, file=sys.stderr)
    step, epoch = start, start // steps_per_epoch
    t_log, t_data, t_comp, t_fwd, losses = time.time(), 0.0, 0.0, 0.0, []
    t_train = time.time()
    while step < a.steps:
        it = iter(loader(epoch))
        while step < a.steps:
            d0 = time.time()
            try:
                batch = next(it)
            except StopIteration:
                break
            c0 = time.time(); t_data += c0 - d0
            step += 1
            temp = max(a.temp_min, a.temp_start - a.temp_decay * step)
            x, y = batch[:, :-1], batch[:, -1]
            if a.legacy_amp:
                with torch.cuda.amp.autocast(enabled=False):
                    loss = F.cross_entropy(ddp(x, temp), y)
            else:
                loss = F.cross_entropy(ddp(x, temp), y)
            t_fwd += time.time() - c0
            opt.zero_grad(set_to_none=True)
            loss.backward()
            gn = float(torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1e9))
            opt.step()
            t_comp += time.time() - c0
            losses.append(loss.item())
            if bar is not None:
                bar.update(1)
            if step % a.log_every == 0:
                dt = time.time() - t_log; t_log = time.time()
                mine = torch.tensor([dt * 1000 / a.log_every, t_data * 1000 / a.log_every, t_fwd * 1000 / a.log_every])
                allr = [torch.zeros(3) for _ in range(world)]
                with metrics_lock:
                    with state_lock:
                        dist.all_gather(allr, mine)
                ms = [round(float(r[0]), 1) for r in allr]
                fw = [round(float(r[2]), 1) for r in allr]
                lm = sum(losses) / len(losses)
                tps = a.batch * world * a.ctx * a.log_every / dt
                if a.fmt == "json":
                    emit("train", step=step, epoch=round(step / steps_per_epoch, 3), loss=round(lm, 4), lr=a.lr,
                         grad_norm=round(gn, 3), tokens_per_s=round(tps, 1), step_ms=round(dt * 1000 / a.log_every, 1),
                         step_ms_by_rank=ms, fwd_ms_by_rank=fw, data_ms=round(t_data * 1000 / a.log_every, 1))
                elif a.fmt == "rank":
                    emit("train", all_ranks=True, msg=f"step {step}/{a.steps}", loss=f"{lm:.4f}",
                         **{"ms/it": f"{dt*1000/a.log_every:.1f}", "data ms": f"{t_data*1000/a.log_every:.1f}", "fwd ms": f"{t_fwd*1000/a.log_every:.1f}",
                            "tok/s": f"{tps:.0f}"})
                else:
                    emit("train", hf=str({"loss": round(lm, 4), "grad_norm": round(gn, 4), "learning_rate": a.lr,
                                          "epoch": round(step / steps_per_epoch, 2)}))
                push_metrics({"step": step, "loss": lm})
                t_data, t_comp, t_fwd, losses = 0.0, 0.0, 0.0, []
            if a.eval_every and step % a.eval_every == 0:
                e0 = time.time()
                if a.fmt != "hf":
                    emit("eval_start", msg=f"running evaluation at step {step} ({a.eval_batches} batches)", step=step)
                ev = Tokens(sorted(glob.glob(os.path.join(a.data_dir.format(rank=rank), a.eval_glob))), a.eval_batches * a.eval_batch, 7)
                tot = 0.0
                with torch.no_grad():
                    for eb in DataLoader(ev, batch_size=a.eval_batch):
                        tot += F.cross_entropy(model(eb[:, :-1]), eb[:, -1]).item()
                vl = torch.tensor([tot / a.eval_batches]); dist.all_reduce(vl); vl /= world
                if a.fmt == "hf":
                    emit("eval", hf=str({"eval_loss": round(float(vl), 4), "eval_runtime": round(time.time() - e0, 2),
                                         "eval_samples_per_second": round(a.eval_batches * a.eval_batch * world / (time.time() - e0), 3),
                                         "epoch": round(step / steps_per_epoch, 2)}))
                else:
                    emit("eval", msg=f"eval step {step}: val_loss {float(vl):.4f} ppl {math.exp(float(vl)):.1f}",
                         step=step, val_loss=round(float(vl), 4), seconds=round(time.time() - e0, 1))
                t_log = time.time()
            if a.ckpt_every and step % a.ckpt_every == 0:
                save(step, model, opt)
                t_log = time.time()
                if a.upload_after_ckpt:
                    threading.Thread(target=uploader, args=(step,), daemon=True, name="ckpt-upload").start()
            if a.sigterm_save:  # every rank stops at the same step if any rank got SIGTERM
                fl = torch.tensor([0 if stop["sig"] is None else int(stop["sig"])]); dist.all_reduce(fl, op=dist.ReduceOp.MAX)
                stop["sig"] = int(fl) or None
            if stop["sig"] is not None:
                emit("signal", level="WARNING", all_ranks=True, msg=f"received signal {stop['sig']} (SIGTERM), "
                     f"saving checkpoint at step {step} and exiting", step=step)
                save(step, model, opt, reason="signal")
                emit("exit", level="WARNING", all_ranks=True, msg="exiting after SIGTERM checkpoint", step=step)
                dist.destroy_process_group()
                sys.exit(0)
        epoch += 1
    if bar is not None:
        bar.close()
    rt = time.time() - t_train
    if a.fmt == "hf":
        emit("end", hf="\n\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n\n")
        emit("end", hf=str({"train_runtime": round(rt, 4), "train_samples_per_second": round((a.steps - start) * a.batch * world / rt, 3),
                            "train_steps_per_second": round((a.steps - start) / rt, 3), "train_loss": round(lm, 4),
                            "epoch": round(a.steps / steps_per_epoch, 2)}))
    else:
        emit("end", msg=f"Training completed: {a.steps} steps in {rt:.1f}s", steps=a.steps, seconds=round(rt, 1))
    dist.destroy_process_group()


if __name__ == "__main__":
    if a.spawn:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29531")
        mp.spawn(main, nprocs=a.spawn)
    else:
        main()
