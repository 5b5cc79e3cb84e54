//! Stage 2: the words of absence, hedging and courtesy of every covered language, and which
//! language an answer is in (covered, partly covered, not covered). Found in text; what they
//! mean for a verdict is the cue detector's and the classifier's business. Imports only earlier
//! stages.

use regex::Regex;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("wording pattern compiles"))
}

/// The answer is in a language the lexicon does not cover, or a partly covered one holding
/// one of its doubt words: no reading of it may be certain beyond the table's.
pub(crate) fn doubtful_language(spoken: &str) -> bool {
    (uncovered_language(spoken) || crate::partial::identified(spoken))
        && crate::partial::read(spoken) == crate::partial::Reading::Doubtful
}

/// Absence or negation words of a covered language in `text`.
pub(crate) fn absence(text: &str) -> bool {
    absence_regex().is_match(text)
}

/// A hedge, a candidate list or a retraction in `text`.
pub(crate) fn hedges(text: &str) -> bool {
    hedge_regex().is_match(text)
}

/// `text` without courtesy negations ("no problem"), which refuse nothing.
pub(crate) fn without_courtesy(text: &str) -> std::borrow::Cow<'_, str> {
    courtesy_regex().replace_all(text, " ")
}

/// Wide absence and negation vocabulary of every language the lexicon covers.
pub(crate) fn absence_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)(?-u:\b)(?:no|not|none|nothing|nobody|no one|no-one|nowhere|never|neither|nor|absent|missing|lacks?|lacking|silent|unclear|unspecified|undocumented|unrecorded|unknown|undetermined|undefined|unsure|uncertain|unable|undecided|pending|deferred|premise|assumes|assumption|yet|cannot|can['’]?t|couldn['’]?t|don['’]?t|doesn['’]?t|didn['’]?t|isn['’]?t|aren['’]?t|wasn['’]?t|weren['’]?t|won['’]?t|haven['’]?t|hasn['’]?t|n/a|tbd|empty|zero (?:hits|results|matches)|blank)(?-u:\b)",
            r"|없|않|못|모르|몰라|불명|불분명|불확실|확실하지|어렵|애매|모호|미상|미정|불가|아닙|아니|알 ?수|확인 ?안|확인이 ?안|안 ?됩|안 ?돼|안 ?보|안 ?나|보류|전제",
            r"|ない|ません|不明|なし|無し|無い|見当たら|わから|分から|未定|未記載|前提|保留|存在し|曖昧|不確か",
            r"|没有|没|无|不|未|找不到|尚未|前提|模糊",
            r"|(?i)\b(?:kein|keine|keinen|keiner|keinem|nicht|nichts|nirgends|nirgendwo|ohne|fehlt|fehlen|unklar|unbekannt|offen|leer|nie|niemals|weder|noch nicht|voraus|unsicher|ungewiss)\b",
            r"|(?i)\b(?:ningún|ninguna|ninguno|nada|nunca|sin|falta|faltan|desconoc\w*|no|ni|tampoco|consta|supone)\b",
        ),
    )
}

/// Negation and absence words of languages the lexicon has no refusal patterns for (Finnish,
/// Norwegian, Danish, Icelandic, Tagalog, Swahili, Hausa, Yoruba, Hungarian, Romanian, Malay,
/// Catalan, Lithuanian, Latvian, Albanian, Welsh, Hebrew, Arabic, Persian, Urdu, Hindi,
/// Marathi, Bengali, Tamil, Telugu, Gujarati, Thai, Greek, Georgian, Amharic). Read only where
/// an answer gives no value at all: there one of them means the answer may refuse in words no
/// pattern knows ("DOI:ta ei löytynyt.", "Hakuna taarifa."), so it is never a certain `FAIL`.
/// Wide on purpose: a false hit costs coverage, never a wrong certain class.
pub(crate) fn world_absence(text: &str) -> bool {
    world_absence_regex().is_match(text)
}

