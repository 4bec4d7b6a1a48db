//! "Where the gradients flow": a pure model of the unrolled computation graph of one minibatch.
//!
//! The graph mirrors [`unrolled_loss`](super::modality::unrolled_loss) step by step: the state
//! `u₀ = g₀` (ground truth) is stepped `w + m` times; steps `1 … w` are the warm-up (input and
//! output detached, no loss term), steps `w + 1 … w + m` each add a loss term `L_j`
//! (`j = 1 … m`). Whether the state entering loss step `j` is cut comes from
//! [`detached_before_loss_step`] itself, so the drawing cannot disagree with training. ONE uses
//! the effective unroll of [`TrainConfig::effective_unroll`](super::config::TrainConfig) (one
//! step, batch ×m).
//!
//! Inside a step the nodes follow [`Stepper::step`](super::step::Stepper::step):
//! - prediction: `u → N → u'`;
//! - correction: `u → S → u'` and `u → N → u'` (`u' = S(u) + Δt·N(u)`);
//! - transition: `u → S → N → u'` and `S → u'` (`u' = v + (1 − α)·N(v)`, `v = S_α(u)`).
//!
//! The parameters θ feed every network call. An edge carries gradient when it lies on an uncut
//! path from θ to a loss term, i.e. when back-propagating the loss moves along it towards θ.

use std::collections::HashSet;

use super::config::{Modality, Mode, UnrollConfig};
use super::modality::detached_before_loss_step;

/// A node of the unrolled graph. Steps are numbered `1 … w + m` (warm-up first), states
/// `0 … w + m` (state `s` is the output of step `s`), loss terms `1 … m`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    /// The network parameters θ (shared by every network call).
    Params,
    /// The state `u_s` (`u₀` is ground truth).
    State(usize),
    /// The solver call of a step (correction: `S`; transition: `S_α`).
    Solver(usize),
    /// The network call of a step.
    Network(usize),
    /// The loss term `L_j = mse(u_{w+j}, g_{w+j})`.
    Loss(usize),
}

/// A forward edge `from → to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Where the value comes from.
    pub from: Node,
    /// Where it goes.
    pub to: Node,
    /// Cut by `detach` (no gradient can cross it).
    pub detached: bool,
    /// Back-propagation of the loss moves along it towards θ.
    pub gradient: bool,
}

/// The unrolled graph of one configuration (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct GradientGraph {
    /// Prediction, correction or transition.
    pub mode: Mode,
    /// ONE, NOG or WIG.
    pub modality: Modality,
    /// The unroll actually run (ONE: one step, no warm-up).
    pub unroll: UnrollConfig,
    /// The minibatch factor against NOG/WIG (ONE: `m`, else 1).
    pub batch_factor: usize,
    /// The configured horizon `m` (ONE's batch factor; the other modalities' loss terms).
    pub configured_horizon: usize,
    /// Every node, in topological order.
    pub nodes: Vec<Node>,
    /// Every edge, in topological order of their sources.
    pub edges: Vec<Edge>,
}

/// The unroll `modality` actually runs: ONE is one step without warm-up (as
/// `TrainConfig::effective_unroll`).
pub fn effective_unroll(modality: Modality, unroll: &UnrollConfig) -> UnrollConfig {
    match modality {
        Modality::One => UnrollConfig {
            horizon: 1,
            warmup: 0,
            detach_interval: 0,
        },
        _ => *unroll,
    }
}

/// Whether the state entering step `step` (1-based, warm-up included) is detached: every
/// warm-up step, and loss step `j` where [`detached_before_loss_step`] says so.
pub fn input_detached(modality: Modality, unroll: &UnrollConfig, step: usize) -> bool {
    match step.checked_sub(unroll.warmup + 1) {
        None => true,
        Some(j) => detached_before_loss_step(modality, *unroll, j),
    }
}

/// Whether the output of step `step` (1-based) is detached: the warm-up steps.
pub fn output_detached(unroll: &UnrollConfig, step: usize) -> bool {
    step <= unroll.warmup
}

/// Collects nodes and edges in topological order.
struct Builder {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder {
    fn node(&mut self, node: Node) {
        self.nodes.push(node);
    }

    fn edge(&mut self, from: Node, to: Node, detached: bool) {
        self.edges.push(Edge {
            from,
            to,
            detached,
            gradient: false,
        });
    }

