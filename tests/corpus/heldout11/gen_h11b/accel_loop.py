"""Accelerate custom training loop (BERT-style classifier from config, synthetic data), accelerate's logger."""
import argparse, logging, math, time, torch
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=300)
p.add_argument("--grad-accum", type=int, default=2)
p.add_argument("--out", default="acc_out")
p.add_argument("--save-every", type=int, default=100)
a = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
logger = get_logger(__name__)
acc = Accelerator(gradient_accumulation_steps=a.grad_accum, cpu=True)
logger.info(acc.state, main_process_only=False)
set_seed(42)
cfg = BertConfig(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                 max_position_embeddings=64, num_labels=4)
model = BertForSequenceClassification(cfg)
g = torch.Generator().manual_seed(0)
X = torch.randint(0, 1000, (20000, 48), generator=g); Y = (X[:, :4].sum(1) % 4)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=16, shuffle=True)
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
sched = get_linear_schedule_with_warmup(opt, 20, a.steps)
model, opt, dl, sched = acc.prepare(model, opt, dl, sched)
logger.info("***** Running training *****")
logger.info(f"  Num examples = {len(X)}")
logger.info(f"  Gradient Accumulation steps = {a.grad_accum}")
logger.info(f"  Total optimization steps = {a.steps}")
step, t0 = 0, time.time()
model.train()
while step < a.steps:
    for xb, yb in dl:
        with acc.accumulate(model):
            out = model(input_ids=xb, labels=yb)
            acc.backward(out.loss)
            if acc.sync_gradients:
                acc.clip_grad_norm_(model.parameters(), 1.0)
            opt.step(); sched.step(); opt.zero_grad()
        if acc.sync_gradients:
            step += 1
            if step % 10 == 0:
                loss = acc.gather(out.loss.detach()).mean().item()
                logger.info(f"step {step}: loss={loss:.4f} lr={sched.get_last_lr()[0]:.2e} "
                            f"samples/s={10*16*a.grad_accum*acc.num_processes/(time.time()-t0):.1f}")
                t0 = time.time()
            if step % a.save_every == 0:
                acc.save_state(f"{a.out}/step_{step}")
                logger.info(f"Saved state to {a.out}/step_{step}")
            if step >= a.steps:
                break
acc.wait_for_everyone()
logger.info("Training finished")
acc.end_training()
