// Tests of the config_audit detectors: a placeholder until the family is implemented.