    /// Step `s`: its solver/network nodes, its output state and their edges.
    fn step(&mut self, mode: Mode, s: usize, cut_in: bool, cut_out: bool) {
        let (input, output) = (Node::State(s - 1), Node::State(s));
        let (solver, network) = (Node::Solver(s), Node::Network(s));
        if mode != Mode::Predict {
            self.node(solver);
            self.edge(input, solver, cut_in);
        }
        self.node(network);
        match mode {
            Mode::Predict | Mode::Correct => self.edge(input, network, cut_in),
            Mode::Transition => self.edge(solver, network, false),
        }
        self.edge(Node::Params, network, false);
        self.node(output);
        if mode != Mode::Predict {
            self.edge(solver, output, cut_out);
        }
        self.edge(network, output, cut_out);
    }
}

/// The unrolled graph of `mode` × `modality` with `unroll` (warm-up, horizon, detach interval).
pub fn gradient_graph(mode: Mode, modality: Modality, unroll: &UnrollConfig) -> GradientGraph {
    let effective = effective_unroll(modality, unroll);
    let mut builder = Builder {
        nodes: vec![Node::Params, Node::State(0)],
        edges: Vec::new(),
    };
    for s in 1..=effective.warmup + effective.horizon {
        let cut_in = input_detached(modality, &effective, s);
        builder.step(mode, s, cut_in, output_detached(&effective, s));
        if s > effective.warmup {
            let term = Node::Loss(s - effective.warmup);
            builder.node(term);
            builder.edge(Node::State(s), term, false);
        }
    }
    let mut graph = GradientGraph {
        mode,
        modality,
        unroll: effective,
        batch_factor: if modality == Modality::One {
            unroll.horizon.max(1)
        } else {
            1
        },
        configured_horizon: unroll.horizon,
        nodes: builder.nodes,
        edges: builder.edges,
    };
    mark_gradients(&mut graph);
    graph
}

/// Nodes reachable from θ along uncut edges (edges are in topological order).
fn tracked(edges: &[Edge]) -> HashSet<Node> {
    let mut tracked = HashSet::from([Node::Params]);
    for edge in edges {
        if !edge.detached && tracked.contains(&edge.from) {
            tracked.insert(edge.to);
        }
    }
    tracked
}

/// Nodes with an uncut path to any of `targets`.
fn ancestors(edges: &[Edge], targets: impl IntoIterator<Item = Node>) -> HashSet<Node> {
    let mut reach: HashSet<Node> = targets.into_iter().collect();
    for edge in edges.iter().rev() {
        if !edge.detached && reach.contains(&edge.to) {
            reach.insert(edge.from);
        }
    }
    reach
}

/// Sets [`Edge::gradient`]: uncut, source depends on θ, target reaches a loss term.
fn mark_gradients(graph: &mut GradientGraph) {
    let from_params = tracked(&graph.edges);
    let losses = graph
        .nodes
        .iter()
        .copied()
        .filter(|n| matches!(n, Node::Loss(_)));
    let to_loss = ancestors(&graph.edges, losses);
    for edge in &mut graph.edges {
        edge.gradient =
            !edge.detached && from_params.contains(&edge.from) && to_loss.contains(&edge.to);
    }
}

impl GradientGraph {
    /// Steps unrolled (`w + m`; ONE: 1).
    pub fn steps(&self) -> usize {
        self.unroll.warmup + self.unroll.horizon
    }

    /// Loss terms (`m`; ONE: 1).
    pub fn loss_terms(&self) -> usize {
        self.unroll.horizon
    }

    /// Whether step `step` (1-based) is a warm-up step.
    pub fn is_warmup_step(&self, step: usize) -> bool {
        (1..=self.unroll.warmup).contains(&step)
    }

    /// Whether the mode calls a solver in every step.
    pub fn has_solver(&self) -> bool {
        self.mode != Mode::Predict
    }

    /// Whether the state entering step `step` is detached.
    pub fn input_cut(&self, step: usize) -> bool {
        input_detached(self.modality, &self.unroll, step)
    }

    /// Edges that carry gradient.
    pub fn gradient_edges(&self) -> usize {
        self.edges.iter().filter(|e| e.gradient).count()
    }

    /// Edges cut by `detach`.
    pub fn detached_edges(&self) -> usize {
        self.edges.iter().filter(|e| e.detached).count()
    }

