"""An independent implementation of the official KS training (tum-pbs/unrolling,
kuramoto-sivashinsky/ks_train.py with ks_networks.py and ks_solver.py) in plain PyTorch, trained
on unroll-lab's exported data and scored on unroll-lab's exported test windows with the study's
metric, so that the two implementations can be compared on identical data.

Reads the JSON that `unroll-lab study --preset paper --data-out FILE` writes (unroll-lab's
`Prepared`: training trajectories f32 `[frames, 48]` per IC and domain size, test truths f64
`[tests, rollout + 1, 48]` per test size, the ETD1 baseline's per-test metrics; floats as base64
of their little-endian bytes).

What is taken verbatim from the official code (only comments trimmed):
  - `ConvResNet1D` (ks_networks.py): the ResNet 16 x 10 with circular 3-tap convs and PyTorch's
    default initialisation under `torch.manual_seed(seed)` (reset before each network, as
    ks_train.py does for each of NOG, WGR and ONE);
  - `stack_prediction_inputs` / `stack_prediction_targets` (ks_networks.py): the windows;
  - `DatasetKS` (ks_train.py): DataLoader(shuffle=True) per domain size, a permuted label per
    window, the epoch ends when the first size runs out; `len()` is the nominal epoch;
  - the training loops of ks_train.py (NOG part 2, WGR part 3, ONE part 4): Adam lr 1e-4
    (PyTorch's eps 1e-8), `ExponentialLR(gamma=0.9)` stepped after every step whose nominal index
    `epoch * len(dataset) + i` is a multiple of INTER_LRD = 2000 (the first after step 0),
    MSELoss over batch x m x N, ONE at batch 16 * m and horizon 1 with its own dataset, NOG
    detaching every unrolled state, WGR detaching none;
  - `train_sim` for learning_task 'correct', CNN (ks_solver.py): `u' = etd1(u) + dt * net([u, s])`,
    the solver's domain size taken from the batch's channel 1 (L = 8 s, float32) and the network's
    channel `s = L / 8`;
  - the data preparation of ks_train.py: dataset_fraction 0.25 (the exported trajectories are
    already the first 1250 kept frames, from step 201), the constant channel `8 * s`.

Re-written (PhiFlow replaced by torch.fft, same formulas, float32 as PhiFlow's default precision):
  - `DifferentiableKS.etd1_step` / `etd1` (double step, dt = 0.5): `k = fftfreq(N, L/N) * 1j`,
    `L = -k^2 - k^4`, `e = exp(L dt)`, `phi1 = (e - 1)/L` (dt where 0),
    `u' = real(ifft(e fft(u) - 0.5 k fft(u^2) phi1))`;
  - evaluation (ks_eval.py `run_sim_eval`, 'correct', CNN): 12 network steps from frame 0 of
    each exported test window, outputs clipped to +-1e12 and NaN -> 1e13 as the official code
    does; scored with unroll-lab's `metrics::relative_error` (ks_eval.py's rellinf at H = 12):
    `1/13 sum_{t=0..12} clip(mean_x (u~_t - u_t)^2 / max_{t<=12,x} u_t^2, -30, 30)`, a non-finite
    frame counting 30.

Not reproduced: torch.compile (numerically irrelevant), logging, checkpoints, plots, the GCN.
The run stops after `--iterations` optimizer steps on the official clock (the same epochs,
nominal indices and learning-rate decays as the full 16-epoch run up to that step).

Usage:
  python ks_train_official.py --data data.json --modality wig --seed 0 --iterations 6000 --out r.json
  python ks_train_official.py --data data.json --baseline-only [--eval-ours results.json]
"""
import argparse
import base64
import json
import math
import time

import numpy as np
import torch

SN = 48
DOMAIN_SIZE = 8  # the base domain size, already divided by 2 pi
DT = 0.5
INTER_LRD = 2000
HORIZON = 12
CLIP = 30.0


# ---------------------------------------------------------------------------------------------
# data

def unpack(text, dtype):
    """The floats of a `Packed` base64 string (little-endian)."""
    return np.frombuffer(base64.b64decode(text), dtype=dtype)


