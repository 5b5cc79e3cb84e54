//! Isolated checkouts, planting, agents and the dispatch pool of `harness`.
