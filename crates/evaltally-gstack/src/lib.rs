//! Reads gstack eval results into the evaltally model.
