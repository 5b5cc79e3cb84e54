//! Whether what goes to stdout is coloured: `--color`, then `NO_COLOR` / `CLICOLOR_FORCE`, the
//! terminal's abilities and whether stdout is a terminal at all, as `anstream` decides them (a
//! maintained reading of those conventions, rather than one of our own).

pub use anstream::ColorChoice;

/// Records the `--color` choice for the whole process.
pub fn set_choice(choice: ColorChoice) {
    choice.write_global();
}

/// Whether stdout gets colour: never when piped, under `NO_COLOR` or with `--color never`.
pub fn stdout() -> bool {
    !matches!(
        anstream::AutoStream::choice(&std::io::stdout()),
        ColorChoice::Never
    )
}