/// [`world_absence`] where a match must be a whole word, for readings that a negation word
/// makes certain rather than uncertain (Arabic `لا` inside `صلاحية` is no negation).
pub(crate) fn world_absence_word(text: &str) -> bool {
    world_absence_regex().find_iter(text).any(|m| {
        !text[..m.start()]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
            && !text[m.end()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    })
}

fn world_absence_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:ei|eikä|eivät|emme|ette|löydy|löytynyt|löytänyt|puuttuu|tuntematon|mitään|missään|pole|puudub",
            r"|ikke|ingen|intet|ingenting|aldri|mangler|ukjent|uklart|ukendt|uklar|inte|inget|inga|saknas|okänt|ekki|enginn",
            r"|wala|walang|hindi",
            r"|hakuna|hamna|sijui|sikuweza|sikupata|sikuona|haipo|hapana|haijulikani|haijabainishwa|haijaandikwa|haikupatikana|haikutajwa|hatuna|sina",
            r"|babu|bai|kò|rárá",
            r"|nem|nincs|nincsen|sehol|semmi|semmilyen|hiányzik|ismeretlen",
            r"|nu|niciun|nicio|nimic|nicăieri|lipsește|necunoscut",
            r"|tidak|tiada|tak|bukan|belum|tanpa",
            r"|enlloc|cap\s+(?:valor|dada|registre|informació)|sense (?:resultats?|èxit|rastre)",
            // Slovak (cues 1.11.0): "Neviem s istotou", "nenašiel som".
            r"|neviem|nevie|nie|nenašiel|nenašla|nenašli|nenachádza|nenájdem|žiadny|žiadna|žiadne|nikde|nič|nemám|nemáme|neuvádza|neexistuje",
            r"|sin resultados?|sin éxito|sem resultados?|sem sucesso|sans résultat|sans succès|senza risultat[oi]|senza successo|ohne (?:Ergebnis|Erfolg|Treffer)",
            r"|nėra|nuk|nid)\b",
            r"|לא|אין|אינו|אינה|لا|لم|ليس|ليست|غير|لن|نیست|ندار|نکرد|نشد|نمی|هیچ|نہیں",
            r"|नहीं|नाही|না|নেই|নাই|পাইনি|இல்லை|இல்லாத|தெரியாது|வில்லை|沒|無|లేదు|తెలియదు|નથી|ไม่|δεν|όχι|κανέν|καμία|τίποτα|არ|არა|የለም",
        ),
    )
}

/// Hedges, alternatives ("or") and contrasts ("but") of the languages [`world_absence`] serves
/// (and the Nordic, Finnish, Hungarian, Romanian, Swahili, Tagalog and Malay ones): with their
/// negation words, what an answer in one of them would need to doubt, list or take back a value.
/// Wide on purpose: a false hit keeps a reading uncertain, never decides one.
pub(crate) fn world_doubt(text: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:ehkä|luultavasti|todennäköisesti|mahdollisesti|luulen|arvelen|tai|mutta|vai|sekä|enkä|en (?:ole|tiedä|löydä|löytänyt|pysty|osaa|voi)",
            r"|ba|amma|tabbata|watakila",
            r"|kanskje|måske|sannsynligvis|sandsynligvis|trolig|muligens|muligvis|tror|antar|eller",
            r"|talán|valószínűleg|szerintem|lehet|vagy|azonban",
            r"|poate|probabil|cred|posibil|sau|dar|însă",
            r"|labda|huenda|nadhani|pengine|inawezekana|lakini|ila",
            r"|siguro|baka|marahil|yata|tingin|pero|ngunit|o kaya",
            r"|mungkin|barangkali|rasanya|agaknya|atau|tetapi|tapi|namun",
            r"|buď|alebo|možno|asi|pravdepodobne|istotou|myslím|ale|avšak",
            // Guessing, in so many words (cues 1.11.0): "Jeg gætter på 50051".
            r"|gætter|gætte|gæt|gjetter|gjette|gjetning|tipper|gissar|gissning|tipp\w*|arvaisin|arvaus|veikkaisin|ghicesc|presupun|kukisia|hula|hulaan|tebak\w*|tahmin\w*|đoán)\b",
            r"|משער|ניחוש|تخمين|أخمن|حدس|اندازہ|अनुमान|अंदाज़ा|অনুমান|யூகம்|เดา|εικασία|μαντεύω",
            // Short words of scripts written with spaces: whole words only (Greek `ή` is
            // inside `βρήκα`, Hebrew `או` inside many words).
            r"|(?:^|[\s,،(])(?:أو|بل|या|বা|ή|או|یا)(?:[\s,.،)]|$)",
            r"|ربما|قد يكون|أعتقد|أظن|على الأرجح|متأكد|لكن",
            r"|शायद|संभवतः|संभव|लगता|पक्का|अथवा|लेकिन|परंतु|किंतु",
            r"|সম্ভবত|হয়তো|মনে হয়|নিশ্চিত|অথবা|কিন্তু",
            r"|ஒருவேளை|இருக்கலாம்|நினைக்கிறேன்|உறுதி|அல்லது|ஆனால்",
            r"|อาจ|น่าจะ|คิดว่า|แน่ใจ|หรือ|แต่",
            r"|ίσως|πιθανόν|πιθανώς|νομίζω|μάλλον|σίγουρ|αλλά|όμως",
            r"|אולי|כנראה|נראה לי|חושב|ייתכן|בטוח|אבל|אך",
            r"|شاید|احتمالاً|احتمالا|فکر می|گمان|مطمئن|اما|ولی|غالباً|میرا خیال|لیکن",
        ),
    )
    .is_match(text)
}

