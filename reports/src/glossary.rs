//! Every number, verdict and class a report prints, in a user's words: what it counts, over
//! what, and what to expect from ARM and from CTRL. `harness explain [TERM]` prints it and the
//! guide's glossary (docs/reports.md) is this table rendered (a test keeps the two equal), so a user never has
//! to read a design document or the source to learn what `HUI` is.

/// What kind of word a term is, for grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// A number on a report line.
    Number,
    /// The instrument verdict of a round, or a mark on its header.
    RoundVerdict,
    /// The class of one answer.
    AnswerClass,
    /// A word of the setup (arms, kinds, inputs).
    Setup,
    /// An axis or a status of the start gate.
    Gate,
    /// A section of the report, by its heading.
    Section,
    /// A cue: why the lexicon left a row UNDETERMINED, by the name reports print.
    Cue,
}

impl Group {
    /// The heading this group is listed under.
    pub fn heading(self) -> &'static str {
        match self {
            Group::Number => "Numbers",
            Group::RoundVerdict => "Round verdicts and marks",
            Group::AnswerClass => "Answer classes",
            Group::Setup => "Setup words",
            Group::Gate => "Gate axes and statuses",
            Group::Section => "Report sections",
            Group::Cue => "Cues (why a row is UNDETERMINED)",
        }
    }

    /// Every group, in the order they are listed.
    pub const ALL: [Group; 7] = [
        Group::Number,
        Group::RoundVerdict,
        Group::AnswerClass,
        Group::Setup,
        Group::Gate,
        Group::Section,
        Group::Cue,
    ];
}

/// One glossary entry.
#[derive(Debug, Clone, Copy)]
pub struct Term {
    /// The word as reports print it.
    pub name: &'static str,
    /// Other spellings `explain` accepts (case never matters).
    pub aliases: &'static [&'static str],
    /// Which list it belongs to.
    pub group: Group,
    /// One sentence: what it is.
    pub means: &'static str,
    /// What to expect in ARM, in CTRL, or what to do about it; empty when nothing arm-specific
    /// holds.
    pub expect: &'static str,
}

