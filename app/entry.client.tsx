import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

// React Router's own entry, but for one setting: its state changes are not transitions. A press of
// a submit button or link then shows its pending state (spinner, aria-busy, the other buttons
// disabled) in the same task as the press, not when a transition's render gets its turn (up to a
// few hundred ms on a busy phone); tests/e2e/slow-network.spec.ts holds it to the press's own task.
// The one thing that suspends, /details' step 1 form (a lazy component), shows nothing for the moment
// its chunk takes after a navigation; no transition is needed to keep a page shown while data loads.
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter useTransitions={false} />
    </StrictMode>,
  )
})
