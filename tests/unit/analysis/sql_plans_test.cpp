// Tests of the sql_plans detectors: a placeholder until the family is implemented.
