#!/usr/bin/env python3
"""The study's training set-up in JAX: a second reference for `unroll-lab bench train`.

The same set-up as bench_train.py (PyTorch), written the way APEBench/Trainax users write it: the
whole train step (minibatch gather, unrolled rollout, loss, gradient, Adam) is one `jax.jit`-ed
function per variant; optax Adam.

- ResNet1D 16 channels x depth 10 (15,841 parameters): input conv 2 -> C, D residual blocks
  [conv -> LeakyReLU(0.01) -> conv, + skip -> LeakyReLU(0.01)], output conv C -> 1; every conv has
  kernel 3, bias and circular padding 1 (`jnp.pad(mode="wrap")` + `lax.conv_general_dilated`).
- Correction: u' = ETD1(ETD1(u)) + 0.5 f(u, s), ETD1 sub-steps h = 0.5 as real N x N operator
  matrices built in float64 (NumPy FFT) and applied in float32; prediction: u' = f(u, s).
- ONE (one step, batch x m), NOG (m steps, `stop_gradient` before every step), WIG (m steps, full
  back-propagation); m = 3; loss = mean of the per-step MSEs; Adam lr 1e-4 (x0.9 every 2000
  iterations, staircase); batch 16; N = 48.
- Data: six training ICs per scale s in {0.9, ..., 1.3}, ETRK2 double steps in float64, 200 warm-up
  steps dropped, 200 frames kept, one [6 * 200, N] float32 array per size on the device. Each
  iteration draws one size and 16 (or 48) windows on the host (Python's `random`, as the PyTorch
  reference) and gathers them inside the jitted step.

Usage: python bench/reference/bench_train_jax.py --iterations 30 [--threads 1] [--device cpu|cuda] --json
"""

import argparse
import json
import math
import os
import random
import sys
import time

CHANNELS = 16
DEPTH = 10
EXPECTED_PARAMETERS = 15_841
LEAKY_SLOPE = 0.01
BATCH = 16
HORIZON = 3
RESOLUTION = 48
BASE_DOMAIN_SIZE = 8.0
SUBSTEP = 0.5
SUBSTEPS = 2
CORRECTION_FACTOR = 0.5
LEARNING_RATE = 1e-4
TRAIN_SCALES = [0.9, 0.95, 1.0, 1.1, 1.2, 1.3]
TRAIN_IC_PARAMETERS = [(0.1, 0.1), (0.1, -0.1), (-0.2, 0.3), (-0.2, -0.3), (0.3, 0.5), (0.3, -0.5)]
DATA_WARMUP_STEPS = 200
DATA_FRAMES = 200
WARMUP_ITERATIONS = 3


def configure(threads, device):
    """XLA reads its flags and platform at import: set them before `import jax`."""
    if threads == 1:
        os.environ["XLA_FLAGS"] = (
            os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        ).strip()
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    os.environ["JAX_PLATFORMS"] = device


# ---------------------------------------------------------------------------------------------
# KS solver matrices and data (NumPy, float64), as crates/core/src/ks/operators.rs


def solver_matrices(scheme, scale, np, n=RESOLUTION, h=SUBSTEP):
    """(E^T, P1^T, P2^T) float64 [N, N], and a check that they equal the FFT sub-step."""
    k = np.fft.fftfreq(n, d=BASE_DOMAIN_SIZE * scale / n)
    symbol = k * k - k**4
    factor = -0.5j * k
    z = symbol * h
    with np.errstate(divide="ignore", invalid="ignore"):
        phi1 = np.where(symbol == 0, h, np.expm1(z) / np.where(symbol == 0, 1.0, symbol))
        formula = (np.expm1(z) - z) / (h * np.where(symbol == 0, 1.0, symbol) ** 2)
    series = h * (0.5 + z / 6.0 + z * z / 24.0 + z**3 / 120.0)
    phi2 = np.where(symbol == 0, h / 2.0, np.where(np.abs(z) < 1e-3, series, formula))
    exp = np.exp(z)
    r = np.arange(n).reshape(n, 1)
    c = np.arange(n).reshape(1, n)

    def operator(multiplier):
        g = np.fft.ifft(multiplier).real
        return g[(r - c) % n]

    e_t, p1_t, p2_t = (operator(m).T.copy() for m in (exp + 0j, phi1 * factor, phi2 * factor))
    u = np.random.default_rng(0).standard_normal((3, n))
    by_fft = np.fft.ifft(exp * np.fft.fft(u) + phi1 * factor * np.fft.fft(u * u)).real
    assert np.abs(by_fft - (u @ e_t + (u * u) @ p1_t)).max() < 1e-12, "matrices differ from the FFT form"
    return e_t, p1_t, p2_t


