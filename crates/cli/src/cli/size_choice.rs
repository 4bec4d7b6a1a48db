//! `study plan --sizes 8x5,8x7`: a subset of a preset's network sizes (e.g. Kolmogorov's `paper`
//! preset at its two smallest sizes), refused with the preset's sizes listed when it is not one.

use super::CliError;
use unroll_core::system::config::{NetSize, StudyConfig};

/// `C×D` pairs of a `--sizes` list (`8x5,8x7`; `×` works too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeList(pub Vec<(usize, usize)>);

/// Parses `8x5,8x7` (clap's value parser).
pub fn parse_sizes(text: &str) -> Result<SizeList, String> {
    let one = |item: &str| -> Result<(usize, usize), String> {
        let (c, d) = item
            .trim()
            .split_once(['x', '×'])
            .ok_or_else(|| format!("'{item}' is not C×D (e.g. 8x5)"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{item}' is not C×D (e.g. 8x5)"))
        };
        Ok((number(c)?, number(d)?))
    };
    let sizes = text.split(',').map(one).collect::<Result<Vec<_>, _>>()?;
    Ok(SizeList(sizes))
}

/// Keeps the sizes of `config` named in `chosen`, in the preset's order; each chosen size must
/// be one of the preset's.
pub fn keep_sizes(config: &mut StudyConfig, chosen: &SizeList) -> Result<(), CliError> {
    let label = |s: &NetSize| format!("{}×{}", s.channels, s.depth);
    for &(channels, depth) in &chosen.0 {
        if !config
            .sizes
            .iter()
            .any(|s| (s.channels, s.depth) == (channels, depth))
        {
            let offered: Vec<String> = config.sizes.iter().map(label).collect();
            return Err(CliError::Usage(format!(
                "--sizes {channels}×{depth} is not a size of this grid (its sizes: {})",
                offered.join(", ")
            )));
        }
    }
    config
        .sizes
        .retain(|s| chosen.0.contains(&(s.channels, s.depth)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pairs_and_refuses_others() {
        assert_eq!(
            parse_sizes("8x5, 8×7").unwrap(),
            SizeList(vec![(8, 5), (8, 7)])
        );
        for bad in ["8", "8x", "x5", "8x5,", "eightx5"] {
            assert!(parse_sizes(bad).is_err(), "{bad}");
        }
    }
}
