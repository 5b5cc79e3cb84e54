//! Isolated checkouts, planting, agents and the dispatch pool of `harness`.

pub mod base;
pub mod checkout;
pub mod corpus;
pub mod error;
pub mod label;
pub mod search;
pub mod temproot;

pub use base::{resolve_base, Base};
pub use checkout::{copy_tree, remove_tree, Checkout, Plant, Seal, Template, Treediff};
pub use corpus::{tracked_at_base, Corpus, Entry, EntryKind, TrackedCheck};
pub use error::{Error, Result};
pub use label::{unique_labels, unique_labels_with, Label, LABEL_LEN};
pub use search::{search_needles, NeedleSet, SearchReport};
pub use temproot::{DispatchDirs, TempRoot};
