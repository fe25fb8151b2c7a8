//! Small pieces of English for messages and panels: numbers with thousands separators, plurals, a capital first.

/// The text with its first letter in capitals ("easy" is "Easy").
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `1234567` as `1,234,567` (any unsigned integer).
pub fn group_thousands(n: impl Into<u128>) -> String {
    let s = n.into().to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// "1 jump", "2 jumps", "2 entries": `n` and the noun, in the plural unless `n` is 1 (a noun ending in a
/// consonant and y takes -ies).
pub fn plural(n: impl Into<u128>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        return format!("1 {noun}");
    }
    let consonant_y = noun.len() >= 2
        && noun.ends_with('y')
        && !noun[..noun.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    match noun.strip_suffix('y') {
        Some(stem) if consonant_y => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(group_thousands(0u8), "0");
        assert_eq!(group_thousands(999u32), "999");
        assert_eq!(group_thousands(1000u32), "1,000");
        assert_eq!(group_thousands(1_234_567u64), "1,234,567");
        assert_eq!(
            group_thousands(u128::MAX),
            "340,282,366,920,938,463,463,374,607,431,768,211,455"
        );
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1u32, "entry"), "1 entry");
        assert_eq!(plural(2u32, "entry"), "2 entries");
        assert_eq!(plural(0u32, "hint"), "0 hints");
        assert_eq!(plural(3u32, "jump"), "3 jumps");
        assert_eq!(plural(2u32, "play"), "2 plays");
    }

    #[test]
    fn a_capital_first() {
        assert_eq!(capitalise("easy"), "Easy");
        assert_eq!(capitalise("row 8"), "Row 8");
        assert_eq!(capitalise("éclair"), "Éclair");
        assert_eq!(capitalise(""), "");
    }
}