def load_prepared(path):
    """Training trajectories grouped by domain size (in the study's order) and the test sets."""
    with open(path) as f:
        prepared = json.load(f)
    sizes = []  # [(scale, domain_size, array [ICs, frames, N])]
    for t in prepared["training"]:
        values = unpack(t["values"], "<f4").reshape(-1, t["resolution"])
        if not sizes or sizes[-1][0] != t["scale"]:
            sizes.append((t["scale"], t["domain_size"], []))
        sizes[-1][2].append(values)
    sizes = [(s, l, np.stack(v)) for s, l, v in sizes]
    tests = []  # [(scale, truth [tests, frames, N] f64)]
    for s in prepared["tests"]:
        truth = unpack(s["truth"], "<f8").reshape(s["shape"])
        tests.append((s["scale"], truth))
    baseline = [m["relative_error"] for m in prepared["baseline_tests"]]
    return sizes, tests, baseline


# ks_networks.py, verbatim
def stack_prediction_inputs(data, prediction_horizon, input_slices):
    indices = np.arange(data.shape[0]-prediction_horizon - input_slices)[:,None] + np.arange(0,input_slices)
    return data[indices]


def stack_prediction_targets(data, prediction_horizon, input_slices):
    indices = np.arange(data.shape[0]-prediction_horizon - input_slices)[:,None] + np.arange(input_slices,input_slices+prediction_horizon)
    return data[indices]


# ks_train.py, verbatim
class DatasetKS():
    def __init__(self, inp,outp, batch_size):
        self.inp  = inp
        self.outp = outp
        self.batch_size = batch_size

    def reset(self): # init, always call before enumerate()
        self.dataset = []
        self.dataloader = []
        self.indices = []
        for i in range(len(self.outp)):
            self.dataset.append( torch.utils.data.TensorDataset(self.inp[i], self.outp[i]) )
            self.dataloader.append( torch.utils.data.DataLoader(self.dataset[i], shuffle=True, batch_size=self.batch_size) )

    def __iter__(self): # start enumeration
        self.indices = []
        self.dataenum = []
        for i in range(len(self.outp)):
            self.dataenum.append( enumerate(self.dataloader[i], 0) )
            self.indices.append( np.ones( len(self.outp[i]) , dtype=int) * i )

        self.indices = np.concatenate(self.indices, axis=0)
        t = 0
        for i in range(len(self.outp)):
            t += len(self.dataloader[i])
        self.i = 0
        perm = np.random.permutation(len(self.indices))
        self.indices = self.indices[perm]
        return self

    def __len__(self): # precompute?
        l = 0
        for i in range(len(self.outp)):
            l += len(self.outp[i])
        return int(l/self.batch_size)

    def __next__(self):
        if self.i<len(self.indices):
            idx = self.indices[self.i]
            self.i += 1
            dli, data = self.dataenum[idx].__next__()
            return data
        else:
            raise StopIteration


def make_dataset(sizes, prediction_horizon, batch_size):
    """ks_train.py's inputs (u and the constant channel 8 s) and targets per domain size."""
    torch_inputs, torch_outputs = [], []
    for scale, domain_size, dataset in sizes:
        torch_input = np.array([stack_prediction_inputs(d, prediction_horizon,1) for d in dataset])
        torch_input = torch.Tensor(torch_input.reshape(-1,1,torch_input.shape[-1]))
        torch_input_ds = torch.ones( torch_input.shape ) * domain_size
        torch_input = torch.concat( [torch_input, torch_input_ds], axis=1)
        torch_inputs.append( torch_input )
        torch_output = np.array([stack_prediction_targets(d, prediction_horizon,1) for d in dataset])
        torch_outputs.append( torch.Tensor(torch_output.reshape(-1,prediction_horizon, torch_output.shape[-1])) )
    return DatasetKS(torch_inputs, torch_outputs, batch_size)


# ---------------------------------------------------------------------------------------------
# solver (ks_solver.py's DifferentiableKS.etd1 without PhiFlow)

class Etd1:
    """ETD1 double step of `DifferentiableKS(resolution=48, dt=0.5)`, float32 like PhiFlow."""

    def __init__(self, dt=DT):
        self.dt = dt
        self.cache = {}

    def coefficients(self, domain_size):
        key = float(domain_size)
        if key not in self.cache:
            d = torch.tensor(key, dtype=torch.float32) / SN
            wavenumbers = torch.fft.fftfreq(SN, d=float(d)).to(torch.float32) * 1j
            L_mat = -wavenumbers**2 - wavenumbers**4
            exp_lin = torch.exp(L_mat * self.dt)
            coef = (exp_lin - 1) / L_mat
            coef = torch.where(torch.isfinite(coef), coef, torch.zeros_like(coef))  # divide_no_nan
            coef = torch.where(coef == 0, torch.full_like(coef, self.dt), coef)
            self.cache[key] = (wavenumbers, exp_lin, coef)
        return self.cache[key]

    def etd1_step(self, u, domain_size):
        wavenumbers, exp_lin, coef = self.coefficients(domain_size)
        nonlin_current = -0.5 * wavenumbers * torch.fft.fft(u**2)
        u_new = exp_lin * torch.fft.fft(u) + nonlin_current * coef
        return torch.real(torch.fft.ifft(u_new))

    def etd1(self, u, domain_size):
        return self.etd1_step(self.etd1_step(u, domain_size), domain_size)


