//! What an agent is asked: the question, the protocol after it, the deliver prefix in front
//! (DESIGN §4). Input: question, protocol text, planted path. Output: the prompt string. Shared
//! by the plan (which composes every dispatch's prompt) and the gate (which searches and
//! leak-checks exactly what the agent will see).

/// The deliver prefix: what a hook would hand over, in front of the accumulated prompt.
pub fn deliver_prefix(planted: &str) -> String {
    format!("[Hand-off from the previous session: {planted} — open it if you need it]\n\n")
}

/// Question → protocol text appended after it (both arms) → deliver prefix in front (ARM only).
pub fn compose_prompt(
    question: &str,
    protocol: Option<&str>,
    deliver_path: Option<&str>,
) -> String {
    let mut p = question.to_string();
    if let Some(proto) = protocol {
        p.push_str("\n\n");
        p.push_str(proto);
    }
    match deliver_path {
        Some(path) => format!("{}{p}", deliver_prefix(path)),
        None => p,
    }
}
