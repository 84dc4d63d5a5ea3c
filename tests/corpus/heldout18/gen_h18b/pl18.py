"""Tiny LM with Lightning 2.6 on CPU (ddp, gloo). Under srun Lightning's SLURMEnvironment takes rank/world from Slurm
(--num-nodes N, one task per node). TQDM progress bar, CSVLogger, ModelCheckpoint every --ckpt-every steps.
--flaky-reads P: the dataset's first read of a sample fails with a (caught, retried) OSError with probability P, as a
network filesystem's transient timeouts would; the retry is logged."""
import argparse, errno, logging, os, random, time, torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=400); p.add_argument("--num-nodes", type=int, default=1)
p.add_argument("--devices", type=int, default=1); p.add_argument("--out", default="ckpt"); p.add_argument("--ckpt-every", type=int, default=100)
p.add_argument("--flaky-reads", type=float, default=0.0); p.add_argument("--hidden", type=int, default=128)
a = p.parse_args()
log = logging.getLogger("lm.data"); logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
rank = int(os.environ.get("SLURM_PROCID", os.environ.get("RANK", 0)))

class DS(torch.utils.data.Dataset):
    def __init__(s): s.rng = random.Random(rank)
    def __len__(s): return 8192
    def __getitem__(s, i):
        for attempt in range(1, 4):
            if s.rng.random() < a.flaky_reads and attempt == 1:
                e = OSError(errno.ETIMEDOUT, os.strerror(errno.ETIMEDOUT), f"/mnt/datasets/lm-shards/shard-{i // 1024:05d}.bin")
                log.warning(f"read of sample {i} failed (attempt {attempt}/3): {e}; retrying in 0.5s"); time.sleep(0.5); continue
            g = torch.Generator().manual_seed(i); t = torch.randint(0, 512, (65,), generator=g); t[1::2] = (t[0::2][:32] * 7 + 3) % 512
            return t[:-1], t[1:]
        raise RuntimeError("unreachable")

class M(L.LightningModule):
    def __init__(s):
        super().__init__(); H = a.hidden
        s.emb = nn.Embedding(512, H); s.enc = nn.TransformerEncoderLayer(H, 4, 4 * H, 0.0, batch_first=True); s.head = nn.Linear(H, 512)
    def training_step(s, b, i):
        x, y = b; loss = F.cross_entropy(s.head(s.enc(s.emb(x))).reshape(-1, 512), y.reshape(-1))
        s.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss
    def configure_optimizers(s): return torch.optim.AdamW(s.parameters(), lr=1e-3)

torch.set_num_threads(1)
dl = torch.utils.data.DataLoader(DS(), batch_size=16, shuffle=True)
tr = L.Trainer(accelerator="cpu", devices=a.devices, num_nodes=a.num_nodes, strategy="ddp", max_steps=a.steps,
               logger=CSVLogger("logs", name="lm"), log_every_n_steps=20,
               callbacks=[ModelCheckpoint(dirpath=a.out, every_n_train_steps=a.ckpt_every, save_top_k=-1)])
tr.fit(M(), dl)
if tr.global_rank == 0: print(f"fit finished at global_step={tr.global_step}", flush=True)