/// Negation and absence words of the partly covered languages (French, Italian, Portuguese,
/// Dutch, Polish, Czech, Turkish and its negative suffixes, Indonesian, Vietnamese, Swedish,
/// the Cyrillic Slavic languages): with [`world_absence`] and the covered languages' absence
/// words, a sign that an answer may refuse in any language the readings know.
pub(crate) fn partial_negation(text: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:pas|aucun\w*|rien|jamais|non|nessun\w*|niente|nulla|não|nao|nenhum\w*|nada|nem|niet|geen|niets|nergens",
            r"|nie|nieznan\w*|nieokreślon\w*|brak\w*|żadn\w*|nic|ne|není|nejsou|nevím|nenašel|nenalez\w*|neuveden\w*|nemá|žádn\w*|değil|yok|hiç|không|khong|chưa|chua|tidak|belum|bukan|inte|ingen|inget|inga)\b",
            r"|bilm|bulunam|bulamad|amad|emed|mamış|memiş|mıyor|miyor|muyor|müyor|\bне|\bни\b|нет|немає|няма|нема|\bбез\b",
        ),
    )
    .is_match(text)
}

/// "No problem", "no worries", "kein Problem", "没问题": negation words that refuse nothing.
pub(crate) fn courtesy_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:no (?:problem|worries)|not a problem|(?:no|(?:do|does|did)(?:n['’]?t| not) have any(?: actual)?|without (?:a |any )?) doubts?|kein problem|no hay problema|sin problema)\b|没问题|문제 ?없",
    )
}

/// Hedges, candidate lists and retractions, every covered language.
pub(crate) fn hedge_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)(?-u:\b)(?:in one place|in another|elsewhere|conflicting|inconsistent|contradict\w*|tentative\w*|provisional\w*|not final|maybe|perhaps|possibly|probably|presumably|might|may be|could be|likely|guess|guessing|assum\w*|suspect|not sure|unsure|uncertain|unverified|unconfirmed|either|or|candidates?|scratch that|correction|actually|wait|retract\w*|i was wrong|rather|instead|placeholder|example|e\.g\.|hypothetical\w*|would be|typically|usually|conventionally|default|hmm|hold on|on second thought|never mind|scratch)(?-u:\b)",
            r"|아마|추정|것 ?같|듯|확실하지|확실치|정정|아니라|후보|혹은|또는|예시|가정|짐작|보통|일반적|잠깐|아니,|인가요|일까요|인지",
            r"|たぶん|多分|おそらく|恐らく|かもしれ|と思われ|推測|訂正|候補|または|例えば|仮に|一般的|いや、|待って|でしょうか|ですか",
            r"|可能|也许|大概|猜|不确定|更正|候选|或者|例如|假设|通常|一般|不对|等等|吗",
            r"|(?i)\b(?:vielleicht|vermutlich|wahrscheinlich|möglicherweise|eventuell|Korrektur|entweder|oder|Beispiel|üblicherweise|normalerweise|nein|Moment|doch nicht|geraten)\b",
            r"|(?i)\b(?:quizás?|tal vez|probablemente|posiblemente|supongo|corrijo|corrección|o bien|ejemplo|normalmente|por defecto|podría|puede ser|suposición|perdón|espera|mejor dicho)\b",
            r"|(?i)\b(?:forse|probabilmente|peut-être|probablement|talvez|provavelmente|misschien|waarschijnlijk|muhtemelen)\b|возможно|вероятно|có lẽ",
            // The partly covered languages' hedges and candidate words (never a one-letter
            // word: Italian `o` is the Portuguese article).
            r"|(?i)\b(?:je suppose|supposition|ou bien|oppure|presumibilmente|suponho|possivelmente|ou|mogelijk|vermoedelijk|może|chyba|prawdopodobnie|lub|albo|kanske|troligen|förmodligen|eller|mungkin|kemungkinan|atau|tebakan|belki|olabilir|veya|có thể|co the|hoặc|hoac|možná|nebo)\b|наверное|можливо|мабуть|\bили\b|\bабо\b",
        ),
    )
}

