/** Object plans compiled for the scanner's walk: one image of plan nodes, copied into each scan memory that lacks its latest version. */
import { PLAN_ARRAY, PLAN_AT, PLAN_BYTES, PLAN_LEAF, PLAN_OBJECT, type ScanRegions } from "@/lib/jsonl/json-scan";
import type { ObjectPlan } from "@/lib/sources/common/skim-plans";

/** The compiled plans of one skimming thread (see lib/jsonl/json-scan `ScanRegions.plans`). */
export class PlanImage {
  private readonly image = new Uint8Array(PLAN_BYTES);
  private readonly view = new DataView(this.image.buffer);
  private used = 0;
  private version = 0;
  private readonly nodes = new WeakMap<ObjectPlan, number>();
  /** The plan last asked for and its node (a line's plan is most often the previous line's). */
  private lastPlan: ObjectPlan | null = null;
  private lastNode = -1;

  /** Copies the image into `regions` unless they hold its latest version. */
  install(regions: ScanRegions): void {
    if (regions.installed !== this.version) {
      regions.plans.set(this.image.subarray(0, this.used));
      regions.installed = this.version;
    }
  }

  /** The address of `plan`'s compiled node (compiled on first use), or -1 when it cannot be walked by the scanner. */
  nodeOf(plan: ObjectPlan): number {
    if (plan === this.lastPlan) return this.lastNode;
    const known = this.nodes.get(plan);
    if (known !== undefined) {
      this.lastPlan = plan;
      this.lastNode = known;
      return known;
    }
    let node = -1;
    if (plan.lengths !== null) {
      const entries = plan.keys.flatMap((fields) => fields ?? []);
      const children = entries.map((f) => {
        if (typeof f.plan !== "object") return { kind: PLAN_LEAF, child: 0 };
        if ("keys" in f.plan) {
          const child = this.nodeOf(f.plan);
          return child < 0 ? { kind: PLAN_LEAF, child: 0 } : { kind: PLAN_OBJECT, child };
        }
        const items = f.plan.items;
        const child = typeof items === "object" && "keys" in items ? this.nodeOf(items) : 0;
        return child < 0 ? { kind: PLAN_LEAF, child: 0 } : { kind: PLAN_ARRAY, child };
      });
      const keyBytes = entries.reduce((n, f) => n + f.bytes.length, 0);
      const size = 8 + entries.length * 20 + ((keyBytes + 3) & ~3);
      const used = this.used;
      if (children.every((c) => c.child >= 0) && used + size <= PLAN_BYTES) {
        const view = this.view;
        node = PLAN_AT + used;
        view.setInt32(used, plan.lengths, true);
        view.setInt32(used + 4, entries.length, true);
        let key = used + 8 + entries.length * 20;
        entries.forEach((f, i) => {
          const at = used + 8 + i * 20;
          this.image.set(f.bytes, key);
          view.setInt32(at, f.bytes.length, true);
          view.setInt32(at + 4, PLAN_AT + key, true);
          view.setInt32(at + 8, children[i]!.kind, true);
          view.setInt32(at + 12, children[i]!.child, true);
          view.setInt32(at + 16, f.id, true);
          key += f.bytes.length;
        });
        this.used = used + size;
        this.version += 1;
      }
    }
    this.nodes.set(plan, node);
    return node;
  }
}
