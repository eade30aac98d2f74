import "server-only";

import { HTTP_BODY_LIMIT_BYTES, readLimited } from "@/lib/security/request-limits";
import { CHUNK_BYTES } from "@/lib/team/push/protocol";
import { answerManifest, receiveBatch, receiveChunk } from "@/lib/team/receive/mirror";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";
import type { TeamActor } from "@/lib/team/tokens";
import { teamActorOf } from "@/server/http/team-actor";

/** `POST /api/team/push/manifest`: the machine's files; 200 `{wants}`, 400 `{status:"invalid", errors}` (nothing stored). */
export async function teamPushManifestHandler(request: Request): Promise<Response> {
  return pushManifestResponse(request, getCoreContext().workspaceRoot);
}

/** `PUT /api/team/push/file?root_id=&path=&offset=&mtime_ms=`: bytes of one file from `offset`; 200 `{have_bytes}`, 409 `{error, have_bytes}` when the server holds another size. */
export async function teamPushFileHandler(request: Request): Promise<Response> {
  return pushFileResponse(request, getCoreContext().workspaceRoot);
}

/** `POST /api/team/push/files`: a batch of small files (a header line, then their bytes); 200 `{results}`, one per file as a `PUT` would answer; 400 when the batch itself is malformed (nothing stored). */
export async function teamPushFilesHandler(request: Request): Promise<Response> {
  return pushFilesResponse(request, getCoreContext().workspaceRoot);
}

/** {@link teamPushManifestHandler} over the workspace `workspaceRoot` (the in-process test server passes its own). */
export async function pushManifestResponse(request: Request, workspaceRoot: string): Promise<Response> {
  try {
    const actor = pushActor(request);
    if (actor instanceof Response) return actor;
    const body = await readLimited(request, HTTP_BODY_LIMIT_BYTES);
    if (body === null) return invalid(413, [{ field: "body", message: `manifest over ${HTTP_BODY_LIMIT_BYTES} bytes`, hint: "send at most 5,000 files per manifest" }]);
    let input: unknown;
    try {
      input = JSON.parse(new TextDecoder().decode(body));
    } catch {
      return invalid(400, [{ field: "body", message: "manifest is not valid JSON", hint: "send {roots, files} as JSON" }]);
    }
    const result = await answerManifest(workspaceRoot, actor.machine, input);
    return result.status === "ok" ? Response.json(result.value) : invalid(400, result.errors);
  } catch (error) {
    return errorResponse(error);
  }
}

/** {@link teamPushFileHandler} over the workspace `workspaceRoot`. */
export async function pushFileResponse(request: Request, workspaceRoot: string): Promise<Response> {
  try {
    const actor = pushActor(request);
    if (actor instanceof Response) return actor;
    const query = new URL(request.url).searchParams;
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (declared > CHUNK_BYTES) return invalid(413, [{ field: "body", message: `chunk of ${declared} bytes is over ${CHUNK_BYTES}`, hint: `send at most ${CHUNK_BYTES} bytes per request` }]);
    const body = await readLimited(request, CHUNK_BYTES + 1);
    if (body === null) return invalid(413, [{ field: "body", message: `chunk over ${CHUNK_BYTES} bytes`, hint: `send at most ${CHUNK_BYTES} bytes per request` }]);
    const chunk = { root_id: query.get("root_id") ?? "", path: query.get("path") ?? "", offset: wholeNumber(query.get("offset")), mtime_ms: wholeNumber(query.get("mtime_ms")) };
    const result = await receiveChunk(workspaceRoot, actor.machine, chunk, body);
    if (result.status === "ok") return Response.json({ have_bytes: result.have_bytes });
    if (result.status === "conflict") {
      return Response.json({ error: { code: "conflict", message: `the server holds ${result.have_bytes} bytes of '${chunk.path}', not ${chunk.offset}`, hint: "send the bytes from have_bytes" }, have_bytes: result.have_bytes }, { status: 409 });
    }
    return invalid(400, result.errors);
  } catch (error) {
    return errorResponse(error);
  }
}

/** {@link teamPushFilesHandler} over the workspace `workspaceRoot`. */
export async function pushFilesResponse(request: Request, workspaceRoot: string): Promise<Response> {
  // A batch is read into a buffer lent for the request: every push sends hundreds of 8 MiB batches.
  const scratch = BATCH_BUFFERS.pop() ?? Buffer.allocUnsafeSlow(BATCH_BUFFER_BYTES);
  try {
    const actor = pushActor(request);
    if (actor instanceof Response) return actor;
    const body = await readLimited(request, HTTP_BODY_LIMIT_BYTES, scratch);
    if (body === null) return invalid(413, [{ field: "body", message: `batch over ${HTTP_BODY_LIMIT_BYTES} bytes`, hint: `send at most ${CHUNK_BYTES} bytes of files per batch` }]);
    const result = await receiveBatch(workspaceRoot, actor.machine, body);
    return result.status === "ok" ? Response.json({ results: result.results }) : invalid(400, result.errors);
  } catch (error) {
    return errorResponse(error);
  } finally {
    // Nothing holds the body once the batch is written (receiveBatch awaits every write).
    if (BATCH_BUFFERS.length < BATCH_BUFFERS_KEPT) BATCH_BUFFERS.push(scratch);
  }
}

/** A batch's bytes and its header line (at most 500 files' names): the buffers lent to batches, and how many are kept between them (one per lane of a push). */
const BATCH_BUFFER_BYTES = CHUNK_BYTES + (1 << 20);
const BATCH_BUFFERS_KEPT = 4;
const BATCH_BUFFERS: Buffer[] = [];

/** The request's actor when it may push (role push or admin), else the 401 or 403 response. */
function pushActor(request: Request): TeamActor | Response {
  const actor = teamActorOf(request);
  if (actor === null) return Response.json({ error: { code: "unauthorized", message: "a push needs a team server and a token", hint: "push to a server started with casefile serve --database URL, sending Authorization: Bearer TOKEN (casefile token create --role push)" } }, { status: 401 });
  if (actor.role === "read") return Response.json({ error: { code: "forbidden", message: `machine ${actor.machine}'s token may only read`, hint: "push with a token of role push or admin" } }, { status: 403 });
  return actor;
}

function invalid(status: number, errors: { field: string; message: string; hint: string }[]): Response {
  return Response.json({ status: "invalid", errors }, { status });
}

/** A query number, or NaN when absent or not a whole decimal number (refused by the receiver with its field). */
function wholeNumber(value: string | null): number {
  return value !== null && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
}
