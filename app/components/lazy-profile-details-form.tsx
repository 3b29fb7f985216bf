import { type ComponentProps, lazy, Suspense, useState } from 'react'
import type { ProfileDetailsForm } from './profile-details-form'

let loadedForm: typeof ProfileDetailsForm | undefined
const loadForm = () => import('./profile-details-form').then((module) => (loadedForm = module.ProfileDetailsForm))
const LoadingForm = lazy(async () => ({ default: await loadForm() }))

/** Marks the server's rendering of the form, for the browser to know it must load the form before hydrating. */
const SERVER_FORM_MARKER = 'data-profile-details-form'

// A page that came with the form waits for its chunk before hydrating. A form that suspended at
// hydration would be hydrated only once its chunk arrived, and the router's first update before that
// would replace it with the Suspense fallback (nothing), dropping what was typed in the meantime.
if (typeof document !== 'undefined' && document.querySelector(`[${SERVER_FORM_MARKER}]`)) await loadForm()

/**
 * Step 1 of /details with Conform and the family members' rows, in a chunk of its own that steps 2
 * and 3 do not preload (Lighthouse counts every script before the first paint). The server waits for
 * it (app/entry.server.tsx), so the form is in the HTML; after a client navigation to step 1 the page
 * shows nothing there for the moment its chunk takes.
 */
export function LazyProfileDetailsForm(props: ComponentProps<typeof ProfileDetailsForm>) {
  // Chosen once per mount: switching from the lazy component to the loaded one on a later render
  // would be another component type in the same place, and React would remount the form, dropping
  // what the customer had typed (a revalidation after a client navigation did exactly that).
  const [Form] = useState(() => loadedForm ?? LoadingForm)
  return (
    <div {...{ [SERVER_FORM_MARKER]: '' }}>
      <Suspense fallback={null}>
        <Form {...props} />
      </Suspense>
    </div>
  )
}
