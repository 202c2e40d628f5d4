// Tests of the hosts detectors: a placeholder until the family is implemented.