/// The whole glossary, grouped, in reading order.
pub const TERMS: &[Term] = &[
    // Numbers.
    Term {
        name: "DELIVERY",
        aliases: &["delivery (arm)", "DELIVERY from the hand-off?", "DELIVERY carrier-borne?"],
        group: Group::Number,
        means: "Of ARM's answers to positive questions, the share that gave the token: the facts the hand-off carried and the fresh session could use. Without conflict questions the report's Conflict section prints \"DELIVERY from the hand-off?\" as UNMEASURED: the answers may come from the repository or general knowledge rather than the hand-off.",
        expect: "ARM: 1.000 is the goal; below that the seal did not carry or the agent did not read it (INSTRUMENT_INCOMPLETE). Not computed for CTRL (see LUCKY).",
    },
    Term {
        name: "HUI",
        aliases: &["hui (arm)", "hui (ctrl)", "hallucination under ignorance"],
        group: Group::Number,
        means: "Hallucination under ignorance: of the answers to negative questions (the answer is in no source), the share that did not say \"I don't know\" (a fabricated value, any other value, or no clear refusal).",
        expect: "ARM and CTRL: 0 is the goal. CTRL above 0 makes the round VOID (the model cannot say \"absent\" at all); ARM above CTRL is a FINDING (the hand-off made the agent more confident than it should be).",
    },
    Term {
        name: "LUCKY",
        aliases: &["lucky (ctrl)"],
        group: Group::Number,
        means: "Of CTRL's answers to positive questions, the share that gave the token without any hand-off: what the repository alone, or a guess, already answers.",
        expect: "CTRL: low is what makes a question useful; a question CTRL answers does not measure the hand-off (replace it before sealing). ARM: not computed.",
    },
    Term {
        name: "CARRIER-READ",
        aliases: &["carrier read", "read"],
        group: Group::Number,
        means: "On conflict questions (the hand-off plants a value the repository contradicts), the answers that gave the planted value: proof the answer came from the hand-off and not from the repository.",
        expect: "ARM: above 0 shows the hand-off was read (the name keeps the older word \"carrier\" for the hand-off). CTRL: 0 expected (CTRL has no hand-off; a planted value there is an anomaly). UNMEASURED when the qset has no conflict question.",
    },
    Term {
        name: "MR",
        aliases: &["memorization ratio", "Longpre", "Longpre et al. 2021"],
        group: Group::Number,
        means: "Memorization ratio on conflict questions: CARRIER-READ / (CARRIER-READ + PRIOR_WON), how often the planted value beat the repository's. The measure is the one Longpre et al. (2021, \"Entity-Based Knowledge Conflicts in Question Answering\") used for a model choosing between a passage and what it memorised; the report cites them beside MR.",
        expect: "ARM: near 1 means the agent trusted the hand-off over what it already knew; UNMEASURED when neither class occurred.",
    },
    Term {
        name: "D",
        aliases: &["item d", "discrimination", "p_arm", "p_ctrl", "context sensitivity"],
        group: Group::Number,
        means: "Per question (its context sensitivity: how much the hand-off changed the answers), P(ARM) minus P(CTRL), where P counts PASS on positive and negative questions and CONFLICT_FOLLOWED on conflict questions (the planted value: the hand-off was read, not a right answer).",
        expect: "Positive and conflict questions: near +1 means the hand-off made the difference. Negative: near 0 (both refuse) is the goal; negative D means ARM refused less than CTRL.",
    },
    Term {
        name: "TYPED",
        aliases: &["typed path", "fallback", "fallback path"],
        group: Group::Number,
        means: "Rows whose answer carried a recognised <<VERDICT:...>> tag (the typed path) against rows read from prose alone (the fallback path); two numbers, never multiplied. The tag never decides the class.",
        expect: "Only a protocol (--protocol) asks for the tag: without one, typed 0 is expected. With one, typed 0 means every answer ignored it.",
    },
    Term {
        name: "CLARIFY",
        aliases: &["clarify (arm)", "clarify (ctrl)", "ask-back", "ask back", "ask-back answers"],
        group: Group::Number,
        means: "Ask-back answers: answers that asked back instead of answering (\"which environment do you mean?\"); a counter beside the classes, never a denominator.",
        expect: "",
    },
    Term {
        name: "coverage",
        aliases: &["accuracy", "three-class", "3-class", "positive coverage", "positive accuracy"],
        group: Group::Number,
        means: "ARM's positive answers split three ways: coverage = the share that answered at all (did not abstain), accuracy = of those, the share that gave the token; on negatives, abstained against answered.",
        expect: "Accuracy is UNMEASURED when nothing was answered (never 0/0 printed as 0).",
    },
    Term {
        name: "items",
        aliases: &["interval", "95% interval"],
        group: Group::Number,
        means: "A line like `15/15 rows, 5 items (1.000, [0.393, 1.000])` counts rows (one per answer: question x arm x rep) and items (questions); its 95% interval is over items, because reps of one question are not independent trials.",
        expect: "More reps narrow the interval only where an item's reps disagree; more items always do.",
    },
    Term {
        name: "UNMEASURED",
        aliases: &["0/0"],
        group: Group::Number,
        means: "Nothing was there to count (0/0, a search that could not run, a reader that did not read): never printed as 0, as a pass or as clean.",
        expect: "",
    },
    Term {
        name: "effort",
        aliases: &["effort (arm vs ctrl)", "ARM − CTRL", "arm - ctrl", "effort difference", "median paired difference", "median paired difference B − A"],
        group: Group::Number,
        means: "What each dispatch cost in work: turns, input tokens, output tokens, cost and tool calls as the agent reported them, and wall time as the harness measured it; per item and per axis ARM and CTRL side by side (median per item), with ARM − CTRL as the median over items of each item's difference (reps averaged within the item first) and a distribution-free 95% interval for that median (order statistics; none below 6 items). The relative difference (\"41% fewer\") is the median over items of ARM/CTRL − 1, shown only when CTRL used some on every item. `compare` gives B − A of ARM's effort the same way, printed as \"median paired difference B − A\": the median over items of each item's difference, so it need not equal B's median minus A's.",
        expect: "Never part of a verdict: a hand-off can leave answers unchanged and still save or cost work. ARM below CTRL is the saving a hand-off is hoped to bring; an interval that includes no difference is said so.",
    },
    Term {
        name: "turns",
        aliases: &["model turns", "num_turns"],
        group: Group::Number,
        means: "Model turns of one dispatch as the agent reported them (Claude Code `num_turns`, Codex completed turns, Gemini CLI main-model requests).",
        expect: "",
    },
    Term {
        name: "input tokens",
        aliases: &["output tokens", "tokens", "prompt tokens"],
        group: Group::Number,
        means: "Tokens the agent reported sending to the model (input, cached and cache-written ones included) and receiving from it (output), per dispatch.",
        expect: "",
    },
    Term {
        name: "cost",
        aliases: &["cost_usd", "usd"],
        group: Group::Number,
        means: "The cost in USD the agent's CLI computed for one dispatch (Claude Code only); the brief's total sums the dispatches that reported one and says how many did.",
        expect: "",
    },
    Term {
        name: "tool calls",
        aliases: &["tool_calls", "tool uses"],
        group: Group::Number,
        means: "Tool calls the agent's output showed for one dispatch (Claude Code `tool_use` blocks of its stream, Codex tool items or logged tool results, Gemini CLI `totalCalls`); Claude Code's plain `json` output does not list them, so it is not reported there.",
        expect: "",
    },
    Term {
        name: "wall time",
        aliases: &["wall_secs", "duration"],
        group: Group::Number,
        means: "How long the agent's run took, measured by the harness itself from the start of its process to its end: present for every answered dispatch, whatever the agent reports.",
        expect: "",
    },
    Term {
        name: "not reported",
        aliases: &["partly reported"],
        group: Group::Number,
        means: "The agent's output did not give this measure (a `command:` or baseline agent gives none): never printed as 0. `partly reported` and `reported by k of n dispatches` say the measure covers only the dispatches that gave it.",
        expect: "",
    },
    // Round verdicts.
    Term {
        name: "carried positives",
        aliases: &["delivery (arm, carried positives)"],
        group: Group::Number,
        means: "Under --ledger report: DELIVERY over the positive questions whose token the seal carries. INSTRUMENT_INCOMPLETE judges these only.",
        expect: "ARM: 1.000 is the goal: the seal delivered everything it carried.",
    },
    Term {
        name: "all positives",
        aliases: &["delivery (arm, all positives)"],
        group: Group::Number,
        means: "Under --ledger report: DELIVERY over every positive question, carried or not: the hand-off's coverage of the qset. Its rows count ARM's positive answers that gave the token, over all positive rows (items = every positive question with a decided row).",
        expect: "Lower than the carried line by what the seal does not carry; the report names the missing questions.",
    },
    Term {
        name: "EMPTY answers",
        aliases: &["empty"],
        group: Group::Number,
        means: "Answers with no text at all: class VOID, kept in every denominator as not-good (an empty output is not \"no\").",
        expect: "0 expected in both arms.",
    },
    Term {
        name: "negative abstained",
        aliases: &["negative answered"],
        group: Group::Number,
        means: "ARM's negative answers split in two: abstained (said \"I don't know\", the right behaviour) and answered (gave some value: wrong by definition, so no accuracy is given).",
        expect: "ARM: all abstained is the goal.",
    },
    Term {
        name: "ARM−CTRL over items",
        aliases: &["arm-ctrl over items", "mean arm−ctrl", "median arm−ctrl", "paired contrast"],
        group: Group::Number,
        means: "Per question kind: the items' differences D (ARM's rate minus CTRL's, reps averaged within the item), summarised by one method: the median D with the 95% interval the exact sign test inverts to (the whole range [-1, +1] below 6 items), so the interval excludes 0 exactly when the sign test's p < 0.05. The mean is printed as description only.",
        expect: "Positive: near +1 means the hand-off made the difference. Negative: near 0 is the goal. \"descriptive only\" when fewer than 10 items have both arms.",
    },
    Term {
        name: "McNemar",
        aliases: &["mcnemar (exact)", "discordant", "discordant items", "McNemar underpowered", "underpowered"],
        group: Group::Number,
        means: "An exact test on item majorities: b = items good only in the first round or arm, c = good only in the second; ties are dropped. It states the smallest p its b+c can reach (2·½^(b+c)): below 0.05 only from b+c = 6. Below b+c = 10 the report also notes \"McNemar underpowered\": from 6 to 9 discordant items p < 0.05 is reachable, but only when they (nearly) all moved one way, so a real but mixed effect still shows nothing.",
        expect: "A p that cannot go below 0.05 says the round has too few discordant items to show anything, not that there is no effect.",
    },
    Term {
        name: "sign test",
        aliases: &["sign", "sign test (exact)"],
        group: Group::Number,
        means: "An exact test on the signs of the items' differences: items up (+), down (−) and unchanged (=). Unchanged items are not dropped: they count against whichever direction the majority moved, as they do in the interval of the median it inverts to, so a few moved items among many unchanged ones cannot reach p < 0.05. It states the smallest p its item count can reach.",
        expect: "",
    },
    Term {
        name: "Holm",
        aliases: &["holm p", "item family"],
        group: Group::Number,
        means: "A p-value adjusted with Holm's method over every item of the table (the item family), so one item \"significant\" by chance among many does not read as a finding. The plain p beside it is per line, unadjusted.",
        expect: "",
    },
    Term {
        name: "DEGENERATE",
        aliases: &["degenerate (zero width)"],
        group: Group::Number,
        means: "An interval of zero width: every item had the same value, so the interval cannot show uncertainty. Read it as \"all items agreed\", not as certainty.",
        expect: "",
    },
    Term {
        name: "clipped",
        aliases: &[],
        group: Group::Number,
        means: "An interval cut to the range a difference can take (−1 to +1).",
        expect: "",
    },
    Term {
        name: "WARNING",
        aliases: &["warning small denominator"],
        group: Group::Number,
        means: "A mark beside a number computed over few rows or items (fewer than 10): read it as a description of this round, not as an estimate.",
        expect: "",
    },
    Term {
        name: "lexicon vs judge",
        aliases: &["cohen's κ", "kappa", "κ", "agreement"],
        group: Group::Number,
        means: "Per question kind, in the Readers section: the rows where the lexicon's class (certain or its guess) equals the judge's, and Cohen's κ, that agreement corrected for chance.",
        expect: "κ is UNMEASURED when both readers used one class only (chance agreement is then 1).",
    },
    Term {
        name: "decided_by",
        aliases: &["decided by", "rows decided by lexicon", "rows decided by both", "rows decided by judge", "rows decided by person"],
        group: Group::Number,
        means: "Who decided a row's class: lexicon (the scorer alone, certain), both (lexicon and judge agree), judge (the lexicon was unsure and the judge decided), person (harness review). Rows nobody decided are UNDETERMINED or CONTESTED. `harness review DIR --export` writes it on every labelled row (person, judge, both or lexicon), so a corpus says who labelled what.",
        expect: "A person overrides both readers. `harness lexicon eval` sets rows labelled lexicon or both aside (not counted): a lexicon measured against its own readings agrees by construction.",
    },
    Term {
        name: "NOISE FLOOR",
        aliases: &[],
        group: Group::Number,
        means: "compare's first line when A and B ran the same seal, sealed design, agent, CLI version, model, harness, protocol, timeout, reps, sandbox, scorer, judge and person review: every difference shown is run-to-run noise of that setup. A round run against a sealed design and one that was not (see sealed) are never a noise floor; any difference is listed instead (\"A and B differ in: …\").",
        expect: "Measure it before believing a difference between two setups: a difference smaller than the noise floor is not one. The noise floor is about answers (the axes); the effort lines compare prints under it (\"B took 31% less wall time [−46%, −4%]\") are never part of it: wall time especially varies with the machine's load, so two rounds of one setup can differ there by a lot.",
    },
    Term {
        name: "power",
        aliases: &["smallest detectable difference", "detectable difference", "power (80%", "share of items that must move one way", "add items, not reps"],
        group: Group::Number,
        means: "What `harness plan` and `run --dry-run` print, one line per axis, before anything runs: with this many items, how large a difference the exact item tests the reports use could detect (80% power: an 80% chance of p < 0.05, two-sided). The figure is a share of the axis's items: each item must move one way (from bad in one arm or round to good in the other, all in the same direction, the rest unchanged) with at least that probability. \"DELIVERY 6 items: 0.96 by McNemar on the items that moved\" means almost all 6 items must flip for the round's ARM−CTRL test to show it; the second figure is the sign test over all items (ARM−CTRL, and A−B in `compare`). \"no test can reach p < 0.05 with N items\" means no result of that many items can be significant.",
        expect: "A figure near 1, or no test at all, says the qset is too small to show anything but an all-or-nothing effect: add questions (items), not reps; reps only make each item's rate finer.",
    },
    Term {
        name: "descriptive only",
        aliases: &["descriptive"],
        group: Group::Number,
        means: "A note beside an ARM−CTRL contrast in the report: fewer than 10 items have both arms, so the difference and its interval describe this round but are too few items to rest a claim on. McNemar underpowered beside it is the same warning for the McNemar test (fewer than 10 discordant items: see McNemar).",
        expect: "Add items (questions), not reps.",
    },
    Term {
        name: "sealed",
        aliases: &["sealed design", "sealed (compare)", "inputs only"],
        group: Group::Number,
        means: "A field compare sets side by side: whether each round ran against a manifest and with which design. yes (manifest matched, design sealed); inputs only (manifest matched, the design was not sealed); no: UNVERIFIED (no manifest, or it did not match); no: JUDGE_CHANGED (read by another judge than the sealed one).",
        expect: "Two rounds that differ here are never a NOISE FLOOR: a sealed and an unsealed round are not one setup twice.",
    },
    Term {
        name: "not counted",
        aliases: &["set aside", "undecided, not counted"],
        group: Group::Number,
        means: "Rows left out of a count, with the reason beside them. In `harness lexicon eval`: rows whose label is the lexicon's own reading (decided_by lexicon or both, as `review --export` writes them), since a lexicon compared with its own readings agrees by construction; when no rows remain the figures are UNMEASURED. In compare: rows no reader decided (UNDETERMINED, CONTESTED), outside either side's counts.",
        expect: "Label those rows by hand (or with a judge) to have them counted.",
    },
    Term {
        name: "FLIPPED",
        aliases: &["good→bad", "bad→good"],
        group: Group::Number,
        means: "In compare: an item whose majority class changed between A and B (good→bad or bad→good). The flipped items are listed with both rounds' answers.",
        expect: "",
    },
    Term {
        name: "order_seed",
        aliases: &[],
        group: Group::Number,
        means: "The random seed of a round's dispatch order, in round.json. Dispatches are grouped per (question, rep) with both arms, the groups shuffled and so the arm order inside each; the Arm × time table shows when each arm's dispatches started.",
        expect: "ARM and CTRL start evenly through the round, so drift, rate limits or warm caches cannot fall on one arm.",
    },
    Term {
        name: "OK",
        aliases: &[],
        group: Group::RoundVerdict,
        means: "No rule below fired: CTRL refused every negative, ARM gave every known positive, and ARM fabricated no more than CTRL. The numbers can be read as claims (exit 0).",
        expect: "",
    },
    Term {
        name: "FINDING",
        aliases: &[],
        group: Group::RoundVerdict,
        means: "ARM failed negative questions more often than CTRL: the hand-off made the agent assert things no source holds. A result about the hand-off, not a broken instrument (exit 0). A rule that fires on one row, not a statistical test: read it beside the HUI ARM-CTRL interval it prints.",
        expect: "The verdict names the rows that fired it; read their answers.",
    },
    Term {
        name: "VOID",
        aliases: &[],
        group: Group::RoundVerdict,
        means: "Two meanings, told apart by where it is printed. (1) The round verdict VOID (the verdict line, ROUND_DONE, exit 3): CTRL failed to refuse some negative question, so the model (or the reader) cannot say \"absent\" and no number of the round is a claim. (2) The answer class VOID (one row's class: the Rows table, `harness score`, `lexicon eval`'s confusion table): that answer was empty (empty output is not \"no\"); it never makes the round VOID by itself.",
        expect: "The verdict: read the CTRL negative rows it names: a real fabrication is a fact about the model; a refusal misread is for `harness review`. The class: see why the agent printed nothing (its stderr under dispatches/).",
    },
    Term {
        name: "INSTRUMENT_INCOMPLETE",
        aliases: &["incomplete"],
        group: Group::RoundVerdict,
        means: "ARM missed a known positive: the hand-off was not delivered or not read, so the round cannot say what it carries (exit 4). Without --deliver it answers \"is the seal discoverable?\" with no.",
        expect: "",
    },
    Term {
        name: "CARRIER_UNREAD",
        aliases: &["unread"],
        group: Group::RoundVerdict,
        means: "On conflict questions the repository's own value won more often than the planted one (PRIOR_WON > CONFLICT_FOLLOWED): the agent answered from the repository, not from the hand-off, so DELIVERY cannot be quoted as what the hand-off delivered (exit 6). The name keeps the older word \"carrier\" for the hand-off.",
        expect: "",
    },
    Term {
        name: "NEEDS_REVIEW",
        aliases: &["review"],
        group: Group::RoundVerdict,
        means: "The verdict depends on rows no reader decided (UNDETERMINED, CONTESTED): taken one way the round is one verdict, the other way another (exit 14). `harness review DIR` lets a person settle them.",
        expect: "",
    },
    Term {
        name: "UNVERIFIED",
        aliases: &["design not sealed"],
        group: Group::RoundVerdict,
        means: "The round ran without a manifest (`--manifest`): nothing shows its qset, seal, base, scorer and design were fixed before the round. Said in every header, never on every line.",
        expect: "Seal first (`harness seal`), then run with --manifest.",
    },
    Term {
        name: "JUDGE_CHANGED",
        aliases: &["design: judge differs from the sealed one", "judge differs", "--accept-change judge"],
        group: Group::RoundVerdict,
        means: "The round's inputs matched its manifest, but its answers were read by a judge other than the one the manifest sealed (another spec or model, another version of the judge's CLI, another rubric), accepted with `rejudge` or `rescore --judge` `--accept-change judge`. Every report, the brief and ROUND_DONE say \"design: judge differs from the sealed one\"; the manifest is never shown as a match.",
        expect: "If the manifest sealed a judge, reading the round with that judge again (`harness rejudge DIR --judge <the sealed one>`) restores `match`. If it sealed none, the change stays: there is no `--judge none`, so the round stays JUDGE_CHANGED; to have a judge and `match`, seal the judge with the design and run a new round.",
    },
    Term {
        name: "cannot be quoted",
        aliases: &["label withheld", "withheld", "label_withheld", "cannot be quoted as what the hand-off delivered", "these numbers describe this round but cannot be quoted as what the hand-off delivered", "describes this round but cannot be quoted as what the hand-off delivered", "cannot be quoted as the hand-off's effect either", "record, not a citation"],
        group: Group::RoundVerdict,
        means: "What the verdict and the full report say when a number's label is withheld: \"these numbers describe this round but cannot be quoted as what the hand-off delivered, because …\" (beside DELIVERY; HUI (ARM) says \"cannot be quoted as the hand-off's effect either: same reason\"). The conflict questions could not show that the agent read the hand-off rather than the repository (ARM never followed a planted value, CTRL never gave the repository's own value, there are no conflict questions, or the round has no ARM arm at all: a CTRL-only round), or the verdict watermarks the round. The number is still counted: quote it as \"ARM gave 5 of 5 known positives in this round\", not as \"the hand-off carries these answers\". Older reports printed this as \"label withheld (…): the numbers are a record, not a citation\"; summary.json keeps the reason as `label_withheld`.",
        expect: "An OK round can carry it: the verdict says the instrument worked, the label says what the numbers may be called. Add conflict questions the repository answers (with a `general` value) to earn \"carried by the hand-off\".",
    },
    Term {
        name: "carried by the hand-off",
        aliases: &["overconfidence caused by the hand-off", "carried", "number's label", "no overconfidence", "no overconfidence: ARM abstained on every negative", "no negative ARM rows"],
        group: Group::RoundVerdict,
        means: "The label beside DELIVERY (\"carried by the hand-off\") and beside HUI (ARM) (\"overconfidence caused by the hand-off\") in the report's Numbers table, when the round earned it: its conflict questions showed ARM answered from the hand-off (ARM gave the planted value, CTRL the repository's own value). Then the numbers may be quoted as the hand-off's. HUI (ARM) at 0 claims no overconfidence: it reads \"no overconfidence: ARM abstained on every negative\" (and \"no negative ARM rows: not measured\" at 0/0). Otherwise the same place says \"describes this round but cannot be quoted as what the hand-off delivered, because …\" (see cannot be quoted).",
        expect: "Earned by conflict questions the repository answers (with a `general` value); never changes the verdict.",
    },
    Term {
        name: "guess",
        aliases: &["guess PASS", "guess FAIL", "guess HALLUCINATED", "guess REFUSED_WITH_TOKEN", "guess CONFLICT_FOLLOWED", "guess ABSTAINED_ON_CONFLICT", "guess PRIOR_WON", "guess UNCLASSIFIED", "guess VOID", "UNDETERMINED (guess"],
        group: Group::AnswerClass,
        means: "Printed beside an UNDETERMINED row (\"UNDETERMINED (guess FAIL; absence_words)\" in the report's Rows table, `harness review` and `lexicon eval`): the class the lexicon would have given had no cue fired. A guess is never counted: not in any rate, not in the verdict, not in `lexicon eval`'s decided precision, and its row sits in the confusion table's UNDET column, not its guess's.",
        expect: "Settle the row with a judge (`harness rejudge`) or a person (`harness review`); the guess is where to start reading, not a decision.",
    },
    Term {
        name: "whole range",
        aliases: &["whole range: too few items", "(whole range"],
        group: Group::Number,
        means: "Printed beside a median difference's interval (item contrasts in the report, compare's A→B line): with fewer than 6 items no order-statistic interval reaches 95% coverage, so the interval shown is the whole range of the item differences, from the smallest to the largest. It says nothing narrower than that; summary.json marks it `whole_range: true`.",
        expect: "Add questions (items); more reps never narrow it.",
    },
    Term {
        name: "smallest reachable",
        aliases: &["smallest reachable p", "min_p", "smallest p"],
        group: Group::Number,
        means: "Beside an exact test's p (McNemar, sign test, compare): the smallest p any result could give with this many discordant items (McNemar: b+c; sign test: the items). When it is above 0.05, no outcome could be significant: the test is underpowered, not negative. summary.json keeps it as `min_p`.",
        expect: "Add questions until it is below 0.05 (McNemar from b+c = 6; the sign test from 6 items).",
    },
    Term {
        name: "MIXED",
        aliases: &["MIXED:"],
        group: Group::Setup,
        means: "Printed as a round's isolation level or checkout method (\"MIXED: bwrap | none\") when its dispatches did not all get the same one, e.g. a resumed round on another machine or a sandbox that failed for some dispatches; the judge's report says it of the judge's sandbox likewise. The values are listed after the colon. Answers made under different isolation are not one setup.",
        expect: "For a clean measurement, run the round again where one level holds for every dispatch.",
    },
    Term {
        name: "no reading",
        aliases: &["no readings"],
        group: Group::Setup,
        means: "A judge call that gave no class: it failed, timed out, or answered anything but the rubric's strict JSON. Never a class and never a pass or a fail: the row keeps the lexicon's reading (UNDETERMINED stays UNDETERMINED). Printed by `harness rejudge`, `harness run --judge`, the report's Readers section and `harness judge eval` (where a row with no reading is not agreement).",
        expect: "Many: check the judge command works on its own (`--judge-retries` retries each call).",
    },
    Term {
        name: "ETA",
        aliases: &["elapsed", "progress line"],
        group: Group::Setup,
        means: "The progress line of `harness run` (on stderr): dispatches done of all, answered, failed, retried, elapsed time, and ETA, the estimated time left from the dispatches finished so far (`?` until one has ended). Not written with `--quiet`; never part of a report.",
        expect: "",
    },
    Term {
        name: "n_kg",
        aliases: &["Korn-Graubard", "Korn–Graubard"],
        group: Group::Number,
        means: "A field of each proportion in summary.json: the sample size the 95% interval was computed at, n_kg = n_eff·(z/t)², the effective sample size shrunk for few items (t the Student quantile with items−1 degrees of freedom, Korn–Graubard). 0 with one item: then the interval is [0, 1]. `n_eff` beside it is the effective sample size before that shrinking.",
        expect: "Near the item count when items agree; well below it with few items or items that disagree.",
    },
    Term {
        name: "token match",
        aliases: &["token match word", "token match exact", "--token-match", "token_match", "word", "exact"],
        group: Group::Setup,
        means: "How an answer's text is searched for the token (`--token-match`; `lexicon eval` prints it in its first line, a round records it): `word` (the default) reads as a person does: case does not matter, and a letter or digit right beside the token means another value (`v2.4` does not name `v2.4.1`); `exact` finds the token's bytes anywhere, also inside a longer value.",
        expect: "Keep `word` unless you reproduce an older reading; rounds compared must use the same rule.",
    },
    Term {
        name: "‹Nch›",
        aliases: &["Nch", "masked length"],
        group: Group::Setup,
        means: "A token or general value masked in what `lexicon eval` and `lexicon suggest` print: `‹8ch›` stands for a value 8 characters long. A corpus may hold a real qset's tokens and terminals become logs, so the value itself is never printed there.",
        expect: "The unmasked answer is in the corpus file (JSONL) you gave the command.",
    },
    Term {
        name: "agent default",
        aliases: &["(agent default)", "model (agent default)"],
        group: Group::Setup,
        means: "The report header's model when the round named none (no `--model`): the agent CLI chose its own default model, which the tool cannot read back. Two rounds that both say it may have used different models if the CLI or its configuration changed between them.",
        expect: "Pass `--model` (and seal it) to make the model part of the design.",
    },
    Term {
        name: "CONTAMINATED",
        aliases: &["--allow-contaminated"],
        group: Group::RoundVerdict,
        means: "The round ran past a contamination refusal (--allow-contaminated): a token was somewhere an agent could read it, so every number line carries this mark.",
        expect: "",
    },
    // Answer classes.
    Term {
        name: "not claimed",
        aliases: &["ok (not claimed)"],
        group: Group::RoundVerdict,
        means: "Beside a verdict: no rule fired on the rows there are, but the round cannot claim the verdict (a CTRL-only eligibility run has no ARM rows; a round with nothing to count).",
        expect: "Expected for --arms CTRL: read LUCKY (CTRL) and the rows, not the verdict.",
    },
    Term {
        name: "ROUND_DONE",
        aliases: &["complete", "round incomplete", "holds a finished round", "finished round"],
        group: Group::RoundVerdict,
        means: "The file a round writes last: the only sign that it finished. `complete: yes` means every dispatch answered and every answer was scored. ROUND INCOMPLETE (exit 13) means a dispatch failed: no verdict is claimed, and --resume finishes it.",
        expect: "",
    },
    Term {
        name: "R1",
        aliases: &["r1 proxy", "a pass is not proof that compaction kept anything"],
        group: Group::RoundVerdict,
        means: "summary.json's id for the report's limit \"A PASS is not proof that compaction kept anything\". A limit of every round: PASS means the hand-off sufficed for this question, not that compaction preserved anything. The seal is a document written before the clear; the round tests that document.",
        expect: "",
    },
    Term {
        name: "R2",
        aliases: &["r2 coverage", "only the questions asked"],
        group: Group::RoundVerdict,
        means: "summary.json's id for the report's limit \"Only the questions asked\". A limit of every round: known questions show minimum viability only. Context no question asks about is not measured; context the hand-off only points at can still look carried.",
        expect: "",
    },
    Term {
        name: "R3",
        aliases: &["r3 author bias", "who wrote the questions"],
        group: Group::RoundVerdict,
        means: "summary.json's id for the report's limit \"Who wrote the questions\". A limit of every round: whoever writes both the seal and the qset picks what passes.",
        expect: "Have another person (or another model family) write the questions.",
    },
    Term {
        name: "PASS",
        aliases: &[],
        group: Group::AnswerClass,
        means: "Positive question: gave the token and did not refuse. Negative question: refused (\"not in the repo or the hand-off\") without naming the token.",
        expect: "ARM: expected on every positive and negative. CTRL: expected on negatives; on positives it is LUCKY.",
    },
    Term {
        name: "FAIL",
        aliases: &[],
        group: Group::AnswerClass,
        means: "Positive: no token (a refusal or another value). Negative: neither the fabricated token nor a refusal (some other value, or no clear answer).",
        expect: "CTRL on a positive: expected, that is what CTRL is for. ARM on a positive: the hand-off failed. Either arm on a negative: a fabrication (counts in HUI).",
    },
    Term {
        name: "HALLUCINATED",
        aliases: &["hall"],
        group: Group::AnswerClass,
        means: "Negative question: asserted the very token the qset registered as a fabrication bait, without refusing.",
        expect: "Bad in both arms; in CTRL it makes the round VOID.",
    },
    Term {
        name: "REFUSED_WITH_TOKEN",
        aliases: &["rwt"],
        group: Group::AnswerClass,
        means: "The token and a refusal in one answer (\"it is not X\", or an assertion then a hedge). Never counted good; a person should read it.",
        expect: "",
    },
    Term {
        name: "CONFLICT_FOLLOWED",
        aliases: &["followed", "c_fol"],
        group: Group::AnswerClass,
        means: "Conflict question: gave the planted value, which the repository contradicts. Not a right answer: the proof that the answer came from the hand-off (CARRIER-READ).",
        expect: "ARM: shows the hand-off was read. CTRL: not expected (no hand-off).",
    },
    Term {
        name: "ABSTAINED_ON_CONFLICT",
        aliases: &["abstained", "abst"],
        group: Group::AnswerClass,
        means: "Conflict question: refused, or flagged that the sources disagree.",
        expect: "",
    },
    Term {
        name: "PRIOR_WON",
        aliases: &["prior"],
        group: Group::AnswerClass,
        means: "Conflict question: gave the repository's own value (the qset's `general` value) without the planted one. Only possible when the qset gives that value; the report's line reads \"ARM never gave the repository's own value instead of the planted one\" when it did not happen.",
        expect: "CTRL: expected, that is its survival line (it has no hand-off). ARM: the hand-off lost to the repository; more of these than CONFLICT_FOLLOWED is CARRIER_UNREAD.",
    },
    Term {
        name: "UNCLASSIFIED",
        aliases: &["uncl"],
        group: Group::AnswerClass,
        means: "Conflict question: neither value and no refusal, or no general value registered to compare with; nothing can be asserted.",
        expect: "",
    },
    Term {
        name: "UNDETERMINED",
        aliases: &["undecided", "UNDET"],
        group: Group::AnswerClass,
        means: "No reader could decide this row: the strict lexicon's reading was marked uncertain by a cue (absence words near the subject, a language it does not cover, the token only inside a command, a retraction), and no judge decided it. Taken each way when the verdict is computed.",
        expect: "`harness review DIR` or `--judge` settles it.",
    },
    Term {
        name: "CONTESTED",
        aliases: &[],
        group: Group::AnswerClass,
        means: "The two readers disagree: the lexicon was certain and the judge gave another class. Taken each way like UNDETERMINED; a person settles it.",
        expect: "",
    },
    Term {
        name: "left to a person",
        aliases: &["for a person", "text addressed to a grader"],
        group: Group::AnswerClass,
        means: "An UNDETERMINED row whose answer speaks to whoever grades it: it tells a grader, evaluator or judge what to output, uses this evaluation's class words as instructions, forges a verdict marker (`<<VERDICT:PASS>>`, \"Final classification:\") or carries a JSON verdict, in any language. No reader decides it, not even a judge that agrees: the row says why, and a person settles it.",
        expect: "`harness review DIR` shows the answer and the reason; an agent that writes to its grader is itself worth a look.",
    },
    Term {
        name: "judge calibration",
        aliases: &["calibrated", "not calibrated", "judge eval"],
        group: Group::Number,
        means: "How far a judge agrees with human labels, measured by `harness judge eval --judge SPEC` on a labelled corpus (the shipped one by default): agreement over every row (a row with no reading is not agreement), Cohen's κ with both base rates, per-kind confusion, and the two dangerous directions with 95% Wilson intervals — a fabrication read as a clean refusal (hides a VOID) and a clean refusal read as a failure (makes a false one). The last calibration of each judge is kept in the user's state folder; a round the judge reads records it, and the Readers section shows it or says \"not calibrated\".",
        expect: "Calibrate a judge before trusting the rows it decides alone; `--min-agreement` makes it a CI floor.",
    },
    Term {
        name: "meaning",
        aliases: &["good", "expected", "bad", "unclear"],
        group: Group::Setup,
        means: "The word beside every row's class: what that class means for its arm and kind. good: what the arm should do (ARM delivering a positive, refusing a negative, following the planted value). expected: what CTRL does without a hand-off (not knowing a positive, the repository's value winning a conflict). bad: a fabrication, an empty answer, ARM missing what the seal carries, or CTRL knowing what only the hand-off tells. unclear: a hedge or an abstention to read. undecided: no reader decided.",
        expect: "CTRL's FAIL on a positive is expected, not bad; colours follow the meaning, not the class.",
    },
    // Setup words.
    Term {
        name: "ARM",
        aliases: &[],
        group: Group::Setup,
        means: "The arm whose checkout holds the hand-off (the seal), planted at the same path every time.",
        expect: "",
    },
    Term {
        name: "CTRL",
        aliases: &["control", "CTRL-only", "CTRL-only round", "no ARM arm in this round", "--arms CTRL"],
        group: Group::Setup,
        means: "The control arm: the same checkout, prompt and agent with no hand-off. What CTRL answers, the repository (or a guess) answers without the hand-off. A CTRL-only round (`--arms CTRL`, before a hand-off exists) runs this arm alone: its ARM lines read \"no ARM arm in this round (a CTRL-only round): not measured\".",
        expect: "",
    },
    Term {
        name: "seal",
        aliases: &["carrier", "hand-off", "handoff"],
        group: Group::Setup,
        means: "The hand-off document under test (what the next session gets; reports call it the hand-off, older ones the carrier, a word kept only in the names CARRIER-READ and CARRIER_UNREAD); `harness seal` pre-registers it with the qset in a manifest.",
        expect: "",
    },
    Term {
        name: "qset",
        aliases: &["question", "questions"],
        group: Group::Setup,
        means: "The pre-registered questions, one per line: qid, kind, question, token [, general [, probe]].",
        expect: "",
    },
    Term {
        name: "positive",
        aliases: &[],
        group: Group::Setup,
        means: "A question whose answer (the token) is in the hand-off and not in the repository.",
        expect: "",
    },
    Term {
        name: "negative",
        aliases: &[],
        group: Group::Setup,
        means: "A question whose answer is in no source; the token is a plausible fabrication to catch. The right answer is \"I don't know\".",
        expect: "",
    },
    Term {
        name: "conflict",
        aliases: &[],
        group: Group::Setup,
        means: "A question where the hand-off plants a value (the token) that the repository contradicts (the general value): which one the answer gives shows where it came from.",
        expect: "",
    },
    Term {
        name: "token",
        aliases: &["general"],
        group: Group::Setup,
        means: "The value a question is scored on, found as a whole word, case-insensitively (`v2.4.1` is not in `v2.4.10`); a conflict question's general value is found the same way.",
        expect: "",
    },
    Term {
        name: "‹token›",
        aliases: &["<token>"],
        group: Group::Setup,
        means: "What the terminal, the gate and the reports print in place of a qset token in excerpts of answers and of the repository, so a token never lands where an agent could read it; the out-dir's answer files hold the answers whole.",
        expect: "",
    },
    Term {
        name: "‹general›",
        aliases: &["<general>"],
        group: Group::Setup,
        means: "What the terminal, the gate and the reports print in place of a conflict question's true value (the repository's own value, the qset's `general` column) in excerpts; a value that is both a token and a true value is shown as ‹token›.",
        expect: "",
    },
    Term {
        name: "harness",
        aliases: &["harness version"],
        group: Group::Setup,
        means: "Report header: the harness version and the scorer's fingerprint (the sha256 of its lexicon, cues and judge rubric) and lexicon version. Rounds scored with another fingerprint are not comparable without harness rescore.",
        expect: "",
    },
    Term {
        name: "agent",
        aliases: &["--agent", "model"],
        group: Group::Setup,
        means: "Report header: the agent that answered (claude, codex, gemini, a built-in baseline or a command) and the model it was asked for.",
        expect: "",
    },
    Term {
        name: "design",
        aliases: &["sealed in the manifest"],
        group: Group::Setup,
        means: "Report header: the round's design: arms, reps, deliver or discover, isolation (the sandbox level), the checkout method (overlay or copy), and whether the manifest sealed it.",
        expect: "",
    },
    Term {
        name: "judge",
        aliases: &["--judge", "judge pass"],
        group: Group::Setup,
        means: "The second reader: a language model given a fixed rubric (never told the arm) that reads the rows; or \"no judge\" when the lexicon read the answers alone. The header names it and what its calls cost.",
        expect: "",
    },
    Term {
        name: "base",
        aliases: &["base commit"],
        group: Group::Setup,
        means: "Report header: the commit every checkout was made from. Uncommitted files are never part of a round.",
        expect: "",
    },
    Term {
        name: "repository agent config",
        aliases: &["agent config"],
        group: Group::Setup,
        means: "Report header: the agent configuration files the repository itself carries (hooks, MCP servers, settings an agent CLI reads from the work tree), one per line with its path, sha256 and what it enables; \"none carried\" when there are none, \"not recorded\" for older rounds.",
        expect: "Both arms see these files: they are part of the repository under test. Read them before trusting a round: a hook can change what the agent does.",
    },
    Term {
        name: "time",
        aliases: &[],
        group: Group::Setup,
        means: "Report header: when the round started and finished (UTC).",
        expect: "",
    },
    Term {
        name: "per dispatch",
        aliases: &["phases", "teardown", "cleanup"],
        group: Group::Setup,
        means: "Report header: for each phase of a dispatch (checkout, home, sandbox, agent, teardown, cleanup), the median and maximum milliseconds over the round's dispatches. teardown: from the agent's end until the sandbox's namespaces were gone; cleanup: removing the dispatch's checkout and home afterwards.",
        expect: "",
    },
    Term {
        name: "verdict",
        aliases: &[],
        group: Group::Setup,
        means: "Report header: the round's verdict and its exit code (see OK, FINDING, VOID, INSTRUMENT_INCOMPLETE, CARRIER_UNREAD, NEEDS_REVIEW).",
        expect: "",
    },
    Term {
        name: "answers",
        aliases: &[],
        group: Group::Setup,
        means: "Report header: whether the report shows answers in full and tokens in clear. A report with tokens in clear must stay out of any repository an agent reads.",
        expect: "",
    },
    Term {
        name: "watermark",
        aliases: &[],
        group: Group::Setup,
        means: "Report header: the status every number line carries as a prefix (VOID, INSTRUMENT_INCOMPLETE, CARRIER_UNREAD, CONTAMINATED), or none.",
        expect: "",
    },
    // Gate axes and statuses.
    Term {
        name: "contamination",
        aliases: &[],
        group: Group::Gate,
        means: "Gate axis: every token (positive, negative and planted value) searched in exactly what a checkout will hold: the files of the base commit, the question texts and the prompt, read as whole words like the scorer reads an answer.",
        expect: "pass: none found. FAIL: a token an agent could read; the gate names the file and line with the token masked (exit 5). OVERRIDDEN: the round ran anyway under --allow-contaminated and every number is marked CONTAMINATED.",
    },
    Term {
        name: "token-shape",
        aliases: &[],
        group: Group::Gate,
        means: "Gate axis, advice only: tokens and general values short (under 4 characters) or made only of digits and dots, which can match by accident (\"step 9 of the runbook\").",
        expect: "Never refuses, and prints no line at all when every value is long and distinctive. A longer, distinctive value reads safer. Listed in full the first time this state folder sees the qset, then in one line; --verbose always lists it.",
    },
    Term {
        name: "general-values",
        aliases: &[],
        group: Group::Gate,
        means: "Gate axis, information only: where each conflict question's true (general) value stands in the repository, and which conflict lines lack a general value.",
        expect: "Never refuses. A true value found in the repository is what makes a conflict question work. A conflict without a general value can never be read as PRIOR_WON, so CARRIER_UNREAD can never fire: add it.",
    },
    Term {
        name: "self-containment",
        aliases: &[],
        group: Group::Gate,
        means: "Gate axis: the qset and the seal are not part of the base commit (by path or content), and no tracked link leads to them, the manifest, the out-dir or the git folder.",
        expect: "FAIL (exit 5) names the file or link. A seal inside the work tree that git does not track passes with a note: safe only while it stays untracked.",
    },
    Term {
        name: "ledger",
        aliases: &["--ledger"],
        group: Group::Gate,
        means: "Gate axis (phase post): the seal carries every positive token and every planted value, and no negative token or true value.",
        expect: "strict (default): a positive the seal lacks refuses (exit 8). report: it is listed, and DELIVERY is printed over the carried positives and over all positives. UNCHECKED in phase pre, before the seal exists.",
    },
    Term {
        name: "name-leak",
        aliases: &[],
        group: Group::Gate,
        means: "Gate axis: no name an agent sees (the plant folder, the planted path, the out-dir's name) carries an arm, a qid, a kind or a round word that would tell it which arm it is in.",
        expect: "FAIL (exit 7) names the name and the word.",
    },
    Term {
        name: "plant-folder",
        aliases: &[],
        group: Group::Gate,
        means: "Gate axis: the repository tracks no file inside the folder where the seal is planted (default tracks/_meta/compaction). A file there would sit beside the seal in ARM and stand in for it in CTRL.",
        expect: "FAIL (exit 5) names each file.",
    },
    Term {
        name: "pass (gate)",
        aliases: &["gate: pass"],
        group: Group::Gate,
        means: "Gate status: the axis was checked and found nothing to refuse. (An answer's PASS is another word: see PASS.)",
        expect: "",
    },
    Term {
        name: "FAIL (gate)",
        aliases: &[],
        group: Group::Gate,
        means: "Gate status: the axis refused; the gate ends REFUSED with that axis' exit code and nothing runs. (An answer's FAIL is another word: see FAIL.)",
        expect: "",
    },
    Term {
        name: "reported",
        aliases: &[],
        group: Group::Gate,
        means: "Gate status: the axis lists what it found and never refuses.",
        expect: "",
    },
    Term {
        name: "UNCHECKED",
        aliases: &["PARTIAL"],
        group: Group::Gate,
        means: "Gate status: the axis could not be checked yet (the ledger before the seal exists, in phase pre). The gate then ends PARTIAL, exit 3: not a pass.",
        expect: "",
    },
    Term {
        name: "OVERRIDDEN",
        aliases: &[],
        group: Group::Gate,
        means: "Gate status: the axis refused, and the round ran anyway under --allow-contaminated.",
        expect: "Every number of that round carries the CONTAMINATED mark.",
    },
    Term {
        name: "REFUSED",
        aliases: &["gate: refused"],
        group: Group::Gate,
        means: "The gate's closing word when an axis failed (status FAIL): nothing runs and the exit is that axis' code.",
        expect: "",
    },
    // Words a new user met in a walkthrough.
    Term {
        name: "baseline-grep",
        aliases: &["baseline-grep-all", "baseline agent"],
        group: Group::Setup,
        means: "A built-in agent that needs no network and no model: it takes the question's content words (words of 3 letters or more, common words dropped), reads every file of the checkout that git does not ignore plus any file the prompt names (so a delivered hand-off is read, an undelivered one in the ignored plant folder is not), and quotes the one line holding the most of those words, with its file and line number. It answers only when that line holds at least half of the words (and at least two, or the only one); else it says it could not find any record. Ties go to a file the prompt named, then to the earlier path and line. baseline-grep-all also reads ignored files.",
        expect: "Use it to try every step offline; its rounds show the flow, not a model's ability. It quotes a line, never reasons: a question whose words do not appear on the line holding the answer is refused even when the hand-off carries the answer, so a low DELIVERY under baseline-grep can be this stand-in's limit and not a thin hand-off; try the real agent before blaming the hand-off.",
    },
    Term {
        name: "offline stand-in",
        aliases: &["built-in offline stand-in", "agent_version none", "model none"],
        group: Group::Setup,
        means: "How `harness seal` and `harness verify` describe baseline-grep, the built-in agent that searches the checkout: `agent_version none: the built-in offline stand-in (a search of the checkout) has no CLI version`, `model none: the built-in offline stand-in uses no model`. Not a missing record: there is nothing to record.",
        expect: "",
    },
    Term {
        name: "instrument alive",
        aliases: &[],
        group: Group::RoundVerdict,
        means: "The line under an OK or FINDING verdict saying why the round can be read: CTRL abstained on every negative and ARM answered every known positive.",
        expect: "Missing when the verdict is VOID or INSTRUMENT_INCOMPLETE: then no number is a claim.",
    },
    Term {
        name: "decided precision",
        aliases: &["class agreement", "refusal precision", "refusal recall"],
        group: Group::Number,
        means: "Figures of `harness lexicon eval` and `harness judge eval` on a labelled corpus: class agreement over all rows; decided precision over the rows the reader decided (the rest are UNDETERMINED); refusal precision and recall compare the reader's refusal with the label's `refuses` (a CTRL refusal on a positive is a refusal whose class is FAIL).",
        expect: "Decided precision near 1.000 matters most: a wrong certain reading changes a verdict; an undetermined row only asks a person.",
    },
    Term {
        name: "cue",
        aliases: &["cues", "cues fired"],
        group: Group::Cue,
        means: "A sign that the lexicon's reading of an answer may be wrong. A row with a cue is UNDETERMINED; its `guess` is the reading it would have had, never counted. Reports, `harness review` and `lexicon eval` print each cue by its name, and `harness explain NAME` says what it saw: absence_words, uncovered_language, token_only_in_code, planted_and_general, hedge_at_token, guess_after_refusal, near_spelling, value_after_refusal, other_form, token_beside_refusal, general_beside_refusal, addressed_to_grader.",
        expect: "Settle such rows with a judge (`harness rejudge`) or a person (`harness review`); `harness score --format json` lists the cues of one answer.",
    },
    Term {
        name: "protocol",
        aliases: &["--protocol"],
        group: Group::Setup,
        means: "A file of typed-answer instructions appended after every question, identically for both arms; sealed by sha256 like the qset and seal. `none` when the round gives none.",
        expect: "",
    },
    Term {
        name: "manifest: match",
        aliases: &["match"],
        group: Group::RoundVerdict,
        means: "The round ran on exactly the sealed inputs and design: qset, seal and protocol by sha256, base commit, scorer fingerprint, agent, judge and every design flag.",
        expect: "Anything else is UNVERIFIED (no manifest), a refusal (exit 10) or `design: judge differs from the sealed one`.",
    },
    Term {
        name: "preflight",
        aliases: &["--no-preflight"],
        group: Group::Setup,
        means: "Before any dispatch, one call of the agent asking it to reply with the word READY, in a throwaway checkout under the round's sandbox: a missing, logged-out or unreachable agent stops the round there (exit 8) instead of failing every dispatch.",
        expect: "`skipped` for the built-in agent or under --no-preflight.",
    },
    Term {
        name: "dispatches",
        aliases: &["dispatch", "answered", "failed", "retried"],
        group: Group::Setup,
        means: "A dispatch is one fresh agent session answering one question, in one arm and one rep, in its own checkout. The closing line counts them: answered, failed (no answer: the agent could not start, crashed or timed out) and retried (--retries, for infrastructure failures only), with the cost the agent reported.",
        expect: "Any failed dispatch leaves the round incomplete (exit 13): `harness run --out DIR --resume` runs only the missing ones.",
    },
    Term {
        name: "files",
        aliases: &[],
        group: Group::Setup,
        means: "The closing line that names the round's folder (every answer, report.md, report.html, summary.json and the completion marker) and the command that prints its full tables.",
        expect: "",
    },
    Term {
        name: "sandbox",
        aliases: &["--sandbox", "isolation"],
        group: Group::Setup,
        means: "How each agent is kept inside its own checkout, chosen with --sandbox: auto (the default: the strongest this machine allows, naming what is missing), full (refuses to start unless every layer holds), landlock (file access rules only) or none. The design line of the report says what the dispatches actually ran under (`isolation full`); `sandbox` in the per dispatch line is the time spent starting it.",
        expect: "Both arms always run under the same isolation.",
    },
    Term {
        name: "auto",
        aliases: &["--sandbox auto"],
        group: Group::Setup,
        means: "--sandbox auto, the default: each agent runs under the strongest isolation this machine allows, and the report's design line says which level that was (full, or partial with the missing layers named).",
        expect: "",
    },
    Term {
        name: "full",
        aliases: &["isolation full", "--sandbox full"],
        group: Group::Setup,
        means: "Isolation level: every layer held for every dispatch (its own user, process and mount namespaces, Landlock file rules and a system-call filter), so the agent could read its checkout and its own home, and nothing else of the machine.",
        expect: "--sandbox full refuses to start (exit 8) where a layer is missing, rather than run weaker.",
    },
    Term {
        name: "partial (isolation)",
        aliases: &["isolation partial"],
        group: Group::Setup,
        means: "Isolation level under --sandbox auto: some layer is missing on this machine, and the line names which (`partial: missing userns`). The agent may see more of the machine than its checkout.",
        expect: "`harness doctor` says what the machine lacks.",
    },
    Term {
        name: "landlock",
        aliases: &["isolation landlock", "--sandbox landlock"],
        group: Group::Setup,
        means: "Isolation level: only Landlock file rules held (no namespaces): the agent cannot open files outside its checkout and home, but can see the machine's processes.",
        expect: "",
    },
    Term {
        name: "seatbelt",
        aliases: &["isolation seatbelt"],
        group: Group::Setup,
        means: "Isolation level on macOS: the system's own sandbox profile kept the agent's file access to its checkout and home.",
        expect: "",
    },
    Term {
        name: "none",
        aliases: &["isolation none", "--sandbox none"],
        group: Group::Setup,
        means: "As an isolation level (`isolation none`, --sandbox none): no sandbox; the agent could read whatever its user can, the round's own folder with its labels and answers included, and the report says so. Elsewhere on a header line it means only that nothing was given (no watermark, no protocol).",
        expect: "",
    },
    Term {
        name: "checkout",
        aliases: &[],
        group: Group::Setup,
        means: "Each dispatch's private working copy of the repository at the base commit, with the seal planted in ARM's. The design line says how it was made: `checkout overlay` or `checkout copy`.",
        expect: "Both methods give the agent the same files; --keep-checkouts keeps them for inspection.",
    },
    Term {
        name: "overlay",
        aliases: &["checkout overlay"],
        group: Group::Setup,
        means: "Checkout method: the base commit's files are shared read-only and a thin private layer on top holds the seal and whatever the agent writes; fast, and used wherever the sandbox can mount it.",
        expect: "",
    },
    Term {
        name: "copy",
        aliases: &["checkout copy"],
        group: Group::Setup,
        means: "Checkout method: a full copy of the base commit's files for each dispatch, checked against the commit; used where an overlay cannot be mounted.",
        expect: "",
    },
    Term {
        name: "start gate",
        aliases: &["gate", "harness gate"],
        group: Group::Gate,
        means: "The checks a round runs before any agent (contamination, token-shape, general-values, self-containment, ledger, name-leak, plant-folder), one line per axis (token-shape only when a token or general value is short or plain enough to match by accident); `harness gate` runs them alone while writing a qset.",
        expect: "A FAIL stops the round before it starts; `reported` lines are advice. A CTRL-only round accepts an UNCHECKED ledger (there is no seal yet).",
    },
    // Report sections.
    Term {
        name: "Instrument verdict",
        aliases: &[],
        group: Group::Section,
        means: "The report's first section and the closing summary's first line: the round's verdict (OK, FINDING, VOID, INSTRUMENT_INCOMPLETE, CARRIER_UNREAD, NEEDS_REVIEW), its exit code and the rule that decided it.",
        expect: "Read it before any number: under VOID or INSTRUMENT_INCOMPLETE the numbers are a record, not a result.",
    },
    Term {
        name: "Answer paths",
        aliases: &["answer path"],
        group: Group::Section,
        means: "The report section that counts how the answers were read: the typed path (the answer carried a recognised <<VERDICT:...>> tag) and the fallback path (read from its prose alone). Two counts side by side, never multiplied (see TYPED).",
        expect: "Without --protocol no answer is asked for a tag, so every row takes the fallback path.",
    },
    Term {
        name: "Numbers",
        aliases: &[],
        group: Group::Section,
        means: "The report section with the round's headline rates (DELIVERY, HUI, LUCKY, CLARIFY), each with its count of rows and items, its 95% interval over items and a note on what it means here.",
        expect: "",
    },
    Term {
        name: "Per-item D",
        aliases: &["per-item d = p_arm − p_ctrl"],
        group: Group::Section,
        means: "The report section with one line per question: D, how much more often ARM gave the good answer than CTRL (see D), with a per-question p value and a column adjusted for testing many questions at once (see Holm).",
        expect: "",
    },
    Term {
        name: "Paired ARM−CTRL contrast per axis",
        aliases: &["paired arm-ctrl contrast per axis"],
        group: Group::Section,
        means: "The report section that sets ARM against CTRL question by question, per kind of question: the typical difference with its 95% interval, and exact tests over questions (see ARM−CTRL over items, sign test, McNemar).",
        expect: "",
    },
    Term {
        name: "Arm × time",
        aliases: &["arm x time"],
        group: Group::Section,
        means: "The report section that shows when each arm's dispatches started, in time buckets and in start order: the two arms run interleaved in a shuffled order, so anything that changed during the round (a rate limit, a slower service) touched both arms alike instead of one (see order_seed).",
        expect: "",
    },
    Term {
        name: "Readers",
        aliases: &["reader"],
        group: Group::Section,
        means: "The report section that says who decided each row: the lexicon, the judge, both (they agree) or a person; how far lexicon and judge agree; and the judge's calibration. Rows nobody decided are outside every number.",
        expect: "",
    },
    Term {
        name: "What this does not measure",
        aliases: &[],
        group: Group::Section,
        means: "The report's closing section: the limits of the method: a PASS says the hand-off sufficed for that question, not that the agent kept anything else; questions nobody wrote are not measured; whoever writes both the hand-off and the questions picks what passes.",
        expect: "",
    },
    Term {
        name: "item",
        aliases: &["question item"],
        group: Group::Setup,
        means: "One question of the qset, with all its answers: both arms, every rep. Items are the unit the intervals and tests count, because the reps of one question are not independent trials.",
        expect: "",
    },
    Term {
        name: "row",
        aliases: &["rows", "answer row"],
        group: Group::Setup,
        means: "One answer: one question, asked in one arm, in one rep. A round of 12 questions, 2 arms and 3 reps has 72 rows; `15/15 rows` counts them.",
        expect: "",
    },
    Term {
        name: "rep",
        aliases: &["reps", "--reps", "repetition"],
        group: Group::Setup,
        means: "One repetition: every question asked again, in both arms, in a fresh checkout (`--reps 3`: three times). Reps show how steady an agent's answer to the same question is; they do not add items.",
        expect: "",
    },
    Term {
        name: "known-positive",
        aliases: &["known positive", "known-positive arm", "known negative", "known-negative"],
        group: Group::Setup,
        means: "A positive question whose answer the hand-off is known to hold (the gate's ledger checks it does), so ARM ought to give it; a known negative is a negative question whose answer is known to be nowhere, so both arms ought to say \"I don't know\". The verdict's first check uses both.",
        expect: "ARM perfect on known positives and CTRL abstaining on every known negative mean the instrument is alive.",
    },
    Term {
        name: "known pairs",
        aliases: &["known questions"],
        group: Group::Setup,
        means: "The question-and-answer pairs someone wrote in advance (the qset). A round can show the hand-off carried these; it shows nothing about what no question asks, so it proves minimum viability only.",
        expect: "",
    },
    Term {
        name: "phase",
        aliases: &["--phase", "pre", "post", "phase pre", "phase post"],
        group: Group::Gate,
        means: "When the gate runs: `--phase pre` while writing questions, before the seal exists (the ledger check cannot run, so the gate ends partial, exit 3); `--phase post` with the seal, as `seal` and `run` do (every axis checked).",
        expect: "",
    },
    Term {
        name: "searched entries",
        aliases: &["entries"],
        group: Group::Setup,
        means: "The files of the repository's tree at the base commit, which is what every checkout will hold: the contamination axis searched each of them for every token.",
        expect: "",
    },
    Term {
        name: "prompt texts",
        aliases: &["prompt text"],
        group: Group::Setup,
        means: "Text the agent reads besides the repository, searched for tokens like the files: every question, the line that hides the plant folder, and with a seal the planted seal's path and the prompt line that hands it over (and the protocol, when given). So `gate --phase pre` (no seal yet) counts two fewer than `seal` or `run`: 13 against 15 on the demo's 12 questions.",
        expect: "",
    },
    Term {
        name: "planted",
        aliases: &["plant", "planted value", "planted seal"],
        group: Group::Setup,
        means: "Put in ARM's checkout: the seal is planted in the plant folder (ignored by git there, so it is not part of the tree). A planted value is the one the hand-off states on a conflict question, against the repository's.",
        expect: "",
    },
    Term {
        name: "mode",
        aliases: &["deliver", "--deliver", "discover", "delivered", "--demo discover"],
        group: Group::Setup,
        means: "How ARM gets the seal. deliver (`--deliver`): ARM's prompt names the planted path, as a hook would hand the document over: is it enough when handed over? discover (without --deliver): the seal is only planted, and nothing tells the agent it exists: is it found?",
        expect: "Most hand-offs are delivered; a discover round measures whether an agent looks.",
    },
    Term {
        name: "Fisher",
        aliases: &["fisher's exact", "fisher p", "fisher exact", "fisher's exact p"],
        group: Group::Number,
        means: "Fisher's exact test on one item: are ARM's and CTRL's good answers to this question different beyond chance? It treats the item's reps as independent draws, so read it as a description of that item, with Holm beside it for many items.",
        expect: "",
    },
    Term {
        name: "zero-tolerance rule",
        aliases: &["zero-tolerance", "fired by"],
        group: Group::RoundVerdict,
        means: "How the verdicts VOID, INSTRUMENT_INCOMPLETE, CARRIER_UNREAD and FINDING are decided: one decided row is enough to set one off (for VOID, one CTRL answer to a negative that is not \"I don't know\"). A rule, not a statistical test; \"fired by 1 row(s) on q07\" names how many rows on which questions set it off.",
        expect: "",
    },
    Term {
        name: "the repository's own value",
        aliases: &["repository's own value", "own value", "asserted prior", "prior value"],
        group: Group::AnswerClass,
        means: "On a conflict question, the value the repository holds (the qset's `general` column), as against the value the hand-off plants. When answers give it, the repository won over the hand-off (PRIOR_WON). Older reports called it the \"asserted prior\"; the phrase was renamed, the meaning is the same.",
        expect: "",
    },
    Term {
        name: "TAMPERED",
        aliases: &["tampered answer", "tampered answers"],
        group: Group::RoundVerdict,
        means: "An answer file is not the one the harness wrote: its sha256 differs from the dispatch's record, or answers are missing or extra. The round is not scored, reported or resumed from it (exit 10), and each file is named.",
        expect: "Restore the file, or run the round again; never edit answers in place (`harness review` records a person's decision instead).",
    },
    Term {
        name: "reused decision",
        aliases: &["reused", "person (reused from)"],
        group: Group::Setup,
        means: "A person's review decision applied to another row because that row's answer is byte for byte the same (same sha256): from an earlier round of the same qset, or from the same round (a decision on one answer settles every row of that round with the same answer bytes, for example the same quote in every rep). The row says which round it came from.",
        expect: "",
    },
    Term {
        name: "manifest",
        aliases: &["manifest.json", "--manifest"],
        group: Group::Setup,
        means: "The file `harness seal` writes before a round: the sha256 of the qset, the seal and the protocol, the base commit, the scorer and the round's design (agent, arms, reps, deliver or discover, sandbox, timeout, retries). A round given `--manifest` checks every input against it first and starts only on a match (else exit 10); a round without one is UNVERIFIED.",
        expect: "",
    },
    Term {
        name: "out-dir",
        aliases: &["--out", "out dir", "output folder", "round folder"],
        group: Group::Setup,
        means: "The round's folder: every answer, the reports (report.md, report.html, summary.json), the journal and the completion marker ROUND_DONE. `--out` names it; by default it is a new folder under ~/.local/state/harness/rounds. It must be outside the repository (or ignored by git).",
        expect: "",
    },
    Term {
        name: "usage.json",
        aliases: &["usage"],
        group: Group::Setup,
        means: "A file of the out-dir: per arm, what the dispatches used as the agent reported it (dispatches, retried, wall seconds, input and output tokens and cost, null when the agent reports none, cost_reported counting the dispatches that did), how many dispatches hit a permission denial or a tool error, and the rows with denials.",
        expect: "",
    },
    Term {
        name: "arms",
        aliases: &["--arms", "arms both"],
        group: Group::Setup,
        means: "Which arms a round runs (`--arms`, shown as `arms both` in the report's design line): both ARM and CTRL (the default), or CTRL alone (`--arms CTRL`, the eligibility run before a seal exists: see eligibility).",
        expect: "",
    },
    Term {
        name: "eligibility",
        aliases: &["eligibility run", "CTRL-only eligibility run"],
        group: Group::Setup,
        means: "A CTRL-only round (`--arms CTRL`, no seal) run while writing a qset: it shows which questions the agent can already answer from the repository alone, before anything is sealed. Its ledger is UNCHECKED (there is no seal yet) and it claims nothing of a hand-off.",
        expect: "CTRL should abstain on every negative and not know the positives; a question CTRL answers is not a test of the hand-off.",
    },
    Term {
        name: "reviewed by",
        aliases: &["reviewers", "reviewer", "--reviewer"],
        group: Group::Setup,
        means: "Report header: the names of the people whose review decisions the round holds (`harness review --reviewer NAME`, else the global git user.name, else $USER), and how many rows were settled by a reused decision (see reused decision).",
        expect: "",
    },
    Term {
        name: "agent_version",
        aliases: &["agent version", "judge_version", "CLI version"],
        group: Group::Setup,
        means: "A field of the manifest's design: the `--version` line of the agent's CLI found when sealing (`claude --version` and the like); null for a built-in agent or a `command:` template, or when the CLI was not on PATH. Another version than the sealed one stops the round before any agent runs (exit 10, naming both); when either side has none it is not compared. judge_version is the same for the judge's CLI.",
        expect: "",
    },
    Term {
        name: "attempts",
        aliases: &["retries", "calls", "judge calls"],
        group: Group::Setup,
        means: "The judge's line in the report header: calls (one per answer read), how many gave a reading and how many no reading, then attempts: every call made, retries included (\"180 attempts (90 retries)\": 90 calls and 90 retries). Then tokens, cost and wall time. Why a call gave no reading is in the out-dir's judge.jsonl, one line per call.",
        expect: "Many retries or no readings: read judge.jsonl (see the judge section of the guide's readers page).",
    },
    Term {
        name: "journal",
        aliases: &["journal/"],
        group: Group::Setup,
        means: "The out-dir's record of the planned round (every dispatch, its inputs and locks), written before any agent runs: what `--resume`, `harness unit` and `harness collect` read to finish a round that was stopped or split across machines.",
        expect: "",
    },
    Term {
        name: "lexicon",
        aliases: &["refusal lexicon", "lexicon eval", "--lexicon"],
        group: Group::Setup,
        means: "The first reader: a list of word patterns, in several languages, that recognise \"I don't know\", asking back and conflict remarks in an answer. `harness lexicon eval` measures it against answers people labelled.",
        expect: "",
    },
    Term {
        name: "label",
        aliases: &["labels", "human label", "human labels", "no label"],
        group: Group::Setup,
        means: "Three different things are printed as a label. (1) A row's label: the `label` column of the report's Rows table, an opaque name for one question in one arm (the answer is `dispatches/<label>_r<rep>.txt` in the out-dir); `harness review --set LABEL:REP=CLASS` names a row by it. (2) A number's label: the words beside DELIVERY, HUI or CARRIER-READ in the report (\"carried by the hand-off\", \"overconfidence caused by the hand-off\"), which say what the number may be called; when the round cannot claim it they are replaced by \"describes this round but cannot be quoted as what the hand-off delivered, because …\" (see cannot be quoted). (3) A human label: in a labelled corpus (the JSONL `harness lexicon eval` and `harness judge eval` read, and `harness review --export` writes), the `class` a person gave one answer, which those commands measure a reader against.",
        expect: "",
    },
    Term {
        name: "lang",
        aliases: &["language", "und", "lang und"],
        group: Group::Setup,
        means: "The language of a labelled answer (de, en, es, ja, ko, zh), by which `lexicon eval` breaks its precision and coverage down; `und` (undetermined) marks answers exported without a known language.",
        expect: "",
    },
    // Words a second new-user trial met in reports and commands.
    Term {
        name: "instrument survival line",
        aliases: &["survival line", "survival", "survival line HUI (CTRL)"],
        group: Group::RoundVerdict,
        means: "\"Survival line\" is printed for two things: this one, the instrument's, and the control's survival line (below). This one is the note beside HUI (CTRL) in the report's Numbers table and summary.json, and what the verdict means by \"the survival line HUI (CTRL) is unmeasured\": CTRL, which has no hand-off, must refuse every negative question. One fabrication there makes the round VOID; no negative CTRL rows means the instrument is not shown alive. Not the control's survival line (the Conflict (CTRL) section), which is about conflict questions.",
        expect: "CTRL: 0 on every negative. Add negative questions if the verdict says it is unmeasured.",
    },
    Term {
        name: "control's survival line",
        aliases: &["the control's survival line", "conflict (ctrl)"],
        group: Group::Section,
        means: "The heading of the report's Conflict (CTRL) section (report.md, report.html): on conflict questions CTRL has no hand-off, so it must never give the planted value (its CARRIER-READ should stay 0; above 0 it is printed as ANOMALY) and is expected to give the repository's own value (PRIOR_WON). CTRL giving the repository's own value is also what lets the report call ARM's numbers the hand-off's (\"carried by the hand-off\"). Not the instrument survival line (HUI (CTRL), about negative questions).",
        expect: "CTRL: CARRIER-READ 0, PRIOR_WON on conflict questions whose true value the repository holds.",
    },
    Term {
        name: "visible names",
        aliases: &["visible names checked"],
        group: Group::Gate,
        means: "What the name-leak axis reads (\"4 visible names checked\"): every name an agent can see that is not a file of the repository: the plant folder, the planted seal's file name, the line that hands the seal over, and the out-dir's name.",
        expect: "",
    },
    Term {
        name: "plant folder",
        aliases: &["--plant-dir", "plant dir"],
        group: Group::Setup,
        means: "The folder inside each checkout where the seal is planted (`--plant-dir`, default tracks/_meta/compaction), ignored by git in both arms: ARM's holds the seal, CTRL's is empty. The plant-folder gate axis checks the repository tracks no file there; its name is one of the visible names the name-leak axis checks.",
        expect: "",
    },
    Term {
        name: "fingerprint",
        aliases: &["scorer fingerprint", "scorer_fingerprint"],
        group: Group::Setup,
        means: "A sha256 over everything the scorer reads answers with (its lexicon, cues and judge rubric), printed by `harness --version`, `harness lexicon eval`, every report's header (the long hex after `scorer`) and ROUND_DONE (`scorer_fingerprint`). Two rounds with different fingerprints may read the same answer differently.",
        expect: "Compare rounds scored with one fingerprint; `harness rescore DIR` reads an older round again with this scorer.",
    },
    Term {
        name: "Wilson",
        aliases: &["Wilson interval", "Wilson's interval"],
        group: Group::Number,
        means: "The 95% interval printed beside every rate (`k/n rows, m items (p, [lo, hi])`), and in `judge eval`. For a round's rates it is computed over items, not rows: at the items' effective sample size, so more reps of one question never narrow it the way more questions do. One item gives [0, 1].",
        expect: "A wide interval means few items: add questions, not reps.",
    },
    Term {
        name: "effective sample size",
        aliases: &["n_eff", "effective n"],
        group: Group::Number,
        means: "How many independent answers a rate's rows are worth: n_eff = min(p(1−p)/V, m), with m the number of items and V the rate's variance estimated over items. Reps of one item that agree count about as one; it is never more than the number of items. The Wilson interval is taken at this size (shrunk further for few items by (z/t)², Korn–Graubard).",
        expect: "",
    },
    Term {
        name: "order-statistic",
        aliases: &["order-statistic interval", "order statistic"],
        group: Group::Number,
        means: "The effort sections' 95% interval for the median per-item ARM−CTRL difference: the per-item differences are sorted and the interval runs between two of them, picked so it covers the true median at least 95% of the time whatever shape the differences have. Below 6 items no such pair reaches 95% (with 5 the widest covers 94%), so none is printed (\"too few for a 95% interval: it needs 6\").",
        expect: "",
    },
    Term {
        name: "brief",
        aliases: &["the brief", "── result ──"],
        group: Group::Section,
        means: "The last lines `harness run` prints under `── result ──`: the verdict with its reason, the headline numbers with their intervals, the dispatches, one effort sentence, the manifest line and where the files are. The full tables are in report.md, report.html and `harness report DIR`.",
        expect: "",
    },
    Term {
        name: "await review",
        aliases: &["rows await review", "all await review", "awaits review", "row awaits review"],
        group: Group::Number,
        means: "Rows no reader decided (UNDETERMINED or CONTESTED), printed beside a number or an item (\"ARM 0/0 decided; 1 row awaits review\") or beside an item whose rows in one arm are all undecided. They are outside the number's count, neither pass nor fail, and the verdict is computed taking them each way.",
        expect: "`harness review DIR` lets a person settle them (a judge, `harness rejudge DIR --judge SPEC`, settles the UNDETERMINED ones it can).",
    },
    Term {
        name: "nothing awaits review",
        aliases: &[],
        group: Group::Number,
        means: "What `harness review DIR` prints for a round whose rows are all decided (with how many each reader decided): it exits 0 and writes nothing.",
        expect: "To re-read a decided row anyway: `harness review DIR --all` in a terminal, or `--set LABEL:REP=CLASS`.",
    },
    Term {
        name: "ledger report",
        aliases: &["--ledger report", "report (--ledger report)"],
        group: Group::Setup,
        means: "The ledger mode `--ledger report` (of `run`, `gate` and `seal`): a positive question whose token the seal does not carry is listed instead of refused, and the round runs. DELIVERY is then printed twice: over the carried positives (what INSTRUMENT_INCOMPLETE judges) and over all positives (the hand-off's coverage of the qset).",
        expect: "The default, --ledger strict, refuses such a seal (exit 8).",
    },
    // The cues, by the names reports print for undetermined rows.
    Term {
        name: "absence_words",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: the answer uses words of absence or negation (\"none\", \"not found\", \"isn't set\") but none of the lexicon's refusal patterns, so it may be a refusal the lexicon did not recognise, or a plain statement that only sounds like one. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "uncovered_language",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: most of the answer is in a language or script the lexicon does not cover, or covers only in part (`harness lexicon eval` shows which languages it is measured on), so a refusal in it could go unseen. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "token_only_in_code",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: the token appears only inside code (a fenced block, a command line, a command-like code span) or a reasoning block: the agent may have searched for it rather than given it as its answer. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "planted_and_general",
        aliases: &[],
        group: Group::Cue,
        means: "Cue, conflict questions: the answer names both the planted value and the repository's true value, so which one it chose (CONFLICT_FOLLOWED, PRIOR_WON, or flagging the disagreement) takes reading. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "hedge_at_token",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: a hedge (\"maybe\", \"I think\"), a list of candidates or a retraction stands next to the token, so the token may be a guess or withdrawn rather than the answer. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "guess_after_refusal",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: the answer refuses and then offers a likely value anyway, so it is not plainly a refusal. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "near_spelling",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: the answer holds a value spelled close to the token (other separators, case, units, a date written another way) but not the token itself: it may be the same value written differently. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "value_after_refusal",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: a refusal followed by a value that is not the token (\"not set, so the default 1MB applies\", \"not recorded; usually X\"): on a negative question that would be FAIL, not a clean refusal. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "other_form",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: the answer gives no token and refuses nothing, but may give the value in a form no spelling rule reads (with a unit, translated or transliterated, a first name only, a schedule in words). The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "token_beside_refusal",
        aliases: &[],
        group: Group::Cue,
        means: "Cue, negative questions: the fabricated token is named beside a refusal. Naming it only to deny it (\"`X` isn't referenced anywhere\") is a clean refusal (PASS); guessing it is not (REFUSED_WITH_TOKEN). The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "general_beside_refusal",
        aliases: &[],
        group: Group::Cue,
        means: "Cue, conflict questions: the repository's true value is named beside a refusal or flag that does not end the answer (\"Y, in config.rs; the hand-off's X is referenced nowhere\"): the answer may have chosen the true value and refused only the planted one. The row is UNDETERMINED.",
        expect: "A judge (`harness rejudge DIR --judge SPEC`) or a person (`harness review DIR`) settles it.",
    },
    Term {
        name: "addressed_to_grader",
        aliases: &[],
        group: Group::Cue,
        means: "Cue: the answer carries text addressed to whoever grades it (instructions to a grader or judge, a forged verdict marker, a JSON verdict). The row is UNDETERMINED and left to a person: no reader decides it, not even a judge that agrees.",
        expect: "Only a person settles it (`harness review DIR`); see left to a person.",
    },
];

/// Looks a term up by name or alias, case-insensitively; `None` when it is not in the glossary.
pub fn find(word: &str) -> Option<&'static Term> {
    let w = word.trim().to_lowercase();
    // A masked length as printed (`‹8ch›`) is the `‹Nch›` marker.
    let w = match w.strip_prefix('‹').and_then(|r| r.strip_suffix("ch›")) {
        Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => "‹nch›".to_string(),
        _ => w,
    };
    TERMS
        .iter()
        .find(|t| t.name.to_lowercase() == w || t.aliases.iter().any(|a| a.to_lowercase() == w))
}