    /// Whether `node` has an uncut forward path to loss term `term` (so `∂L_term/∂node` is
    /// computed by back-propagation, and non-zero in general).
    pub fn reaches(&self, node: Node, term: usize) -> bool {
        ancestors(&self.edges, [Node::Loss(term)]).contains(&node)
    }

    /// Whether `node` lies on an uncut path from θ to some loss term.
    pub fn carries_gradient(&self, node: Node) -> bool {
        self.edges
            .iter()
            .any(|e| e.gradient && (e.from == node || e.to == node))
    }

    /// Steps whose node `kind(step)` lies on an uncut path from θ to `L_term`.
    fn steps_on_path(&self, term: usize, kind: fn(usize) -> Node) -> Vec<usize> {
        let from_params = tracked(&self.edges);
        let to_term = ancestors(&self.edges, [Node::Loss(term)]);
        (1..=self.steps())
            .filter(|&s| {
                let node = kind(s);
                self.nodes.contains(&node) && from_params.contains(&node) && to_term.contains(&node)
            })
            .collect()
    }

    /// Steps whose network call `L_term`'s gradient passes on its way to θ.
    pub fn network_steps_reached(&self, term: usize) -> Vec<usize> {
        self.steps_on_path(term, Node::Network)
    }

    /// Steps whose solver `L_term`'s gradient is back-propagated through (on its way to θ).
    pub fn solver_steps_reached(&self, term: usize) -> Vec<usize> {
        self.steps_on_path(term, Node::Solver)
    }

