/** Former home of `grown`, now in lib/columns/typed-columns: re-exported for lib/sources/common/skim-plans.ts until its import moves there. */
export { grown } from "@/lib/columns/typed-columns";
