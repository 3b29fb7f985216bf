import { parseWithZod } from '@conform-to/zod/v4'
import { detailsWithFamilySchema } from './family'

/**
 * Step 1 of the profile wizard as Conform reads it: the action's check, and the browser's, which
 * /details loads after the page (Zod is most of its weight).
 */
export const parseDetailsForm = (formData: FormData) =>
  parseWithZod(formData, { schema: detailsWithFamilySchema(new Date()) })
