"""Tiny Lightning (2.6) regression/classification model trained with strategy=ddp on CPU (gloo),
launched by torchrun. Fault options are off by default; see README.md."""
import argparse, os, time, threading, logging, sys
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint, Callback
from lightning.pytorch.loggers import CSVLogger
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--max-steps", type=int, default=400)
p.add_argument("--val-every", type=int, default=100)
p.add_argument("--ckpt-monitor", default="val/loss")
p.add_argument("--ckpt-dir", default="checkpoints")
p.add_argument("--bar", action="store_true")
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--step-timing", action="store_true")   # all_gather per-rank step times
p.add_argument("--deadlock-at", type=int, default=-1)  # rank 1 deadlocks on two locks at this step
p.add_argument("--width", type=int, default=256)
p.add_argument("--resume", default="")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--pg-timeout", type=float, default=0)  # seconds; DDPStrategy(timeout=...)
args = p.parse_args()
rank = int(os.environ.get("RANK", 0))
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger(f"train.rank{rank}")
torch.set_num_threads(1)
L.seed_everything(1234)

class M(L.LightningModule):
    def __init__(self, w):
        super().__init__(); self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(64, w), nn.GELU(), nn.Linear(w, w), nn.GELU(), nn.Linear(w, 8))
    def training_step(self, b, i):
        x, y = b; loss = F.cross_entropy(self.net(x), y)
        self.log("train/loss", loss, prog_bar=True)
        return loss
    def validation_step(self, b, i):
        x, y = b; out = self.net(x)
        self.log("val_loss", F.cross_entropy(out, y), sync_dist=True, prog_bar=True)
        self.log("val_acc", (out.argmax(1) == y).float().mean(), sync_dist=True)
    def configure_optimizers(self):
        o = torch.optim.AdamW(self.parameters(), lr=2e-3)
        return {"optimizer": o, "lr_scheduler": torch.optim.lr_scheduler.CosineAnnealingLR(o, args.max_steps)}

def data(n, seed):
    g = torch.Generator().manual_seed(seed); x = torch.randn(n, 64, generator=g)
    w = torch.randn(64, 8, generator=torch.Generator().manual_seed(7)); y = (x @ w).argmax(1)
    return TensorDataset(x, y)

class StepLog(Callback):
    def __init__(self): self.t = time.time(); self.ts = None
    def on_train_batch_start(self, tr, pl, b, i):
        self.ts = time.time()
        if i == args.deadlock_at and tr.global_rank == 1:
            a, c = threading.Lock(), threading.Lock()
            def other():
                with c:
                    time.sleep(0.2)
                    with a: pass
            threading.Thread(target=other, daemon=True).start()
            with a:
                time.sleep(0.2)
                with c: pass
    def on_train_batch_end(self, tr, pl, out, b, i):
        dt = time.time() - self.ts
        per = None
        if args.step_timing:
            per = pl.all_gather(torch.tensor([dt])).flatten().tolist()
        if (tr.global_step) % args.log_every == 0 and tr.global_rank == 0:
            el = time.time() - self.t; self.t = time.time()
            msg = "step=%d loss=%.4f lr=%.2e it/s=%.2f samples/s=%.1f" % (tr.global_step, out["loss"].item(),
                  tr.optimizers[0].param_groups[0]["lr"], args.log_every / el, args.log_every * 64 * tr.world_size / el)
            if per: msg += " step_time_per_rank=[" + ", ".join("%.3f" % v for v in per) + "]"
            log.info(msg)

ckpt = ModelCheckpoint(dirpath=args.ckpt_dir, monitor=args.ckpt_monitor, mode="min", save_top_k=2, save_last=True,
                       filename="step{step}-{val_loss:.3f}", auto_insert_metric_name=False)
import datetime
from lightning.pytorch.strategies import DDPStrategy
strat = DDPStrategy(timeout=datetime.timedelta(seconds=args.pg_timeout)) if args.pg_timeout else "ddp"
tr = L.Trainer(accelerator="cpu", devices=2, strategy=strat, max_steps=args.max_steps, val_check_interval=args.val_every,
               check_val_every_n_epoch=None, limit_val_batches=10, log_every_n_steps=args.log_every,
               logger=CSVLogger("logs", name="pl14"), callbacks=[ckpt, StepLog()], enable_progress_bar=args.bar,
               enable_model_summary=True)
tr.fit(M(args.width), DataLoader(data(200000, 1), batch_size=64, shuffle=True, num_workers=args.workers),
       DataLoader(data(2048, 2), batch_size=64, num_workers=args.workers), ckpt_path=args.resume or None)
if tr.global_rank == 0:
    log.info("fit finished: global_step=%d best=%s (%s)", tr.global_step, ckpt.best_model_path, ckpt.best_model_score)
