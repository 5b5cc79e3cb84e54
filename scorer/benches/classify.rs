//! Classifier throughput: 1,000 realistic answers (Korean and English, both arms, all kinds)
//! and one 10 MB answer. Budget (release): the 1,000 well under a second, the 10 MB answer
//! well under 100 ms.
//!
//! `HARNESS_BENCH_DUMP=DIR cargo bench -p scorer --bench classify` writes the same answers to
//! DIR (plus the refusal lexicon as one ERE and the scorer's own verdicts) and exits, so
//! `benches/seed_baseline.sh DIR` can time the seed's grep-per-answer way on identical input.

use criterion::{black_box, criterion_group, Criterion, Throughput};
use scorer::{classify, Kind, Lexicon};
use std::fmt::Write as _;
use std::path::Path;

/// A small deterministic generator (xorshift), so every run and the dump see the same answers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// One generated answer and what it is scored against.
struct Case {
    answer: Vec<u8>,
    kind: Kind,
    token: String,
}

const KO_NARRATION: &[&str] = &[
    "저장소를 먼저 훑어보았습니다. `src/` 아래 파일 열두 개와 `README.md` 를 읽었습니다.",
    "작업 트리에서 `rg -n` 으로 관련 문자열을 검색했고, 테스트 디렉터리도 확인했습니다.",
    "이 체크아웃에는 히스토리가 없어서 파일 내용만 근거로 삼았습니다.",
    "설정 파일 `config/default.toml` 에는 기본값만 정의되어 있습니다.",
    "질문에서 말하는 세션은 이 저장소의 문서 중 하나를 가리키는 것으로 보입니다.",
    "이 프로젝트는 러너와 리포트 모듈로 나뉘어 있고 각 모듈에 단위 테스트가 있습니다.",
];
const EN_NARRATION: &[&str] = &[
    "I started by listing the repository and reading `README.md` and the files under `src/`.",
    "I searched the working tree with `rg -n` for the relevant names and checked the tests.",
    "The checkout has no history, so I relied on the file contents alone.",
    "The default configuration in `config/default.toml` only sets the standard values.",
    "The session the question mentions seems to refer to one of the design documents here.",
    "The project is split into a runner and a report module, each with its own unit tests.",
];
const CODE_BLOCK: &str =
    "```text\n$ rg -n handoff\ndocs/notes.md:12: hand-off written before the clear\n```\n";

fn ko_answer(rng: &mut Rng, kind: Kind, token: &str, arm: bool) -> String {
    let mut s = String::new();
    for _ in 0..4 + rng.next() % 4 {
        s.push_str(rng.pick(KO_NARRATION));
        s.push(' ');
    }
    if rng.next().is_multiple_of(4) {
        s.push('\n');
        s.push_str(CODE_BLOCK);
    }
    s.push('\n');
    let roll = rng.next() % 10;
    match (kind, arm) {
        (Kind::Positive, true) | (Kind::Conflict, true) if roll < 8 => {
            let _ = write!(s, "봉인 원장에 따르면 값은 **{token}** 입니다.");
        }
        (Kind::Positive, _) | (Kind::Conflict, _) if roll < 3 => {
            let _ = write!(s, "저장소 어디에서도 '{token}' 을 찾지 못했습니다.");
        }
        (Kind::Negative, true) if roll < 6 => s.push_str("지시가 없었습니다."),
        (Kind::Negative, _) if roll < 8 => s.push_str(
            "관련 기록을 찾지 못했습니다. 어느 파일을 가리키는지 알려주시면 다시 보겠습니다.",
        ),
        (Kind::Negative, _) => {
            let _ = write!(s, "마지막으로 읽은 파일은 {token} 이었습니다.");
        }
        _ => s.push_str("이 질문에 대한 답은 여기 텍스트만으로는 확정할 수 없습니다."),
    }
    if rng.next().is_multiple_of(3) {
        s.push_str("\n<<VERDICT:ANSWERED>>\n");
    }
    s
}

