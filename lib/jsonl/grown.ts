/** Former home of `grown`, now in lib/columns/typed-columns: kept while lib/sources/common/skim* (being split on another branch) still imports it here. */
export { grown } from "@/lib/columns/typed-columns";
