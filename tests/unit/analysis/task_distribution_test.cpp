// Tests of the task_distribution detectors: a placeholder until the family is implemented.
