// Tests of the shuffle detectors: a placeholder until the family is implemented.
