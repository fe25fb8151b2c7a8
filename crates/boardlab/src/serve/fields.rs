//! Request and answer fields that JSON carries two ways: a board size (`6`, `"6"` or `"6x6"`) and a seed (a
//! decimal string, since a 64-bit seed does not survive a JavaScript number; a number is still read).

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serializer};

/// A number or a string, as its text.
struct NumberOrText(&'static str);

impl Visitor<'_> for NumberOrText {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
}

/// An optional board size given as a number (`6`) or a string (`"6"`, `"6x6"`), as its text; the route parses
/// it as a `BoardSize` and names a bad one.
///
/// # Errors
/// A value that is neither a number nor a string.
pub fn size<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    struct Wrap(#[serde(deserialize_with = "size_text")] String);
    fn size_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        d.deserialize_any(NumberOrText("a board size such as 6 or \"6x6\""))
    }
    Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
}

/// An optional seed given as a decimal string (`"1182642394280105928"`) or a number.
///
/// # Errors
/// A value that is not a whole number from 0 to 2^64 - 1.
pub fn seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    struct Wrap(#[serde(deserialize_with = "seed_text")] String);
    fn seed_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        d.deserialize_any(NumberOrText(
            "a seed: a whole number, best written as a string",
        ))
    }
    match Option::<Wrap>::deserialize(d)? {
        None => Ok(None),
        Some(Wrap(text)) => text.trim().parse::<u64>().map(Some).map_err(|_| {
            de::Error::custom(format!(
                "the seed \"{text}\" is not a whole number from 0 to 18446744073709551615"
            ))
        }),
    }
}

/// A seed written as a decimal string.
///
/// # Errors
/// Never (the serializer's own errors only).
pub fn seed_text<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&seed.to_string())
}
