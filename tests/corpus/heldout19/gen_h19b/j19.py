# Tiny data-parallel MLP language model in JAX, multi-process on CPU (jax.distributed coordination service,
# gloo CPU collectives), one CPU device per process. Logs with loguru (default format) or structlog JSON lines.
import argparse, os, socket, sys, time

p = argparse.ArgumentParser()
p.add_argument("--coord", default=None)           # host:port of the coordination service (process 0)
p.add_argument("--nproc", type=int, default=None)
p.add_argument("--pid", type=int, default=None)
p.add_argument("--steps", type=int, default=600)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--batch", type=int, default=64)    # per process
p.add_argument("--ctx", type=int, default=32)
p.add_argument("--d", type=int, default=128)
p.add_argument("--hidden", type=int, default=512)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--resume", action="store_true")
p.add_argument("--data", default=None)            # uint8 token file; each step reads its batch from it
p.add_argument("--heartbeat", type=int, default=100)
p.add_argument("--leak-mb", type=float, default=0.0)  # per step, keeps a growing history of activations
p.add_argument("--fmt", choices=["loguru", "json"], default="loguru")
p.add_argument("--eval-ctx", type=int, default=None)  # eval batches' context length (a config knob)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--usr1-ckpt", action="store_true")  # on SIGUSR1 (sbatch --signal), save a checkpoint and go on
a = p.parse_args()

pid = a.pid if a.pid is not None else int(os.environ.get("SLURM_PROCID", "0"))
nproc = a.nproc if a.nproc is not None else int(os.environ.get("SLURM_NTASKS", "1"))
host = os.environ.get("SLURMD_NODENAME", socket.gethostname())

if a.fmt == "loguru":
    from loguru import logger
    logger.remove()
    logger.add(sys.stderr, level="INFO")
    def info(msg, **kw): logger.opt(depth=1).info(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
    def warn(msg, **kw): logger.opt(depth=1).warning(msg + ("" if not kw else " " + " ".join(f"{k}={v}" for k, v in kw.items())))
else:
    import structlog
    structlog.configure(processors=[structlog.processors.add_log_level,
                                    structlog.processors.TimeStamper(fmt="iso", utc=True),
                                    structlog.processors.JSONRenderer()],
                        logger_factory=structlog.PrintLoggerFactory(sys.stdout))
    log = structlog.get_logger().bind(process=pid, host=host)
    def info(msg, **kw): log.info(msg, **kw); sys.stdout.flush()
    def warn(msg, **kw): log.warning(msg, **kw); sys.stdout.flush()

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_cpu_collectives_implementation", "gloo")
if nproc > 1:
    info("initializing jax.distributed", coordinator=a.coord, num_processes=nproc, process_id=pid)
    jax.distributed.initialize(coordinator_address=a.coord, num_processes=nproc, process_id=pid,
                               local_device_ids=[0], heartbeat_timeout_seconds=a.heartbeat)
info("jax ready", process_index=jax.process_index(), process_count=jax.process_count(),
     devices=len(jax.devices()), local_devices=len(jax.local_devices()), host=host)

V = 256
mesh = Mesh(np.array(jax.devices()), ("data",))
rep = NamedSharding(mesh, P())
dat = NamedSharding(mesh, P("data"))

def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"emb": jax.random.normal(k1, (V, a.d)) * 0.02,
            "w1": jax.random.normal(k2, (a.ctx * a.d, a.hidden)) * (1.0 / np.sqrt(a.ctx * a.d)),
            "b1": jnp.zeros((a.hidden,)),
            "w2": jax.random.normal(k3, (a.hidden, V)) * (1.0 / np.sqrt(a.hidden)),
            "b2": jnp.zeros((V,))}

