//! Isolated checkouts, planting, agents and the dispatch pool of `harness`.

pub mod agent;
pub mod baseline;
pub mod error;
pub mod process;
pub mod sandbox;
