import { getEvidenceCardHandler } from "@/server/http/evidence";

export const dynamic = "force-dynamic";
export const GET = getEvidenceCardHandler;
