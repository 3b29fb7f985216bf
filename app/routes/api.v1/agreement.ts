import { AGREEMENT } from '~/content/agreement.server'

/** The agreement text a client shows before calling set-agreement. */
export function loader() {
  return Response.json({ data: { version: AGREEMENT.version, sections: AGREEMENT.sections } })
}
