import { getOverviewHandler } from "@/server/http/overview";

export const dynamic = "force-dynamic";
export const GET = getOverviewHandler;
