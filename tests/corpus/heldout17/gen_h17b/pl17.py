"""Tiny LM with Lightning (Trainer on CPU, ddp, 2 devices under torchrun), no progress bar; the dataset looks for an
optional per-shard cache file that does not exist, logs the FileNotFoundError once per shard and falls back."""
import argparse, logging, os, torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint

p = argparse.ArgumentParser(); p.add_argument("--steps", type=int, default=200); p.add_argument("--out", default="ckpt")
a = p.parse_args()
log = logging.getLogger("train"); logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

class DS(torch.utils.data.Dataset):
    warned = set()
    def __len__(s): return 4096
    def __getitem__(s, i):
        shard = i // 1024
        try:
            t = torch.load(f"/tmp/lab17b-cache/shard{shard}.pt")[i % 1024]
        except FileNotFoundError as e:
            if shard not in s.warned:
                s.warned.add(shard); log.warning(f"cache miss for shard {shard} ({e}); tokenizing on the fly")
            g = torch.Generator().manual_seed(i); t = torch.randint(0, 512, (65,), generator=g); t[1::2] = (t[0::2][:32] * 7 + 3) % 512
        return t[:-1], t[1:]

class M(L.LightningModule):
    def __init__(s):
        super().__init__(); s.emb = nn.Embedding(512, 128); s.mlp = nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128)); s.head = nn.Linear(128, 512)
    def training_step(s, b, i):
        x, y = b; loss = F.cross_entropy(s.head(s.mlp(s.emb(x))).reshape(-1, 512), y.reshape(-1))
        s.log("train_loss", loss, sync_dist=True)
        if s.global_step % 50 == 0 and s.global_rank == 0: log.info(f"step {s.global_step} train_loss {loss.item():.4f}")
        return loss
    def configure_optimizers(s): return torch.optim.AdamW(s.parameters(), lr=1e-3)

dl = torch.utils.data.DataLoader(DS(), batch_size=16, shuffle=True)
tr = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_steps=a.steps, enable_progress_bar=False, logger=False,
               callbacks=[ModelCheckpoint(dirpath=a.out, every_n_train_steps=100, save_top_k=-1)], log_every_n_steps=10)
tr.fit(M(), dl)
