//! Stage 2: an answer cut into sentences, and the words that mark a sentence's role (a
//! contrast, the repository as the place spoken of). Shared by the cue detector and the
//! readings that decide. Imports only earlier stages.

use regex::Regex;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("sentence pattern compiles"))
}

/// Words that name the repository or one of its files: a stale word beside one may be aimed
/// at the true value ("…, and the compose file is outdated").
pub(crate) fn repository_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:compose|config\w*|code|codebase|repo\w*|file|files|push\w*|pushé\w*|remote|stash|git|merg\w*|changelog|dépôt|depo|kho|repositori\w*|repozytori\w*|kod\w*|codice|código|ui|yaml|yml|toml|json|dockerfile|makefile|lockfile|cargo|package|gradle|pom|settings|env|source|tree|branch|main|master|konfiguration|datei|archivo|configuración|código|fichier|codice|ficheiro|arquivo|bestand|plik|dosya|kod|tệp|файл|конфиг\w*|код)\b",
            r"|\.(?:ya?ml|toml|json|mod|lock|gradle|xml|env|ts|js|py|go|rs|rb|ex|exs|swift|dart|kt|java|cs|cpp|h)\b|配置|代码|文件|仓库|設定|コード|ファイル|リポジトリ|설정|코드|파일|저장소|리포지토리|репозитори\w*|коде?\b",
        ),
    )
}

/// Pieces of `text`, each ending after a match of `end` (the last one at the end of text).
pub(crate) fn split_keep<'t>(text: &'t str, end: &Regex) -> impl Iterator<Item = &'t str> {
    let mut bounds: Vec<usize> = end.find_iter(text).map(|m| m.end()).take(400).collect();
    bounds.push(text.len());
    let mut start = 0;
    bounds.into_iter().filter_map(move |b| {
        let piece = &text[start..b.max(start)];
        start = b.max(start);
        (!piece.trim().is_empty()).then_some(piece)
    })
}

/// The text with closed fenced blocks left out (a command's output is not the answer
/// speaking); inline code stays, since a value in backticks is still the value named.
pub(crate) fn without_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut block = String::new();
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let marker = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                block.push_str(line);
            }
            (Some(open), Some(m)) if m == open => {
                fence = None;
                block.clear();
                out.push('\n');
            }
            (Some(_), _) => block.push_str(line),
            (None, None) => out.push_str(line),
        }
    }
    // An unclosed fence is ordinary text, as the strict reading has it.
    out.push_str(&block);
    out
}

/// The first sentence of the first line that says something: headings (`## Port`), rules and
/// table rows are skipped, list and emphasis marks trimmed.
pub(crate) fn opening_sentence(text: &str) -> Option<&str> {
    let line = text.lines().map(str::trim).find(|l| {
        !l.is_empty()
            && !l.starts_with('#')
            && !l.starts_with("---")
            && !l.starts_with("***")
            && !l.starts_with('|')
    })?;
    let line = line.trim_start_matches(['>', '-', '*', '+', ' ']);
    let end = sentence_end_regex()
        .find(line)
        .map_or(line.len(), |m| m.end());
    Some(&line[..end])
}

/// A sentence end as a reader sees it in markdown: the stop may sit inside emphasis or a code
/// span that closes after it (`**8000.** The hand-off…`).
pub(crate) fn sentence_end_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    // A CJK stop ends a sentence with no space after it.
    re(&R, r"[.!?;][*_`)\]]*(?:\s|$)|[。！？；][*_`)\]]*|\n")
}

/// Where a sentence turns to the other side: a contrast word or a semicolon.
pub(crate) fn contrast_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:but|however|while|whereas|aber|jedoch|pero|mientras|mais|ma|mas|maar|men|ale|ama|ancak|tapi|nhưng)\b|\bно\b|\bале\b|但|不过|而|が、|けど|지만|[;；]",
    )
}
