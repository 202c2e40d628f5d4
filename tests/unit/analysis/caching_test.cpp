// Tests of the caching detectors: a placeholder until the family is implemented.