    /// Steps (loss steps only) whose input state is cut by `detach`.
    pub fn cut_loss_steps(&self) -> Vec<usize> {
        (self.unroll.warmup + 1..=self.steps())
            .filter(|&s| self.input_cut(s))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nets::NetConfig;
    use crate::train::config::{OptimizerConfig, TrainConfig};
    use crate::types::SolverSetup;

    /// Every (mode, unroll) combination the structural tests sweep.
    fn sweep() -> Vec<(Mode, UnrollConfig)> {
        let mut out = Vec::new();
        for mode in Mode::ALL {
            for m in 1..=7 {
                for w in 0..=2 {
                    for k in 0..=4 {
                        out.push((mode, UnrollConfig::new(m, w, k)));
                    }
                }
            }
        }
        out
    }

    fn is_step_node(node: Node) -> bool {
        matches!(node, Node::Solver(_) | Node::Network(_))
    }

    #[test]
    fn nog_no_gradient_crosses_a_state_to_next_step_edge() {
        for (mode, u) in sweep() {
            let graph = gradient_graph(mode, Modality::Nog, &u);
            for edge in &graph.edges {
                if matches!(edge.from, Node::State(_)) && is_step_node(edge.to) {
                    assert!(edge.detached && !edge.gradient, "{mode:?} {u:?} {edge:?}");
                }
            }
            for term in 1..=u.horizon {
                assert_eq!(graph.network_steps_reached(term), vec![u.warmup + term]);
                assert!(graph.solver_steps_reached(term).is_empty());
            }
        }
    }

    #[test]
    fn wig_without_detach_reaches_every_network_call_up_to_its_own() {
        for (mode, u) in sweep() {
            let u = UnrollConfig {
                detach_interval: 0,
                ..u
            };
            let graph = gradient_graph(mode, Modality::Wig, &u);
            for term in 1..=u.horizon {
                let want: Vec<usize> = (u.warmup + 1..=u.warmup + term).collect();
                assert_eq!(graph.network_steps_reached(term), want, "{mode:?} {u:?}");
                // The solver is differentiated wherever its input depends on θ.
                let solvers: Vec<usize> = match mode {
                    Mode::Predict => Vec::new(),
                    _ => (u.warmup + 2..=u.warmup + term).collect(),
                };
                assert_eq!(graph.solver_steps_reached(term), solvers, "{mode:?} {u:?}");
            }
        }
    }

    #[test]
    fn detach_interval_cuts_exactly_where_modality_says() {
        for (mode, u) in sweep() {
            let graph = gradient_graph(mode, Modality::Wig, &u);
            for j in 0..u.horizon {
                let step = u.warmup + j + 1;
                let cut = detached_before_loss_step(Modality::Wig, u, j);
                for edge in graph
                    .edges
                    .iter()
                    .filter(|e| e.from == Node::State(step - 1))
                {
                    if is_step_node(edge.to) {
                        assert_eq!(edge.detached, cut, "{mode:?} {u:?} j = {j}");
                    }
                }
                // L_{j+1} reaches back to the latest cut (or the first loss step).
                let start = (0..=j)
                    .rev()
                    .find(|&i| i == 0 || detached_before_loss_step(Modality::Wig, u, i))
                    .unwrap_or(0);
                let want: Vec<usize> = (u.warmup + start + 1..=step).collect();
                assert_eq!(graph.network_steps_reached(j + 1), want, "{mode:?} {u:?}");
            }
        }
    }

    #[test]
    fn warmup_states_and_calls_never_carry_gradients() {
        for (mode, u) in sweep() {
            for modality in Modality::ALL {
                let graph = gradient_graph(mode, modality, &u);
                let w = graph.unroll.warmup;
                for s in 0..=w {
                    assert!(!graph.carries_gradient(Node::State(s)), "{mode:?} {u:?}");
                }
                for s in 1..=w {
                    assert!(graph.is_warmup_step(s));
                    assert!(!graph.carries_gradient(Node::Network(s)));
                    assert!(!graph.carries_gradient(Node::Solver(s)));
                    assert!(graph.input_cut(s));
                }
                // The ground-truth start never carries gradient to θ either.
                assert!(!graph.carries_gradient(Node::State(0)));
            }
        }
    }

    fn train_config(modality: Modality, u: UnrollConfig) -> TrainConfig {
        TrainConfig {
            net: NetConfig::default(),
            mode: Mode::Correct,
            alpha: 0.5,
            modality,
            unroll: u,
            batch: 4,
            iterations: 1,
            optimizer: OptimizerConfig::default(),
            seed: 0,
            data: crate::ks::preset::train_data(),
            black_box_solver: false,
            system: crate::system::System::Ks,
            curriculum: None,
            gradient_guard: false,
            solver: SolverSetup::default(),
            order: crate::train::config::MinibatchOrder::Rounds,
        }
    }

    #[test]
    fn one_has_exactly_one_step_and_batch_times_m() {
        for (mode, u) in sweep() {
            let graph = gradient_graph(mode, Modality::One, &u);
            assert_eq!(graph.steps(), 1);
            assert_eq!(graph.loss_terms(), 1);
            assert_eq!(graph.batch_factor, u.horizon);
            assert_eq!(graph.network_steps_reached(1), vec![1]);
            assert!(graph.solver_steps_reached(1).is_empty());
            for modality in Modality::ALL {
                let config = train_config(modality, u);
                assert_eq!(effective_unroll(modality, &u), config.effective_unroll());
                let graph = gradient_graph(mode, modality, &u);
                let calls = graph.batch_factor * graph.steps();
                // ONE's batch ×m matches the network calls of the unroll (warm-up aside).
                assert_eq!(calls * config.batch, config.network_calls_per_iteration());
            }
        }
    }

    #[test]
    fn node_and_edge_counts_follow_m_and_w() {
        for (mode, u) in sweep() {
            for modality in [Modality::Nog, Modality::Wig] {
                let graph = gradient_graph(mode, modality, &u);
                let steps = u.warmup + u.horizon;
                let (per_step_nodes, per_step_edges) = match mode {
                    Mode::Predict => (2, 3),
                    _ => (3, 5),
                };
                assert_eq!(graph.nodes.len(), 2 + steps * per_step_nodes + u.horizon);
                assert_eq!(graph.edges.len(), steps * per_step_edges + u.horizon);
                let states = graph
                    .nodes
                    .iter()
                    .filter(|n| matches!(n, Node::State(_)))
                    .count();
                assert_eq!(states, steps + 1);
            }
        }
    }

    #[test]
    fn gradient_edge_counts_of_the_study_setting() {
        let u = UnrollConfig::default();
        let count = |mode, modality| gradient_graph(mode, modality, &u).gradient_edges();
        // Prediction: θ→N, N→u, u→L per step; WIG adds u₁→N₂, u₂→N₃.
        assert_eq!(count(Mode::Predict, Modality::One), 3);
        assert_eq!(count(Mode::Predict, Modality::Nog), 9);
        assert_eq!(count(Mode::Predict, Modality::Wig), 11);
        // Correction: WIG adds u→S, u→N and S→u′ of steps 2 and 3.
        assert_eq!(count(Mode::Correct, Modality::Nog), 9);
        assert_eq!(count(Mode::Correct, Modality::Wig), 15);
        let nog = gradient_graph(Mode::Correct, Modality::Nog, &u);
        assert_eq!(nog.detached_edges(), 6);
    }

    /// Cross-checks against real autodiff on the CPU backend with a tiny network.
    mod autodiff {
        use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
        use burn::tensor::{Device, Tensor};

        use super::super::*;
        use crate::backend;
        use crate::ks::data::data_solver;
        use crate::ks::data::generate;
        use crate::ks::stepper::KsStep;
        use crate::nets::{Architecture, Net, NetConfig};
        use crate::train::config::TrainDataConfig;
        use crate::train::data::TrainingData;
        use crate::train::modality::unrolled_loss;

        const N: usize = 32;

        struct Fixture {
            device: Device,
            net: Net,
            data: TrainingData,
            scales: Vec<f64>,
        }

        fn fixture() -> Fixture {
            let config = TrainDataConfig {
                scales: vec![1.0],
                warmup_steps: 10,
                frames: 12,
            };
            let set = generate(&config, data_solver(N)).expect("data");
            let device = backend::cpu_autodiff();
            let data = TrainingData::upload(&set, &device).expect("upload");
            let net = NetConfig {
                architecture: Architecture::Resnet,
                channels: 4,
                depth: 2,
            }
            .init(&device, 3)
            .expect("net");
            Fixture {
                device,
                net,
                data,
                scales: config.scales,
            }
        }

        fn frames(f: &Fixture, u: &UnrollConfig) -> Vec<Tensor<2>> {
            f.data.gather(0, &[(0, 1), (3, 4)], u.warmup + u.horizon)
        }

        fn values(tensor: Tensor<1>) -> Vec<f32> {
            tensor
                .into_data()
                .convert::<f32>()
                .try_into_vec::<f32>()
                .expect("f32")
        }

        fn max_abs(values: &[f32]) -> f32 {
            values.iter().fold(0.0, |m, v| m.max(v.abs()))
        }

        /// The gradient of every parameter of `net`, flattened (absent = zeros).
        fn gradients(net: &Net, grads: &burn::tensor::Gradients) -> Vec<f32> {
            struct Collect<'a>(Vec<f32>, &'a burn::tensor::Gradients);
            impl ModuleVisitor for Collect<'_> {
                fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                    let value = param.val();
                    match value.grad(self.1) {
                        Some(grad) => self.0.extend(values(grad.flatten(0, D - 1))),
                        None => self
                            .0
                            .extend(std::iter::repeat_n(0.0, value.shape().num_elements())),
                    }
                }
            }
            let mut collect = Collect(Vec::new(), grads);
            net.visit(&mut collect);
            collect.0
        }