def training_data(np):
    """Per scale: [6 * DATA_FRAMES, N] float32 (ETRK2 double steps in float64)."""
    sizes = []
    tau = 2.0 * math.pi
    for scale in TRAIN_SCALES:
        e_t, p1_t, p2_t = solver_matrices("etrk2", scale, np)
        domain = BASE_DOMAIN_SIZE * scale
        x = domain * np.arange(RESOLUTION) / RESOLUTION
        u = np.stack(
            [np.cos(tau * x) + a * np.cos(tau * x / domain) * (1.0 + b * np.sin(tau * x / domain)) for a, b in TRAIN_IC_PARAMETERS]
        )

        def step(u):
            for _ in range(SUBSTEPS):
                squared = u * u
                a = u @ e_t + squared @ p1_t
                u = a + (a * a - squared) @ p2_t
            return u

        for _ in range(DATA_WARMUP_STEPS):
            u = step(u)
        frames = []
        for _ in range(DATA_FRAMES):
            frames.append(u)
            u = step(u)
        values = np.stack(frames, 1).reshape(-1, RESOLUTION).astype(np.float32)
        assert np.isfinite(values).all(), f"training data diverged at s = {scale}"
        sizes.append((scale, len(TRAIN_IC_PARAMETERS), DATA_FRAMES, values))
    return sizes


# ---------------------------------------------------------------------------------------------
# Network and training step (JAX)


def build(jax, jnp, optax):
    lax = jax.lax

    def init_conv(key, c_in, c_out):
        """PyTorch's Conv1d default: U(-1/sqrt(3 c_in), 1/sqrt(3 c_in)) for weights and biases."""
        bound = 1.0 / math.sqrt(3 * c_in)
        wk, bk = jax.random.split(key)
        return {
            "w": jax.random.uniform(wk, (c_out, c_in, 3), jnp.float32, -bound, bound),
            "b": jax.random.uniform(bk, (c_out,), jnp.float32, -bound, bound),
        }

    def init(seed):
        keys = jax.random.split(jax.random.PRNGKey(seed), 2 * DEPTH + 2)
        return {
            "input": init_conv(keys[0], 2, CHANNELS),
            "blocks": [
                (init_conv(keys[1 + 2 * i], CHANNELS, CHANNELS), init_conv(keys[2 + 2 * i], CHANNELS, CHANNELS))
                for i in range(DEPTH)
            ],
            "output": init_conv(keys[-1], CHANNELS, 1),
        }

    def conv(p, x):
        """x [B, C_in, N] -> [B, C_out, N], periodic."""
        padded = jnp.pad(x, ((0, 0), (0, 0), (1, 1)), mode="wrap")
        y = lax.conv_general_dilated(padded, p["w"], (1,), "VALID", dimension_numbers=("NCH", "OIH", "NCH"))
        return y + p["b"][None, :, None]

    def leaky(x):
        return jnp.where(x >= 0, x, LEAKY_SLOPE * x)

    def net(params, u, scale):
        """u [B, N], scale [] -> [B, N]."""
        batch, n = u.shape
        x = jnp.stack([u, jnp.full((batch, n), scale, u.dtype)], 1)
        x = conv(params["input"], x)
        for first, second in params["blocks"]:
            x = leaky(x + conv(second, leaky(conv(first, x))))
        return conv(params["output"], x)[:, 0, :]

    def solver_step(u, e_t, p1_t):
        for _ in range(SUBSTEPS):
            u = u @ e_t + (u * u) @ p1_t
        return u

    def make_step(mode, modality, optimizer):
        horizon = 1 if modality == "one" else HORIZON

        def loss_fn(params, values, indices, scale, e_t, p1_t):
            frames = values[indices]  # [horizon + 1, batch, N]
            u = frames[0]
            total = 0.0
            for j in range(horizon):
                if modality in ("one", "nog"):
                    u = lax.stop_gradient(u)
                if mode == "predict":
                    u = net(params, u, scale)
                else:
                    u = solver_step(u, e_t, p1_t) + CORRECTION_FACTOR * net(params, u, scale)
                total = total + jnp.mean((u - frames[j + 1]) ** 2)
            return total / horizon

        @jax.jit
        def step(params, opt_state, values, indices, scale, e_t, p1_t):
            loss, grads = jax.value_and_grad(loss_fn)(params, values, indices, scale, e_t, p1_t)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, loss

        return step

    return init, make_step