/// Letters by script: covered (Latin, Hangul, kana, Han) and not covered (everything else
/// alphabetic), and, for Latin, function words of covered and uncovered languages.
pub(crate) fn uncovered_language(spoken: &str) -> bool {
    let (mut covered, mut other) = (0usize, 0usize);
    for c in spoken.chars().filter(|c| c.is_alphabetic()) {
        let u = c as u32;
        let is_covered = c.is_ascii_alphabetic()
            || (0x00C0..=0x024F).contains(&u) // Latin-1 and Extended
            || (0x1E00..=0x1EFF).contains(&u) // Latin Extended Additional
            || (0xAC00..=0xD7AF).contains(&u) // Hangul syllables
            || (0x1100..=0x11FF).contains(&u)
            || (0x3130..=0x318F).contains(&u)
            || (0x3040..=0x30FF).contains(&u) // kana
            || (0x4E00..=0x9FFF).contains(&u) // Han
            || (0x3400..=0x4DBF).contains(&u)
            || (0xFF00..=0xFFEF).contains(&u);
        if is_covered {
            covered += 1;
        } else {
            other += 1;
        }
    }
    if other >= 8 && other * 5 >= (covered + other) {
        return true;
    }
    latin_uncovered(spoken)
}

pub(crate) fn latin_uncovered(spoken: &str) -> bool {
    // Distinctive function and absence words of Latin-script languages the lexicon does not
    // cover (French, Italian, Portuguese, Dutch, Polish, Turkish, Indonesian, Vietnamese,
    // Swedish), against those of the covered ones (English, German, Spanish).
    const UNCOVERED: &[&str] = &[
        "le",
        "les",
        "des",
        "est",
        "dans",
        "pas",
        "aucun",
        "aucune",
        "trouvé",
        "n'est",
        "je",
        "nous",
        "cette",
        "il",
        "avec",
        "sur",
        "rien",
        "ne",
        "gli",
        "della",
        "nel",
        "non",
        "è",
        "sono",
        "nessun",
        "nessuna",
        "trovato",
        "questo",
        "della",
        "il",
        "não",
        "está",
        "nenhum",
        "nenhuma",
        "encontrei",
        "encontrado",
        "você",
        "isso",
        "het",
        "een",
        "niet",
        "geen",
        "gevonden",
        "staat",
        "nie",
        "jest",
        "brak",
        "żadnych",
        "nic",
        "że",
        "się",
        "bir",
        "ve",
        "yok",
        "değil",
        "için",
        "ile",
        "bulunamadı",
        "hiçbir",
        "tidak",
        "ada",
        "yang",
        "dan",
        "tersebut",
        "saya",
        "không",
        "có",
        "là",
        "của",
        "trong",
        "tôi",
        "được",
        "khong",
        "toi",
        "biet",
        "thay",
        "duoc",
        "nhung",
        "chac",
        "trong",
        "cua",
        "inte",
        "är",
        "och",
        "ingen",
        "finns",
        "jag",
        "som",
        "niets",
        "zegt",
        "wordt",
        "nergens",
        "vastgelegd",
        "ik",
        "welke",
        "weet",
        "klopt",
        "maar",
        "ook",
        "nog",
        "er",
        "wel",
        "deze",
        "dit",
        "gebruikt",
        "zijn",
        "heeft",
        "aucune",
        "mais",
        "pour",
        "nulla",
        "nessuno",
        "ainda",
        "nada",
        "não",
        "nunca",
        "mas",
    ];
    const COVERED: &[&str] = &[
        "the", "is", "and", "of", "to", "it", "not", "no", "that", "this", "for", "was", "i",
        "found", "der", "die", "das", "ist", "und", "nicht", "kein", "keine", "ich", "im", "zu",
        "den", "ein", "el", "la", "los", "las", "es", "y", "que", "un", "una", "del", "hay", "en",
        "de",
    ];
    let (mut unc, mut cov) = (0usize, 0usize);
    for w in spoken
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .take(4000)
    {
        let w = w.to_lowercase();
        if COVERED.contains(&w.as_str()) {
            cov += 1;
        } else if UNCOVERED.contains(&w.as_str()) {
            unc += 1;
        }
    }
    (unc >= 2 && unc > cov) || (unc >= 1 && cov == 0) || foreign_letters(spoken)
}