        /// A copy of `net` with fresh parameter tensors (its own gradients).
        fn copy(net: &Net, device: &Device) -> Net {
            struct Fresh<'a>(&'a Device);
            impl ModuleMapper for Fresh<'_> {
                fn map_float<const D: usize>(
                    &mut self,
                    param: Param<Tensor<D>>,
                ) -> Param<Tensor<D>> {
                    let device = self.0.clone();
                    param.map(|t| Tensor::from_data(t.into_data(), &device).require_grad())
                }
            }
            net.clone().map(&mut Fresh(device))
        }

        /// Replays the unroll with the cuts the graph names, one network per step; the per-term
        /// losses `L_1 … L_m`.
        fn replay(
            graph: &GradientGraph,
            nets: &[Net],
            stepper: &crate::train::step::Stepper,
            frames: &[Tensor<2>],
        ) -> Vec<Tensor<1>> {
            let [batch, _] = frames[0].dims();
            let scale = stepper.scale_channel(0, batch);
            let mut u = frames[0].clone();
            let mut terms = Vec::new();
            for s in 1..=graph.steps() {
                let input = if graph.input_cut(s) { u.detach() } else { u };
                u = stepper
                    .step(&nets[s - 1], 0, input, scale.clone())
                    .expect("step");
                if output_detached(&graph.unroll, s) {
                    u = u.detach();
                }
                if s > graph.unroll.warmup {
                    let d = u.clone() - frames[s].clone();
                    terms.push((d.clone() * d).mean());
                }
            }
            terms
        }

        /// The graph of one configuration, its KS stepper and the frames of its unroll.
        fn set_up(
            f: &Fixture,
            mode: Mode,
            modality: Modality,
            u: &UnrollConfig,
        ) -> (GradientGraph, crate::train::step::Stepper, Vec<Tensor<2>>) {
            let graph = gradient_graph(mode, modality, u);
            let stepper = KsStep::new(mode, 0.5, &f.scales, N, &f.device, false)
                .expect("s")
                .stepper();
            let frames = frames(f, &graph.unroll);
            (graph, stepper, frames)
        }

        fn configs() -> Vec<(Mode, Modality, UnrollConfig)> {
            vec![
                (Mode::Correct, Modality::Wig, UnrollConfig::new(3, 1, 2)),
                (Mode::Correct, Modality::Nog, UnrollConfig::new(3, 1, 0)),
                (Mode::Transition, Modality::Wig, UnrollConfig::new(4, 0, 0)),
                (Mode::Predict, Modality::Wig, UnrollConfig::new(4, 0, 3)),
                (Mode::Correct, Modality::One, UnrollConfig::new(3, 1, 0)),
            ]
        }

        #[test]
        fn the_graph_replays_the_training_loss_and_its_gradient() {
            let f = fixture();
            for (mode, modality, u) in configs() {
                let (graph, stepper, frames) = set_up(&f, mode, modality, &u);
                let trained = unrolled_loss(&f.net, &stepper, 0, &frames, modality, graph.unroll)
                    .expect("loss");
                let nets = vec![f.net.clone(); graph.steps()];
                let terms = replay(&graph, &nets, &stepper, &frames);
                let count = terms.len() as f64;
                let replayed = terms.into_iter().reduce(|a, b| a + b).expect("terms") / count;
                let want = gradients(&f.net, &trained.clone().backward());
                let got = gradients(&f.net, &replayed.clone().backward());
                assert_eq!(values(trained), values(replayed), "{mode:?} {modality:?}");
                let off = want
                    .iter()
                    .zip(&got)
                    .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
                assert!(
                    off <= 1e-6 * max_abs(&want).max(1.0),
                    "{mode:?} {modality:?}: {off}"
                );
            }
        }

        #[test]
        fn each_loss_term_reaches_exactly_the_network_calls_the_graph_says() {
            let f = fixture();
            for (mode, modality, u) in configs() {
                let (graph, stepper, frames) = set_up(&f, mode, modality, &u);
                let nets: Vec<Net> = (0..graph.steps())
                    .map(|_| copy(&f.net, &f.device))
                    .collect();
                for index in 0..graph.loss_terms() {
                    // burn cannot back-propagate a graph twice: one forward pass per term.
                    let term = replay(&graph, &nets, &stepper, &frames).swap_remove(index);
                    let grads = term.backward();
                    let reached = graph.network_steps_reached(index + 1);
                    for (s, net) in nets.iter().enumerate() {
                        let g = max_abs(&gradients(net, &grads));
                        assert_eq!(
                            g > 0.0,
                            reached.contains(&(s + 1)),
                            "{mode:?} {modality:?} {u:?}: L{} at step {}",
                            index + 1,
                            s + 1
                        );
                    }
                }
            }
        }

        #[test]
        fn the_training_loss_is_sensitive_to_its_start_state_only_where_the_graph_says() {
            let f = fixture();
            let cases = [
                (Modality::Wig, UnrollConfig::new(2, 0, 0), true),
                (Modality::Wig, UnrollConfig::new(2, 1, 0), false),
                (Modality::Nog, UnrollConfig::new(2, 0, 0), false),
                (Modality::One, UnrollConfig::new(2, 0, 0), false),
            ];
            for (modality, u, sensitive) in cases {
                let graph = gradient_graph(Mode::Correct, modality, &u);
                assert_eq!(graph.reaches(Node::State(0), graph.loss_terms()), sensitive);
                let stepper = KsStep::new(Mode::Correct, 0.5, &f.scales, N, &f.device, false)
                    .expect("s")
                    .stepper();
                let mut frames = frames(&f, &graph.unroll);
                let start = frames[0].clone().require_grad();
                frames[0] = start.clone();
                let loss = unrolled_loss(&f.net, &stepper, 0, &frames, modality, graph.unroll)
                    .expect("loss");
                let grads = loss.backward();
                let g = start
                    .grad(&grads)
                    .map(|g| max_abs(&values(g.flatten(0, 1))))
                    .unwrap_or(0.0);
                assert_eq!(g > 0.0, sensitive, "{modality:?} {u:?}: |∂L/∂u₀| = {g}");
            }
        }
    }
}
