import { listAuditCallsHandler } from "@/server/http/audit";

export const dynamic = "force-dynamic";
export const GET = listAuditCallsHandler;
