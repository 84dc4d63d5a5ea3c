"""Tiny LM with an Accelerate custom loop (accelerate launch, CPU, gloo). Used by the h17b accelerate cases.
Logs through accelerate.logging at INFO every --log-every steps (loss, lr, tokens/s, samples/s); optional
--push-metrics-port (a metrics push over HTTP every --push-every steps; failures are caught, retried, then skipped);
--save-every (accelerator.save_state); --data (token file read with small reads per sample)."""
import argparse, logging, os, time, urllib.request, json, warnings
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=600); p.add_argument("--hidden", type=int, default=128)
p.add_argument("--batch", type=int, default=16); p.add_argument("--seq", type=int, default=64)
p.add_argument("--vocab", type=int, default=512); p.add_argument("--log-every", type=int, default=25)
p.add_argument("--save-every", type=int, default=0); p.add_argument("--out", default="ckpt")
p.add_argument("--push-metrics-port", type=int, default=0); p.add_argument("--push-every", type=int, default=100)
p.add_argument("--data", default="")
a = p.parse_args()
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
log = get_logger(__name__)
acc = Accelerator(cpu=True)
set_seed(0)

class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(a.vocab, a.hidden)
        s.body = nn.Sequential(*[nn.Sequential(nn.LayerNorm(a.hidden), nn.Linear(a.hidden, 4 * a.hidden), nn.GELU(), nn.Linear(4 * a.hidden, a.hidden)) for _ in range(3)])
        s.head = nn.Linear(a.hidden, a.vocab)
    def forward(s, x):
        return s.head(s.body(s.emb(x)))

class DS(torch.utils.data.Dataset):
    def __len__(s): return 10**6
    def __getitem__(s, i):
        if a.data:
            with open(a.data, "rb") as f:
                n = os.fstat(f.fileno()).st_size // 2; off = (i * 7919) % (n - a.seq - 1)
                f.seek(off * 2); t = torch.from_numpy(np.frombuffer(f.read((a.seq + 1) * 2), dtype=np.uint16).astype(np.int64)) % a.vocab
        else:
            g = torch.Generator().manual_seed(i); t = torch.randint(0, a.vocab, (a.seq + 1,), generator=g)
            t[1::2] = (t[0::2][: t[1::2].shape[0]] * 7 + 3) % a.vocab
        return t[:-1], t[1:]

model = LM(); opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50))
dl = torch.utils.data.DataLoader(DS(), batch_size=a.batch, shuffle=True)
model, opt, dl, sched = acc.prepare(model, opt, dl, sched)
log.info(f"***** Running training ***** num_processes={acc.num_processes} max_steps={a.steps} per_device_batch={a.batch}", main_process_only=True)

def push(step, loss):
    body = json.dumps({"step": step, "loss": loss}).encode()
    for attempt in range(1, 4):
        try:
            urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{a.push_metrics_port}/v1/metrics", data=body), timeout=2)
            return
        except Exception as e:
            log.warning(f"metrics push failed (attempt {attempt}/3): {e!r}; retrying in 1s", main_process_only=True)
            time.sleep(1)
    log.warning(f"metrics push for step {step} skipped after 3 attempts; training continues", main_process_only=True)

step = 0; t0 = time.time(); model.train()
for x, y in dl:
    step += 1
    loss = F.cross_entropy(model(x).reshape(-1, a.vocab), y.reshape(-1))
    acc.backward(loss); opt.step(); sched.step(); opt.zero_grad()
    if step % a.log_every == 0:
        l = acc.reduce(loss.detach(), "mean").item(); dt = time.time() - t0; t0 = time.time()
        sps = a.log_every * a.batch * acc.num_processes / dt
        log.info(f"step {step}/{a.steps} | loss {l:.4f} | lr {sched.get_last_lr()[0]:.2e} | samples/s {sps:.1f} | tokens/s {sps * a.seq:.0f}", main_process_only=True)
    if a.push_metrics_port and step % a.push_every == 0 and acc.is_main_process:
        push(step, loss.item())
    if a.save_every and step % a.save_every == 0:
        acc.save_state(os.path.join(a.out, f"checkpoint-{step}"))
    if step >= a.steps: break
acc.wait_for_everyone()
log.info("training done", main_process_only=True)
acc.end_training()