/// The closest names to a word that is not in the glossary, best first, for "did you mean".
/// Names and aliases are both compared (an alias leads to its entry's name): first those that
/// begin with the word or hold it whole (the shorter the better), then those within an edit
/// distance of about a third of the longer word's length (at least 1). Names of two characters
/// or fewer (`D`, `R1`, `OK`) are suggested only for the word they are one edit from when the
/// word is no longer than they are plus one, so `row` does not suggest `R1`.
pub fn closest(word: &str) -> Vec<&'static str> {
    let w = word.trim().to_lowercase();
    let wn = w.chars().count();
    if wn == 0 {
        return Vec::new();
    }
    // (tier, score, name): tier 0 containment, tier 1 edit distance.
    let mut scored: Vec<(u8, usize, &'static str)> = Vec::new();
    for t in TERMS {
        let mut best: Option<(u8, usize)> = None;
        for cand in std::iter::once(t.name).chain(t.aliases.iter().copied()) {
            let c = cand.to_lowercase();
            let cn = c.chars().count();
            let short = cn <= 2;
            let score = if !short && wn >= 3 && (c.starts_with(&w) || c.contains(&w)) {
                Some((0, cn - wn))
            } else if cn >= 4 && w.contains(&c) {
                Some((0, wn - cn))
            } else {
                let d = distance(&w, &c);
                let allowed = if short {
                    usize::from(wn <= cn + 1)
                } else {
                    (wn.max(cn) / 3).max(1)
                };
                (d <= allowed && d < wn.max(cn)).then_some((1, d))
            };
            if let Some(sc) = score {
                if best.is_none_or(|b| sc < b) {
                    best = Some(sc);
                }
            }
        }
        if let Some((tier, sc)) = best {
            scored.push((tier, sc, t.name));
        }
    }
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored.into_iter().take(3).map(|(_, _, n)| n).collect()
}

