//! Showing untrusted text on a terminal line: qset values, seal names and answers may hold
//! control characters, newlines or forged markers; none of them may change a line's structure.

/// One line of untrusted text: control characters removed, newlines shown as `⏎`, capped at
/// `max` characters with `…` marking the cut.
pub fn clean_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        // An ANSI escape (CSI `ESC [ … final`, or ESC and one character) goes whole: a reason
        // copied from a CLI's coloured stderr must not keep `[31m` in a record.
        if ch == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            } else {
                chars.next();
            }
            continue;
        }
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

/// A message for a person: libgit2's `; class=Repository (6); code=NotFound (-3)` tails
/// removed. They name libgit2's internals, not anything the user can change.
pub fn without_git_codes(s: &str) -> String {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r";?\s*\b(class|code)=[A-Za-z]+ \(-?\d+\)").expect("static regex")
    });
    re.replace_all(s, "").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libgit2_codes_are_removed() {
        assert_eq!(
            without_git_codes(
                "could not find repository at '/x'; class=Repository (6); code=NotFound (-3)\nnext"
            ),
            "could not find repository at '/x'\nnext"
        );
    }

    #[test]
    fn control_characters_and_newlines_cannot_break_a_line() {
        assert_eq!(clean_line("a\nb\x1b[31mc\x1b[0m", 80), "a⏎bc");
        assert_eq!(clean_line("\x1b[1;33mWarning\x1b[0m: x", 80), "Warning: x");
        assert_eq!(clean_line("abcdef", 3), "abc…");
    }
}
