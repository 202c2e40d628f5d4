// Tests of the memory detectors: a placeholder until the family is implemented.
