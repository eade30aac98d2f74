/** Input fields whose types and messages a contract defines. */
import * as z from "zod";

/**
 * A field whose type and messages a contract defines (seed 000/001 error models): the registry
 * accepts any value, advertises `jsonSchema` to MCP clients, and the tool's own validation
 * reports a badly typed or missing value with the contract's exact message.
 */
export const contractField = (jsonSchema: Record<string, unknown>) => z.unknown().optional().meta(jsonSchema);

/**
 * An input object of contract fields, advertised with `required` (so MCP clients see which
 * fields are mandatory) but not enforced by the registry: the tool's own checks report a
 * missing field with the contract's message.
 */
export const contractInput = <Shape extends Record<string, ReturnType<typeof contractField>>>(shape: Shape, required: (keyof Shape & string)[]) =>
  z.object(shape).meta({ required });