def etd1_f64(u, domain_size, dt=DT):
    """The same double step in float64 numpy (the baseline check against unroll-lab's f64)."""
    k = np.fft.fftfreq(SN, d=domain_size / SN) * 1j
    L = -k**2 - k**4
    e = np.exp(L * dt)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(L == 0, dt, (e - 1) / np.where(L == 0, 1, L))
    for _ in range(2):
        u = np.real(np.fft.ifft(e * np.fft.fft(u) - 0.5 * k * np.fft.fft(u**2) * c))
    return u


# ---------------------------------------------------------------------------------------------
# network (ks_networks.py, verbatim)

class ConvResNet1D(torch.nn.Module):
    def __init__(self, res_net_channels, res_net_depth, device):
        super(ConvResNet1D, self).__init__()
        USE_BIAS = True
        self.upsample_conv_layer = torch.nn.Conv1d(2, res_net_channels, kernel_size=3, padding=1,
                                                   padding_mode='circular', bias=USE_BIAS).to(device)
        self.conv_layers = []
        self.relu_layers = []
        self.res_net_depth = res_net_depth
        for i in range(res_net_depth):
            self.conv_layers.append(torch.nn.Conv1d(res_net_channels, res_net_channels, kernel_size=3, padding=1,
                                                    padding_mode='circular', bias=USE_BIAS).to(device))
            self.relu_layers.append(torch.nn.LeakyReLU(inplace=True).to(device))
            self.conv_layers.append(torch.nn.Conv1d(res_net_channels, res_net_channels, kernel_size=3, padding=1,
                                                    padding_mode='circular', bias=USE_BIAS).to(device))
            self.relu_layers.append(torch.nn.LeakyReLU(inplace=True).to(device))
        if res_net_depth==0:
            self.relu_layers.append(torch.nn.LeakyReLU(inplace=True).to(device))
        self.downsample_conv_layer = torch.nn.Conv1d(res_net_channels, 1, kernel_size=3, padding=1,
                                                   padding_mode='circular', bias=USE_BIAS).to(device)
        self.net = torch.nn.Sequential(self.upsample_conv_layer, *self.conv_layers,
                                       *self.relu_layers, self.downsample_conv_layer)

    def forward(self,x):
        x = self.upsample_conv_layer(x)
        for i in range(self.res_net_depth):
            x_skip = x
            x = self.conv_layers[i*2](x)
            x = self.relu_layers[i*2](x)
            x = self.conv_layers[i*2+1](x)+x_skip
            x = self.relu_layers[i*2+1](x)
        if self.res_net_depth==0:
            x = self.relu_layers[0](x)
        x = self.downsample_conv_layer(x)
        return x


# ---------------------------------------------------------------------------------------------
# training (ks_solver.py train_sim 'correct' CNN; ks_train.py parts 2-4)

def train_sim(diff_ks, input, net, prediction_horizon, domain_size, do_detach=0):
    inputs = [input[:,0:1,:]] # strip DS
    ds = input[:,1:2,:] * (1/8) # concat for net , normalize
    outputs = []
    for m in range(prediction_horizon):
        outputs.append( diff_ks.etd1(inputs[-1][:,0:1,:], domain_size)
                        + diff_ks.dt * net( torch.concat( [inputs[-1],ds],axis=1)) )
        if m >= do_detach: # regular, differentiable physics training
            inputs.append( outputs[-1] )
        else: # detach for supervised data-matching -> no differentiation through time
            inputs.append( outputs[-1].detach() )
    outputs = torch.concat(outputs ,axis=1) # concat along time steps
    return inputs, outputs


