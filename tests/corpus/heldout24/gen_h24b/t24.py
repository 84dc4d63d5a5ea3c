# t24.py: tiny next-token MLP LM, DDP on gloo (CPU), five log styles (--fmt ptl|titan|keras|json|pylog)
import argparse, datetime, json, logging, os, socket, sys, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument('--data', required=True)
p.add_argument('--fmt', default='titan')
p.add_argument('--steps', type=int, default=1000)
p.add_argument('--epoch-steps', type=int, default=200)
p.add_argument('--log-every', type=int, default=20)
p.add_argument('--batch', type=int, default=32)
p.add_argument('--ctx', type=int, default=16)
p.add_argument('--hidden', type=int, default=384)
p.add_argument('--lr', type=float, default=3e-3)
p.add_argument('--opt', default='adamw')
p.add_argument('--warmup', type=int, default=50)
p.add_argument('--clip', type=float, default=1.0)
p.add_argument('--ckpt-dir', default='')
p.add_argument('--ckpt-every', type=int, default=0)
p.add_argument('--ckpt-pad-mb', type=int, default=0)
p.add_argument('--resume', action='store_true')
p.add_argument('--eval-every', type=int, default=0)
p.add_argument('--eval-batches', type=int, default=10)
p.add_argument('--eval-metrics', default='loss,ppl')
p.add_argument('--rank0-only-eval-reduce', action='store_true')
p.add_argument('--loss-scale', type=float, default=0)
p.add_argument('--nan-guard', action='store_true')
p.add_argument('--dump-dir', default='')
p.add_argument('--cache-mb-per-step', type=float, default=0)
p.add_argument('--pg-timeout', type=int, default=1800)
p.add_argument('--master', default='')
a = p.parse_args()

if 'SLURM_PROCID' in os.environ and 'RANK' not in os.environ:
    rank, world = int(os.environ['SLURM_PROCID']), int(os.environ['SLURM_NTASKS'])
    init = 'tcp://' + a.master
else:
    rank, world = int(os.environ['RANK']), int(os.environ['WORLD_SIZE'])
    init = 'env://'
host = os.environ.get('SLURMD_NODENAME') or socket.gethostname()
torch.manual_seed(1234)
torch.set_num_threads(1)

def now():
    return datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S,%f')[:-3]

log = logging.getLogger('train')
if a.fmt == 'pylog':
    h = logging.StreamHandler(sys.stdout)
    h.setFormatter(logging.Formatter('%(asctime)s %(levelname)s [%(process)d] %(message)s'))
    log.addHandler(h); log.setLevel(logging.INFO)

def out(msg, level='INFO', all_ranks=False):
    if rank != 0 and not all_ranks:
        return
    if a.fmt == 'titan':
        print(f'[rank{rank}]:[titan] {now()} - root - {level} - {msg}', flush=True)
    elif a.fmt == 'pylog':
        log.log(getattr(logging, level), f'{host}:{rank} {msg}'); sys.stdout.flush()
    else:
        print(msg, flush=True)

out(f'Starting job: tiny-lm on {host} (rank {rank}/{world}, pid {os.getpid()})', all_ranks=True)
if a.fmt == 'ptl':
    if rank == 0:
        print('GPU available: False (cuda), used: False\nTPU available: False, using: 0 TPU cores\n'
              'HPU available: False, using: 0 HPUs', flush=True)
    print(f'Initializing distributed: GLOBAL_RANK: {rank}, MEMBER: {rank + 1}/{world}', flush=True)
dist.init_process_group('gloo', init_method=init, rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=a.pg_timeout))
if a.fmt == 'ptl' and rank == 0:
    print('-' * 100 + f'\ndistributed_backend=gloo\nAll distributed processes registered. Starting with {world} processes\n'
          + '-' * 100 + '\n', flush=True)
out(f'process group initialized: backend=gloo world_size={world} timeout={a.pg_timeout}s', all_ranks=(a.fmt == 'pylog'))

V = 4096
class LM(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(V, 32)
        s.fc1 = nn.Linear(32 * a.ctx, a.hidden)
        s.fc2 = nn.Linear(a.hidden, a.hidden)
        s.head = nn.Linear(a.hidden, V)
    def forward(s, x):
        h = s.emb(x).flatten(1)
        h = F.gelu(s.fc1(h)); h = F.gelu(s.fc2(h))
        return s.head(h)

model = LM()
npar = sum(q.numel() for q in model.parameters())
ddp = DDP(model)
opt = (torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01) if a.opt == 'adamw'
       else torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9))
