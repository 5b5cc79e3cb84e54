//! Showing untrusted text on a terminal line: qset values, seal names and answers may hold
//! control characters, newlines or forged markers; none of them may change a line's structure.

/// One line of untrusted text: control characters removed, newlines shown as `⏎`, capped at
/// `max` characters with `…` marking the cut.
pub fn clean_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    for ch in s.chars() {
        let shown = match ch {
            '\n' => Some('⏎'),
            '\r' | '\t' => Some(' '),
            c if c.is_control() => None,
            // Bidi overrides can reorder what a reader sees on the line.
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => None,
            c => Some(c),
        };
        if let Some(c) = shown {
            if n == max {
                out.push('…');
                break;
            }
            out.push(c);
            n += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_newlines_cannot_break_a_line() {
        assert_eq!(clean_line("a\nb\x1b[31mc", 80), "a⏎b[31mc");
        assert_eq!(clean_line("abcdef", 3), "abc…");
    }
}
