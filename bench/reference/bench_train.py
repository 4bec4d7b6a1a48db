#!/usr/bin/env python3
"""The study's training set-up in plain PyTorch: a reference for `unroll-lab bench train`.

Same shapes and the same work per iteration as ours (crates/core/src/train/, bench_train.rs):

- ResNet1D 16 channels x depth 10 (15,841 parameters): input conv 2 -> C, D residual blocks
  [conv -> LeakyReLU(0.01) -> conv, + skip -> LeakyReLU(0.01)], output conv C -> 1; every conv has
  kernel 3, bias and circular padding 1 (nn.Conv1d(padding_mode="circular"), as in the paper's
  code). Inputs: u and a constant channel s = L/8.
- Correction: u' = ETD1(ETD1(u)) + 0.5 f(u, s), ETD1 sub-step h = 0.5 as real N x N operator
  matrices (u' = u E^T + u^2 P1^T), built in float64 from the same formulas as
  crates/core/src/ks/operators.rs (with torch.fft) and used in float32, exactly like ours.
  Prediction: u' = f(u, s).
- ONE (one step, batch x m), NOG (m steps, state detached before every step), WIG (m steps, full
  back-propagation through network and solver); m = 3, warm-up 0; loss = mean of the per-step
  MSEs; Adam lr 1e-4 (x0.9 every 2000 iterations); batch 16; N = 48.
- Data: the study's six training ICs per scale s in {0.9, ..., 1.3}, ETRK2 double steps (h = 0.5)
  in float64, 200 warm-up steps dropped, 200 frames kept (what `bench train` uses), stored float32
  on the device as one [trajectories * frames, N] tensor per size. Each iteration draws one size
  and 16 (or 48) random windows and gathers them with one index_select, as ours does.

Usage: python bench/reference/bench_train.py --iterations 30 --threads 1 [--device cpu|cuda] --json
"""

import argparse
import json
import math
import random
import sys
import time
import warnings

# torch works without NumPy here; only its import-time notice is silenced.
warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

CHANNELS = 16
DEPTH = 10
EXPECTED_PARAMETERS = 15_841  # 6 D C^2 + (2 D + 10) C + 1
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


# ---------------------------------------------------------------------------------------------
# Network


def periodic_conv(channels_in, channels_out):
    return nn.Conv1d(channels_in, channels_out, 3, padding=1, padding_mode="circular", bias=True)


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = periodic_conv(channels, channels)
        self.conv2 = periodic_conv(channels, channels)

    def forward(self, x):
        h = nn.functional.leaky_relu(self.conv1(x), LEAKY_SLOPE)
        return nn.functional.leaky_relu(x + self.conv2(h), LEAKY_SLOPE)


class ResNet1d(nn.Module):
    def __init__(self, channels=CHANNELS, depth=DEPTH):
        super().__init__()
        self.input = periodic_conv(2, channels)
        self.blocks = nn.Sequential(*[ResidualBlock(channels) for _ in range(depth)])
        self.output = periodic_conv(channels, 1)

    def forward(self, u, scale):
        """u: [B, N], scale: [B, 1] -> [B, N] (no activation after the input conv)."""
        batch, n = u.shape
        x = torch.cat([u.reshape(batch, 1, n), scale.reshape(batch, 1, 1).expand(batch, 1, n)], 1)
        x = self.blocks(self.input(x))
        return self.output(x).reshape(batch, n)


# ---------------------------------------------------------------------------------------------
# KS solver: real operator matrices (crates/core/src/ks/{grid,operators,tensor}.rs)


def wavenumbers(n, domain_size):
    return torch.fft.fftfreq(n, d=domain_size / n, dtype=torch.float64)


def phi1(symbol, h):
    safe = torch.where(symbol == 0, torch.ones_like(symbol), symbol)
    return torch.where(symbol == 0, torch.full_like(symbol, h), torch.expm1(symbol * h) / safe)


def phi2(symbol, h):
    z = symbol * h
    safe = torch.where(symbol == 0, torch.ones_like(symbol), symbol)
    formula = (torch.expm1(z) - z) / (h * safe * safe)
    series = h * (0.5 + z / 6.0 + z * z / 24.0 + z * z * z / 120.0)
    value = torch.where(z.abs() < 1e-3, series, formula)
    return torch.where(symbol == 0, torch.full_like(symbol, h / 2.0), value)


