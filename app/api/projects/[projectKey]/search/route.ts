import { projectSearchHandler } from "@/server/http/forensics";

export const dynamic = "force-dynamic";
export const GET = projectSearchHandler;
