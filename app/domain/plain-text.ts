import { z } from 'zod'
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter, type PlainTextOptions } from './control-characters'

/** `schema` refusing control characters with a message by the field (checked first, before any other rule). */
export function plainText(schema: z.ZodString = z.string(), options: PlainTextOptions = {}) {
  return schema.refine((text) => !hasControlCharacter(text, options), {
    message: CONTROL_CHARACTER_MESSAGE,
    abort: true,
  })
}
