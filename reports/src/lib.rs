//! Round aggregation, statistics, the instrument verdict, the watermark and the renderers.