def train(sizes, modality, seed, iterations, channels=16, depth=10, horizon=3, batch=16,
          epochs=16, log_every=500, init=None):
    """ks_train.py's NOG / WGR / ONE training of a correction CNN, stopped after `iterations`
    optimizer steps: the network and the losses at every `log_every`-th step. `init` (flat
    weights in unroll-lab's order) replaces the drawn initial weights (the RNG is drawn as
    without it)."""
    torch.manual_seed(seed) # reset seed for network init & training
    np.random.seed(seed)
    net = ConvResNet1D(channels, depth, device="cpu")
    if init is not None:
        load_flat(net, init)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
    loss = torch.nn.MSELoss()
    diff_ks = Etd1()
    if modality == "one":
        steps, do_detach = 1, 0
        dataset = make_dataset(sizes, 1, batch * horizon)
        epochs = epochs * horizon
    else:
        steps, do_detach = horizon, (horizon if modality == "nog" else 0)
        dataset = make_dataset(sizes, horizon, batch)
    dataset.reset()
    done, losses, epoch_lengths = 0, [], []
    for epoch in range(epochs):
        if modality == "one":
            dataset.reset()
        length = 0
        for i, data in enumerate(dataset, 0):
            inputs, labels = data
            ds_curr = inputs[0,1,0]
            optimizer.zero_grad()
            _, outputs = train_sim(diff_ks, inputs, net, steps, ds_curr, do_detach=do_detach)
            loss_value = loss(outputs, labels)
            loss_value.backward()
            optimizer.step()
            if done % log_every == 0:
                losses.append((done, loss_value.item(), optimizer.param_groups[0]["lr"]))
            if ((epoch*len(dataset)+i)%INTER_LRD)==0:
                scheduler.step()
            done += 1
            length += 1
            if done >= iterations:
                break
        epoch_lengths.append(length)
        if done >= iterations:
            break
    return net, {"losses": losses, "epoch_lengths": epoch_lengths, "nominal_epoch": len(dataset),
                 "final_lr": optimizer.param_groups[0]["lr"], "iterations": done}


# ---------------------------------------------------------------------------------------------
# evaluation (ks_eval.py run_sim_eval 'correct' CNN; unroll-lab's metrics::relative_error)

def relative_error(truth, model, horizon=HORIZON):
    """unroll-lab's `metrics::relative_error` (f64): frames 0..=horizon."""
    frames = horizon + 1
    peak = max(np.max(truth[:frames] ** 2), np.finfo(np.float64).tiny)
    total = 0.0
    for t in range(frames):
        with np.errstate(over="ignore", invalid="ignore"):
            value = np.mean((model[t] - truth[t]) ** 2) / peak
        total += min(max(value, -CLIP), CLIP) if np.isfinite(value) else CLIP
    return total / frames


def rollout(net, truth, scale, horizon=HORIZON):
    """Frames 0..=horizon of the learned correction from frame 0 of each test (f32, as f64)."""
    diff_ks = Etd1()
    domain_size = DOMAIN_SIZE * scale
    u = torch.tensor(truth[:, 0:1, :], dtype=torch.float32)
    ds = torch.ones(u.shape) * domain_size * (1/8)
    out = [u]
    with torch.no_grad():
        for _ in range(horizon):
            u = diff_ks.etd1(u, domain_size) + diff_ks.dt * net(torch.concat([u, ds], axis=1))
            out.append(u)
    frames = np.clip(torch.stack(out).numpy(), -1e12, 1e12)
    np.nan_to_num(frames, copy=False, nan=1e13, posinf=1e14, neginf=-1e14)
    return frames[:, :, 0, :].transpose(1, 0, 2).astype(np.float64)  # [tests, frames, N]


def evaluate(net, tests):
    errors = []
    for scale, truth in tests:
        model = rollout(net, truth, scale)
        errors.extend(relative_error(truth[i], model[i]) for i in range(len(truth)))
    return errors


def baseline(tests):
    """The ETD1 solver alone from each test's frame 0: f64 numpy and f32 torch."""
    f64, f32 = [], []
    diff_ks = Etd1()
    for scale, truth in tests:
        for test in truth:
            u, frames = test[0].copy(), [test[0]]
            with np.errstate(all="ignore"):
                for _ in range(HORIZON):
                    u = etd1_f64(u, DOMAIN_SIZE * scale)
                    frames.append(u)
            f64.append(relative_error(test, np.array(frames)))
        u = torch.tensor(truth[:, 0:1, :], dtype=torch.float32)
        out = [u]
        for _ in range(HORIZON):
            u = diff_ks.etd1(u, DOMAIN_SIZE * scale)
            out.append(u)
        model = torch.stack(out).numpy()[:, :, 0, :].transpose(1, 0, 2).astype(np.float64)
        f32.extend(relative_error(truth[i], model[i]) for i in range(len(truth)))
    return f64, f32


