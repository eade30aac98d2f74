import { getSynthesisStateHandler } from "@/server/http/synthesis";

export const dynamic = "force-dynamic";
export const GET = getSynthesisStateHandler;
