// Generated from schemas/plan-diff.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit.

export type NodeChange = "same" | "changed" | "removed" | "added";

/**
 * The plan diff of two SQL executions (GET /api/sf/v1/compare/plan; docs/server.md). The diffs compare's HTML report inlines are the same objects without kind and schemaVersion.
 */
export interface PlanDiffDocument {
  kind: "sparkforensics.planDiff";
  schemaVersion: 1;
  baselineExecutionId: number;
  candidateExecutionId: number;
  description: string;
  counts: {
    same: number;
    changed: number;
    removed: number;
    added: number;
  };
  baseline: PlanSide;
  candidate: PlanSide;
}
export interface PlanSide {
  executionId: number;
  durationMs: number | null;
  nodes: DiffNode[];
}
export interface DiffNode {
  nodeId: number;
  nodeName: string;
  simpleString: string;
  children: number[];
  stageIds: number[];
  change: NodeChange;
  /**
   * the other side's node it paired with
   */
  counterpart: number | null;
}