def load_flat(net, values):
    """unroll-lab's flat weights (every parameter in its visiting order: input conv, each
    block's two convs, output conv; weight [out, in, 3] then bias) into `net`."""
    layers = [net.upsample_conv_layer, *net.conv_layers, net.downsample_conv_layer]
    at = 0
    with torch.no_grad():
        for layer in layers:
            for p in (layer.weight, layer.bias):
                p.copy_(torch.from_numpy(values[at:at + p.numel()].copy()).reshape(p.shape))
                at += p.numel()
    assert at == len(values), f"{len(values)} weights for a network of {at}"


def eval_ours(path, tests):
    """Every trained network of an unroll-lab results file, rolled out and scored here."""
    with open(path) as f:
        results = json.load(f)
    for variant in results["variants"]:
        label = ("C-" if variant["mode"] == "correct" else "P-") + variant["modality"].upper()
        for seed, weights, mean in zip(variant["seeds"], variant.get("weights", []),
                                       variant["metrics"]["relative_error"]["per_seed"]):
            if weights is None:
                continue
            net = ConvResNet1D(variant["channels"], variant["depth"], device="cpu")
            load_flat(net, unpack(weights, "<f4"))
            errors = evaluate(net, tests)
            print(f"{label} seed {seed}: unroll-lab's weights rolled out here: mean "
                  f"{np.mean(errors):.6e} (unroll-lab's own evaluation {mean:.6e}), median "
                  f"{np.median(errors):.4e}")


def initial_weights(path, seed):
    """Seed `seed`'s weights in an unroll-lab results file of a run that did not move them
    (`--iterations 1 --learning-rate 1e-30`: its initial weights, shared by its variants)."""
    with open(path) as f:
        results = json.load(f)
    variant = results["variants"][0]
    return unpack(variant["weights"][variant["seeds"].index(seed)], "<f4")


def summary(errors):
    return {"mean": float(np.mean(errors)), "median": float(np.median(errors)),
            "std": float(np.std(errors)), "tests": len(errors)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="unroll-lab study --data-out FILE")
    parser.add_argument("--modality", choices=["one", "nog", "wig"], default="wig")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=6000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--baseline-only", action="store_true")
    parser.add_argument("--init-from", metavar="RESULTS",
                        help="start from this seed's weights in an unroll-lab results file of "
                             "an untrained run (--iterations 1 --learning-rate 1e-30)")
    parser.add_argument("--eval-ours", metavar="RESULTS",
                        help="also roll out and score the weights of an unroll-lab results file")
    parser.add_argument("--out", help="result JSON")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    sizes, tests, ours = load_prepared(args.data)
    f64, f32 = baseline(tests)
    diff = max(abs(a - b) / max(abs(b), 1e-300) for a, b in zip(f64, ours))
    result = {"baseline": {"unroll_lab": summary(ours), "f64": summary(f64), "f32": summary(f32),
                           "max_rel_diff_f64_vs_unroll_lab": diff}}
    print(f"baseline (ETD1 alone, H = {HORIZON}, {len(ours)} tests): unroll-lab mean "
          f"{np.mean(ours):.6e}, here f64 {np.mean(f64):.6e} (max relative difference per test "
          f"{diff:.1e}), f32 {np.mean(f32):.6e}")
    if args.eval_ours:
        eval_ours(args.eval_ours, tests)
    if not args.baseline_only:
        clock = time.time()
        init = initial_weights(args.init_from, args.seed) if args.init_from else None
        net, log = train(sizes, args.modality, args.seed, args.iterations, init=init)
        secs = time.time() - clock
        errors = evaluate(net, tests)
        s = summary(errors)
        result.update({"modality": args.modality, "seed": args.seed, "train_secs": secs,
                       "init_from": args.init_from,
                       "iterations_per_sec": log["iterations"] / secs, "training": log,
                       "errors": errors, "error": s})
        print(f"C-{args.modality.upper()} seed {args.seed}: {log['iterations']} iterations in "
              f"{secs:.0f} s (epochs {log['epoch_lengths']}, nominal {log['nominal_epoch']}, "
              f"final lr {log['final_lr']:.3e}); relative error H = {HORIZON}: mean "
              f"{s['mean']:.4e} median {s['median']:.4e}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f)


if __name__ == "__main__":
    main()