def loss_fn(params, x, y):
    h = params["emb"][x].reshape(x.shape[0], -1)
    h = jax.nn.gelu(h @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

def adam_step(params, m, v, t, x, y):
    loss, g = jax.value_and_grad(loss_fn)(params, x, y)
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
    v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
    mh = jax.tree.map(lambda m: m / (1 - 0.9 ** t), m)
    vh = jax.tree.map(lambda v: v / (1 - 0.999 ** t), v)
    params = jax.tree.map(lambda p, a_, b_: p - a.lr * a_ / (jnp.sqrt(b_) + 1e-8), params, mh, vh)
    return params, m, v, loss

step_fn = jax.jit(adam_step, in_shardings=(rep, rep, rep, None, dat, dat), out_shardings=(rep, rep, rep, rep),
                  donate_argnums=(0, 1, 2))
eval_fn = jax.jit(loss_fn, in_shardings=(rep, dat, dat), out_shardings=rep)

params = jax.device_put(init(jax.random.PRNGKey(0)), rep)
m = jax.tree.map(jnp.zeros_like, params); v = jax.tree.map(jnp.zeros_like, params)
nparams = sum(int(np.prod(x.shape)) for x in jax.tree.leaves(params))
info("model", params=nparams, ctx=a.ctx, d_model=a.d, hidden=a.hidden, global_batch=a.batch * nproc)

start = 0
if a.resume and a.ckpt_dir and os.path.isdir(a.ckpt_dir):
    cks = sorted(int(f.split("_")[1].split(".")[0]) for f in os.listdir(a.ckpt_dir) if f.startswith("ckpt_"))
    if cks:
        z = np.load(os.path.join(a.ckpt_dir, f"ckpt_{cks[-1]:06d}.npz"))
        params = jax.device_put({k: jnp.asarray(z[k]) for k in params}, rep)
        start = cks[-1]
        info("resumed from checkpoint", step=start, path=os.path.join(a.ckpt_dir, f"ckpt_{cks[-1]:06d}.npz"))

# synthetic corpus: a noisy periodic token stream (learnable), or a file read per step
rng = np.random.default_rng(1234 + pid)
base = (np.arange(1 << 16) * 7 % 251).astype(np.uint8)
corpus = np.where(rng.random(base.shape) < 0.1, rng.integers(0, V, base.shape), base).astype(np.int32)

def get_batch(step, ctx, n):
    if a.data:
        with open(a.data, "rb") as f:
            f.seek((step * 4096 + pid * 1 << 20) % (os.path.getsize(a.data) - 8192))
            buf = np.frombuffer(f.read(4096), dtype=np.uint8).astype(np.int32)
        src = np.concatenate([buf, corpus[: ctx + 1]])
    else:
        src = corpus
    idx = rng.integers(0, len(src) - ctx - 1, n)
    x = np.stack([src[i:i + ctx] for i in idx]); y = src[idx + ctx]
    return x, y

def glob(x):
    return jax.make_array_from_process_local_data(dat, x)

hist = []
got_usr1 = [0]
if a.usr1_ckpt:
    import signal
    signal.signal(signal.SIGUSR1, lambda s, f: got_usr1.__setitem__(0, 1))
    from jax.experimental import multihost_utils

def save(step, why=None):
    host_params = jax.tree.map(np.asarray, params)
    if pid == 0:
        os.makedirs(a.ckpt_dir, exist_ok=True)
        path = os.path.join(a.ckpt_dir, f"ckpt_{step:06d}.npz")
        tc = time.time()
        with open(path + ".tmp", "wb") as f:
            np.savez(f, **host_params)
        os.replace(path + ".tmp", path)
        kw = dict(step=step, path=path, secs=round(time.time() - tc, 2), mb=round(os.path.getsize(path) / 2**20, 1))
        if why:
            kw["reason"] = why
        info("saved checkpoint", **kw)

t0 = time.time(); tl = t0
for step in range(start + 1, a.steps + 1):
    x, y = get_batch(step, a.ctx, a.batch)
    params, m, v, loss = step_fn(params, m, v, jnp.float32(step), glob(x), glob(y))
    if a.leak_mb:
        hist.append(np.ones(int(a.leak_mb * (1 << 20) / 8)))  # "debug" activation history never cleared
    if step % a.log_every == 0:
        lv = float(loss)
        now = time.time(); dt = (now - tl) / a.log_every; tl = now
        kw = dict(step=step, loss=round(lv, 4), step_time_ms=round(dt * 1000, 1),
                  tokens_per_s=int(a.batch * nproc * a.ctx / dt))
        if a.leak_mb:
            import resource
            kw["rss_mb"] = int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        info("train", **kw)
    if a.eval_every and step % a.eval_every == 0:
        ec = a.eval_ctx or a.ctx
        ex, ey = get_batch(step, ec, a.batch)
        el = float(eval_fn(params, glob(ex), glob(ey)))
        info("eval", step=step, eval_loss=round(el, 4), eval_ppl=round(float(np.exp(el)), 2))
    if a.ckpt_every and step % a.ckpt_every == 0 and a.ckpt_dir:
        save(step)
    if a.usr1_ckpt and step % 10 == 0:
        if int(np.max(multihost_utils.process_allgather(np.int32(got_usr1[0])))) == 1:
            warn("received SIGUSR1: job time limit approaching, saving checkpoint", step=step)
            save(step, why="SIGUSR1")
            got_usr1[0] = 0; a.usr1_ckpt = False
info("training finished", steps=a.steps, wall_s=round(time.time() - t0, 1))
if nproc > 1:
    jax.distributed.shutdown()
info("done")
