//! Untrusted text (answers, qset questions, seal names) made safe to show.
//!
//! An answer is written by the agent under test; it may hold a forged watermark, a forged
//! `<<VERDICT:…>>` tag, a fake table row or markup. Nothing it holds may change the structure of
//! a report: it can never start a line, close a table cell or open a tag.

/// Longest excerpt the file formats show, in characters (the terminal uses less).
pub const EXCERPT_MAX: usize = 160;

/// What a newline in untrusted text is shown as: it must never break a report line.
pub const NEWLINE_MARK: char = '⏎';

/// Shown at the end of text that was cut at the cap.
pub const ELLIPSIS: char = '…';

/// Characters that could move or hide text on a terminal or in a browser besides control
/// characters: bidi embeddings, overrides and isolates, and zero-width joiners and marks.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// One line of plain text: control and invisible formatting characters removed, every newline
/// (`\n`, `\r\n`, `\r`, U+2028, U+2029) shown as `⏎`, tabs as a space, and at most `max_chars`
/// characters (the last being `…` when cut). Idempotent: cleaning clean text changes nothing.
pub fn excerpt(text: &str, max_chars: usize) -> String {
    let mut out: Vec<char> = Vec::with_capacity(text.len().min(max_chars * 4));
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push(NEWLINE_MARK);
            }
            '\n' | '\u{2028}' | '\u{2029}' | '\u{85}' => out.push(NEWLINE_MARK),
            '\t' => out.push(' '),
            c if c.is_control() || is_invisible_format(c) => {}
            c => out.push(c),
        }
    }
    if out.len() > max_chars {
        out.truncate(max_chars.saturating_sub(1));
        if max_chars > 0 {
            out.push(ELLIPSIS);
        }
    }
    out.into_iter().collect()
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for a Markdown table cell or paragraph: pipes cannot split a cell, markup
/// characters are literal, and raw HTML becomes entities (Markdown renderers pass HTML through).
pub fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' | '#' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// [`excerpt`] with box-drawing characters (U+2500–U+257F) shown as `|`: the terminal's tables
/// are drawn with them, so an answer holding them could draw a fake cell or row border.
pub fn terminal(text: &str, max_chars: usize) -> String {
    excerpt(text, max_chars)
        .chars()
        .map(|c| {
            if ('\u{2500}'..='\u{257F}').contains(&c) {
                '|'
            } else {
                c
            }
        })
        .collect()
}

/// [`excerpt`] then [`html_escape`]: the only way untrusted text enters the HTML report.
pub fn html(text: &str, max_chars: usize) -> String {
    html_escape(&excerpt(text, max_chars))
}

/// Longest whole answer the HTML report holds behind a row's `<details>`, in characters.
pub const FULL_ANSWER_MAX: usize = 20_000;

/// A whole answer for a `<pre>` block: newlines kept (`\r\n` and `\r` become `\n`), other
/// control and invisible formatting characters removed, capped, then HTML-escaped.
pub fn html_block(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars * 4));
    let mut n = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let shown = match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                '\n'
            }
            '\n' | '\u{2028}' | '\u{2029}' | '\u{85}' => '\n',
            '\t' => ' ',
            c if c.is_control() || is_invisible_format(c) => continue,
            c => c,
        };
        if n == max_chars {
            out.push(ELLIPSIS);
            break;
        }
        out.push(shown);
        n += 1;
    }
    html_escape(&out)
}

/// [`excerpt`] then [`markdown_escape`]: the only way untrusted text enters the Markdown report.
pub fn markdown(text: &str, max_chars: usize) -> String {
    markdown_escape(&excerpt(text, max_chars))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_and_controls_never_survive() {
        let s = excerpt("a\nb\r\nc\rd\u{2028}e\x1b[31mred\x07\u{202E}x\ty", 100);
        assert_eq!(s, "a⏎b⏎c⏎d⏎e[31mredx y");
        assert!(!s.chars().any(|c| c.is_control()));
    }

    #[test]
    fn cap_counts_characters_and_marks_the_cut() {
        assert_eq!(excerpt("가나다라마", 3), "가나…");
        assert_eq!(excerpt("abc", 3), "abc");
        assert_eq!(excerpt("abcd", 0), "");
    }

    #[test]
    fn cleaning_is_idempotent() {
        for t in [
            "x\ny\r\n",
            "가나다라마바사",
            "<<VERDICT:ANSWERED>>\n| a | b |",
            "",
        ] {
            for cap in [3, 5, 100] {
                let once = excerpt(t, cap);
                assert_eq!(excerpt(&once, cap), once);
            }
        }
    }

    #[test]
    fn terminal_text_cannot_draw_table_borders() {
        assert_eq!(terminal("│ a ┆ b ╞═╡", 100), "| a | b |||");
    }

    #[test]
    fn escapes_close_no_structure() {
        assert_eq!(
            html("</table><script>x</script>", 100),
            "&lt;/table&gt;&lt;script&gt;x&lt;/script&gt;"
        );
        assert_eq!(markdown("| a |", 100), "\\| a \\|");
        assert!(!markdown("</td>", 100).contains('<'));
    }
}
