// Classic Zod's `schema.describe(text)` for the schemas on zod/mini (the guest pages' modules):
// a copy of the schema with its description in the global registry, which the OpenAPI document
// (@fastify/swagger through fastify-type-provider-zod) reads. zod/mini's own z.describe() is a
// check instead: it would add a no-op check to the schema's definition (and refuse `extend`).
import { z } from 'zod/mini';

export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  const described = schema.clone();
  z.globalRegistry.add(described, { description });
  return described;
}
