// Tests of the timeline detectors: a placeholder until the family is implemented.
