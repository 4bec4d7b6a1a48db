//! The official minibatch order and learning-rate clock of `ks_train.py` (its `DatasetKS` and
//! `ExponentialLR` stepped every K iterations), as a pure function of `(seed, iteration)`.
//!
//! **Order.** Epoch `e` shuffles each domain size's windows without replacement and cuts them
//! into batches of `B` (torch's `DataLoader(shuffle=True)`); a shuffled list holding one label
//! per window (so a size is picked in proportion to its data) says which size's next batch comes
//! next; the epoch ends when a size is picked with no batch left. With the study's data
//! (6 sizes × 7,476 windows, B = 16) an epoch is ≈ 2,655 iterations, not the nominal
//! `L = ⌊windows / B⌋ = 2,803`. A size's last batch is short in the official code
//! (7,476 = 467 · 16 + 4); here it is topped up with the first windows of the same shuffle, so
//! every minibatch holds `B` windows (an ensemble's members stack equal batches): 12 extra
//! windows per epoch of ≈ 42,000.
//!
//! **Learning rate.** The official loop calls `scheduler.step()` after every step whose nominal
//! index `e · L + i` is a multiple of K (2,000), the first after step 0; indices an epoch never
//! reaches (`i ≥` its real length) skip theirs. [`EpochSampler::decays_before`] counts them.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::schedule::{mix, Minibatch};

/// The official order over the windows of every size: `windows[s]` windows of size `s`,
/// window `w` is `(trajectory w / starts, start w % starts)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpochSampler {
    seed: u64,
    windows: Vec<usize>,
    starts: usize,
    batch: usize,
    /// Real lengths (iterations) of the epochs built so far.
    lengths: Vec<usize>,
    /// The epoch last built and its minibatches.
    current: Option<(usize, Vec<Minibatch>)>,
}

impl EpochSampler {
    /// The order for `trajectories` trajectories per size (`sizes` sizes), `starts` window
    /// starts per trajectory and `batch` windows per minibatch.
    pub fn new(seed: u64, sizes: usize, trajectories: usize, starts: usize, batch: usize) -> Self {
        Self {
            seed,
            windows: vec![trajectories * starts; sizes],
            starts: starts.max(1),
            batch: batch.max(1),
            lengths: Vec::new(),
            current: None,
        }
    }

    /// The nominal epoch `L = ⌊Σ windows / B⌋` (the official `len(datasetKS)`).
    pub fn nominal_epoch(&self) -> usize {
        (self.windows.iter().sum::<usize>() / self.batch).max(1)
    }

    /// The minibatches of epoch `epoch`, in order.
    fn build(&self, epoch: usize) -> Vec<Minibatch> {
        let mut rng = ChaCha8Rng::seed_from_u64(mix(self.seed ^ mix(epoch as u64 ^ 0xE90C_0001)));
        let batches: Vec<Vec<Vec<(usize, usize)>>> = self
            .windows
            .iter()
            .map(|&count| self.batches_of(count, &mut rng))
            .collect();
        let mut labels: Vec<usize> = (0..self.windows.len())
            .flat_map(|size| std::iter::repeat_n(size, self.windows[size]))
            .collect();
        labels.shuffle(&mut rng);
        let mut taken = vec![0; batches.len()];
        let mut epoch_batches = Vec::new();
        for size in labels {
            let Some(windows) = batches[size].get(taken[size]) else {
                break;
            };
            taken[size] += 1;
            epoch_batches.push(Minibatch {
                size,
                windows: windows.clone(),
            });
        }
        epoch_batches
    }