toks = np.memmap(a.data, dtype=np.uint16, mode='r')
N = len(toks)
half = N * 9 // 10
per_rank = half // world
start_step = 0
if a.fmt == 'ptl' and rank == 0:
    print('  | Name | Type | Params | Mode\n------------------------------------------\n'
          f'0 | model | LM   | {npar / 1e6:.1f} M  | train\n------------------------------------------\n'
          f'{npar / 1e6:.1f} M    Trainable params\n0         Non-trainable params\n{npar / 1e6:.1f} M    Total params\n'
          f'{npar * 4 / 1e6:.3f}    Total estimated model params size (MB)', flush=True)
if a.fmt == 'titan':
    out(f'Building llama-tiny with ModelArgs(dim={a.hidden}, n_layers=2, vocab_size={V}, ctx={a.ctx})')
    out(f'Model llama-tiny size: {npar:,} total parameters')
    out(f'Training starts at step 1, with local batch size {a.batch}, global batch size {a.batch * world}, '
        f'sequence length {a.ctx}, total steps {a.steps} (warmup {a.warmup})')

def ckpt_path(step):
    return os.path.join(a.ckpt_dir, f'step-{step}.pt')

if a.resume and a.ckpt_dir and os.path.isdir(a.ckpt_dir):
    cks = sorted((int(f[5:-3]) for f in os.listdir(a.ckpt_dir) if f.startswith('step-') and f.endswith('.pt')))
    if cks:
        t0 = time.time()
        sd = torch.load(ckpt_path(cks[-1]), map_location='cpu', weights_only=False)
        model.load_state_dict(sd['model']); opt.load_state_dict(sd['opt']); start_step = sd['step']
        out(f'Loading the checkpoint at step {start_step} from {ckpt_path(start_step)} took {time.time() - t0:.2f}s')
        if a.fmt == 'ptl':
            print(f'Restoring states from the checkpoint path at {ckpt_path(start_step)}', flush=True)

def batch(step, off=0):
    b = a.batch
    base = rank * per_rank + ((step * b * (a.ctx + 1)) % (per_rank - b * (a.ctx + 1)))
    arr = np.asarray(toks[base:base + b * (a.ctx + 1)], dtype=np.int64).reshape(b, a.ctx + 1)
    t = torch.from_numpy(arr)
    return t[:, :-1], t[:, -1]

def evaluate():
    model.eval(); tot = 0.0
    with torch.no_grad():
        for i in range(a.eval_batches):
            nb = (N - half) // (a.batch * (a.ctx + 1)) // world
            base = half + (rank * nb + i % nb) * a.batch * (a.ctx + 1)
            arr = np.asarray(toks[base:base + a.batch * (a.ctx + 1)], dtype=np.int64).reshape(a.batch, a.ctx + 1)
            t = torch.from_numpy(arr)
            tot += F.cross_entropy(model(t[:, :-1]), t[:, -1]).item()
    model.train()
    v = torch.tensor([tot / a.eval_batches])
    if a.rank0_only_eval_reduce:
        # eval loss averaged across ranks -- only on the logging rank (others never join this all_reduce)
        if rank == 0:
            dist.all_reduce(v)
            v /= world
    else:
        dist.all_reduce(v); v /= world
    metrics = {'loss': lambda l: l, 'ppl': lambda l: float(np.exp(l)), 'acc': lambda l: float(np.exp(-l))}
    return {m: metrics[m](v.item()) for m in a.eval_metrics.split(',')}

def save(step):
    if rank != 0:
        return 0.0
    t0 = time.time()
    os.makedirs(a.ckpt_dir, exist_ok=True)
    sd = {'model': model.state_dict(), 'opt': opt.state_dict(), 'step': step}
    if a.ckpt_pad_mb:
        sd['ema_shadow'] = torch.randn(a.ckpt_pad_mb * 262144)
    tmp = ckpt_path(step) + '.tmp'
    with open(tmp, 'wb') as f:
        torch.save(sd, f); f.flush(); os.fsync(f.fileno())
    os.replace(tmp, ckpt_path(step))
    return time.time() - t0

