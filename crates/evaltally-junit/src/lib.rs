//! JUnit XML for evaltally.
