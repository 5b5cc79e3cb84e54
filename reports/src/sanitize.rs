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

/// Whether `<` followed by `next` could open HTML a Markdown renderer passes through (a tag,
/// a closing tag, a comment, a declaration or processing instruction, an autolink).
fn opens_html(next: Option<char>) -> bool {
    next.is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?'))
}

/// Whether `&` followed by `next` could start a character reference (`&lt;`, `&#60;`).
fn opens_entity(next: Option<char>) -> bool {
    next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '#')
}

/// `<`, `>` and `&` for a Markdown text, escaped only where they could make markup: `<` before
/// a letter, `/`, `!` or `?` (and the `>` after such an escaped `<`'s letter or `/`), `&` before
/// what could be an entity. Elsewhere they stay as typed, so `(< 10)` and `D > 0` read as plain
/// text in a terminal; nothing kept can open a tag.
fn push_markdown_angle(out: &mut String, c: char, next: Option<char>) -> bool {
    match c {
        '<' if opens_html(next) => out.push_str("&lt;"),
        '>' if next.is_some_and(|n| n.is_ascii_alphabetic() || n == '/') => out.push_str("&gt;"),
        '&' if opens_entity(next) => out.push_str("&amp;"),
        '<' | '>' | '&' => out.push(c),
        _ => return false,
    }
    true
}

/// Escapes text for a Markdown table cell or paragraph: pipes cannot split a cell, markup
/// characters are literal, and whatever could open raw HTML or an entity is escaped (Markdown
/// renderers pass HTML through); a `<`, `>` or `&` that could not is kept as typed.
pub fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if push_markdown_angle(&mut out, c, chars.peek().copied()) {
            continue;
        }
        match c {
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

/// [`markdown_escape`]'s rule for the harness's own text in `report.md`: a pipe cannot split a
/// cell and nothing can open HTML, with `<`, `>` and `&` that open nothing kept as typed.
pub fn markdown_own(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if push_markdown_angle(&mut out, c, chars.peek().copied()) {
            continue;
        }
        if c == '|' {
            out.push('\\');
        }
        out.push(c);
    }
    out
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

    #[test]
    fn markdown_keeps_angles_that_open_nothing_as_typed() {
        assert_eq!(markdown_escape("(< 10)"), "(< 10)");
        assert_eq!(markdown_escape("D > 0 and 1<2"), "D > 0 and 1<2");
        assert_eq!(markdown_escape("AT&T & co"), "AT&amp;T & co");
        assert_eq!(markdown_escape("&lt;b&gt;"), "&amp;lt;b&amp;gt;");
        for hostile in [
            "<script>",
            "</td>",
            "<!-- x",
            "<?php",
            "<img src=x>",
            "<http://x>",
        ] {
            let e = markdown_escape(hostile);
            let mut it = e.chars().peekable();
            while let Some(c) = it.next() {
                assert!(
                    !(c == '<' && opens_html(it.peek().copied())),
                    "{hostile} -> {e}"
                );
            }
        }
    }
}