scale = a.loss_scale
cache = []
t_start = time.time(); t_last = time.time(); comp_acc = comm_acc = 0.0; last_ckpt_val = None
ep_steps = a.epoch_steps
nep = (a.steps + ep_steps - 1) // ep_steps
step = start_step
if a.fmt == 'keras' and rank == 0:
    print(f'Epoch {step // ep_steps + 1}/{nep}', flush=True)
while step < a.steps:
    x, y = batch(step)
    if a.dump_dir:
        d = os.path.join(a.dump_dir, f'r{rank}'); os.makedirs(d, exist_ok=True)
        np.save(os.path.join(d, f'batch_{step:06d}.npy'), x[:, 0].numpy())
    if a.cache_mb_per_step:
        cache.append(torch.ones(int(a.cache_mb_per_step * 262144)))  # prefetch cache that is never evicted
    lr = a.lr * min(1.0, (step + 1) / a.warmup)
    for g in opt.param_groups:
        g['lr'] = lr
    tc = time.time()
    logits = ddp(x)
    loss = F.cross_entropy(logits, y)
    if a.nan_guard and not torch.isfinite(loss):
        raise RuntimeError(f'Loss is {loss.item()} at step {step + 1}: training diverged (rank {rank})')
    opt.zero_grad(set_to_none=True)
    (loss * (scale if scale else 1.0)).backward()
    tb = time.time()
    skipped = False
    if scale:
        over = any(torch.isinf(q.grad.half()).any().item() or torch.isnan(q.grad).any().item()
                   for q in model.parameters())
        if over:
            scale /= 2; skipped = True
            out(f'Gradient overflow.  Skipping step, loss scale reduced to {scale:g}', level='WARNING')
        else:
            for q in model.parameters():
                q.grad /= scale
            if (step + 1) % 100 == 0:
                scale *= 2
    if not skipped:
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), a.clip if a.clip > 0 else 1e9)
        opt.step()
    step += 1
    comp_acc += time.time() - tc
    if step % a.log_every == 0:
        lt = torch.tensor([loss.item()]); t1 = time.time(); dist.all_reduce(lt); comm_acc += time.time() - t1
        lv = lt.item() / world
        dt = (time.time() - t_last) / a.log_every; t_last = time.time()
        tps = a.batch * a.ctx * world / dt
        mfu = 6 * npar * tps / 1e12 * 100
        if a.fmt == 'titan':
            out(f'step: {step:4d}  loss: {lv:7.4f}  memory:  0.02GiB(0.00%)  tps: {int(tps):,}  tflops: {6 * npar * tps / 1e12:.3f}  mfu: {mfu:.2f}%')
        elif a.fmt == 'json':
            if rank == 0:
                print(json.dumps({'ts': round(time.time(), 3), 'step': step, 'loss': round(lv, 4), 'lr': round(lr, 6),
                                  'grad_norm': round(float(gn), 4) if not skipped else None,
                                  'tokens_per_sec': round(tps, 1), 'step_time_s': round(dt, 4), 'host': host}), flush=True)
        elif a.fmt == 'pylog':
            out(f'step {step}/{a.steps} loss {loss.item():.4f} lr {lr:.2e} compute_ms {comp_acc / a.log_every * 1000:.1f} '
                f'comm_ms {comm_acc / a.log_every * 1000:.1f} step_ms {dt * 1000:.1f}', all_ranks=True)
        elif a.fmt == 'ptl':
            i = (step - 1) % ep_steps + 1; pct = int(100 * i / ep_steps); bar = ('█' * (pct // 10)).ljust(10)
            el = time.time() - t_start; its = 1 / dt
            rem = (ep_steps - i) / its
            if rank == 0:
                print(f'Epoch {(step - 1) // ep_steps}: {pct:3d}%|{bar}| {i}/{ep_steps} [{int(el // 60):02d}:{int(el % 60):02d}<'
                      f'{int(rem // 60):02d}:{int(rem % 60):02d}, {its:.2f}it/s, v_num=0, reduced_train_loss={lv:.3f}, '
                      f'global_step={step - 1}.0, consumed_samples={step * a.batch * world}.0]', flush=True)
        comp_acc = comm_acc = 0.0
        if a.fmt == 'keras':
            ep_loss = lv
    epoch_end = step % ep_steps == 0 or step == a.steps
    if a.eval_every and step % a.eval_every == 0:
        te = time.time()
        if a.fmt == 'ptl' and rank == 0:
            print(f'Validation DataLoader 0: 0%|          | 0/{a.eval_batches} [00:00<?, ?it/s]', flush=True)
        m = evaluate()
        if a.fmt == 'titan':
            out('eval: ' + '  '.join(f'{k}: {v:.4f}' for k, v in m.items()) + f'  time: {time.time() - te:.2f}s')
        elif a.fmt == 'json':
            if rank == 0:
                print(json.dumps({'ts': round(time.time(), 3), 'step': step, 'eval': {k: round(v, 4) for k, v in m.items()}}), flush=True)
        elif a.fmt == 'pylog':
            out('validation ' + ' '.join(f'{k}={v:.4f}' for k, v in m.items()) + f' ({time.time() - te:.1f}s)')
        elif a.fmt == 'ptl' and rank == 0:
            print(f'Validation DataLoader 0: 100%|██████████| {a.eval_batches}/{a.eval_batches} [00:{int(time.time() - te):02d}<00:00]', flush=True)
            vl = m['loss']
            if last_ckpt_val is None or vl < last_ckpt_val:
                print(f"Epoch {(step - 1) // ep_steps}, global step {step}: 'val_loss' reached {vl:.5f} (best {vl:.5f}), "
                      f"saving model to '{os.path.abspath(a.ckpt_dir or '.')}/tiny--val_loss={vl:.2f}-step={step}.ckpt' as top 1", flush=True)
                last_ckpt_val = vl
            else:
                print(f"Epoch {(step - 1) // ep_steps}, global step {step}: 'val_loss' was not in top 1", flush=True)
        elif a.fmt == 'keras':
            val_m = m
    if a.ckpt_dir and a.ckpt_every and step % a.ckpt_every == 0:
        if a.fmt == 'titan':
            out('Saving the checkpoint (or staging if async is enabled).')
        elif a.fmt == 'pylog':
            out(f'saving checkpoint to {ckpt_path(step)}')
        elif a.fmt == 'json' and rank == 0:
            print(f'checkpoint: writing {ckpt_path(step)}', flush=True)
        dt = save(step)
        dist.barrier()
        if a.fmt == 'titan':
            out(f'Finished saving the checkpoint (or staging if async is enabled)in {dt:.2f} seconds.')
        elif a.fmt == 'pylog':
            out(f'checkpoint saved: {ckpt_path(step)} ({dt:.2f}s)')
            if dt > 10:
                out(f'checkpoint write took {dt:.1f}s (> 10s), storage may be slow', level='WARNING')
        elif a.fmt == 'json' and rank == 0:
            print(json.dumps({'ts': round(time.time(), 3), 'event': 'checkpoint', 'step': step, 'path': ckpt_path(step), 'seconds': round(dt, 2)}), flush=True)
        elif a.fmt == 'keras' and rank == 0:
            print(f'Epoch {step // ep_steps}: saving model to {ckpt_path(step)}', flush=True)
    if a.fmt == 'keras' and epoch_end and rank == 0:
        el = time.time() - (globals().get('ep_t0') or t_start)
        vm = globals().get('val_m') or {}
        extra = ''.join(f' - val_{k}: {v:.4f}' for k, v in vm.items())
        print(f'{ep_steps}/{ep_steps} - {int(el)}s - {int(el / ep_steps * 1000)}ms/step - loss: {ep_loss:.4f}{extra}', flush=True)
        ep_t0 = time.time(); val_m = {}
        if step < a.steps:
            print(f'Epoch {step // ep_steps + 1}/{nep}', flush=True)
    if a.fmt == 'ptl' and epoch_end and rank == 0 and step % ep_steps == 0:
        pass
if a.fmt == 'ptl' and rank == 0:
    print(f'`Trainer.fit` stopped: `max_steps={a.steps}` reached.', flush=True)
out(f'Training completed: {step} steps in {time.time() - t_start:.1f}s', all_ranks=(a.fmt == 'pylog'))
dist.barrier()
dist.destroy_process_group()