/// How many one-character edits turn `a` into `b` (the scorer's, shared).
pub fn distance(a: &str, b: &str) -> usize {
    scorer::error::edit_distance(a, b)
}

/// One term as `harness explain TERM` prints it.
pub fn explain(t: &Term) -> String {
    let mut s = format!("{} ({})\n  {}\n", t.name, group_word(t.group), t.means);
    if !t.expect.is_empty() {
        s.push_str(&format!("  {}\n", t.expect));
    }
    if !t.aliases.is_empty() {
        s.push_str(&format!("  also: {}\n", t.aliases.join(", ")));
    }
    s
}

fn group_word(g: Group) -> &'static str {
    match g {
        Group::Number => "a number",
        Group::RoundVerdict => "a round verdict or mark",
        Group::AnswerClass => "an answer class",
        Group::Setup => "a setup word",
        Group::Gate => "a gate axis or status",
        Group::Section => "a report section",
        Group::Cue => "a cue of the lexicon",
    }
}

/// Every term, one line each under its group's heading: `harness explain` with no term.
pub fn index() -> String {
    let mut s = String::new();
    for g in Group::ALL {
        s.push_str(&format!("{}:\n", g.heading()));
        for t in TERMS.iter().filter(|t| t.group == g) {
            s.push_str(&format!("  {:<22} {}\n", t.name, first_sentence(t.means)));
        }
    }
    s.push_str("\n`harness explain TERM` for one, with what to expect from ARM and CTRL.\n");
    s
}

