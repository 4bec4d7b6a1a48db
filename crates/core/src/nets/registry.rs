//! The one list of architectures. Each line names an architecture, its config/URL/CLI name and
//! the type implementing [`Network`]; from it `architectures!` writes the [`Architecture`]
//! enum (with its names and facts), the [`Net`] module (one variant per network, so burn's
//! `Module` derive gives records and export) and the typed [`NetSpec`] (each architecture with
//! its own size type), and every dispatch between them. A line that ends in `[ensemble]` gives
//! its architecture an ensemble form (its network implements [`Stacks`]): the ensembles'
//! dispatch ([`Ensemble::stack`], [`Ensemble::member`]) and [`Architecture::has_ensemble`] are
//! written from the same list, so an architecture without the mark is never trained as one.

use burn::module::Module;
use burn::tensor::{Device, Tensor};
use serde::{Deserialize, Serialize};

use super::ensemble::stack::every;
use super::ensemble::{Ensemble, Stacks};
use super::network::{Facts, Forward, Network, NetworkSize};
use super::{DilatedResNet, Fno, Gcn, InitRng, NetConfig, NetError, ResNet1d, ResNet2d, UNet};

/// `$yes` for a registry line marked `[ensemble]`, else `$no`.
macro_rules! if_ensemble {
    (ensemble; $yes:expr; $no:expr) => {
        $yes
    };
    (; $yes:expr; $no:expr) => {
        $no
    };
}

/// Writes `Architecture`, `Net` and `NetSpec` (and the ensembles' dispatch) from the list of
/// `Variant => "name": Type`, each optionally marked `[ensemble]`.
macro_rules! architectures {
    ($($(#[$doc:meta])* $variant:ident => $name:literal : $net:ty $([$form:ident])?),+ $(,)?) => {
        /// Which architecture.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Architecture {
            $($(#[$doc])* #[serde(rename = $name)] $variant),+
        }

        crate::named_enum!(Architecture, "architecture", { $($variant => $name),+ });

        impl Architecture {
            /// Its facts: title, size knobs, default size, size grid, state dimensions, marker.
            pub const fn facts(self) -> &'static Facts {
                match self {
                    $(Architecture::$variant => &<$net as Network>::FACTS),+
                }
            }

            /// The only sizes `(C, D)` there are, where it comes in fixed sizes.
            pub fn size_choices(self) -> Option<&'static [(usize, usize)]> {
                match self {
                    $(Architecture::$variant => <<$net as Network>::Size as NetworkSize>::choices()),+
                }
            }

            /// Whether it trains as an ensemble (its registry line is marked `[ensemble]`: `K`
            /// networks of one size stacked into one [`Ensemble`] with a member axis).
            pub const fn has_ensemble(self) -> bool {
                match self {
                    $(Architecture::$variant => if_ensemble!($($form)?; true; false)),+
                }
            }

            /// The typed size of knobs `channels`, `depth`, or why there is none.
            pub fn spec(self, channels: usize, depth: usize) -> Result<NetSpec, NetError> {
                let max_depth = self.facts().max_depth;
                Ok(match self {
                    $(Architecture::$variant => NetSpec::$variant(
                        NetworkSize::from_knobs(channels, depth, max_depth)?,
                    )),+
                })
            }
        }

        /// A correction network.
        #[derive(Module, Debug)]
        pub enum Net {
            $(#[doc = concat!("The `", $name, "` network.")] $variant($net)),+
        }

        impl Net {
            /// `u: [batch, values]`, `parameter: [batch, 1]` → `[batch, values]`
            /// (see [`Network::forward`]).
            pub fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
                match self {
                    $(Net::$variant(net) => Network::forward(net, u, parameter)),+
                }
            }

            /// The architecture.
            pub fn architecture(&self) -> Architecture {
                match self {
                    $(Net::$variant(_) => Architecture::$variant),+
                }
            }
        }

        impl Forward for Net {
            fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
                Net::forward(self, u, parameter)
            }
        }

        impl Ensemble {
            /// `nets` (one architecture with an ensemble form, one size) as the members, in
            /// order.
            pub fn stack(nets: &[Net]) -> Result<Self, NetError> {
                match nets.first().ok_or(NetError::NoMembers)? {
                    $(Net::$variant(_) => if_ensemble!($($form)?;
                        Ok(<$net as Stacks>::stack(&every(nets, |net| match net {
                            Net::$variant(member) => Some(member),
                            _ => None,
                        })?));
                        Err(NetError::NoEnsemble(Architecture::$variant))
                    )),+
                }
            }

            /// Member `k` as its own network of `architecture` (the ensemble's: a copy of its
            /// current weights), or the refusal naming `architecture` when this is no ensemble
            /// of it.
            pub fn member(&self, architecture: Architecture, k: usize) -> Result<Net, NetError> {
                let member = match architecture {
                    $(Architecture::$variant => if_ensemble!($($form)?;
                        <$net as Stacks>::member(self, k).map(Net::$variant);
                        None
                    )),+
                };
                member.ok_or(NetError::NoEnsemble(architecture))
            }
        }

        /// A network's architecture with its typed size: `C × D` for the grid networks, one of
        /// the paper's sizes for the 2-D ResNet. Serialized as [`NetConfig`]
        /// (`{"architecture", "channels", "depth"}`).
        #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
        #[serde(try_from = "NetConfig", into = "NetConfig")]
        pub enum NetSpec {
            $(#[doc = concat!("The `", $name, "` network and its size.")]
              $variant(<$net as Network>::Size)),+
        }

        impl NetSpec {
            /// The architecture.
            pub fn architecture(self) -> Architecture {
                match self {
                    $(NetSpec::$variant(_) => Architecture::$variant),+
                }
            }

            /// `(C, D)`.
            pub fn knobs(self) -> (usize, usize) {
                match self {
                    $(NetSpec::$variant(size) => size.knobs()),+
                }
            }

            /// Builds the network on `device`, weights drawn from `rng` in forward order.
            pub fn build(self, device: &Device, rng: &mut InitRng) -> Net {
                match self {
                    $(NetSpec::$variant(size) => Net::$variant(<$net>::build(size, device, rng))),+
                }
            }

            /// Exact parameter count of the built network.
            pub fn parameter_count(self) -> usize {
                match self {
                    $(NetSpec::$variant(size) => <$net>::parameter_count(size)),+
                }
            }

            /// Forward FLOPs for one sample of `resolution` state values.
            pub fn flops_per_sample(self, resolution: usize) -> f64 {
                match self {
                    $(NetSpec::$variant(size) => <$net>::flops_per_sample(size, resolution)),+
                }
            }

            /// f32 values kept for the backward pass per sample of `resolution` values.
            pub fn activation_floats_per_sample(self, resolution: usize) -> f64 {
                match self {
                    $(NetSpec::$variant(size) => {
                        <$net>::activation_floats_per_sample(size, resolution)
                    }),+
                }
            }
        }
    };
}

