/** Test process refreshing a workspace's catalog, for the catalog's cross-process test. */
import { closeCatalog, ensureProjects, refreshCatalog } from "@/lib/catalog/catalog";
import { createCoreContext } from "@/lib/context";

/*
 *   refresh ROOT   prints "ready", waits for a line on stdin, runs a whole refresh (as `casefile prepare` does), prints "done"
 *   lists ROOT     the same with the lists' read path (as the dashboard's home page does)
 */
const [mode, root = ""] = process.argv.slice(2);
const ctx = createCoreContext(root);

process.stdout.write("ready\n");
process.stdin.once("data", () => {
  process.stdin.destroy();
  void (mode === "refresh" ? refreshCatalog(ctx) : ensureProjects(ctx))
    .then(() => {
      closeCatalog(ctx);
      process.stdout.write("done\n");
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
});
