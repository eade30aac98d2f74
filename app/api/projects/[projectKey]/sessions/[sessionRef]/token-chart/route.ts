import { tokenChartHandler } from "@/server/http/analysis";

export const dynamic = "force-dynamic";
export const GET = tokenChartHandler;
