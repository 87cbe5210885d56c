//! How the server compares the names of topics and channels: regardless of case, in every
//! script. The reference server compares a narrow's topic with `UPPER(subject) = UPPER(%s)`
//! and a channel's name with `name__iexact`, both Postgres's Unicode case mapping, so "Äpfel"
//! and "äpfel" are one topic there. Client and demo server ask these, not ASCII rules.

/// Whether the server takes two topic (or channel) names as the same.
pub fn same_name(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    a.to_lowercase() == b.to_lowercase()
}

/// The form under which names the server takes as the same fall together (a map's key).
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_regardless_of_case_in_every_script() {
        assert!(same_name("Plans", "plans"));
        assert!(same_name("Äpfel und Birnen", "äpfel UND birnen"));
        assert!(same_name("ΟΔΟΣ", "οδος"), "a final sigma too");
        assert!(same_name("Привет", "привет"));
        assert!(!same_name("plans", "plan"));
        assert!(!same_name("äpfel", "apfel"));
        assert_eq!(name_key("Äpfel"), name_key("äPFEL"));
    }
}
