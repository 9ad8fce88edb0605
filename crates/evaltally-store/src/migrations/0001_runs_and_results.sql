-- Version 1: runs and their results.
CREATE TABLE runs (
    id               bigserial PRIMARY KEY,
    -- XXH3-128 of the pushed files (sorted by relative path), the run's name and model: the
    -- natural key that makes pushes idempotent.
    digest           text NOT NULL UNIQUE,
    -- XXH3-128 of the pushed files alone (shared by the runs of one push).
    source_digest    text NOT NULL,
    pushed_at        timestamptz NOT NULL DEFAULT now(),
    run              text NOT NULL,
    model            text NOT NULL,
    format           text NOT NULL,
    -- The pushed path, as given to `evaltally push`.
    source           text NOT NULL,
    -- What the run says about itself, as written (ISO 8601 where the format has it).
    "timestamp"      text,
    started_at       text,
    branch           text,
    sha              text,
    version          text,
    tier             text,
    hostname         text,
    prompt_sha       text,
    duration_seconds double precision,
    total_cost_usd   double precision
);

-- Per (run, category): whether the run judged its tests (a BFCL result without its score
-- file did not).
CREATE TABLE run_categories (
    run_id   bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    category text NOT NULL,
    scored   boolean NOT NULL,
    PRIMARY KEY (run_id, category)
);

CREATE TABLE results (
    run_id        bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    -- The test's place in the run (category by category, in the order the run lists them).
    position      integer NOT NULL,
    model         text NOT NULL,
    category      text NOT NULL,
    test          text NOT NULL,
    status        text NOT NULL CHECK (status IN ('pass', 'fail', 'errored', 'unscored', 'not_run')),
    error_type    text,
    input_tokens  bigint,
    output_tokens bigint,
    duration_ms   double precision,
    cost_usd      double precision,
    PRIMARY KEY (run_id, position)
);
