//! Float arrays in JSON as base64 text of their little-endian bytes ([`Packed`]): exact (NaN
//! included), about half the size of decimal numbers, and decoded only where they are used.
//! For the bulk data a worker pool ships (`study::data::prepared::Prepared`), the per-test error
//! curves of a results file and its trained weights.

use serde::{Deserialize, Serialize};

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

/// Floats packed as base64 text of their little-endian bytes. It travels as a JSON string, so
/// a page passing it on reads and writes it without decoding a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Packed(String);

macro_rules! pack_and_unpack {
    ($pack:ident, $unpack:ident, $t:ty, $size:expr) => {
        #[doc = concat!("Packs `", stringify!($t), "` values.")]
        pub fn $pack(values: &[$t]) -> Self {
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            Self(encode(&bytes))
        }

        #[doc = concat!("The `", stringify!($t), "` values back, bit for bit.")]
        pub fn $unpack(&self) -> Result<Vec<$t>, String> {
            let bytes = decode(&self.0)?;
            if !bytes.len().is_multiple_of($size) {
                return Err("a partial float in packed data".into());
            }
            Ok(bytes
                .chunks_exact($size)
                .map(|c| <$t>::from_le_bytes(c.try_into().unwrap_or([0; $size])))
                .collect())
        }
    };
}

impl Packed {
    pack_and_unpack!(f32s, to_f32s, f32, 4);
    pack_and_unpack!(f64s, to_f64s, f64, 8);

    /// Bytes it packs.
    pub fn bytes(&self) -> usize {
        self.0.len() / 4 * 3 - self.0.bytes().rev().take_while(|&c| c == b'=').count()
    }
}

/// Serde of a `Vec<f32>` as one [`Packed`] string (`#[serde(with = "packed_f32s")]`).
pub mod packed_f32s {
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    use super::Packed;

    /// Writes `values` packed.
    pub fn serialize<S: Serializer>(values: &[f32], serializer: S) -> Result<S::Ok, S::Error> {
        Packed::f32s(values).serialize(serializer)
    }

    /// Reads packed values back.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<f32>, D::Error> {
        Packed::deserialize(deserializer)?
            .to_f32s()
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::{decode, encode, Packed};

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
    fn floats_round_trip_bit_for_bit_through_json() {
        let a = [1.5f32, -0.0, f32::NAN, f32::MIN_POSITIVE, 3.3e-7];
        let b = [std::f64::consts::PI, f64::INFINITY, -1e-300];
        let json = serde_json::to_string(&(Packed::f32s(&a), Packed::f64s(&b))).expect("json");
        let (pa, pb): (Packed, Packed) = serde_json::from_str(&json).expect("parse");
        assert_eq!((pa.bytes(), pb.bytes()), (20, 24));
        let bits32 = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let bits64 = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits32(&pa.to_f32s().expect("f32")), bits32(&a));
        assert_eq!(bits64(&pb.to_f64s().expect("f64")), bits64(&b));
        assert!(pa.to_f64s().is_err(), "20 bytes are not whole f64s");
    }
}