def real_operator(multiplier):
    """M[r][c] = g[(r - c) mod N], g = Re IFFT(multiplier): u'_r = sum_c M[r][c] u_c."""
    n = multiplier.shape[0]
    g = torch.fft.ifft(multiplier).real
    r = torch.arange(n).reshape(n, 1)
    c = torch.arange(n).reshape(1, n)
    return g[(r - c) % n]


class Solver:
    """ETD1 or ETRK2 sub-steps as row-batch matmuls; matrices are constants (no gradient)."""

    def __init__(self, scheme, scale, dtype, h=SUBSTEP, substeps=SUBSTEPS, n=RESOLUTION):
        k = wavenumbers(n, BASE_DOMAIN_SIZE * scale)
        symbol = k * k - k**4
        factor = torch.complex(torch.zeros_like(k), -0.5 * k)  # -1/2 ik
        self.scheme = scheme
        self.substeps = substeps
        self.h = h
        self.exp = torch.exp(symbol * h)
        self.phi1_factor = phi1(symbol, h) * factor
        self.phi2_factor = phi2(symbol, h) * factor
        as_complex = lambda v: torch.complex(v, torch.zeros_like(v))  # noqa: E731
        self.exp_t = real_operator(as_complex(self.exp)).T.contiguous().to(dtype)
        self.p1_t = real_operator(self.phi1_factor).T.contiguous().to(dtype)
        self.p2_t = real_operator(self.phi2_factor).T.contiguous().to(dtype)

    def to(self, device):
        """The float32 matrices on `device` (the float64 FFT check stays on the host)."""
        self.exp_t, self.p1_t, self.p2_t = (m.to(device) for m in (self.exp_t, self.p1_t, self.p2_t))
        return self

    def substep(self, u):
        squared = u * u
        a = u @ self.exp_t + squared @ self.p1_t
        if self.scheme == "etd1":
            return a
        return a + (a * a - squared) @ self.p2_t

    def step(self, u):
        for _ in range(self.substeps):
            u = self.substep(u)
        return u

    def spectral_substep(self, u):
        """The same sub-step with FFTs (float64): a check of the matrices."""
        u_hat = torch.fft.fft(u)
        a_hat = self.exp * u_hat + self.phi1_factor * torch.fft.fft(u * u)
        a = torch.fft.ifft(a_hat).real
        if self.scheme == "etd1":
            return a
        return a + torch.fft.ifft(self.phi2_factor * torch.fft.fft(a * a - u * u)).real


def train_ic(scale, index, n=RESOLUTION):
    a, b = TRAIN_IC_PARAMETERS[index]
    domain = BASE_DOMAIN_SIZE * scale
    x = domain * torch.arange(n, dtype=torch.float64) / n
    tau = 2.0 * math.pi
    return torch.cos(tau * x) + a * torch.cos(tau * x / domain) * (1.0 + b * torch.sin(tau * x / domain))


def training_data():
    """Per scale: [6 * DATA_FRAMES, N] float32 (ETRK2 double steps in float64)."""
    sizes = []
    for scale in TRAIN_SCALES:
        truth = Solver("etrk2", scale, torch.float64)
        u = torch.stack([train_ic(scale, i) for i in range(len(TRAIN_IC_PARAMETERS))])
        for solver in (truth, Solver("etd1", scale, torch.float64)):
            check = solver.spectral_substep(u) - solver.substep(u)
            assert check.abs().max().item() < 1e-12, f"{solver.scheme} matrices differ from the FFT form"
        for _ in range(DATA_WARMUP_STEPS):
            u = truth.step(u)
        frames = []
        for _ in range(DATA_FRAMES):
            frames.append(u)
            u = truth.step(u)
        values = torch.stack(frames, 1).reshape(-1, RESOLUTION).to(torch.float32)
        assert torch.isfinite(values).all(), f"training data diverged at s = {scale}"
        sizes.append((scale, len(TRAIN_IC_PARAMETERS), DATA_FRAMES, values.contiguous()))
    return sizes


# ---------------------------------------------------------------------------------------------
# Training