    /// `count` windows shuffled and cut into batches of `B`, the last topped up from the front.
    fn batches_of(&self, count: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<(usize, usize)>> {
        let mut order: Vec<usize> = (0..count).collect();
        order.shuffle(rng);
        let window = |w: usize| (w / self.starts, w % self.starts);
        order
            .chunks(self.batch)
            .map(|chunk| {
                let short = self.batch.saturating_sub(chunk.len());
                chunk
                    .iter()
                    .chain(order.iter().take(short))
                    .map(|&w| window(w))
                    .collect()
            })
            .collect()
    }

    /// `(epoch, index within it)` of `iteration`, building epoch lengths as needed.
    fn locate(&mut self, iteration: usize) -> (usize, usize) {
        let mut start = 0;
        for epoch in 0.. {
            if epoch == self.lengths.len() {
                let batches = self.build(epoch);
                self.lengths.push(batches.len().max(1));
                self.current = Some((epoch, batches));
            }
            let length = self.lengths[epoch];
            if iteration < start + length {
                return (epoch, iteration - start);
            }
            start += length;
        }
        unreachable!("the epochs are unbounded")
    }

    /// The minibatch of `iteration`.
    pub fn minibatch(&mut self, iteration: usize) -> Minibatch {
        let (epoch, index) = self.locate(iteration);
        if self.current.as_ref().map(|(e, _)| *e) != Some(epoch) {
            self.current = Some((epoch, self.build(epoch)));
        }
        let (_, batches) = self.current.as_ref().expect("built above");
        batches[index].clone()
    }

    /// The learning-rate decays applied before `iteration`: the steps `j < iteration` whose
    /// nominal index `e · L + i` is a multiple of `every`.
    pub fn decays_before(&mut self, iteration: usize, every: usize) -> usize {
        let every = every.max(1);
        let nominal = self.nominal_epoch();
        let multiples_below = |n: usize| n.div_ceil(every);
        let mut count = 0;
        let mut done = 0;
        let mut epoch = 0;
        while done < iteration {
            let (_, _) = self.locate(done);
            let steps = self.lengths[epoch].min(iteration - done);
            let first = epoch * nominal;
            count += multiples_below(first + steps) - multiples_below(first);
            done += steps;
            epoch += 1;
        }
        count
    }

    /// Mean real epoch length over the first `epochs` epochs.
    pub fn mean_epoch(&mut self, epochs: usize) -> f64 {
        let total: usize = (0..epochs).map(|e| self.build(e).len()).sum();
        total as f64 / epochs.max(1) as f64
    }
}

/// Mean real length of the official epochs (over `epochs` of them, seed 0) of `trajectories`
/// trajectories per size in `sizes` sizes, `frames` frames each, an unroll of `span` frames
/// after the input and `batch` windows per minibatch.
pub fn mean_epoch_iterations(
    sizes: usize,
    trajectories: usize,
    frames: usize,
    span: usize,
    batch: usize,
    epochs: usize,
) -> f64 {
    let starts = frames.saturating_sub(span + 1).max(1);
    EpochSampler::new(0, sizes, trajectories, starts, batch).mean_epoch(epochs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The study's data: 6 sizes × 6 trajectories × 1,246 starts, B = 16.
    fn study(seed: u64) -> EpochSampler {
        EpochSampler::new(seed, 6, 6, 1246, 16)
    }

    #[test]
    fn an_epoch_ends_when_the_first_size_runs_out() {
        let sampler = study(1);
        assert_eq!(sampler.nominal_epoch(), 2803);
        let epoch = sampler.build(0);
        let mut per_size = [0usize; 6];
        for batch in &epoch {
            per_size[batch.size] += 1;
            assert_eq!(batch.windows.len(), 16);
        }
        // 7,476 windows = 468 batches per size; one size used all of them.
        assert_eq!(per_size.iter().max(), Some(&468));
        assert!(epoch.len() > 2500 && epoch.len() < 2803, "{}", epoch.len());
    }

    #[test]
    fn windows_are_drawn_without_replacement_within_an_epoch() {
        let sampler = study(2);
        let epoch = sampler.build(3);
        let mut seen = std::collections::HashSet::new();
        let mut repeats = 0;
        for batch in &epoch {
            for &(trajectory, start) in &batch.windows {
                assert!(trajectory < 6 && start < 1246);
                if !seen.insert((batch.size, trajectory, start)) {
                    repeats += 1;
                }
            }
        }
        // Only the short batch's top-up (12 windows) repeats.
        assert!(repeats <= 12, "{repeats} repeated windows");
    }

    #[test]
    fn minibatches_are_a_pure_function_of_seed_and_iteration() {
        let mut a = study(7);
        let late = a.minibatch(6000);
        let early = a.minibatch(10);
        assert_eq!(study(7).minibatch(10), early);
        assert_eq!(study(7).minibatch(6000), late);
        assert_eq!(a.minibatch(6000), late);
        assert_ne!(study(8).minibatch(6000), late);
    }

    #[test]
    fn the_learning_rate_decays_after_step_zero_and_on_nominal_indices() {
        let mut sampler = study(3);
        assert_eq!(sampler.decays_before(0, 2000), 0);
        assert_eq!(sampler.decays_before(1, 2000), 1);
        assert_eq!(sampler.decays_before(2000, 2000), 1);
        assert_eq!(sampler.decays_before(2001, 2000), 2);
        // By hand: walk the epochs and count nominal multiples of 2000.
        let lengths: Vec<usize> = (0..17).map(|e| sampler.build(e).len()).collect();
        let total: usize = lengths[..16].iter().sum();
        let mut expected = 0;
        for (e, &length) in lengths[..16].iter().enumerate() {
            expected += (0..length).filter(|i| (e * 2803 + i) % 2000 == 0).count();
        }
        assert_eq!(sampler.decays_before(total, 2000), expected);
        // Fewer than the 23 multiples of 2000 below 16 · 2803: the gaps skip some.
        assert!((20..=23).contains(&expected), "{expected}");
    }
}