architectures! {
    /// The paper's periodic ResNet1D (3-tap circular convolutions).
    Resnet => "resnet": ResNet1d [ensemble],
    /// Ring-graph network with directional edge convolutions.
    Gcn => "gcn": Gcn [ensemble],
    /// Dilated ResNet: blocks of seven convolutions dilated 1, 2, 4, 8, 4, 2, 1.
    Dilated => "dilated": DilatedResNet [ensemble],
    /// U-Net: `D` levels of halving (at most 4 on 48 points), skip connections.
    Unet => "unet": UNet [ensemble],
    /// Fourier neural operator: `D` Fourier layers over the lowest 12 modes.
    Fno => "fno": Fno [ensemble],
    /// The Kolmogorov study's 2-D periodic ResNet in the paper's four sizes.
    Resnet2d => "resnet2d": ResNet2d,
}

impl Architecture {
    /// The architectures for states of `dims` dimensions, in menu order.
    const fn of_dims<const N: usize>(dims: usize) -> [Architecture; N] {
        let mut out = [Architecture::Resnet; N];
        let (mut i, mut found) = (0, 0);
        while i < Self::ALL.len() {
            if Self::ALL[i].facts().state_dims == dims {
                out[found] = Self::ALL[i];
                found += 1;
            }
            i += 1;
        }
        out
    }

    /// How many architectures work on states of `dims` dimensions.
    const fn count_dims(dims: usize) -> usize {
        let (mut i, mut count) = (0, 0);
        while i < Self::ALL.len() {
            if Self::ALL[i].facts().state_dims == dims {
                count += 1;
            }
            i += 1;
        }
        count
    }

    /// The 1-D architectures (Kuramoto–Sivashinsky), in menu order.
    pub const ONE_D: [Architecture; Self::count_dims(1)] = Self::of_dims(1);

    /// The 2-D architectures (Kolmogorov flow), in menu order.
    pub const TWO_D: [Architecture; Self::count_dims(2)] = Self::of_dims(2);

    /// The form's menu entry.
    pub fn title(self) -> &'static str {
        self.facts().title
    }

    /// What `C` and `D` mean for this architecture (form, help); fixed sizes listed.
    pub fn size_knobs(self) -> String {
        let knobs = self.facts().size_knobs;
        match self.size_choices() {
            Some(choices) => format!("{knobs}: {}", sizes_text(choices)),
            None => knobs.to_string(),
        }
    }

    /// Largest accepted depth `D`.
    pub fn max_depth(self) -> usize {
        self.facts().max_depth
    }

    /// `(C, D)` taken when it is chosen without a size.
    pub fn default_size(self) -> (usize, usize) {
        self.facts().default_size
    }
}

/// `8×5, 8×7, 16×7, 16×9`.
pub(crate) fn sizes_text(sizes: &[(usize, usize)]) -> String {
    sizes
        .iter()
        .map(|(c, d)| format!("{c}×{d}"))
        .collect::<Vec<_>>()
        .join(", ")
}