class Trainer:
    def __init__(self, mode, modality, data, seed=0, device="cpu"):
        torch.manual_seed(seed)
        self.device = torch.device(device)
        self.mode = mode
        self.modality = modality
        self.data = data
        self.net = ResNet1d().to(self.device)
        parameters = sum(p.numel() for p in self.net.parameters())
        assert parameters == EXPECTED_PARAMETERS, f"{parameters} parameters, want {EXPECTED_PARAMETERS}"
        self.solvers = [Solver("etd1", scale, torch.float32).to(self.device) for scale, *_ in data]
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=LEARNING_RATE)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=2000, gamma=0.9)
        # ONE: horizon 1, batch x m (config.rs effective_batch / effective_unroll).
        self.horizon = 1 if modality == "one" else HORIZON
        self.batch = BATCH * HORIZON if modality == "one" else BATCH
        self.rng = random.Random(seed)
        self.order = []

    def minibatch(self):
        """A size (interleaved: a fresh permutation every len(sizes) iterations) and windows."""
        if not self.order:
            self.order = list(range(len(self.data)))
            self.rng.shuffle(self.order)
        size = self.order.pop()
        _, trajectories, frames, _ = self.data[size]
        starts = max(frames - self.horizon, 1)
        windows = [(self.rng.randrange(trajectories), self.rng.randrange(starts)) for _ in range(self.batch)]
        return size, windows

    def gather(self, size, windows):
        """horizon + 1 tensors [batch, N]: one index_select from the device tensor."""
        _, _, frames, values = self.data[size]
        indices = torch.tensor(
            [t * frames + start + offset for offset in range(self.horizon + 1) for t, start in windows],
            dtype=torch.int64,
        ).to(self.device)
        rows = values.index_select(0, indices).reshape(self.horizon + 1, len(windows), RESOLUTION)
        return rows.unbind(0)

    def step_state(self, size, u, scale):
        if self.mode == "predict":
            return self.net(u, scale)
        return self.solvers[size].step(u) + self.net(u, scale) * CORRECTION_FACTOR

    def step(self):
        size, windows = self.minibatch()
        frames = self.gather(size, windows)
        scale = torch.full((len(windows), 1), self.data[size][0], dtype=torch.float32, device=self.device)
        u = frames[0]
        total = None
        for j in range(self.horizon):
            if self.modality in ("one", "nog"):
                u = u.detach()
            u = self.step_state(size, u, scale)
            step_loss = torch.mean((u - frames[j + 1]) ** 2)
            total = step_loss if total is None else total + step_loss
        loss = total / self.horizon
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.scheduler.step()
        return loss.detach()


def synchronize(device):
    if device == "cuda":
        torch.cuda.synchronize()


def bench(iterations, threads, device="cpu"):
    if threads > 0:
        torch.set_num_threads(threads)
    if device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("bench_train: --device cuda, but torch sees no CUDA GPU")
    data = [(s, t, f, values.to(device)) for s, t, f, values in training_data()]
    result = {
        "device": f"{device} (torch {torch.__version__}, {torch.get_num_threads()} threads)",
        "torch_version": torch.__version__,
        "threads": torch.get_num_threads(),
        "channels": CHANNELS,
        "depth": DEPTH,
        "batch": BATCH,
        "horizon": HORIZON,
        "variants": [],
    }
    for mode in ("predict", "correct"):
        for modality in ("one", "nog", "wig"):
            trainer = Trainer(mode, modality, data, device=device)
            losses = [trainer.step() for _ in range(WARMUP_ITERATIONS)]
            synchronize(device)
            start = time.perf_counter()
            losses += [trainer.step() for _ in range(iterations)]
            final = torch.stack(losses).tolist()  # the one readback, like ours (LossLog::flush)
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
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default, all cores)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where torch trains")
    parser.add_argument("--json", action="store_true", help="print JSON shaped like `unroll-lab bench train --json`")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    if args.threads < 0:
        parser.error("--threads must be 0 (default) or positive")
    result = bench(args.iterations, args.threads, args.device)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"training on {result['device']}: ResNet1D {CHANNELS}x{DEPTH}, batch {BATCH}, m = {HORIZON} (ONE: batch xm)"
    )
    for v in result["variants"]:
        label = f"{v['mode'][0].upper()}-{v['modality'].upper()}"
        print(f"  {label:<6} {v['iterations_per_sec']:>8.2f} it/s  {v['ms_per_iteration']:>7.2f} ms/it")


if __name__ == "__main__":
    sys.exit(main())