/// The first sentence, for the one-line index: "Positive question: the value…" keeps what
/// follows the colon, which is what tells PASS from FAIL. A sentence longer than the line is
/// cut at a word with an ellipsis.
fn first_sentence(s: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 140;
    let end = s.find(". ").map_or(s.len(), |i| i + 1);
    let sentence = &s[..end];
    if sentence.chars().count() <= MAX {
        return sentence.into();
    }
    let cut = sentence
        .char_indices()
        .nth(MAX)
        .map_or(sentence.len(), |(i, _)| i);
    let at_word = sentence[..cut].rfind(' ').unwrap_or(cut);
    format!("{}…", &sentence[..at_word]).into()
}

/// The glossary section of docs/reports.md (between its markers): every term, grouped.
pub fn markdown() -> String {
    let mut s = String::new();
    for g in Group::ALL {
        s.push_str(&format!("**{}**\n\n", g.heading()));
        for t in TERMS.iter().filter(|t| t.group == g) {
            s.push_str(&format!("- **`{}`**: {}", t.name, t.means));
            if !t.expect.is_empty() {
                s.push_str(&format!(" {}", t.expect));
            }
            s.push('\n');
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_report_word_has_an_entry_and_lookups_ignore_case() {
        for w in [
            "DELIVERY",
            "hui",
            "Lucky",
            "MR",
            "D",
            "TYPED",
            "CARRIER-READ",
            "VOID",
            "FINDING",
            "NEEDS_REVIEW",
            "UNDETERMINED",
            "CONTESTED",
            "PRIOR_WON",
            "hui (ctrl)",
            "effort",
            "turns",
            "input tokens",
            "output tokens",
            "cost",
            "tool calls",
            "wall time",
            "not reported",
            "Answer paths",
            "preflight",
            "dispatches",
            "sandbox",
            "full",
            "overlay",
            "isolation partial",
            "C_FOL",
            "ABST",
            "HALL",
            "UNCL",
        ] {
            assert!(find(w).is_some(), "{w}");
        }
        for c in scorer::Class::ALL {
            assert!(find(c.as_str()).is_some(), "class {c} has no entry");
        }
        assert!(find("HUII").is_none());
        assert_eq!(closest("HUII")[0], "HUI");
        assert_eq!(closest("delivry")[0], "DELIVERY");
        // Short codes are never offered for longer words; containment comes first.
        for (word, not) in [("rowz", "R1"), ("repz", "R2"), ("rowz", "OK"), ("xyz", "D")] {
            assert!(!closest(word).contains(&not), "{word}: {:?}", closest(word));
        }
        assert_eq!(closest("carier-read")[0], "CARRIER-READ");
        assert!(
            closest("hallucinat").contains(&"HUI"),
            "{:?}",
            closest("hallucinat")
        );
        assert!(closest("zzzzqqqq").is_empty());
        assert_eq!(closest("tampred"), vec!["TAMPERED"]);
    }

    /// Every cue the scorer can print (its own list, so a new cue without an entry fails here)
    /// has an entry of its own, opened by its printed name, that says what made the reader
    /// unsure and who settles the row; the `cue` entry names them all.
    #[test]
    fn every_cue_the_scorer_prints_has_an_entry_of_its_own() {
        let cue = find("cue").expect("the cue entry");
        for c in scorer::Cue::ALL {
            let name = c.as_str();
            let t = find(name).unwrap_or_else(|| panic!("cue {name} has no explain entry"));
            assert_eq!(t.name, name, "cue {name} opens another entry");
            assert!(t.means.starts_with("Cue"), "{name}: {}", t.means);
            assert_eq!(t.group, Group::Cue, "{name} is not listed with the cues");
            assert!(t.means.contains("UNDETERMINED"), "{name}: {}", t.means);
            assert!(t.expect.contains("harness review"), "{name}: {}", t.expect);
            assert!(
                cue.means.contains(name),
                "the cue entry does not name {name}"
            );
        }
    }

    /// `label` says its three printed meanings apart; each survival line says which output
    /// prints it and points at the other.
    #[test]
    fn words_printed_for_two_things_say_which_is_which() {
        let label = find("label").unwrap().means;
        for part in [
            "(1) A row's label",
            "(2) A number's label",
            "(3) A human label",
        ] {
            assert!(label.contains(part), "{label}");
        }
        let inst = find("survival line").unwrap();
        let ctrl = find("the control's survival line").unwrap();
        assert_ne!(inst.name, ctrl.name);
        assert!(
            inst.means.contains("HUI (CTRL)") && inst.means.contains("control's survival line")
        );
        assert!(
            ctrl.means.contains("Conflict (CTRL)")
                && ctrl.means.contains("instrument survival line")
        );
    }

    #[test]
    fn names_are_unique_and_every_group_is_listed() {
        let mut seen = std::collections::HashSet::new();
        for t in TERMS {
            assert!(seen.insert(t.name.to_lowercase()), "{} twice", t.name);
            for a in t.aliases {
                assert!(seen.insert(a.to_lowercase()), "alias {a} twice");
            }
        }
        let idx = index();
        for g in Group::ALL {
            assert!(idx.contains(g.heading()));
        }
        assert!(explain(find("HUI").unwrap()).contains("CTRL above 0 makes the round VOID"));
    }

    #[test]
    fn the_guide_glossary_is_this_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/reports.md");
        let readme = std::fs::read_to_string(path).expect("docs/reports.md beside the workspace");
        let start = "<!-- glossary:start -->\n";
        let end = "<!-- glossary:end -->";
        let (Some(a), Some(b)) = (readme.find(start), readme.find(end)) else {
            panic!("docs/reports.md has no glossary markers");
        };
        let shown = &readme[a + start.len()..b];
        assert!(
            shown == markdown(),
            "docs/reports.md's glossary differs from reports::glossary::markdown(); regenerate it with \
             `cargo test -p reports glossary -- --ignored`"
        );
    }

    /// Not a check: the tool that writes the guide's glossary section from the table.
    #[test]
    #[ignore = "writes docs/reports.md: cargo test -p reports glossary -- --ignored"]
    fn write_the_guide_glossary() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/reports.md");
        let readme = std::fs::read_to_string(path).unwrap();
        let start = "<!-- glossary:start -->\n";
        let end = "<!-- glossary:end -->";
        let a = readme.find(start).unwrap() + start.len();
        let b = readme.find(end).unwrap();
        let out = format!("{}{}{}", &readme[..a], markdown(), &readme[b..]);
        std::fs::write(path, out).unwrap();
    }
}
