import { getChainAuthorsHandler } from "@/server/http/audit";

export const dynamic = "force-dynamic";
export const GET = getChainAuthorsHandler;
