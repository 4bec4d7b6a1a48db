//! The registry: which implementation of [`PhysicalSystem`] each [`System`] is. It sits above
//! every system's folder and above `train` and `study`, which never name a system: they receive
//! a `&dyn PhysicalSystem` from their caller (the page a `&dyn SystemDescription`). Adding a
//! system is a folder implementing both traits, its variant and name in [`System`]
//! (`types/system.rs`) and its arms in [`System::physics`] and [`System::description`].

use crate::system::{PhysicalSystem, SystemDescription};
use crate::types::System;

/// Systems listed in menus but not available yet: `(name, menu title)`.
pub const COMING_SYSTEMS: [(&str, &str); 0] = [];

impl System {
    /// The implementation.
    pub fn physics(self) -> &'static dyn PhysicalSystem {
        match self {
            System::Ks => &crate::ks::system::Ks,
            System::Kolmogorov => &crate::kolmogorov::system::Kolmogorov,
            System::Burgers => &crate::burgers::system::Burgers,
            System::Custom(id) => crate::custom::system::of(id),
        }
    }

    /// Its description (no burn: what the page holds).
    pub fn description(self) -> &'static dyn SystemDescription {
        match self {
            System::Ks => &crate::ks::system::Ks,
            System::Kolmogorov => &crate::kolmogorov::system::Kolmogorov,
            System::Burgers => &crate::burgers::system::Burgers,
            System::Custom(id) => crate::custom::system::of(id),
        }
    }

    /// Menu title.
    pub fn title(self) -> &'static str {
        self.description().title()
    }

    /// Whether `name` is a system that is listed but not available yet.
    pub fn is_coming(name: &str) -> bool {
        COMING_SYSTEMS.iter().any(|(coming, _)| *coming == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ks_is_one_channel_on_the_study_grid() {
        let ks = System::Ks.physics();
        assert_eq!(ks.system(), System::Ks);
        assert_eq!(ks.state_shape().values(), 48);
        assert_eq!(ks.parameter().symbol, "s");
        assert_eq!("ks".parse::<System>(), Ok(System::Ks));
        assert!(!System::is_coming("kolmogorov"));
        let kolmogorov = System::Kolmogorov.physics();
        assert_eq!(kolmogorov.system(), System::Kolmogorov);
        assert_eq!(kolmogorov.state_shape().values(), 2 * 32 * 32);
        assert_eq!(kolmogorov.parameter().symbol, "Re");
        assert_eq!(kolmogorov.diverged_error(), Some(100.0));
    }
}
