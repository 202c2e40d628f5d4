// Generated from schemas/timeline.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit.

/**
 * The occupancy model's view of a run (GET /api/sf/v1/logs/L/timeline; docs/server.md).
 */
export interface TimelineDocument {
  kind: "sparkforensics.timeline";
  schemaVersion: 1;
  stages: TimelineStage[];
  /**
   * a step series: [ms, total after every change]
   */
  coresAllocated: [number, number][];
  /**
   * a step series: [ms, total after every change]
   */
  coresBusy: [number, number][];
}
export interface TimelineStage {
  stageId: number;
  attemptId: number;
  startMs: number;
  endMs: number;
  gate: number;
  coreWeight: number;
  windowCores: number;
}
