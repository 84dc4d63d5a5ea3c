# Tiny LM trained with Lightning Trainer (strategy ddp, gloo on CPU), meant to run under srun (SLURMEnvironment) or torchrun.
# Tokens come from a per-rank np.memmap shard (--data with {rank}) or a seeded generator. TensorBoard or CSV logger,
# TQDM progress bar (refresh every --refresh steps), ModelCheckpoint every --ckpt-every steps.
# Fault options off by default: --bad-log-at (self.log of a per-token tensor at that step).
import argparse, os, time
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint, TQDMProgressBar

p = argparse.ArgumentParser()
p.add_argument("--data", default="")
p.add_argument("--steps", type=int, default=400)
p.add_argument("--nodes", type=int, default=1)
p.add_argument("--devices", type=int, default=1)
p.add_argument("--refresh", type=int, default=20)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--logger", default="tb", choices=["tb", "csv"])
p.add_argument("--bad-log-at", type=int, default=-1)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--hidden", type=int, default=128)
a = p.parse_args()
V, T = 512, 64

class Shard(torch.utils.data.Dataset):
    def __init__(self):
        r = int(os.environ.get("SLURM_PROCID", os.environ.get("RANK", "0")))
        if a.data:
            self.mm = np.memmap(a.data.format(rank=r), dtype=np.uint16, mode="r")
        else:
            self.mm = np.random.default_rng(r).integers(0, V, 1 << 20).astype(np.uint16)
        self.n = (len(self.mm) - T - 1) // T
    def __len__(self): return self.n
    def __getitem__(self, i):
        x = torch.from_numpy(self.mm[i * T:i * T + T + 1].astype(np.int64)) % V
        return x

class LM(L.LightningModule):
    def __init__(self):
        super().__init__()
        D = a.hidden
        self.e = nn.Embedding(V, D); self.f = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D)); self.o = nn.Linear(D, V)
        self.t = time.time()
    def training_step(self, b, i):
        h = self.e(b[:, :-1]); logits = self.o(h + self.f(h))
        tok_loss = F.cross_entropy(logits.reshape(-1, V), b[:, 1:].reshape(-1), reduction="none")
        loss = tok_loss.mean()
        self.log("train_loss", loss, prog_bar=True)
        if self.global_step == a.bad_log_at:
            self.log("train_tok_loss", tok_loss.view(b.shape[0], -1).mean(1))
        return loss
    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=2e-3)

dl = torch.utils.data.DataLoader(Shard(), batch_size=16, shuffle=False, num_workers=a.workers)
logger = L.pytorch.loggers.TensorBoardLogger("tb_logs", name="lm") if a.logger == "tb" else L.pytorch.loggers.CSVLogger("csv_logs", name="lm")
cbs = [TQDMProgressBar(refresh_rate=a.refresh)]
if a.ckpt_every:
    cbs.append(ModelCheckpoint(dirpath=a.ckpt_dir, every_n_train_steps=a.ckpt_every, save_top_k=-1))
tr = L.Trainer(accelerator="cpu", devices=a.devices, num_nodes=a.nodes, strategy="ddp", max_steps=a.steps, max_epochs=-1,
               callbacks=cbs, logger=logger, log_every_n_steps=10, enable_checkpointing=bool(a.ckpt_every))
tr.fit(LM(), dl)