/// Latin letters that English, German and Spanish do not use (Turkish `ı ğ ş`, Polish
/// `ł ą ę ś ż`, Vietnamese tone marks, Portuguese `ã õ`, Nordic `å ø`, French `è ê ç œ`…) in at
/// least two words, or in most words of a short answer.
pub(crate) fn foreign_letters(spoken: &str) -> bool {
    const OWN: &str = "áéíóúñüäöß";
    let foreign = |c: char| {
        let u = c as u32;
        !c.is_ascii()
            && ((0x00C0..=0x024F).contains(&u) || (0x1E00..=0x1EFF).contains(&u))
            && !OWN.contains(c.to_lowercase().next().unwrap_or(c))
    };
    let (mut words, mut marked) = (0usize, 0usize);
    for w in spoken
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .take(4000)
    {
        words += 1;
        if w.chars().any(foreign) {
            marked += 1;
        }
    }
    marked >= 2 || (marked == 1 && words <= 6)
}

/// Words that call a value stale: outdated, superseded, renamed, wrong, no longer true.
pub(crate) fn stale_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:stale|outdated|out of date|out-of-date|obsolete|superseded|no longer|anymore|any more|renamed|old|older|legacy|deprecated|wrong|incorrect|predates|used to|formerly|reverted|replaced|removed|dropped|rückgängig|ersetzt|entfernt|früher|revertid\w*|reemplazad\w*|eliminad\w*|annulé\w*|remplacé\w*|supprimé\w*|sostituit\w*|rimoss\w*|substituíd\w*|removid\w*|teruggedraaid|vervangen|verwijderd|veraltet\w*|überholt\w*|nicht mehr|umbenannt|falsch|desactualizad\w*|obsolet\w*|ya no|antigu\w*|incorrect\w*|périmé\w*|obsolète\w*|n['’]est plus|plus à jour|ancien\w*|superat\w*|non più|vecchi\w*|desatualizad\w*|já não|não é mais|antig\w*|verouderd|niet meer|oud\w*|inaktuell\w*|föråldrad\w*|inte längre|nieaktualn\w*|przestarza\w*|już nie|eski|artık|usang|tidak lagi|lỗi thời|không còn|cũ)\b",
            r"|古い|古く|旧|以前の|リネーム前|元に戻|置き換|削除|过时|过期|不再|已经不|改回|回滚|替换|删除|되돌|교체|삭제|откат\w*|заменен\w*|удален\w*|오래된|예전|구버전|더 이상|устарел\w*|неактуальн\w*|больше не|застаріл\w*|більше не",
        ),
    )
}

/// Words for "other", "different" and "otherwise" ("koodi sanoo toisin", "msimbo unasema
/// tofauti"): an answer that sets one value against something else may flag a disagreement
/// without naming the other value. Wide on purpose: a false hit keeps a reading uncertain.
pub(crate) fn otherness(text: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:other\w*|different\w*|differ\w*|another|else|anders|andere\w*|abweich\w*|autre\w*|différ\w*|otro\w*|otra\w*|distint\w*|diferente\w*|altr[oaie]|divers[oaie]|outro\w*|outra\w*|ander\w*|annan|annat|andra|anden|andet|andre|toisin|toinen|eri\w*|más|másik|más\w*|alt\w*|diferit\w*|tofauti|nyingine|iba|ibang|lain|berbeda|khác|farklı|başka|inny|inna|inne|jiný|jiná|jiné|iný|iná|iné)\b",
            r"|другой|другая|другое|иначе|отлича\w*|інший|інша|інакше|відрізня\w*|διαφορετικ\w*|άλλ\w*|אחר|אחרת|שונה|آخر|أخرى|مختلف|دیگر|متفاوت|دوسر|مختلف|अलग|दूसर|অন্য|ভিন্ন|வேறு|อื่น|ต่าง|他の|別の|違う|異なる|其他|别的|不同|다른|달리",
        ),
    )
    .is_match(text)
}
