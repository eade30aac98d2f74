/** Test process refreshing a workspace's catalog, for the catalog's cross-process test. */
import { closeCatalog } from "@/lib/catalog/catalog";
import { ensureProjects } from "@/lib/catalog/ensure";
import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";

/*
 *   refresh ROOT   prints "ready", waits for a line on stdin, runs a whole refresh and full-text fill (as the dashboard's watcher does), prints "done"
 *   lists ROOT     the same with the lists' read path (as the dashboard's home page does)
 *   fill ROOT      the same with a full-text fill alone (as a second dashboard or a CLI search does)
 */
const [mode, root = ""] = process.argv.slice(2);
const ctx = createCoreContext(root);

process.stdout.write("ready\n");
process.stdin.once("data", () => {
  process.stdin.destroy();
  const run = { refresh: () => refreshCatalog(ctx).then(() => fillFullText(ctx)), lists: () => ensureProjects(ctx), fill: () => fillFullText(ctx) }[mode as "refresh" | "lists" | "fill"];
  void run()
    .then(() => {
      closeCatalog(ctx);
      process.stdout.write("done\n");
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
});
