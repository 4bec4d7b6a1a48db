"""Prints unroll-lab's study results beside ks_train_official.py's, per variant and seed: the mean
and the median of the relative error at H = 12 over the test windows, and the ratios ours /
independent.

Ours are re-scored per test from the results file's kept curves (`test_errors`: mean_x (u~_t -
u_t)^2 per frame, f32; the baseline's `test_peaks`: max_x u_t^2 per frame), exactly as
unroll-lab's `StudyResults::at_horizon` does; their mean is checked against the file's own
per-seed relative error.

Usage: python compare_ks_official.py [--matched] OURS.json REF.json [REF.json ...]
  (each REF.json written by ks_train_official.py --out; variant and seed read from it;
  --matched: the summary over the seeds both sides have, e.g. for paired runs)
"""
import base64
import json
import sys

import numpy as np

HORIZON = 12
CLIP = 30.0


def unpack(text):
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float64)


def per_test(mse, peaks, horizon=HORIZON):
    frames = horizon + 1
    peak = max(np.max(peaks[:frames]), np.finfo(np.float64).tiny)
    values = mse[:frames] / peak
    values = np.where(np.isfinite(values), np.clip(values, -CLIP, CLIP), CLIP)
    return float(np.mean(values))


def ours(path):
    """{(label, seed): per-test errors} of an unroll-lab results file."""
    with open(path) as f:
        results = json.load(f)
    peaks = [unpack(p) for p in results["baseline"]["test_peaks"]]
    out = {}
    for variant in results["variants"]:
        label = ("C-" if variant["mode"] == "correct" else "P-") + variant["modality"].upper()
        metrics = variant["metrics"]
        for seed, curves, file_mean in zip(variant["seeds"], metrics["test_errors"],
                                           metrics["relative_error"]["per_seed"]):
            errors = [per_test(unpack(c), p) for c, p in zip(curves, peaks)]
            if abs(np.mean(errors) - file_mean) > 1e-5 * max(abs(file_mean), 1e-12):
                sys.exit(f"{label} seed {seed}: re-scored mean {np.mean(errors)} != file {file_mean}")
            out[(label, seed)] = errors
    return out


def main():
    args = sys.argv[1:]
    matched = args[:1] == ["--matched"]
    args = args[1:] if matched else args
    if len(args) < 2:
        sys.exit(__doc__)
    mine = ours(args[0])
    refs = {}
    for path in args[1:]:
        with open(path) as f:
            r = json.load(f)
        refs[("C-" + r["modality"].upper(), r["seed"])] = r["errors"]
    print(f"relative error at H = {HORIZON} over the test windows (ours = unroll-lab, ref = "
          "ks_train_official.py)")
    print(f"{'variant':8} {'seed':>4} {'ours mean':>11} {'ref mean':>11} {'ratio':>6} "
          f"{'ours median':>12} {'ref median':>11} {'ratio':>6}")
    for key in sorted(set(mine) & set(refs)):
        a, b = np.array(mine[key]), np.array(refs[key])
        print(f"{key[0]:8} {key[1]:>4} {a.mean():11.4e} {b.mean():11.4e} {a.mean() / b.mean():6.2f} "
              f"{np.median(a):12.4e} {np.median(b):11.4e} {np.median(a) / np.median(b):6.2f}")
    if matched:
        mine = {k: v for k, v in mine.items() if k in refs}
        refs = {k: v for k, v in refs.items() if k in mine}
    print(f"per variant, {'the seeds both sides have' if matched else 'every seed of each side'}"
          ": mean over seeds of the per-seed mean (and median), ± std over seeds; ratio ours / ref")
    for label in sorted({k[0] for k in mine} | {k[0] for k in refs}):
        a = [np.mean(e) for k, e in sorted(mine.items()) if k[0] == label]
        b = [np.mean(e) for k, e in sorted(refs.items()) if k[0] == label]
        am = [np.median(e) for k, e in sorted(mine.items()) if k[0] == label]
        bm = [np.median(e) for k, e in sorted(refs.items()) if k[0] == label]
        if not a or not b:
            continue
        print(f"{label:8} ours {len(a)} seeds {np.mean(a):.4e} ± {np.std(a):.1e} "
              f"(median {np.mean(am):.4e}); ref {len(b)} seeds {np.mean(b):.4e} ± {np.std(b):.1e} "
              f"(median {np.mean(bm):.4e}); ratio mean {np.mean(a) / np.mean(b):.2f}, "
              f"median {np.mean(am) / np.mean(bm):.2f}; per-seed means ours "
              f"{min(a):.2e}..{max(a):.2e}, ref {min(b):.2e}..{max(b):.2e}")

if __name__ == "__main__":
    main()