fn en_answer(rng: &mut Rng, kind: Kind, token: &str, arm: bool) -> String {
    let mut s = String::new();
    for _ in 0..5 + rng.next() % 4 {
        s.push_str(rng.pick(EN_NARRATION));
        s.push(' ');
    }
    if rng.next().is_multiple_of(4) {
        s.push('\n');
        s.push_str(CODE_BLOCK);
    }
    s.push('\n');
    let roll = rng.next() % 10;
    match (kind, arm) {
        (Kind::Positive, true) | (Kind::Conflict, true) if roll < 8 => {
            let _ = write!(s, "According to the sealed ledger the value is `{token}`.");
        }
        (Kind::Positive, _) | (Kind::Conflict, _) if roll < 3 => {
            let _ = write!(s, "I don't have any actual record of {token} anywhere.");
        }
        (Kind::Negative, true) if roll < 6 => {
            s.push_str("I have no actual basis for an answer; there is no match anywhere.")
        }
        (Kind::Negative, _) if roll < 8 => s.push_str(
            "I couldn't find it in the repository. Could you point me to the file you mean?",
        ),
        (Kind::Negative, _) => {
            let _ = write!(s, "The last file read was {token} lines long.");
        }
        _ => s.push_str("The config has no match rule for that pattern, so it used the default."),
    }
    if rng.next().is_multiple_of(3) {
        s.push_str("\n<<VERDICT:REFUSED>>\n");
    }
    s
}

/// 1,000 answers of about 1 KB: half Korean, half English, both arms, all three kinds.
fn typical_answers() -> Vec<Case> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..1000)
        .map(|i| {
            let kind = Kind::ALL[i % 3];
            let arm = (i / 3) % 2 == 0;
            // Bench tokens are assembled, like every fixture token.
            let token = format!("bq{}r{:04}", "x", i);
            let text = if i % 2 == 0 {
                ko_answer(&mut rng, kind, &token, arm)
            } else {
                en_answer(&mut rng, kind, &token, arm)
            };
            Case {
                answer: text.into_bytes(),
                kind,
                token,
            }
        })
        .collect()
}

/// One 10 MB answer: mixed narration with quoted spans and fences; the token and a refusal at
/// the very end, so nothing short-circuits early.
fn big_answer() -> Case {
    let mut rng = Rng(42);
    let token = format!("bq{}big", "x");
    let mut s = String::with_capacity(10 << 20);
    while s.len() < (10 << 20) - 200 {
        let line = if rng.next().is_multiple_of(2) {
            rng.pick(KO_NARRATION)
        } else {
            rng.pick(EN_NARRATION)
        };
        s.push_str(line);
        s.push('\n');
        if rng.next().is_multiple_of(50) {
            s.push_str(CODE_BLOCK);
        }
    }
    let _ = writeln!(s, "저장소 어디에서도 '{token}' 을 찾지 못했습니다.");
    Case {
        answer: s.into_bytes(),
        kind: Kind::Positive,
        token,
    }
}

fn dump(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("answers"))?;
    let mut index = String::new();
    for (i, c) in typical_answers().iter().enumerate() {
        let name = format!("answers/{i:04}.txt");
        std::fs::write(dir.join(&name), &c.answer)?;
        let v = classify(&c.answer, c.kind, &c.token, None);
        let _ = writeln!(index, "{name}\t{}\t{}\t{}", c.kind, c.token, v.class);
    }
    std::fs::write(dir.join("index.tsv"), index)?;
    let big = big_answer();
    std::fs::write(dir.join("big.txt"), &big.answer)?;
    let v = classify(&big.answer, big.kind, &big.token, None);
    std::fs::write(
        dir.join("big.tsv"),
        format!("big.txt\t{}\t{}\t{}\n", big.kind, big.token, v.class),
    )?;
    let ere = Lexicon::standard().refusal_patterns().join("|");
    std::fs::write(dir.join("refusal.ere"), format!("{ere}\n"))?;
    eprintln!(
        "dumped 1000 answers, big.txt, index.tsv and refusal.ere to {}",
        dir.display()
    );
    Ok(())
}

fn bench_classify(c: &mut Criterion) {
    let cases = typical_answers();
    let bytes: usize = cases.iter().map(|c| c.answer.len()).sum();
    // Warm the lexicon outside the timed loop: compiling it once is not per-answer work.
    let _ = Lexicon::standard();
    let mut g = c.benchmark_group("classify");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("1000_typical_answers", |b| {
        b.iter(|| {
            for case in &cases {
                black_box(classify(
                    black_box(&case.answer),
                    case.kind,
                    &case.token,
                    None,
                ));
            }
        })
    });
    g.finish();

    let big = big_answer();
    let mut g = c.benchmark_group("classify");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(big.answer.len() as u64));
    g.bench_function("one_10mb_answer", |b| {
        b.iter(|| black_box(classify(black_box(&big.answer), big.kind, &big.token, None)))
    });
    g.finish();
}

criterion_group!(benches, bench_classify);

fn main() {
    if let Some(dir) = std::env::var_os("HARNESS_BENCH_DUMP") {
        if let Err(e) = dump(Path::new(&dir)) {
            eprintln!("dump failed: {e}");
            std::process::exit(1);
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
