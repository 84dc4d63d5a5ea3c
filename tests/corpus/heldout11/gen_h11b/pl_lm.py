"""Lightning 2.x tiny causal LM (nn.TransformerEncoder), CPU DDP, sequential reads of a uint16 token file."""
import argparse, os, numpy as np, torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint, TQDMProgressBar

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--max-steps", type=int, default=500)
p.add_argument("--devices", type=int, default=2)
p.add_argument("--ckpt-every", type=int, default=100)
p.add_argument("--out", default="pl_out")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--progress", type=int, default=1)
p.add_argument("--ckpt-path", default=None)
a = p.parse_args()

class Seq(torch.utils.data.Dataset):
    def __init__(s, path, seq=64):
        s.path, s.seq = path, seq
        s.n = (os.path.getsize(path) // 2 - 1) // seq
    def __len__(s): return s.n
    def __getitem__(s, i):
        d = np.memmap(s.path, dtype=np.uint16, mode="r")
        x = torch.from_numpy(d[i * s.seq:(i + 1) * s.seq + 1].astype(np.int64))
        return x[:-1], x[1:]

class LM(L.LightningModule):
    def __init__(s, vocab=512, d=128, layers=2, seq=64, lr=2e-3):
        super().__init__(); s.save_hyperparameters()
        s.emb = nn.Embedding(vocab, d); s.pos = nn.Parameter(torch.zeros(seq, d))
        s.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 4 * d, batch_first=True, norm_first=True), layers)
        s.head = nn.Linear(d, vocab)
    def forward(s, x):
        T = x.shape[1]; m = nn.Transformer.generate_square_subsequent_mask(T)
        return s.head(s.enc(s.emb(x) + s.pos[:T], mask=m, is_causal=True))
    def training_step(s, b, i):
        x, y = b; out = s(x)
        loss = F.cross_entropy(out.reshape(-1, out.size(-1)), y.reshape(-1))
        s.log("train_loss", loss, prog_bar=True, sync_dist=False)
        return loss
    def configure_optimizers(s):
        return torch.optim.AdamW(s.parameters(), lr=s.hparams.lr)

if __name__ == "__main__":
    L.seed_everything(7)
    dl = torch.utils.data.DataLoader(Seq(a.data), batch_size=8, shuffle=False, num_workers=a.workers)
    ck = ModelCheckpoint(dirpath=os.path.join(a.out, "ckpt"), every_n_train_steps=a.ckpt_every, save_top_k=-1)
    tr = L.Trainer(accelerator="cpu", devices=a.devices, strategy="ddp", max_steps=a.max_steps,
                   log_every_n_steps=10, callbacks=[ck] + ([TQDMProgressBar(refresh_rate=a.progress)] if a.progress else []), default_root_dir=a.out,
                   enable_progress_bar=bool(a.progress))
    tr.fit(LM(lr=a.lr), dl, ckpt_path=a.ckpt_path)
