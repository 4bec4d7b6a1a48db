//! Float arrays in JSON as base64 text of their little-endian bytes: exact (NaN included),
//! about half the size of decimal numbers and read without parsing a float. For the bulk data a
//! worker pool ships ([`super::prepared::Prepared`]); use with `#[serde(with = "…::f32s")]`.

use serde::{Deserialize, Deserializer, Serializer};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 (with `=` padding) of `bytes`.
fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of standard base64 `text`.
fn decode(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| -> Result<u32, String> {
        match c {
            b'A'..=b'Z' => Ok(u32::from(c - b'A')),
            b'a'..=b'z' => Ok(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Ok(u32::from(c - b'0') + 52),
            b'+' => Ok(62),
            b'/' => Ok(63),
            _ => Err(format!("'{}' is not base64", c as char)),
        }
    };
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err("base64 text of a length that is not a multiple of 4".into());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for quad in bytes.chunks(4) {
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in &quad[..4 - pad] {
            n = (n << 6) | value(c)?;
        }
        n <<= 6 * pad as u32;
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    Ok(out)
}

macro_rules! packed {
    ($name:ident, $t:ty, $size:expr) => {
        #[doc = concat!("`Vec<", stringify!($t), ">` as base64 of its little-endian bytes.")]
        pub mod $name {
            use super::*;

            /// Writes `values` as base64 text.
            pub fn serialize<S: Serializer>(values: &[$t], s: S) -> Result<S::Ok, S::Error> {
                let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
                s.serialize_str(&encode(&bytes))
            }

            /// Reads base64 text back into values.
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<$t>, D::Error> {
                let text = String::deserialize(d)?;
                let bytes = decode(&text).map_err(serde::de::Error::custom)?;
                if !bytes.len().is_multiple_of($size) {
                    return Err(serde::de::Error::custom("a partial float in packed data"));
                }
                Ok(bytes
                    .chunks_exact($size)
                    .map(|c| <$t>::from_le_bytes(c.try_into().unwrap_or([0; $size])))
                    .collect())
            }
        }
    };
}

packed!(f32s, f32, 4);
packed!(f64s, f64, 8);

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::{decode, encode};

    #[derive(Debug, Serialize, Deserialize)]
    struct Both {
        #[serde(with = "super::f32s")]
        a: Vec<f32>,
        #[serde(with = "super::f64s")]
        b: Vec<f64>,
    }

    #[test]
    fn base64_round_trips_every_length() {
        assert_eq!(encode(b"Man"), "TWFu");
        assert_eq!(encode(b"Ma"), "TWE=");
        assert_eq!(encode(b"M"), "TQ==");
        for n in 0..10u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(97)).collect();
            assert_eq!(decode(&encode(&bytes)).expect("decode"), bytes);
        }
        assert!(decode("TQ=").is_err());
        assert!(decode("T!==").is_err());
    }

    #[test]
    fn floats_round_trip_bit_for_bit() {
        let both = Both {
            a: vec![1.5, -0.0, f32::NAN, f32::MIN_POSITIVE, 3.3e-7],
            b: vec![std::f64::consts::PI, f64::INFINITY, -1e-300],
        };
        let json = serde_json::to_string(&both).expect("json");
        let back: Both = serde_json::from_str(&json).expect("parse");
        let bits32 = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let bits64 = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits32(&back.a), bits32(&both.a));
        assert_eq!(bits64(&back.b), bits64(&both.b));
    }
}