class Trainer:
    def __init__(self, jax, jnp, optax, np, mode, modality, data, device_data, solvers, seed=0):
        init, make_step = build(jax, jnp, optax)
        self.params = init(seed)
        parameters = sum(leaf.size for leaf in jax.tree_util.tree_leaves(self.params))
        assert parameters == EXPECTED_PARAMETERS, f"{parameters} parameters, want {EXPECTED_PARAMETERS}"
        schedule = optax.exponential_decay(LEARNING_RATE, 2000, 0.9, staircase=True)
        optimizer = optax.adam(schedule)
        self.opt_state = optimizer.init(self.params)
        self.step_fn = make_step(mode, modality, optimizer)
        self.np = np
        self.jnp = jnp
        self.data = data
        self.device_data = device_data
        self.solvers = solvers
        self.horizon = 1 if modality == "one" else HORIZON
        self.batch = BATCH * HORIZON if modality == "one" else BATCH
        self.rng = random.Random(seed)
        self.order = []

    def minibatch(self):
        if not self.order:
            self.order = list(range(len(self.data)))
            self.rng.shuffle(self.order)
        size = self.order.pop()
        _, trajectories, frames, _ = self.data[size]
        starts = max(frames - self.horizon, 1)
        windows = [(self.rng.randrange(trajectories), self.rng.randrange(starts)) for _ in range(self.batch)]
        indices = self.np.array(
            [[t * frames + start + offset for t, start in windows] for offset in range(self.horizon + 1)],
            dtype=self.np.int32,
        )
        return size, indices

    def step(self):
        size, indices = self.minibatch()
        e_t, p1_t = self.solvers[size]
        self.params, self.opt_state, loss = self.step_fn(
            self.params, self.opt_state, self.device_data[size], indices, self.jnp.float32(self.data[size][0]), e_t, p1_t
        )
        return loss


def bench(iterations, threads, device):
    configure(threads, device)
    import jax
    import jax.numpy as jnp
    import numpy as np
    import optax

    try:
        placed = jax.devices()[0]
    except (RuntimeError, AssertionError) as error:
        raise SystemExit(f"bench_train_jax: JAX finds no {device} device ({error or 'no backend'})")
    data = training_data(np)
    device_data = [jax.device_put(values, placed) for *_, values in data]
    solvers = []
    for scale, *_ in data:
        e_t, p1_t, _ = solver_matrices("etd1", scale, np)
        solvers.append(tuple(jax.device_put(m.astype(np.float32), placed) for m in (e_t, p1_t)))
    result = {
        "device": f"{placed.platform} (jax {jax.__version__}, {'1 thread' if threads == 1 else 'default threads'})",
        "jax_version": jax.__version__,
        "threads": threads,
        "channels": CHANNELS,
        "depth": DEPTH,
        "batch": BATCH,
        "horizon": HORIZON,
        "variants": [],
    }
    for mode in ("predict", "correct"):
        for modality in ("one", "nog", "wig"):
            trainer = Trainer(jax, jnp, optax, np, mode, modality, data, device_data, solvers)
            losses = [trainer.step() for _ in range(WARMUP_ITERATIONS)]  # the first compiles
            jax.block_until_ready(losses)
            start = time.perf_counter()
            losses += [trainer.step() for _ in range(iterations)]
            final = np.asarray(jnp.stack(losses)).tolist()  # the one readback, like ours
            seconds = max(time.perf_counter() - start, 1e-9)
            if not all(math.isfinite(v) for v in final):
                raise SystemExit(f"{mode} {modality}: non-finite loss")
            result["variants"].append(
                {
                    "mode": mode,
                    "modality": modality,
                    "iterations_per_sec": iterations / seconds,
                    "ms_per_iteration": 1e3 * seconds / iterations,
                    "first_loss": final[0],
                }
            )
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=30, help="timed iterations per variant (after 3 untimed)")
    parser.add_argument("--threads", type=int, default=0, help="1: one XLA thread on one core; 0: XLA's default")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="the JAX platform")
    parser.add_argument("--json", action="store_true", help="print JSON shaped like `unroll-lab bench train --json`")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    if args.threads not in (0, 1):
        parser.error("--threads takes 0 (XLA's default) or 1")
    result = bench(args.iterations, args.threads, args.device)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"training on {result['device']}: ResNet1D {CHANNELS}x{DEPTH}, batch {BATCH}, m = {HORIZON} (ONE: batch xm)")
    for v in result["variants"]:
        label = f"{v['mode'][0].upper()}-{v['modality'].upper()}"
        print(f"  {label:<6} {v['iterations_per_sec']:>8.2f} it/s  {v['ms_per_iteration']:>7.2f} ms/it")


if __name__ == "__main__":
    sys.exit(main())
