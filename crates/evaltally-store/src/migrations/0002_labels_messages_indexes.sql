-- Version 2: a free label per run, the error message per result, indexes for the filters.
ALTER TABLE runs ADD COLUMN label text;
ALTER TABLE results ADD COLUMN error_message text;
CREATE INDEX runs_branch ON runs (branch);
CREATE INDEX runs_model ON runs (model);
CREATE INDEX runs_timestamp ON runs ("timestamp");
CREATE INDEX results_test ON results (category, test);
